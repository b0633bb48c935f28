/*
 * Barrier: recursive doubling (pairwise exchanges of empty messages).
 *
 * Origin:   Open MPI's ompi_coll_base_barrier_intra_recursivedoubling (and MPICH's barrier
 *           before it adopted dissemination); SMPI's ompi_recursivedoubling.
 * Requires: nothing (any number of ranks).
 * Cost:     lg p α for p a power of two; otherwise (⌊lg p⌋ + 2)α.
 * Steps:    let q be the largest power of two <= p. Ranks r >= q first send an empty message
 *           to r - q and wait for its release. Ranks r < q exchange with r xor 2^k for
 *           k = 0 … lg q - 1 (after round k each has heard from 2^(k+1) ranks, itself
 *           included, r - q's partner standing for it); then every r < p - q releases r + q.
 *           For p = 6 (q = 4):
 *
 *     4->0  5->1;   0<->1  2<->3;   0<->2  1<->3;   0->4  1->5
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_BARRIER_IN = 1, TAG_BARRIER_EXCHANGE = 2, TAG_BARRIER_OUT = 3 };

int
coll_barrier_recursive_doubling(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, pof2;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;
    for (pof2 = 1; pof2 * 2 <= size; pof2 *= 2)
        ;

    /* The ranks beyond the largest power of two report to a partner below and wait. */
    if (rank >= pof2) {
        rc = coll_token_send(rank - pof2, TAG_BARRIER_IN, comm);
        if (rc != MPI_SUCCESS)
            return rc;
        return coll_token_recv(rank - pof2, TAG_BARRIER_OUT, comm);
    }
    if (rank < size - pof2) {
        rc = coll_token_recv(rank + pof2, TAG_BARRIER_IN, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }

    /* Pairwise exchanges among the first pof2 ranks. */
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int partner = rank ^ mask;
        rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, partner, TAG_BARRIER_EXCHANGE, NULL, 0, MPI_BYTE,
                          partner, TAG_BARRIER_EXCHANGE, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }

    /* Release the partner beyond pof2. */
    if (rank < size - pof2)
        return coll_token_send(rank + pof2, TAG_BARRIER_OUT, comm);
    return MPI_SUCCESS;
}
