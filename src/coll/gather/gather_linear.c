/*
 * Gather: linear (the root receives every other rank's block, all at once).
 *
 * Origin:   Open MPI's basic linear gather (ompi_coll_base_gather_intra_basic_linear, blocking
 *           receives in rank order); MPICH's linear gather posts them all at once, as this one
 *           and the registry's linear gatherv do.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf (sendcount and sendtype are
 *           then ignored).
 * Cost:     (p-1)α + ((p-1)/p)nβ at the root (n the bytes of all blocks), the messages sharing
 *           the root's link.
 * Steps:    root r posts a receive of recvcount items at recvbuf + i·recvcount·extent from every
 *           rank i != r, copies its own block locally, and waits; rank i sends its sendcount
 *           items to r. Blocks of zero bytes are not sent (type matching makes every block the
 *           same number of bytes, so all ranks agree).
 *
 * recvbuf, recvcount and recvtype are read at the root only.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_GATHER = 0 };

int
coll_gather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                   const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks blocks = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_linear_gather_scatter(1, &blocks, &own, root, TAG_GATHER, comm);
}
