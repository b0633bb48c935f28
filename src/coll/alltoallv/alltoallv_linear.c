/*
 * Alltoallv: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's ompi_coll_base_alltoallv_intra_basic_linear; MPICH's
 *           MPIR_Alltoallv_intra_scattered is the same with the requests posted in batches.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ) for equal blocks of b bytes; on a real network the
 *           transfers overlap and share the rank's links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, … r+p-1 and sends
 *           to r-1, … r-p+1 (mod p), non-blocking, then waits for all of them. A block of no
 *           bytes is neither sent nor received (both ends know its size alike).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALLV_LINEAR = 0 };

int
coll_alltoallv_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    int rc, rank, size, ssize, rsize, nreq = 0;
    MPI_Request *reqs;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(sendtype, &ssize);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(recvtype, &rsize);
    if (rc != MPI_SUCCESS)
        return rc;

    rc = coll_copy_typed(coll_citem(sendbuf, sdispls[rank], sendtype), sendcounts[rank], sendtype,
                         coll_item(recvbuf, rdispls[rank], recvtype), recvcounts[rank], recvtype);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;

    reqs = malloc(sizeof *reqs * 2 * (size_t)(size - 1));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 1; k < size; k++) {
        int src = (rank + k) % size;
        if (recvcounts[src] == 0 || rsize == 0)
            continue;
        rc = MPI_Irecv(coll_item(recvbuf, rdispls[src], recvtype), recvcounts[src], recvtype, src,
                       TAG_ALLTOALLV_LINEAR, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    for (int k = 1; k < size; k++) {
        int dst = (rank - k + size) % size;
        if (sendcounts[dst] == 0 || ssize == 0)
            continue;
        rc = MPI_Isend(coll_citem(sendbuf, sdispls[dst], sendtype), sendcounts[dst], sendtype, dst,
                       TAG_ALLTOALLV_LINEAR, comm, &reqs[nreq]);
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
