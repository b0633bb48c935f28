/*
 * Reduce_scatter: recursive doubling, rank order kept (any op, any number of ranks).
 *
 * Origin:   MPICH's MPIR_Reduce_scatter_intra_recursive_doubling (Thakur, Rabenseifner & Gropp
 *           2005), its non-commutative path, with its non-power-of-two completion.
 * Requires: nothing: order-preserving for any op and any p. Handles MPI_IN_PLACE.
 * Cost:     lgp·α + n·(lgp - (p-1)/p)·(β + γ)   (n = sum of recvcounts; p a power of two;
 *           otherwise up to ⌈lgp⌉ more messages for the ranks whose partner does not exist)
 * Steps:    with mask = 1, 2, 4, ...: rank r and its partner r ^ mask belong to the aligned
 *           subtrees T(r) and T(partner) of `mask` ranks. Each holds the fold of its own
 *           subtree over every block but its own subtree's blocks, exchanges all blocks but
 *           those of its own subtree (one message, an indexed datatype) and folds lower subtree
 *           first:  T(lower) ∘ T(upper).  Each fold covers a contiguous, rank-ordered range.
 *              p = 4:  mask 1: {0,1} {2,3}   mask 2: {0..3}   (rank r keeps block r)
 *           When the partner subtree is cut short by p (partner >= p), the ranks of the lower
 *           subtree that had a partner forward what they received to those that had none,
 *           along a binomial tree inside the subtree, before anyone folds.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_RS_DOUBLING = 0 };

/*
 * The items of every block except those of the ranks in [root, root + mask): two ranges,
 * [0, len[0]) and [disp[1], disp[1] + len[1]).
 */
static void
outside_subtree(const int *recvcounts, int size, int root, int mask, int len[2], int disp[2])
{
    len[0] = len[1] = 0;
    for (int j = 0; j < root && j < size; j++)
        len[0] += recvcounts[j];
    for (int j = root + mask; j < size; j++)
        len[1] += recvcounts[j];
    disp[0] = 0;
    disp[1] = len[0];
    for (int j = root; j < root + mask && j < size; j++)
        disp[1] += recvcounts[j];
}

int
coll_reduce_scatter_recursive_doubling(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                       const struct coll_params *params)
{
    int rank, size, total, rc;
    int *displs;
    void *results = NULL, *results_mem = NULL, *incoming = NULL, *incoming_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    MPI_Datatype sendtype = MPI_DATATYPE_NULL, recvtype = MPI_DATATYPE_NULL;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free;

    rc = coll_fold_working_copy(input, total, total, datatype, &results, &results_mem, &incoming,
                                &incoming_mem);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int mask = 1, level = 0; mask < size; mask <<= 1, level++) {
        int dst = rank ^ mask;
        int my_root = rank >> level << level;
        int dst_root = dst >> level << level;
        int slen[2], sdisp[2], rlen[2], rdisp[2];
        int received = 0;

        /* Send everything but my subtree's blocks; receive everything but the partner's. */
        outside_subtree(recvcounts, size, my_root, mask, slen, sdisp);
        outside_subtree(recvcounts, size, dst_root, mask, rlen, rdisp);
        rc = MPI_Type_indexed(2, slen, sdisp, datatype, &sendtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&sendtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_indexed(2, rlen, rdisp, datatype, &recvtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(&recvtype);
        if (rc != MPI_SUCCESS)
            goto out_free;

        if (dst < size) {
            rc = MPI_Sendrecv(results, 1, sendtype, dst, TAG_RS_DOUBLING, incoming, 1, recvtype,
                              dst, TAG_RS_DOUBLING, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
            received = 1;
        }

        /*
         * The partner subtree is cut short by p: the first `completed` ranks of my subtree
         * had a partner; they pass what they received on to the others (binomial tree
         * inside the subtree, halving the distance each round).
         */
        if (dst_root + mask > size) {
            int completed = size - my_root - mask;
            int k = level;
            for (int tmp_mask = mask >> 1; tmp_mask > 0; tmp_mask >>= 1, k--) {
                int peer = rank ^ tmp_mask;
                int tree_root = rank >> k << k;
                if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed) {
                    rc = MPI_Send(incoming, 1, recvtype, peer, TAG_RS_DOUBLING, comm);
                } else if (peer < rank && peer < tree_root + completed &&
                           rank >= tree_root + completed) {
                    rc = MPI_Recv(incoming, 1, recvtype, peer, TAG_RS_DOUBLING, comm,
                                  MPI_STATUS_IGNORE);
                    received = 1;
                }
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
        }

        /* Fold lower subtree first (after forwarding, which needs `incoming` unchanged). */
        if (received) {
            if (dst_root < my_root) {
                for (int b = 0; b < 2 && rc == MPI_SUCCESS; b++)
                    rc = MPI_Reduce_local(coll_item(incoming, rdisp[b], datatype),
                                          coll_item(results, rdisp[b], datatype), rlen[b], datatype,
                                          op);
            } else {
                for (int b = 0; b < 2 && rc == MPI_SUCCESS; b++)
                    rc = MPI_Reduce_local(coll_item(results, rdisp[b], datatype),
                                          coll_item(incoming, rdisp[b], datatype), rlen[b],
                                          datatype, op);
                for (int b = 0; b < 2 && rc == MPI_SUCCESS; b++)
                    rc = coll_copy(coll_item(incoming, rdisp[b], datatype),
                                   coll_item(results, rdisp[b], datatype), rlen[b], datatype);
            }
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        rc = MPI_Type_free(&sendtype);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_free(&recvtype);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    rc = coll_copy(coll_item(results, displs[rank], datatype), recvbuf, recvcounts[rank], datatype);
out_free:
    if (sendtype != MPI_DATATYPE_NULL)
        MPI_Type_free(&sendtype);
    if (recvtype != MPI_DATATYPE_NULL)
        MPI_Type_free(&recvtype);
    free(incoming_mem);
    free(results_mem);
    free(displs);
    return rc;
}
