/*
 * Reduce: the seed's chain 0 -> 1 -> ... -> P-1, pipelined in segments. The buffer is cut
 * into segments of whole items, len = segment_bytes / type size (< count for long messages,
 * as the standard's advice suggests); rank r folds segment s of its own data onto the partial
 * from r-1 and passes it on while r-1 already works on segment s+1. P-1 streams the finished
 * segments to the root.
 *
 * Origin:   the MPI standard's sequential reduce with its "chunks of size len < count"
 *           advice. Open MPI coll/base ompi_coll_base_reduce_intra_pipeline (a chain of
 *           fan-out 1 driven by ompi_coll_base_reduce_generic) pipelines the same way, but
 *           its chain starts at the root; this one runs 0 -> P-1 as the seed does, which is
 *           what keeps rank order.
 * Requires: nothing (order-preserving: segment by segment, the same fold as the chain).
 * Params:   segment_bytes (> 0; without params the whole message is one segment).
 * Cost:     with S segments of m = n/S bytes, (P - 1 + S - 1)(α + mβ + mγ) + (α + mβ) when
 *           root != P-1 (the last segment's trip to the root).
 * Steps (P = 3, S = 3, time flows right; a|b|c are segments):
 *
 *     r0:  send a   send b   send c
 *     r1:           fold a   fold b   fold c
 *     r2:                    fold a   fold b   fold c  -> root, segment by segment
 *
 * Each rank keeps one receive posted ahead (two receive buffers) and one send in flight (two
 * accumulation buffers). The root posts its receives of the result from P-1 before taking part
 * in the chain, so a rendezvous-sized stream never waits on it.
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_CHAIN = 1, TAG_RESULT = 2 };

/* The chain as a tree of fan-out 1: rank - 1 is the (low) child, rank + 1 the parent. */
static void
chain(int rank, int size, int *parent, int *low, int *high)
{
    *parent = rank < size - 1 ? rank + 1 : -1;
    *low = rank > 0 ? rank - 1 : -1;
    *high = -1;
}

int
coll_reduce_pipeline_chain(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    return coll_tree_reduce_segmented(sendbuf, recvbuf, count, datatype, op, root, comm, params,
                                      chain, TAG_CHAIN, TAG_RESULT);
}
