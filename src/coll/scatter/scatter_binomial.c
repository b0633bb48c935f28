/*
 * Scatter: binomial tree rooted at the root.
 *
 * Origin:   MPICH's MPIR_Scatter_intra_binomial (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           ompi_coll_base_scatter_intra_binomial has the same shape.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves its block where it is in sendbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ (n the bytes of all blocks).
 * Steps:    relative ranks rel = (rank - root) mod p. A rank receives from rel - lowbit(rel)
 *           the blocks of its subtree [rel, rel + lowbit(rel)), then hands each child rel + m
 *           (m = lowbit/2 … 1, farthest first) the blocks [rel + m, rel + 2m). For p = 8
 *           (relative ranks):
 *
 *     step 1:  0 -> 4                             (four blocks)
 *     step 2:  0 -> 2  4 -> 6                     (two blocks)
 *     step 3:  0 -> 1  2 -> 3  4 -> 5  6 -> 7     (one block each)
 *
 * Buffers: recvtype is all a non-root rank knows, so a rank in the middle of the tree receives
 * its subtree's blocks as MPI_PACKED (which matches any type signature), forwards slices of
 * them as MPI_PACKED and unpacks its own. Every block has the same byte count by the type
 * matching rule, so every rank knows every message's size. The root sends straight from
 * sendbuf when a subtree's ranks are consecutive there, and packs the two pieces when they
 * wrap around rank p-1.
 *
 * sendbuf, sendcount and sendtype are read at the root only; leaves need no buffer.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_SCATTER = 0 };

int
coll_scatter_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks blocks = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks own = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_binomial_gather_scatter(0, &blocks, &own, root, TAG_SCATTER, comm);
}
