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
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_FOLD 3
#define TAG_EXCHANGE 4
#define TAG_UNFOLD 5

/* Recursive doubling among the pof2 survivors; the lower range is always `invec`. */
static int
exchange(const struct coll_fold_pof2 *f)
{
    void *acc = f->recvbuf, *other = f->scratch; /* the running result; the partner's */
    int count = f->count;
    MPI_Datatype datatype = f->datatype;

    for (int mask = 1; mask < f->pof2; mask <<= 1) {
        int dst = coll_fold_survivor(f->newrank ^ mask, f->rem);
        int rc = MPI_Sendrecv(acc, count, datatype, dst, TAG_EXCHANGE, other, count, datatype,
                              dst, TAG_EXCHANGE, f->comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (dst < f->rank) {
            rc = MPI_Reduce_local(other, acc, count, datatype, f->op);
        } else {
            void *swap = acc;
            rc = MPI_Reduce_local(acc, other, count, datatype, f->op);
            acc = other;
            other = swap;
        }
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return acc != f->recvbuf ? coll_copy(acc, f->recvbuf, count, datatype) : MPI_SUCCESS;
}

/* Fold: even ranks below 2·rem give their data to the odd neighbour above; unfold: the odd
 * ranks send the result back to the even ones. */
int
coll_allreduce_recursive_doubling(const void *sendbuf, void *recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                  const struct coll_params *params)
{
    (void)params;
    return coll_fold_pof2_allreduce(sendbuf, recvbuf, count, datatype, op, comm, TAG_FOLD,
                                    TAG_UNFOLD, exchange);
}
