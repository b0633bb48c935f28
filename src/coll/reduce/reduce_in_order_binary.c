/*
 * Reduce: in-order binary tree over ranks 0..P-1, result forwarded to the root.
 *
 * The subtree of a rank range [lo, hi] is rooted at its highest rank hi; the remaining ranks
 * split into a low half [lo, lo+L-1] (L = (hi-lo+1)/2) and a high half [lo+L, hi-1], whose
 * tops (lo+L-1 and hi-1) are hi's children. A node computes low ∘ high ∘ own, so the fold of
 * every subtree is its rank range in order, and rank P-1 ends with x_0 ∘ ... ∘ x_{P-1}.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_intra_in_order_binary (tree from
 *           ompi_coll_base_topo_build_in_order_bintree, rooted at P-1, then sent to root).
 * Requires: nothing (order-preserving by construction, see above).
 * Cost:     with d = ⌊lg P⌋ levels, about d(α + 2nβ + 2nγ) (both children's messages reach a
 *           node on one link), plus (α + nβ) when root != P-1.
 * Steps (P = 7):
 *
 *                 6                 6 = (0 1 2) ∘ (3 4 5) ∘ x6
 *             /       \
 *            2         5            2 = (0) ∘ (1) ∘ x2,   5 = (3) ∘ (4) ∘ x5
 *           / \       / \
 *          0   1     3   4          low child left, high child right
 *
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_TREE = 1, TAG_RESULT = 2 };

int
coll_reduce_in_order_binary(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, parent, low, high, rc;
    void *low_mem = NULL, *high_mem = NULL, *acc_mem = NULL;
    void *low_buf = NULL, *high_buf = NULL, *acc = NULL;
    MPI_Request reqs[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    const void *result = sendbuf;

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    coll_tree_in_order_binary(rank, size, &parent, &low, &high);
    int top = size - 1;

    /* Phase 1: own subtree, low ∘ high ∘ own. */
    if (low >= 0) {
        low_buf = coll_tmp_alloc(count, datatype, &low_mem);
        acc = rank == root ? recvbuf : coll_tmp_alloc(count, datatype, &acc_mem);
        if (high >= 0)
            high_buf = coll_tmp_alloc(count, datatype, &high_mem);
        if (low_buf == NULL || acc == NULL || (high >= 0 && high_buf == NULL)) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
        rc = MPI_Irecv(low_buf, count, datatype, low, TAG_TREE, comm, &reqs[0]);
        if (rc != MPI_SUCCESS)
            goto out_free;
        if (high >= 0) {
            rc = MPI_Irecv(high_buf, count, datatype, high, TAG_TREE, comm, &reqs[1]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        rc = coll_copy(sendbuf, acc, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
        if (high >= 0) {
            rc = coll_tree_wait_fold(&reqs[1], high_buf, acc, count, datatype, op);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        rc = coll_tree_wait_fold(&reqs[0], low_buf, acc, count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
        result = acc;
    }
    if (parent >= 0) {
        rc = MPI_Send(result, count, datatype, parent, TAG_TREE, comm);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* Phase 2: the top (P-1) holds the result; deliver it to the root. */
    rc = coll_tree_deliver_result(result, recvbuf, count, datatype, rank, top, root, TAG_RESULT,
                                  comm);

out_free:
    free(acc_mem);
    free(high_mem);
    free(low_mem);
    return rc;
}
