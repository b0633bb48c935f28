/*
 * Alltoall: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's ompi_coll_base_alltoall_intra_basic_linear; MPICH's
 *           MPIR_Alltoall_intra_scattered is the same with the requests posted in batches.
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ), b the bytes of one block; on a real network the
 *           p-1 transfers in and out of a rank overlap and share its links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, r+2, … r+p-1 and
 *           sends to r-1, r-2, … r-p+1 (mod p), non-blocking, then waits for all of them. A
 *           call whose blocks have no bytes sends nothing.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_LINEAR = 0 };

int
coll_alltoall_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    int rc, rank, size, tsize, nreq = 0;
    MPI_Request *reqs;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;

    rc = coll_copy_typed(coll_citem(sendbuf, (MPI_Aint)rank * sendcount, sendtype), sendcount,
                         sendtype, coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype),
                         recvcount, recvtype);
    if (rc != MPI_SUCCESS || size == 1 || recvcount == 0 || tsize == 0)
        return rc;

    reqs = malloc(sizeof *reqs * 2 * (size_t)(size - 1));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 1; k < size; k++) {
        int src = (rank + k) % size;
        rc = MPI_Irecv(coll_item(recvbuf, (MPI_Aint)src * recvcount, recvtype), recvcount, recvtype,
                       src, TAG_ALLTOALL_LINEAR, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    for (int k = 1; k < size; k++) {
        int dst = (rank - k + size) % size;
        rc = MPI_Isend(coll_citem(sendbuf, (MPI_Aint)dst * sendcount, sendtype), sendcount,
                       sendtype, dst, TAG_ALLTOALL_LINEAR, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
out_wait:
    /* Posted requests are always completed, even after an error, so that none leaks. */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}
