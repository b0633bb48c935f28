/*
 * Alltoall: two-dimensional mesh (whole buffers along the rows, then packed blocks along the
 * columns).
 *
 * Origin:   SMPI's alltoall "2dmesh" (src/smpi/colls/alltoall/alltoall-2dmesh.cpp, Ahmad
 *           Faraj): the ranks form X rows of Y (X <= Y, X the least divisor of p at or above
 *           ⌊√p⌋, the pair swapped so that X <= Y); every rank sends its whole send buffer to
 *           the other ranks of its row, then hands each rank of its column the row's blocks for
 *           it in one message. SMPI refuses a p with no such divisor (primes from 5 on);
 *           collsim takes a single row (X = 1, Y = p) there, where the column step is empty.
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (Y-1)(α + pbβ) + (X-1)(α + Ybβ), b the bytes of one block: few messages, but the
 *           row step moves whole buffers (SMPI's choice: Y-1 times p blocks per rank).
 * Steps (p = 6, X = 2 rows {0 1 2} {3 4 5}): 1. rank 4 receives the send buffers of 3 and 5
 *           (irecvs posted first, then blocking sends of its own buffer to 3 and 5); it now
 *           holds the blocks of 3, 4, 5 for every rank and keeps those for itself. 2. rank 4
 *           sends to rank 1 (its column) the blocks of 3, 4, 5 for 1, packed, and receives from
 *           1 the blocks of 0, 1, 2 for 4 straight into recvbuf. A call whose blocks have no
 *           bytes sends nothing.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_2DMESH = 0 };

/* X rows of Y ranks as SMPI's alltoall_check_is_2dmesh, or 1 × p when it finds none. */
static void
mesh_2d(int p, int *rows, int *cols)
{
    int x = 1;

    while ((long long)(x + 1) * (x + 1) <= p) /* ⌊√p⌋ */
        x++;
    for (; x <= p / 2; x++) {
        if (p % x == 0) {
            *rows = x < p / x ? x : p / x;
            *cols = p / *rows;
            return;
        }
    }
    *rows = 1;
    *cols = p;
}

int
coll_alltoall_2dmesh(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    int rc, rank, size, tsize, X, Y, row_base, col, whole, n, wrc;
    void *tmp_mem = NULL, *pack_mem = NULL, *tmp, *pack;
    MPI_Request *reqs = NULL;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size == 1 || recvcount == 0 || tsize == 0)
        return coll_copy_typed(coll_citem(sendbuf, (MPI_Aint)rank * sendcount, sendtype), sendcount,
                               sendtype, coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype),
                               recvcount, recvtype);
    mesh_2d(size, &X, &Y);
    /* the largest message is a whole buffer; the Y of them held at once are no message */
    if ((long long)size * recvcount > INT_MAX || (long long)size * sendcount > INT_MAX)
        return MPI_ERR_COUNT;
    row_base = rank / Y * Y;
    col = rank % Y;
    whole = size * recvcount; /* items of a whole buffer: slot i of tmp holds row rank i's */

    tmp = coll_tmp_alloc((MPI_Aint)Y * whole, recvtype, &tmp_mem);
    pack = coll_tmp_alloc(Y * recvcount, recvtype, &pack_mem);
    reqs = malloc(sizeof *reqs * (size_t)Y); /* X <= Y */
    if (tmp == NULL || pack == NULL || reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = coll_copy_typed(sendbuf, size * sendcount, sendtype,
                         coll_item(tmp, (MPI_Aint)col * whole, recvtype), whole, recvtype);

    /* 1. the row: every rank's whole send buffer to every other rank of the row */
    n = 0;
    for (int i = 0; i < Y && rc == MPI_SUCCESS; i++) {
        if (row_base + i != rank)
            rc = MPI_Irecv(coll_item(tmp, (MPI_Aint)i * whole, recvtype), whole, recvtype,
                           row_base + i, TAG_ALLTOALL_2DMESH, comm, &reqs[n++]);
    }
    for (int i = 0; i < Y && rc == MPI_SUCCESS; i++) {
        if (row_base + i != rank)
            rc = MPI_Send(sendbuf, size * sendcount, sendtype, row_base + i, TAG_ALLTOALL_2DMESH,
                          comm);
    }
    wrc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE); /* also after an error: no request left */
    if (rc == MPI_SUCCESS)
        rc = wrc;
    for (int i = 0; i < Y && rc == MPI_SUCCESS; i++)
        rc = coll_copy(coll_item(tmp, (MPI_Aint)i * whole + (MPI_Aint)rank * recvcount, recvtype),
                       coll_item(recvbuf, (MPI_Aint)(row_base + i) * recvcount, recvtype),
                       recvcount, recvtype);

    /* 2. the column: each rank of it gets the row's Y blocks for it, packed */
    n = 0;
    for (int i = 0; i < X && rc == MPI_SUCCESS; i++) {
        int src = i * Y + col;
        if (src != rank)
            rc = MPI_Irecv(coll_item(recvbuf, (MPI_Aint)(src / Y * Y) * recvcount, recvtype),
                           Y * recvcount, recvtype, src, TAG_ALLTOALL_2DMESH, comm, &reqs[n++]);
    }
    for (int i = 0; i < X && rc == MPI_SUCCESS; i++) {
        int dst = i * Y + col;
        if (dst == rank)
            continue;
        for (int j = 0; j < Y && rc == MPI_SUCCESS; j++)
            rc =
                coll_copy(coll_item(tmp, (MPI_Aint)j * whole + (MPI_Aint)dst * recvcount, recvtype),
                          coll_item(pack, (MPI_Aint)j * recvcount, recvtype), recvcount, recvtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(pack, Y * recvcount, recvtype, dst, TAG_ALLTOALL_2DMESH, comm);
    }
    wrc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = wrc;
out_free:
    free(reqs);
    free(pack_mem);
    free(tmp_mem);
    return rc;
}
