/*
 * Alltoallw: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's mca_coll_basic_alltoallw_intra (coll/basic) and
 *           MPICH's MPIR_Alltoallw_intra_scattered (which posts in batches).
 * Requires: nothing (any number of ranks, any counts including zeros, any datatypes per peer,
 *           any byte displacements). MPI_IN_PLACE is resolved by the dispatcher (a copy of
 *           recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ) for equal blocks of b bytes; on a real network the
 *           transfers overlap and share the rank's links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, … r+p-1 and sends
 *           to r-1, … r-p+1 (mod p), non-blocking, each with the peer's count, datatype and
 *           byte displacement, then waits for all of them. A block of no bytes is neither
 *           sent nor received (both ends know its size alike).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALLW_LINEAR = 0 };

int
coll_alltoallw_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                      const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      const struct coll_params *params)
{
    const char *sbase = sendbuf;
    char *rbase = recvbuf;
    int rc, rank, size, tsize, nreq = 0;
    MPI_Request *reqs;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;

    rc = coll_copy_typed(sbase + sdispls[rank], sendcounts[rank], sendtypes[rank],
                         rbase + rdispls[rank], recvcounts[rank], recvtypes[rank]);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;

    reqs = malloc(sizeof *reqs * 2 * (size_t)(size - 1));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 1; k < size; k++) {
        int src = (rank + k) % size;
        if (recvcounts[src] == 0)
            continue;
        rc = MPI_Type_size(recvtypes[src], &tsize);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        if (tsize == 0)
            continue;
        rc = MPI_Irecv(rbase + rdispls[src], recvcounts[src], recvtypes[src], src,
                       TAG_ALLTOALLW_LINEAR, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    for (int k = 1; k < size; k++) {
        int dst = (rank - k + size) % size;
        if (sendcounts[dst] == 0)
            continue;
        rc = MPI_Type_size(sendtypes[dst], &tsize);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        if (tsize == 0)
            continue;
        rc = MPI_Isend(sbase + sdispls[dst], sendcounts[dst], sendtypes[dst], dst,
                       TAG_ALLTOALLW_LINEAR, comm, &reqs[nreq]);
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
