/*
 * Gather: binomial tree rooted at the root.
 *
 * Origin:   MPICH's MPIR_Gather_intra_binomial (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           ompi_coll_base_gather_intra_binomial has the same shape.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ (n the bytes of all blocks).
 * Steps:    relative ranks rel = (rank - root) mod p. A rank receives from rel + 1, rel + 2,
 *           rel + 4 … (below its lowest set bit, and below p) the blocks of their subtrees, in
 *           that order, then sends the blocks of its whole subtree [rel, rel + lowbit(rel)) to
 *           rel - lowbit(rel). For p = 8 (relative ranks):
 *
 *     step 1:  1 -> 0  3 -> 2  5 -> 4  7 -> 6     (one block each)
 *     step 2:  2 -> 0  6 -> 4                     (two blocks)
 *     step 3:  4 -> 0                             (four blocks)
 *
 * Buffers: recvtype is significant only at the root, so a rank in the middle of the tree
 * collects its subtree's blocks packed (MPI_Pack of its own block, then the children's
 * messages received as MPI_PACKED) and forwards them as MPI_PACKED; the standard lets
 * MPI_PACKED match any type signature. Every block has the same byte count by the type
 * matching rule (sendcount·size(sendtype) = recvcount·size(recvtype)), so every rank knows
 * every message's size. The root receives straight into recvbuf when a subtree's ranks are
 * consecutive there, and through a packed buffer when they wrap around rank p-1.
 *
 * recvbuf, recvcount and recvtype are read at the root only; leaves need no buffer.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_GATHER = 0 };

int
coll_gather_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                     const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks blocks = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_binomial_gather_scatter(1, &blocks, &own, root, TAG_GATHER, comm);
}
