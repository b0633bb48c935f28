/*
 * Reduce: the sequential chain. The partial result travels 0 -> 1 -> ... -> P-1, each rank
 * folding its own contribution on the right; P-1 then sends the result to the root.
 *
 * Origin:   the MPI standard's "naive and inefficient implementation of MPI_REDUCE" (advice
 *           to implementors under MPI_OP_CREATE), the seed's reference.
 * Requires: nothing (order-preserving: rank r computes (x_0 ∘ ... ∘ x_{r-1}) ∘ x_r).
 * Cost:     (P-1)(α + nβ + nγ) + (α + nβ) when root != P-1.
 * Steps (P = 4, root = 1):
 *
 *     r0 --x0--> r1 --x0x1--> r2 --x0x1x2--> r3      r3 --x0x1x2x3--> r1 (root)
 *
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_CHAIN = 1, TAG_RESULT = 2 };

int
coll_reduce_chain(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *in_mem = NULL, *acc_mem = NULL;
    void *in = NULL, *acc = NULL;
    const void *result;

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;

    /* Phase 1: the chain. `result` is what this rank passes on (its prefix x_0..x_rank). */
    result = sendbuf;
    if (rank > 0) {
        in = coll_tmp_alloc(count, datatype, &in_mem);
        if (rank == size - 1 && rank == root)
            acc = recvbuf;
        else
            acc = coll_tmp_alloc(count, datatype, &acc_mem);
        if (in == NULL || acc == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
        rc = MPI_Recv(in, count, datatype, rank - 1, TAG_CHAIN, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        rc = coll_copy(sendbuf, acc, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
        /* acc = (x_0 ∘ ... ∘ x_{rank-1}) ∘ x_rank */
        rc = MPI_Reduce_local(in, acc, count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
        result = acc;
    }
    if (rank < size - 1) {
        rc = MPI_Send(result, count, datatype, rank + 1, TAG_CHAIN, comm);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* Phase 2: the last rank holds the full result; deliver it to the root. */
    rc = coll_tree_deliver_result(result, recvbuf, count, datatype, rank, size - 1, root,
                                  TAG_RESULT, comm);

out_free:
    free(acc_mem);
    free(in_mem);
    return rc;
}
