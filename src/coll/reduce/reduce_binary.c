/*
 * Reduce: binary tree rooted at the root, pipelined in segments (Open MPI's "binary").
 *
 * The tree is Open MPI's ompi_coll_base_topo_build_tree with fan-out 2 on ranks shifted by
 * the root (s = (rank - root) mod P): level l holds shifted ranks 2^l - 1 … 2^(l+1) - 2, and
 * node s of level l has the children s + 2^l and s + 2·2^l (those below P). Each node folds its
 * own segment with its children's, first child first, each received segment on the left
 * (acc = child ∘ acc), and sends the segment to its parent while its children already send the
 * next one; the root folds straight into recvbuf.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_intra_binary (a binary tree driven by
 *           ompi_coll_base_reduce_generic with a segment size); the tuned component chooses
 *           it for commutative ops only.
 * Requires: commutative op (a child's subtree is not the rank range just above its parent's:
 *           with the root at 0 node 1's children are 3 and 5).
 * Params:   segment_bytes (> 0; without params the whole message is one segment).
 * Cost:     with d = ⌊lg P⌋ levels and S segments of m = n/S bytes, about
 *           (d + S - 1)·2(α + mβ + mγ).
 * Steps (P = 7, root 0, shifted ranks; one segment):
 *
 *     level 2:  3 -> 1, 5 -> 1, 4 -> 2, 6 -> 2     (1 = (x1 ∘ ...) with 3 then 5 on the left)
 *     level 1:  1 -> 0, 2 -> 0
 *     root 0:   ((x2-subtree) ∘ ((x1-subtree) ∘ x0))
 *
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_tree.h"

enum { TAG_TREE = 1, FANOUT = 2 };

int
coll_reduce_binary(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, shifted, children[FANOUT], nchildren = 0, parent = -1;
    int rc = coll_tree_ranks(comm, root, &rank, &size, &shifted);
    if (rc != MPI_SUCCESS)
        return rc;

    /* level of `shifted`: delta = 2^level, limit = the nodes of the levels above it */
    long long delta = 1, limit = 0, upto = 1;
    while (shifted >= upto) {
        limit = upto;
        delta *= FANOUT;
        upto += delta;
    }
    for (int i = 0; i < FANOUT; i++) {
        long long child = shifted + delta * (i + 1);
        if (child >= size)
            break;
        children[nchildren++] = (int)((child + root) % size);
    }
    if (shifted > 0) {
        long long up = shifted;
        if (up < FANOUT)
            up = 0;
        else
            while (up >= limit)
                up -= delta / FANOUT;
        parent = (int)((up + root) % size);
    }
    return coll_tree_reduce_rooted_segmented(sendbuf, recvbuf, count, datatype, op, root, comm,
                                             params, parent, children, nchildren, TAG_TREE);
}
