/*
 * Reduce_scatter: ring (commutative ops).
 *
 * Origin:   the reduce-scatter half of the ring allreduce (Patarasuk & Yuan 2009); the
 *           scheme of Open MPI's coll_base reduce_scatter ring and NCCL's ring.
 * Requires: commutative op: block b is folded around the ring starting at rank b+1, i.e. in
 *           the order b+1, ..., p-1, 0, ..., b, which is rank order only for b = p-1.
 *           Handles MPI_IN_PLACE.
 * Cost:     (p-1)·α + n·((p-1)/p)·(β + γ)   (n = sum of recvcounts, blocks of n/p)
 * Steps:    at step s = 0..p-2, rank r sends its partial of block (r-s-1) mod p to r+1 and
 *           receives the partial of block (r-s-2) mod p from r-1, folding its own
 *           contribution in behind it:  acc[b] = received[b] ∘ acc[b].
 *              p = 3, block 0:  rank 1: x1;  rank 2: x1∘x2;  rank 0: (x1∘x2)∘x0
 *           After p-1 steps rank r holds block r complete.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_RS_RING = 0 };

int
coll_reduce_scatter_ring(const void *sendbuf, void *recvbuf, const int recvcounts[],
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                         const struct coll_params *params)
{
    int rank, size, total, rc, largest = 0;
    int *displs;
    void *acc = NULL, *acc_mem = NULL, *incoming = NULL, *incoming_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < size; i++)
        if (recvcounts[i] > largest)
            largest = recvcounts[i];
    if (total == 0)
        goto out_free;

    /* A working copy of the whole vector: partials replace the own contributions in it. */
    rc = coll_fold_working_copy(input, total, largest, datatype, &acc, &acc_mem, &incoming,
                                &incoming_mem);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* the partial from the left first: rank order except across the wrap-around */
    rc = coll_fold_ring_pass(acc, recvcounts, displs, rank - 1, incoming, datatype, op, rank, size,
                             TAG_RS_RING, comm);
    if (rc != MPI_SUCCESS)
        goto out_free;
    rc = coll_copy(coll_item(acc, displs[rank], datatype), recvbuf, recvcounts[rank], datatype);
out_free:
    free(incoming_mem);
    free(acc_mem);
    free(displs);
    return rc;
}
