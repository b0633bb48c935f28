/*
 * Reduce_scatter: pairwise exchange (commutative ops).
 *
 * Origin:   MPICH's MPIR_Reduce_scatter_intra_pairwise (Thakur, Rabenseifner & Gropp 2005),
 *           the scheme of MPI_Alltoall's pairwise exchange.
 * Requires: commutative op: rank r folds the ranks' blocks in the order r, r-1, ..., 0, p-1,
 *           ..., r+1 (received operand first), which is rank order only for r = p-1.
 *           Handles MPI_IN_PLACE.
 * Cost:     (p-1)·α + n·((p-1)/p)·(β + γ)   (n = sum of recvcounts, blocks of n/p)
 * Steps:    at step i = 1..p-1, rank r sends its contribution to block (r+i) mod p to rank r+i
 *           and receives rank (r-i)'s contribution to block r, which it reduces into its
 *           accumulator:  acc_r = x(r-i)[r] ∘ acc_r.
 *              p = 3, rank 0:  acc = x0[0];  step 1: acc = x2[0]∘acc;  step 2: acc = x1[0]∘acc
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_RS_PAIRWISE = 0 };

int
coll_reduce_scatter_pairwise(const void *sendbuf, void *recvbuf, const int recvcounts[],
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                             const struct coll_params *params)
{
    int rank, size, total, rc;
    int *displs;
    void *incoming = NULL, *incoming_mem = NULL, *acc, *acc_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free;

    /*
     * The accumulator is recvbuf itself, except in place: there recvbuf still holds blocks
     * that later steps send, so the block is accumulated aside and moved at the end.
     */
    int mine = recvcounts[rank];
    if (sendbuf == MPI_IN_PLACE && mine > 0) {
        acc = coll_tmp_alloc(mine, datatype, &acc_mem);
        if (acc == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
    } else {
        acc = recvbuf;
    }
    if (mine > 0) {
        incoming = coll_tmp_alloc(mine, datatype, &incoming_mem);
        if (incoming == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
    }
    rc = coll_copy(coll_citem(input, displs[rank], datatype), acc, mine, datatype);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int i = 1; i < size; i++) {
        int src = (rank - i + size) % size;
        int dst = (rank + i) % size;
        rc = MPI_Sendrecv(coll_citem(input, displs[dst], datatype), recvcounts[dst], datatype, dst,
                          TAG_RS_PAIRWISE, incoming, mine, datatype, src, TAG_RS_PAIRWISE, comm,
                          MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        /* received first, though src may be a higher rank: the commutative requirement */
        rc = MPI_Reduce_local(incoming, acc, mine, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    if (acc != recvbuf)
        rc = coll_copy(acc, recvbuf, mine, datatype);
out_free:
    free(incoming_mem);
    free(acc_mem);
    free(displs);
    return rc;
}
