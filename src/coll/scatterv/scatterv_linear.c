/*
 * Scatterv: linear (the root sends every other rank its block, all at once).
 *
 * Origin:   MPICH's MPIR_Scatterv_allcomm_linear (non-blocking sends, then one wait); Open
 *           MPI's basic linear scatterv is the same with blocking sends.
 * Requires: nothing (no op). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the root leaves
 *           the root's block where it is in sendbuf.
 * Cost:     (p-1)α + n((p-1)/p)β at the root (n the bytes of all blocks), the sends sharing
 *           the root's link.
 * Steps:    root r posts a send of sendcounts[i] items at displs[i] to every rank i != r, copies
 *           its own block locally, and waits; rank i receives recvcount items from r. A block of
 *           zero bytes is not sent (and not received), on both sides by the same rule.
 *
 * sendbuf, sendcounts, displs and sendtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_SCATTERV = 0 };

int
coll_scatterv_linear(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, nreq = 0, tsize;
    MPI_Request *reqs;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;

    if (rank != root) {
        rc = MPI_Type_size(recvtype, &tsize);
        if (rc != MPI_SUCCESS || recvcount == 0 || tsize == 0)
            return rc;
        return MPI_Recv(recvbuf, recvcount, recvtype, root, TAG_SCATTERV, comm, MPI_STATUS_IGNORE);
    }

    rc = MPI_Type_size(sendtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        if (i == root || sendcounts[i] == 0 || tsize == 0)
            continue;
        rc = MPI_Isend(coll_citem(sendbuf, displs[i], sendtype), sendcounts[i], sendtype, i,
                       TAG_SCATTERV, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    if (recvbuf != MPI_IN_PLACE)
        rc = coll_copy_typed(coll_citem(sendbuf, displs[root], sendtype), sendcounts[root],
                             sendtype, recvbuf, recvcount, recvtype);
out_wait:
    /* Posted sends are always completed, even after an error, so that no request leaks. */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}
