/*
 * Alltoall: three-dimensional mesh (whole buffers along the rows, the row's buffers along the
 * columns, then packed blocks between the planes).
 *
 * Origin:   SMPI's alltoall "3dmesh" (src/smpi/colls/alltoall/alltoall-3dmesh.cpp, Ahmad
 *           Faraj): the ranks form Z planes of x × x (x the least integer from ⌊∛p⌋ up to p/3
 *           with x² dividing p); an allgather of whole send buffers along each row, then along
 *           each column, leaves every rank with the send buffers of its whole plane; each rank
 *           then sends every other plane's rank at its offset the plane's blocks for it, packed.
 *           SMPI refuses a p with no such x (2, 13, …); collsim takes x = 1 there (Z = p
 *           planes of one rank: only the last step, one block to each rank).
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (x-1)(α + pbβ) + (x-1)(α + xpbβ) + (Z-1)(α + x²bβ), b the bytes of one block.
 * Steps (p = 8, x = 2, Z = 2; planes {0 1 2 3} {4 5 6 7}, rows {0 1} {2 3} …, columns
 *           {0 2} {1 3} …): 1. ranks 0 and 1 swap their whole send buffers; 2. rank 0 sends the
 *           buffers of 0 and 1 to rank 2 and gets those of 2 and 3 from it: it now holds its
 *           plane's four buffers and keeps the blocks for itself; 3. rank 0 sends rank 4 the
 *           blocks of 0, 1, 2, 3 for 4, packed, and receives from 4 the blocks of 4 … 7 for 0.
 *           In every step the receives are posted first, then blocking sends, then one
 *           MPI_Waitall. A call whose blocks have no bytes sends nothing.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_3DMESH = 0 };

/* x as SMPI's alltoall_check_is_3dmesh, or 1 when it finds none. */
static int
mesh_3d(int p)
{
    int x = 1;

    while ((long long)(x + 1) * (x + 1) * (x + 1) <= p) /* ⌊∛p⌋ */
        x++;
    for (; x <= p / 3; x++)
        if (p % (x * x) == 0)
            return x;
    return 1;
}

/* One mesh step: a receive into rbufs[i] from each peers[i] posted, then a blocking send of
 * sbufs[i] to each in the same order, then one wait. */
static int
mesh_step(int n, const int *peers, void *const *rbufs, int rcount, MPI_Datatype rtype,
          const void *const *sbufs, int scount, MPI_Datatype stype, MPI_Request *reqs,
          MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0, wrc;

    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(rbufs[i], rcount, rtype, peers[i], TAG_ALLTOALL_3DMESH, comm, &reqs[nreq++]);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        rc = MPI_Send(sbufs[i], scount, stype, peers[i], TAG_ALLTOALL_3DMESH, comm);
    wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE); /* also after an error */
    return rc == MPI_SUCCESS ? wrc : rc;
}

int
coll_alltoall_3dmesh(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    int rc, rank, size, tsize, x, Z, plane, z_base, row_base, whole, n;
    int *peers = NULL;
    void *tmp_mem = NULL, *pack_mem = NULL, *tmp, *pack, **rbufs = NULL;
    const void **sbufs = NULL;
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
    x = mesh_3d(size);
    plane = x * x;
    Z = size / plane;
    /* the largest message is a row's x whole buffers; the plane's x * x of them held at once
     * are no message */
    if ((long long)size * recvcount * x > INT_MAX || (long long)size * sendcount > INT_MAX)
        return MPI_ERR_COUNT;
    z_base = rank / plane * plane;
    row_base = rank / x * x;
    whole = size * recvcount; /* slot i of tmp: the send buffer of plane rank z_base + i */

    tmp = coll_tmp_alloc((MPI_Aint)plane * whole, recvtype, &tmp_mem);
    pack = coll_tmp_alloc(plane * recvcount, recvtype, &pack_mem);
    /* zeroed: GCC's -Wmaybe-uninitialized (at the sanitizer build's -O1) cannot see that a step
     * reads only the n entries just written */
    peers = calloc((size_t)size, sizeof *peers);
    rbufs = calloc((size_t)size, sizeof *rbufs);
    sbufs = calloc((size_t)size, sizeof *sbufs);
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (tmp == NULL || pack == NULL || peers == NULL || rbufs == NULL || sbufs == NULL ||
        reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = coll_copy_typed(sendbuf, size * sendcount, sendtype,
                         coll_item(tmp, (MPI_Aint)(rank - z_base) * whole, recvtype), whole,
                         recvtype);

    /* 1. the row: whole send buffers */
    n = 0;
    for (int i = 0; i < x; i++) {
        if (row_base + i == rank)
            continue;
        peers[n] = row_base + i;
        rbufs[n] = coll_item(tmp, (MPI_Aint)(row_base + i - z_base) * whole, recvtype);
        sbufs[n++] = sendbuf;
    }
    if (rc == MPI_SUCCESS)
        rc = mesh_step(n, peers, rbufs, whole, recvtype, sbufs, size * sendcount, sendtype, reqs,
                       comm);

    /* 2. the column: the x buffers of each row */
    n = 0;
    for (int i = 0; i < x; i++) {
        int peer = z_base + i * x + rank % x;
        if (peer == rank)
            continue;
        peers[n] = peer;
        rbufs[n] = coll_item(tmp, (MPI_Aint)(peer / x * x - z_base) * whole, recvtype);
        sbufs[n++] = coll_item(tmp, (MPI_Aint)(row_base - z_base) * whole, recvtype);
    }
    if (rc == MPI_SUCCESS)
        rc =
            mesh_step(n, peers, rbufs, x * whole, recvtype, sbufs, x * whole, recvtype, reqs, comm);
    for (int i = 0; i < plane && rc == MPI_SUCCESS; i++)
        rc = coll_copy(coll_item(tmp, (MPI_Aint)i * whole + (MPI_Aint)rank * recvcount, recvtype),
                       coll_item(recvbuf, (MPI_Aint)(z_base + i) * recvcount, recvtype), recvcount,
                       recvtype);

    /* 3. between the planes: the plane's blocks for each rank at this rank's offset, packed;
     * one pack buffer, so one blocking send at a time */
    for (int i = 1; i < Z && rc == MPI_SUCCESS; i++) {
        int src = (rank + i * plane) % size;
        rc = MPI_Irecv(coll_item(recvbuf, (MPI_Aint)(src / plane * plane) * recvcount, recvtype),
                       plane * recvcount, recvtype, src, TAG_ALLTOALL_3DMESH, comm, &reqs[i - 1]);
        if (rc != MPI_SUCCESS)
            Z = i; /* wait for the ones posted */
    }
    for (int i = 1; i < Z && rc == MPI_SUCCESS; i++) {
        int dst = (rank + i * plane) % size;
        for (int j = 0; j < plane && rc == MPI_SUCCESS; j++)
            rc =
                coll_copy(coll_item(tmp, (MPI_Aint)j * whole + (MPI_Aint)dst * recvcount, recvtype),
                          coll_item(pack, (MPI_Aint)j * recvcount, recvtype), recvcount, recvtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(pack, plane * recvcount, recvtype, dst, TAG_ALLTOALL_3DMESH, comm);
    }
    if (Z > 1) {
        int wrc = MPI_Waitall(Z - 1, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
out_free:
    free(reqs);
    free((void *)sbufs);
    free(rbufs);
    free(peers);
    free(pack_mem);
    free(tmp_mem);
    return rc;
}
