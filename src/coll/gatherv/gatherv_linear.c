/*
 * Gatherv: linear (the root receives every other rank's block, all at once).
 *
 * Origin:   MPICH's MPIR_Gatherv_allcomm_linear (non-blocking receives, then one wait); Open
 *           MPI's basic linear gatherv is the same with blocking receives in rank order.
 * Requires: nothing (no op). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the root means
 *           its block is already in place in recvbuf.
 * Cost:     (p-1)α + n((p-1)/p)β at the root (n the bytes of all blocks), the messages
 *           sharing the root's link.
 * Steps:    root r posts a receive of recvcounts[i] items at displs[i] from every rank i != r,
 *           copies its own block locally, and waits; rank i sends sendcount items to r. A block
 *           of zero bytes is not sent (and not received), on both sides by the same rule.
 *
 * recvbuf, recvcounts, displs and recvtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_GATHERV = 0 };

int
coll_gatherv_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, const struct coll_params *params)
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
        rc = MPI_Type_size(sendtype, &tsize);
        if (rc != MPI_SUCCESS || sendcount == 0 || tsize == 0)
            return rc;
        return MPI_Send(sendbuf, sendcount, sendtype, root, TAG_GATHERV, comm);
    }

    rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        if (i == root || recvcounts[i] == 0 || tsize == 0)
            continue;
        rc = MPI_Irecv(coll_item(recvbuf, displs[i], recvtype), recvcounts[i], recvtype, i,
                       TAG_GATHERV, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    if (sendbuf != MPI_IN_PLACE)
        rc = coll_copy_typed(sendbuf, sendcount, sendtype,
                             coll_item(recvbuf, displs[root], recvtype), recvcounts[root],
                             recvtype);
out_wait:
    /* Posted receives are always completed, even after an error, so that no request leaks. */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}
