/*
 * Reduce_scatter: butterfly (recursive vector halving with distance doubling, Träff 2005).
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_scatter_intra_butterfly (J. L. Träff, "An
 *           improved algorithm for (non-commutative) reduce-scatter with an application",
 *           EuroPVM/MPI 2005).
 * Requires: nothing: any number of ranks, any op. Order-preserving: the fold keeps the lower
 *           rank first, and at distance 2^k a rank's data covers the aligned group of 2^k
 *           survivors just below or above its partner's. Handles MPI_IN_PLACE.
 * Cost:     p a power of two: lg p·α + n((p-1)/p)(β + γ) + (α + (n/p)β) for the final exchange
 *           with the mirror rank; otherwise (α + nβ + nγ) more for the fold and (α + (n/p)β)
 *           for the folded ranks' blocks (n = the sum of recvcounts).
 * Steps:    p' the largest power of two <= p, r = p - p'.
 *           1. the even ranks below 2r send their whole vector to rank + 1, which folds it in
 *              (even ∘ odd) and stands for both; the p' survivors get vranks 0 … p'-1; survivor
 *              j's part of the vector is the blocks of the ranks it stands for.
 *           2. mask = 1, 2, … p'/2: vrank exchanges with vrank ^ mask; the lower keeps the
 *              lower half of its window of parts, the higher the upper half; each folds what
 *              it receives, lower rank first. vrank ends with part mirror(vrank) (the lg p'-bit
 *              reversal), fully reduced.
 *           3. the holder of part q sends the block of the folded rank 2q (if any) to it, and
 *              swaps the other block with survivor q, which holds the holder's own part.
 *           p = 4, parts 0 1 2 3: mask 1: 0 keeps 0 1, 1 keeps 2 3, 2 keeps 0 1, 3 keeps 2 3;
 *           mask 2: 0 keeps 0, 2 keeps 1, 1 keeps 2, 3 keeps 3; step 3: 1 <-> 2 swap parts.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_BUTTERFLY = 0 };

int
coll_reduce_scatter_butterfly(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              const struct coll_params *params)
{
    int rank, size, total, rc, newrank;
    int *displs = NULL, *parts = NULL;
    void *work = NULL, *work_mem = NULL, *spare = NULL, *spare_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free;
    if (size == 1) {
        if (sendbuf != MPI_IN_PLACE)
            rc = coll_copy(sendbuf, recvbuf, recvcounts[0], datatype);
        goto out_free;
    }
    int pof2 = coll_pof2_floor(size), rem = size - pof2, bits = 0;
    while ((1 << bits) < pof2)
        bits++;
    rc = coll_fold_working_copy(input, total, total, datatype, &work, &work_mem, &spare,
                                &spare_mem);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* Step 1: the even ranks below 2·rem fold into rank + 1 (even ∘ odd). */
    rc = coll_fold_pof2_in(work, spare, total, datatype, op, rank, rem, TAG_BUTTERFLY, comm,
                           &newrank);
    if (rc != MPI_SUCCESS)
        goto out_free;

    if (newrank < 0) {
        /* folded out: the block arrives from the holder of the odd neighbour's part */
        int holder = coll_fold_survivor(coll_fold_mirror((rank + 1) / 2, bits), rem);
        if (recvcounts[rank] > 0)
            rc = MPI_Recv(recvbuf, recvcounts[rank], datatype, holder, TAG_BUTTERFLY, comm,
                          MPI_STATUS_IGNORE);
        goto out_free;
    }

    /* Step 2: parts in rank order, part j the blocks of the ranks survivor j stands for. */
    parts = malloc(sizeof *parts * (size_t)(3 * pof2));
    if (parts == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    int *poscounts = parts, *posdispls = parts + pof2, *real = parts + 2 * pof2;
    for (int j = 0; j < pof2; j++) {
        real[j] = coll_fold_survivor(j, rem);
        int first = j < rem ? real[j] - 1 : real[j];
        posdispls[j] = displs[first];
        poscounts[j] = displs[real[j]] + recvcounts[real[j]] - displs[first];
    }
    rc = coll_fold_mirror_halving(&work, &spare, poscounts, posdispls, pof2, newrank, real,
                                  datatype, op, 1, TAG_BUTTERFLY, comm);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* Step 3: hand out part q = mirror(newrank). */
    int q = coll_fold_mirror(newrank, bits), owner = real[q];
    if (q < rem && recvcounts[owner - 1] > 0) {
        rc = MPI_Send(coll_item(work, displs[owner - 1], datatype), recvcounts[owner - 1],
                      datatype, owner - 1, TAG_BUTTERFLY, comm);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    if (owner != rank)
        rc = coll_sendrecv_nonempty(coll_item(work, displs[owner], datatype), recvcounts[owner],
                                    datatype, owner, TAG_BUTTERFLY, recvbuf, recvcounts[rank],
                                    datatype, owner, TAG_BUTTERFLY, comm);
    else
        rc = coll_copy(coll_item(work, displs[rank], datatype), recvbuf, recvcounts[rank],
                       datatype);

out_free:
    free(parts);
    free(spare_mem);
    free(work_mem);
    free(displs);
    return rc;
}
