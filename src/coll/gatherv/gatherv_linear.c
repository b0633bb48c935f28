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
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_GATHERV = 0 };

int
coll_gatherv_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                    MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks blocks = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_linear_gather_scatter(1, &blocks, &own, root, TAG_GATHERV, comm);
}
