/*
 * Reduce_scatter: reduce the whole vector to rank 0 in rank order, then scatter the blocks.
 *
 * Origin:   the textbook composition (MPI-3.1 §5.10: "as if" MPI_Reduce then MPI_Scatterv);
 *           Open MPI's basic and SMPI's default reduce_scatter do the same with their own
 *           reduce. Here the reduce is coll_reduce_in_order_binary, so rank order is kept.
 * Requires: nothing: order-preserving for any op and any number of ranks. Handles
 *           MPI_IN_PLACE (the full input vector is then in recvbuf).
 * Cost:     reduce (in-order binary tree of n = sum(recvcounts) items, ~lgp·α + n·lgp·(β+γ))
 *           + linear scatterv from rank 0 ((p-1)·α + n·((p-1)/p)·β).
 * Steps:    all ranks --in-order binary reduce--> rank 0 holds x0∘x1∘...∘x(p-1) (n items);
 *           rank 0 --scatterv--> rank i gets items [displs[i], displs[i] + recvcounts[i]).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

int
coll_reduce_scatter_reduce_scatterv(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    const struct coll_params *params)
{
    int rank, size, total, rc;
    int *displs;
    void *tmp = NULL, *tmp_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free_displs;

    /* Phase 1: the whole vector, reduced in rank order, at rank 0. */
    if (rank == 0) {
        tmp = coll_tmp_alloc(total, datatype, &tmp_mem);
        if (tmp == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free_displs;
        }
    }
    rc = coll_reduce_in_order_binary(input, tmp, total, datatype, op, 0, comm, params);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    /* Phase 2: rank i gets its block. */
    rc = coll_scatterv_linear(tmp, recvcounts, displs, datatype, recvbuf, recvcounts[rank],
                              datatype, 0, comm, params);
out_free_tmp:
    free(tmp_mem);
out_free_displs:
    free(displs);
    return rc;
}
