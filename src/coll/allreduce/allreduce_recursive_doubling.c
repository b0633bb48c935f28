/*
 * Allreduce: recursive doubling; ranks beyond the largest power of two are folded first.
 *
 * Origin:   MPICH's MPIR_Allreduce_intra_recursive_doubling (Thakur, Rabenseifner & Gropp
 *           2005), with its handling of a non-power-of-two p.
 * Requires: nothing. Order-preserving: every partial result covers a contiguous range of
 *           ranks and two ranges are combined lower ∘ upper. Both partners of an exchange
 *           evaluate the same op call (lower range as `invec`), so all ranks end with
 *           bitwise-identical results, floating point included.
 * Cost:     ⌊lg p⌋(α + nβ + nγ), plus 2(α + nβ) + nγ when p is not a power of two.
 * Steps (p = 6, pof2 = 4, rem = 2): the first 2·rem ranks fold even into odd, the survivors
 * are renumbered 0..pof2-1 and exchange with newrank ^ mask, then the odd ranks hand the
 * result back to their even neighbours.
 *
 *     rank       0      1      2      3      4      5
 *     fold       0  ->  1      2  ->  3                   1 holds r0∘r1, 3 holds r2∘r3
 *     newrank           0             1      2      3
 *     mask 1            1  <------->  3      4 <--> 5     newrank 0 <-> 1, 2 <-> 3
 *     mask 2            1  <-------------->  4            newrank 0 <-> 2
 *                                     3  <------->  5     newrank 1 <-> 3
 *     unfold     0  <-  1      2  <-  3
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_FOLD 3
#define TAG_EXCHANGE 4
#define TAG_UNFOLD 5

int
coll_allreduce_recursive_doubling(const void *sendbuf, void *recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const struct coll_params *params)
{
    int rc, size, rank, pof2, rem, newrank;
    void *tmp_mem, *other;
    void *acc = recvbuf;   /* the running result; `other` receives the partner's */

    (void)params;
    rc = coll_fold_start_scratch(sendbuf, recvbuf, count, datatype, comm, &rank, &size, &other,
                                 &tmp_mem);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;
    pof2 = coll_pof2_floor(size);
    rem = size - pof2;

    /* Fold: even ranks below 2·rem give their data to the odd neighbour above. */
    rc = coll_fold_pof2_in(acc, other, count, datatype, op, rank, rem, TAG_FOLD, comm, &newrank);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    /* Recursive doubling among the pof2 survivors; the lower range is always `invec`. */
    if (newrank >= 0) {
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int dst = coll_fold_survivor(newrank ^ mask, rem);
            rc = MPI_Sendrecv(acc, count, datatype, dst, TAG_EXCHANGE, other, count, datatype,
                              dst, TAG_EXCHANGE, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
            if (dst < rank) {
                rc = MPI_Reduce_local(other, acc, count, datatype, op);
            } else {
                void *swap = acc;
                rc = MPI_Reduce_local(acc, other, count, datatype, op);
                acc = other;
                other = swap;
            }
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
        }
        if (acc != recvbuf) {
            rc = coll_copy(acc, recvbuf, count, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
        }
    }

    /* Unfold: the odd ranks send the result back to the even ones. */
    rc = coll_fold_pof2_out(recvbuf, recvbuf, count, datatype, rank, rem, TAG_UNFOLD, comm);

out_free_tmp:
    free(tmp_mem);
    return rc;
}
