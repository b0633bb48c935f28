/*
 * Reduce_scatter: recursive vector halving on blocks in mirror order (MPICH's algorithm for
 * non-commutative ops).
 *
 * Origin:   MPICH MPIR_Reduce_scatter_intra_noncommutative (and its block form
 *           MPIR_Reduce_scatter_block_intra_noncommutative): the blocks are first permuted so
 *           that position i holds the block of rank mirror(i), the lg p-bit reversal of i;
 *           then recursive halving with the distance doubling leaves each rank its own block
 *           in place, with no final exchange. MPICH uses it for regular blocks only; the
 *           positions here carry each block's own count, so any recvcounts work.
 * Requires: power-of-two ranks (the halving pairs every rank at every distance); called
 *           directly on another size it returns MPI_ERR_COMM on every rank, sending nothing.
 *           Order-preserving: at distance 2^k a rank's data covers its aligned group of 2^k
 *           ranks, and the lower group is always the first operand. Handles MPI_IN_PLACE.
 * Cost:     lg p·α + n((p-1)/p)(β + γ) (n = the sum of recvcounts).
 * Steps (p = 4, blocks B0..B3 laid out B0 B2 B1 B3):
 *
 *     mask 1:  0 <-> 1, 2 <-> 3: the even rank keeps B0 B2, the odd B1 B3;
 *              each folds (even's ∘ odd's) on what it keeps
 *     mask 2:  0 <-> 2 (0 keeps B0, 2 keeps B2), 1 <-> 3 (1 keeps B1, 3 keeps B3);
 *              (0,1) ∘ (2,3)
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_NONCOMMUTATIVE = 0 };

int
coll_reduce_scatter_noncommutative(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const struct coll_params *params)
{
    int rank, size, total, rc, bits = 0;
    int *displs = NULL, *layout = NULL;
    void *work_mem = NULL, *spare_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc == MPI_SUCCESS && (size & (size - 1)) != 0)
        rc = MPI_ERR_COMM; /* every rank refuses alike, before any message (the registry's flag
                            * keeps the dispatcher from getting here) */
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free;
    if (size == 1) {
        if (sendbuf != MPI_IN_PLACE)
            rc = coll_copy(sendbuf, recvbuf, recvcounts[0], datatype);
        goto out_free;
    }
    while ((1 << bits) < size)
        bits++;

    layout = malloc(sizeof *layout * (size_t)(3 * size));
    void *work = coll_tmp_alloc(total, datatype, &work_mem);
    void *spare = coll_tmp_alloc(total, datatype, &spare_mem);
    if (layout == NULL || work == NULL || spare == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    int *poscounts = layout, *posdispls = layout + size, *real = layout + 2 * size;
    for (int i = 0, at = 0; i < size; i++) {
        int b = coll_fold_mirror(i, bits);
        real[i] = i;
        poscounts[i] = recvcounts[b];
        posdispls[i] = at;
        at += recvcounts[b];
        rc = coll_copy(coll_citem(input, displs[b], datatype), coll_item(work, at - recvcounts[b],
                       datatype), recvcounts[b], datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    rc = coll_fold_mirror_halving(&work, &spare, poscounts, posdispls, size, rank, real, datatype,
                                  op, 1, TAG_NONCOMMUTATIVE, comm);
    if (rc == MPI_SUCCESS)
        rc = coll_copy(coll_item(work, posdispls[coll_fold_mirror(rank, bits)], datatype),
                       recvbuf, recvcounts[rank], datatype);

out_free:
    free(layout);
    free(spare_mem);
    free(work_mem);
    free(displs);
    return rc;
}
