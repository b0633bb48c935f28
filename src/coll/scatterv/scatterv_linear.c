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
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_SCATTERV = 0 };

int
coll_scatterv_linear(const void *sendbuf, const int sendcounts[], const int displs[],
                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                     int root, MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks blocks = coll_blocks_v(sendbuf, sendcounts, displs, sendtype);
    struct coll_blocks own = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_linear_gather_scatter(0, &blocks, &own, root, TAG_SCATTERV, comm);
}
