/*
 * Reduce: `radix` chains hanging off the root, pipelined in segments (Open MPI's "chain").
 *
 * The ranks other than the root, shifted by the root (s = (rank - root) mod P, s = 1 … P-1),
 * are cut into k = min(radix, P-1) chains of consecutive shifted ranks, the first (P-1) mod k
 * of them one rank longer. Data flows from each chain's tail to its head and from the heads to
 * the root: a node folds its own segment with its successor's on the left (acc = next ∘ acc),
 * the root folds the heads' segments in chain order, and every node forwards segment s while
 * its successor already sends segment s+1.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_intra_chain (ompi_coll_base_topo_build_chain
 *           with a fan-out, driven by ompi_coll_base_reduce_generic); the tuned component
 *           chooses it for commutative ops only.
 * Requires: commutative op (a chain folds its ranks from the tail down, and the chains wrap
 *           around rank P-1 when the root is not 0).
 * Params:   radix (the number of chains, >= 1 meaningful, default 4), segment_bytes (> 0).
 * Cost:     with chains of c = ⌈(P-1)/k⌉ ranks and S segments of m = n/S bytes, about
 *           (c - 1 + S - 1)(α + mβ + mγ) + S·k(α + mβ + mγ) at the root.
 * Steps (P = 8, k = 3, root 0): chains 1-2-3, 4-5, 6-7;
 *
 *     3 -> 2 -> 1 -> 0,   5 -> 4 -> 0,   7 -> 6 -> 0      (segments follow each other)
 *     root: x = (6,7) ∘ ((4,5) ∘ ((1,2,3) ∘ x0))
 *
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_tree.h"

enum { TAG_CHAIN = 1 };

int
coll_reduce_fanout_chain(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, shifted, parent = -1, nchildren = 0, next;
    int *children = NULL;
    int rc = coll_tree_ranks(comm, root, &rank, &size, &shifted);
    if (rc != MPI_SUCCESS)
        return rc;

    int chains = params != NULL && params->radix > 0 ? params->radix : 1;
    if (chains > size - 1)
        chains = size - 1;
    if (chains < 1)
        chains = 1;
    int others = size - 1, longest = (others + chains - 1) / chains;
    int mark = others % chains == 0 ? chains : others % chains; /* chains of `longest` ranks */

    if (shifted == 0) {
        children = malloc((size_t)chains * sizeof *children);
        if (children == NULL)
            return MPI_ERR_NO_MEM;
        for (int c = 0; c < chains && size > 1; c++) {
            int head = c < mark ? 1 + c * longest : 1 + mark * longest + (c - mark) * (longest - 1);
            children[nchildren++] = (head + root) % size;
        }
    } else {
        int head, len;
        if (shifted - 1 < mark * longest) {
            head = 1 + (shifted - 1) / longest * longest;
            len = longest;
        } else {
            int column = (shifted - 1 - mark * longest) / (longest - 1);
            head = 1 + mark * longest + column * (longest - 1);
            len = longest - 1;
        }
        parent = shifted == head ? root : (shifted - 1 + root) % size;
        if (shifted < head + len - 1) {
            next = (shifted + 1 + root) % size;
            children = &next;
            nchildren = 1;
        }
    }
    rc = coll_tree_reduce_rooted_segmented(sendbuf, recvbuf, count, datatype, op, root, comm,
                                           params, parent, children, nchildren, TAG_CHAIN);
    if (shifted == 0)
        free(children);
    return rc;
}
