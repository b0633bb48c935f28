/*
 * Reduce: linear. Every rank sends its contribution to the root, which folds them from the
 * highest rank down: acc = x_{P-1}, then acc = x_i ∘ acc for i = P-2 .. 0.
 *
 * Origin:   Open MPI coll/base "basic_linear" (ompi_coll_base_reduce_intra_basic_linear) and
 *           MPICH-1's first implementation.
 * Requires: nothing (order-preserving: the fold is x_0 ∘ (x_1 ∘ (... ∘ x_{P-1})), equal to the
 *           rank-order fold by associativity). Handles MPI_IN_PLACE at the root.
 * Cost:     (P-1)(α + nβ) + (P-1)nγ, all of it serialised at the root.
 *
 * The root receives in decreasing rank order (P-1 first) so that each received operand is the
 * lower-rank `in` argument of MPI_Reduce_local and no extra copy is needed.
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_LINEAR = 1 };

int
coll_reduce_linear(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *own_mem = NULL, *tmp_mem = NULL;
    void *tmp = NULL;
    const void *own = sendbuf;

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;

    if (rank != root)
        return MPI_Send(sendbuf, count, datatype, root, TAG_LINEAR, comm);

    /* In place: the root's contribution sits in recvbuf, which is about to be overwritten. */
    if (sendbuf == MPI_IN_PLACE) {
        void *copy = coll_tmp_alloc(count, datatype, &own_mem);
        if (copy == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
        rc = coll_copy(recvbuf, copy, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
        own = copy;
    }

    /* acc (in recvbuf) = x_{P-1} */
    if (root == size - 1)
        rc = coll_copy(own, recvbuf, count, datatype);
    else
        rc = MPI_Recv(recvbuf, count, datatype, size - 1, TAG_LINEAR, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out_free;
    if (size == 1)
        goto out_free;

    tmp = coll_tmp_alloc(count, datatype, &tmp_mem);
    if (tmp == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    /* acc = x_i ∘ acc, i descending */
    for (int i = size - 2; i >= 0; i--) {
        const void *in = own;
        if (i != root) {
            rc = MPI_Recv(tmp, count, datatype, i, TAG_LINEAR, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
            in = tmp;
        }
        rc = MPI_Reduce_local(in, recvbuf, count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

out_free:
    free(tmp_mem);
    free(own_mem);
    return rc;
}
