/*
 * Reduce: in-order binary tree over ranks 0..P-1, pipelined in segments; the top of the tree
 * (P-1) streams the finished segments to the root.
 *
 * The tree is the one of in_order_binary: the subtree of a rank range [lo, hi] is rooted at
 * hi, with the tops of its low half [lo, lo+L-1] (L = (hi-lo+1)/2) and high half [lo+L, hi-1]
 * as children; a node computes low ∘ high ∘ own. Here every message is cut into segments of
 * whole items (len = segment_bytes / type size), so that a node folds segment s while its
 * children already send segment s+1 and its parent folds segment s-1.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_intra_in_order_binary, which runs
 *           ompi_coll_base_reduce_generic with a segment size over the in-order binary tree.
 * Requires: nothing (order-preserving: segment by segment, the same fold as in_order_binary).
 * Params:   segment_bytes (> 0; without params the whole message is one segment).
 * Cost:     with d = ⌊lg P⌋ levels and S segments of m = n/S bytes, about
 *           (d + S - 1)(α + 2mβ + 2mγ), plus (α + mβ) when root != P-1.
 * Steps (P = 7, segments a, b, c; a node folds low ∘ high ∘ own per segment):
 *
 *     t1: 0,1 -> 2 (a)   3,4 -> 5 (a)
 *     t2: 0,1 -> 2 (b)   3,4 -> 5 (b)   2,5 -> 6 (a)
 *     t3: 0,1 -> 2 (c)   3,4 -> 5 (c)   2,5 -> 6 (b)   6 -> root (a)
 *
 * Each rank keeps one receive per child posted ahead (two buffers per child) and one send in
 * flight (two accumulation buffers). The root posts its receives of the result from P-1
 * before taking part in the tree, so a rendezvous-sized stream never waits on it.
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_TREE = 1, TAG_RESULT = 2 };

int
coll_reduce_pipeline_binary(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    return coll_tree_reduce_segmented(sendbuf, recvbuf, count, datatype, op, root, comm, params,
                                      coll_tree_in_order_binary, TAG_TREE, TAG_RESULT);
}
