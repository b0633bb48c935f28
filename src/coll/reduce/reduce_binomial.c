/*
 * Reduce: binomial tree. In round k (mask = 2^k) a rank whose relative rank has bit k set
 * sends its partial result to the rank with that bit cleared and leaves; the others receive
 * from relrank | mask (if it exists) and fold it on the right.
 *
 * Origin:   MPICH MPIR_Reduce_intra_binomial (from MPICH-1), including its way of keeping
 *           rank order: for a commutative op the tree is rooted at the root; for a
 *           non-commutative op it is rooted at rank 0, whose subtrees are contiguous,
 *           ascending rank ranges, and rank 0 then sends the result to the root.
 * Requires: nothing (order-preserving: every node computes own ∘ child_1 ∘ child_2 ∘ ...,
 *           children in increasing relative rank, each child covering the ranks just above
 *           the previous one).
 * Cost:     ⌈lg P⌉(α + nβ + nγ); plus (α + nβ) for a non-commutative op when root != 0.
 * Steps (P = 8, relative ranks):
 *
 *     mask 1:  (0 1) (2 3) (4 5) (6 7)      1->0, 3->2, 5->4, 7->6
 *     mask 2:  ((0 1)(2 3)) ((4 5)(6 7))    2->0, 6->4
 *     mask 4:  (((0 1)(2 3))((4 5)(6 7)))   4->0
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
coll_reduce_binomial(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, tree_root, relrank, rc;
    void *mem[2] = {NULL, NULL};
    void *buf[2] = {NULL, NULL};
    const void *acc = sendbuf; /* this rank's partial result so far */
    int acc_index = -1;        /* which buf[] holds acc (-1: still sendbuf) */

    (void)params;
    rc = coll_tree_reduce_ranks(comm, op, root, &rank, &size, &tree_root, &relrank);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;

    if (rank == root)
        buf[0] = recvbuf; /* only significant here, overwritten by the result at the end */

    /* Phase 1: reduce up the tree rooted at tree_root. */
    for (int mask = 1; mask < size; mask <<= 1) {
        if (relrank & mask) {
            int parent = ((relrank & ~mask) + tree_root) % size;
            rc = MPI_Send(acc, count, datatype, parent, TAG_TREE, comm);
            if (rc != MPI_SUCCESS)
                goto out_free;
            break;
        }
        if ((relrank | mask) >= size)
            continue;
        int child = ((relrank | mask) + tree_root) % size;
        int next = acc_index == 0 ? 1 : 0;
        if (buf[next] == NULL) {
            buf[next] = coll_tmp_alloc(count, datatype, &mem[next]);
            if (buf[next] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
        rc = MPI_Recv(buf[next], count, datatype, child, TAG_TREE, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        /* the child's subtree holds the ranks just above ours: acc ∘ child */
        rc = MPI_Reduce_local(acc, buf[next], count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
        acc = buf[next];
        acc_index = next;
    }

    /* Phase 2: bring the result to the root. */
    rc = coll_tree_deliver_result(acc, recvbuf, count, datatype, rank, tree_root, root, TAG_RESULT,
                                  comm);

out_free:
    free(mem[0]);
    free(mem[1]);
    return rc;
}
