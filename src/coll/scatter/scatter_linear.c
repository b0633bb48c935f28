/*
 * Scatter: linear (the root sends every other rank its block, all at once).
 *
 * Origin:   Open MPI's basic linear scatter (ompi_coll_base_scatter_intra_basic_linear,
 *           blocking sends in rank order); MPICH's linear scatter posts them all at once, as
 *           this one and the registry's linear scatterv do.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves its block where it is in sendbuf (recvcount and recvtype are then
 *           ignored).
 * Cost:     (p-1)α + ((p-1)/p)nβ at the root (n the bytes of all blocks), the sends sharing
 *           the root's link.
 * Steps:    root r posts a send of sendcount items at sendbuf + i·sendcount·extent to every
 *           rank i != r, copies its own block locally, and waits; rank i receives recvcount
 *           items from r. Blocks of zero bytes are not sent (type matching makes every block
 *           the same number of bytes, so all ranks agree).
 *
 * sendbuf, sendcount and sendtype are read at the root only.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_SCATTER = 0 };

int
coll_scatter_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const struct coll_params *params)
{
    struct coll_blocks blocks = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks own = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_linear_gather_scatter(0, &blocks, &own, root, TAG_SCATTER, comm);
}
