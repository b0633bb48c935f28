/*
 * Reduce: k-nomial tree of radix k (k = 2 is the binomial tree). Relative ranks are written
 * in base k; in round i (mask = k^i) a rank whose digit i is non-zero sends its partial result
 * to the rank with that digit cleared and leaves; the others receive, all at once, from their
 * up to k-1 children relrank + j·mask (j = 1 .. k-1) and fold them in increasing j.
 *
 * Origin:   the k-nomial trees of MPICH (MPIR_Reduce_intra_tree, tree type knomial) and of
 *           Open MPI's coll/base topologies; rank order kept as in MPICH's binomial reduce.
 * Requires: nothing (order-preserving: for a non-commutative op the tree is rooted at rank 0,
 *           where the children of a node, taken round by round and j ascending, cover
 *           consecutive ascending rank ranges; rank 0 then sends the result to the root. For
 *           a commutative op the tree is rooted at the root).
 * Params:   radix (>= 2; the row's default, and the value without params, is 4).
 * Cost:     ⌈log_k P⌉(α + (k-1)nβ + (k-1)nγ) when a node's k-1 receives share its link;
 *           plus (α + nβ) for a non-commutative op when root != 0.
 * Steps (P = 9, k = 3, relative ranks):
 *
 *     round 0 (mask 1):  1,2 -> 0   4,5 -> 3   7,8 -> 6
 *     round 1 (mask 3):  3,6 -> 0                      result (0 1 2)(3 4 5)(6 7 8) at 0
 *
 * Invariants: recvbuf is touched only at the root (where it doubles as scratch); sendbuf is
 * never written; the operand order is the same for commutative ops (deterministic results).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_TREE = 1, TAG_RESULT = 2 };

int
coll_reduce_knomial(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                    int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, tree_root, relrank, rc;
    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;
    void **mem = NULL, **buf = NULL;
    MPI_Request *reqs = NULL;
    int *slot = NULL;          /* buf[] index receiving each child of a round */
    const void *acc = sendbuf; /* this rank's partial result so far */
    int acc_index = -1;        /* which buf[] holds acc (-1: still sendbuf) */

    rc = coll_tree_reduce_ranks(comm, op, root, &rank, &size, &tree_root, &relrank);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (radix > size)
        radix = size > 2 ? size : 2; /* more children than ranks is pointless */

    /* radix buffers: up to radix-1 receiving in a round, plus the one holding acc */
    mem = calloc((size_t)radix, sizeof *mem);
    buf = calloc((size_t)radix, sizeof *buf);
    reqs = calloc((size_t)radix, sizeof *reqs);
    slot = calloc((size_t)radix, sizeof *slot);
    if (mem == NULL || buf == NULL || reqs == NULL || slot == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }

    if (rank == root)
        buf[0] = recvbuf; /* only significant here, overwritten by the result at the end */

    /* Phase 1: reduce up the tree rooted at tree_root. */
    for (long long mask = 1; mask < size; mask *= radix) {
        long long digit = (relrank / mask) % radix;
        if (digit != 0) {
            int parent = (int)((relrank - digit * mask + tree_root) % size);
            rc = MPI_Send(acc, count, datatype, parent, TAG_TREE, comm);
            if (rc != MPI_SUCCESS)
                goto out_free;
            break;
        }
        /* children relrank + j*mask, j ascending, each in a free buffer */
        int nchildren = 0;
        for (int j = 1, b = 0; j < radix && relrank + j * mask < size; j++, b++) {
            if (b == acc_index)
                b++;
            if (buf[b] == NULL) {
                buf[b] = coll_tmp_alloc(count, datatype, &mem[b]);
                if (buf[b] == NULL) {
                    rc = MPI_ERR_NO_MEM;
                    goto out_free;
                }
            }
            int child = (int)((relrank + j * mask + tree_root) % size);
            rc = MPI_Irecv(buf[b], count, datatype, child, TAG_TREE, comm, &reqs[nchildren]);
            if (rc != MPI_SUCCESS)
                goto out_free;
            slot[nchildren++] = b;
        }
        if (nchildren == 0)
            continue;
        rc = MPI_Waitall(nchildren, reqs, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        /* acc = acc ∘ child_1 ∘ ... ∘ child_n, each child's ranks above the previous ones */
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Reduce_local(acc, buf[slot[c]], count, datatype, op);
            if (rc != MPI_SUCCESS)
                goto out_free;
            acc = buf[slot[c]];
            acc_index = slot[c];
        }
    }

    /* Phase 2: bring the result to the root. */
    rc = coll_tree_deliver_result(acc, recvbuf, count, datatype, rank, tree_root, root, TAG_RESULT,
                                  comm);

out_free:
    if (mem != NULL)
        for (int b = 0; b < radix; b++)
            free(mem[b]);
    free(slot);
    free(reqs);
    free(buf);
    free(mem);
    return rc;
}
