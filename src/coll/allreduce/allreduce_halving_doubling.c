/*
 * Allreduce: the textbook's doubling scheme, for any p — the upper half of the active ranks
 * folds onto mirror ranks down to rank 0, then the result travels back the same way.
 *
 * Origin:   A. S. Antonov's MPI textbook, example 14 and exercise 7 (the upper half sends to
 *           the lower half, the partner of rank r is n-r-1, n halves each step), generalised
 *           here to any p: with n active ranks, ranks ⌈n/2⌉..n-1 send to n-r-1; when n is odd
 *           the middle rank (n-1)/2 is its own mirror and waits; n becomes ⌈n/2⌉.
 * Requires: commutative op — rank r combines with rank n-r-1, so rank 0 ends with
 *           ((r0∘r3)∘(r1∘r2)) for p = 4, not the rank order. Only rank 0 computes the
 *           final value and every other rank receives its bits: results are bitwise identical.
 * Cost:     ⌈lg p⌉(α + nβ + nγ) to reach rank 0, then ⌈lg p⌉(α + nβ) back.
 * Steps (p = 5):
 *
 *     halving  n = 5:  4 -> 0,  3 -> 1        (2 waits)
 *              n = 3:  2 -> 0                 (1 waits)
 *              n = 2:  1 -> 0                 rank 0 holds the result
 *     doubling n = 2:  0 -> 1
 *              n = 3:  0 -> 2
 *              n = 5:  0 -> 4,  1 -> 3
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_HALVING 6
#define TAG_DOUBLING 7

/* Active ranks at step k: n_k = ⌈p / 2^k⌉. */
static int
active_at(int size, int step)
{
    return (int)(((long long)size + (1LL << step) - 1) >> step);
}

int
coll_allreduce_halving_doubling(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const struct coll_params *params)
{
    int rc, size, rank, steps, leave;
    void *tmp_mem, *acc = recvbuf, *other;

    (void)params;
    rc = coll_fold_start_scratch(sendbuf, recvbuf, count, datatype, comm, &rank, &size, &other,
                                 &tmp_mem);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;

    /* Halving: a rank of the lower half receives its mirror's vector and combines it (its
     * own, lower rank first); a rank of the upper half sends and leaves. */
    steps = coll_ceil_log2(size);
    leave = steps;   /* the step at which this rank sent; rank 0 never does */
    for (int k = 0; k < steps; k++) {
        int n = active_at(size, k);
        int mirror = n - rank - 1;
        if (rank >= n - n / 2) {
            rc = MPI_Send(acc, count, datatype, mirror, TAG_HALVING, comm);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
            leave = k;
            break;
        }
        if (rank < n / 2) {
            void *swap = acc;
            rc = MPI_Recv(other, count, datatype, mirror, TAG_HALVING, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
            rc = MPI_Reduce_local(acc, other, count, datatype, op);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
            acc = other;
            other = swap;
        }
    }
    if (rank == 0 && acc != recvbuf) {
        rc = coll_copy(acc, recvbuf, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
    }

    /* Doubling: the same pairs in reverse order, the result flowing upwards. */
    for (int k = steps - 1; k >= 0; k--) {
        int n = active_at(size, k);
        int mirror = n - rank - 1;
        if (k == leave)
            rc = MPI_Recv(recvbuf, count, datatype, mirror, TAG_DOUBLING, comm,
                          MPI_STATUS_IGNORE);
        else if (k < leave && rank < n / 2)
            rc = MPI_Send(recvbuf, count, datatype, mirror, TAG_DOUBLING, comm);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
    }

out_free_tmp:
    free(tmp_mem);
    return rc;
}
