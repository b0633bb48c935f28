/*
 * Barrier: recursive exchange with radix k (MPICH's recexch allreduce on no data).
 *
 * Origin:   MPICH's MPIR_Barrier_intra_recexch, which runs MPIR_Allreduce_intra_recexch on
 *           zero bytes; the partners are those of MPII_Recexchalgo_get_neighbors. This file
 *           takes the single-phase form (single_phase_recv: a phase's receives are posted at
 *           its start, not two phases' at once).
 * Requires: nothing (any number of ranks).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4; MPICH's
 *           MPIR_CVAR_BARRIER_RECEXCH_KVAL defaults to 2). When p < k, k becomes max(p, 2).
 * Cost:     m = the largest power of k not above p, r = p - m. Step 1 (r > 0): the r ranks left
 *           out send an empty message to a participant; step 2: log_k m phases, each k-1
 *           empty messages out and in at once; step 3: the participants release the others.
 *           (log_k m + 2)α, or log_k m·α when p is a power of k.
 * Steps:    the first T = r·k/(k-1) ranks form groups of k consecutive ranks: the last of a
 *           group participates (step-2 rank rank/k), the k-1 others hand it their arrival (a
 *           last, incomplete group hands it to rank T); ranks from T on participate as
 *           rank - r. In phase i a participant exchanges with the k-1 participants whose
 *           step-2 rank differs from its own in base-k digit i only. For p = 6, k = 4 (m = 4,
 *           r = 2, T = 2):
 *
 *     step 1:  0 -> 2, 1 -> 2            (participants 2, 3, 4, 5 = step-2 ranks 0 … 3)
 *     step 2:  each of 2, 3, 4, 5 <-> the three others
 *     step 3:  2 -> 1, 2 -> 0
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"

enum { TAG_RECEXCH = 9 };

/* The real rank of step-2 rank `nbr`: the groups' last ranks first, then the others shifted. */
static int
recexch_real_rank(long long nbr, int k, int rem)
{
    return (int)(nbr < rem / (k - 1) ? nbr * k + (k - 1) : nbr + rem);
}

int
coll_barrier_recexch(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, k = params != NULL && params->radix >= 2 ? params->radix : 4;
    int sendto = -1, nrecvs = 0, nphases = 0, rem, T;
    long long p_of_k = 1, newrank = -1;
    int *recvfrom = NULL, *digit = NULL;
    MPI_Request *reqs = NULL;

    rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS || size < 2)
        return rc;
    if (size < k)
        k = size > 2 ? size : 2;
    while (p_of_k * k <= size) {
        p_of_k *= k;
        nphases++;
    }
    rem = size - (int)p_of_k;
    T = (int)((long long)rem * k / (k - 1));

    recvfrom = malloc(sizeof *recvfrom * (size_t)(k - 1));
    digit = malloc(sizeof *digit * (size_t)(nphases > 0 ? nphases : 1));
    reqs = malloc(sizeof *reqs * 2 * (size_t)(k - 1));
    if (recvfrom == NULL || digit == NULL || reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }

    if (rank < T) {
        if (rank % k != k - 1) {
            sendto = rank + (k - 1 - rank % k);
            /* an incomplete last group reports to rank T, which keeps the ranks in order */
            if (sendto > T - 1)
                sendto = T;
        } else {
            for (int i = 0; i < k - 1; i++)
                recvfrom[i] = rank - i - 1;
            nrecvs = k - 1;
            newrank = rank / k;
        }
    } else {
        newrank = rank - rem;
        if (rank == T && T >= 1 && (T - 1) % k != k - 1) {
            int nsenders = (T - 1) % k + 1;
            for (int j = nsenders - 1; j >= 0; j--)
                recvfrom[nsenders - 1 - j] = T - nsenders + j;
            nrecvs = nsenders;
        }
    }

    /* step 1 */
    if (sendto >= 0) {
        rc = MPI_Send(NULL, 0, MPI_BYTE, sendto, TAG_RECEXCH, comm);
    } else if (nrecvs > 0) {
        for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++)
            rc = MPI_Irecv(NULL, 0, MPI_BYTE, recvfrom[i], TAG_RECEXCH, comm, &reqs[i]);
        if (rc == MPI_SUCCESS)
            rc = MPI_Waitall(nrecvs, reqs, MPI_STATUSES_IGNORE);
    }
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* step 2: the participants */
    if (sendto < 0) {
        long long t = newrank;
        for (int i = 0; i < nphases; i++, t /= k)
            digit[i] = (int)(t % k);
        for (int phase = 0; phase < nphases; phase++) {
            int own = digit[phase], n = 0;
            /* receives from the k-1 neighbours first, then the sends, as MPICH posts them */
            for (int pass = 0; pass < 2; pass++)
                for (int i = 0; i < k; i++) {
                    if (i == own)
                        continue;
                    long long nbr = 0, power = 1;
                    digit[phase] = i;
                    for (int j = 0; j < nphases; j++, power *= k)
                        nbr += digit[j] * power;
                    digit[phase] = own;
                    int peer = recexch_real_rank(nbr, k, rem);
                    if (pass == 0)
                        rc = MPI_Irecv(NULL, 0, MPI_BYTE, peer, TAG_RECEXCH, comm, &reqs[n++]);
                    else
                        rc = MPI_Isend(NULL, 0, MPI_BYTE, peer, TAG_RECEXCH, comm, &reqs[n++]);
                    if (rc != MPI_SUCCESS)
                        goto out_free;
                }
            /* the sends complete first, then the receives (MPICH's two Waitall calls) */
            rc = MPI_Waitall(k - 1, reqs + (k - 1), MPI_STATUSES_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = MPI_Waitall(k - 1, reqs, MPI_STATUSES_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    /* step 3: the reverse of step 1 */
    if (sendto >= 0) {
        rc = MPI_Recv(NULL, 0, MPI_BYTE, sendto, TAG_RECEXCH, comm, MPI_STATUS_IGNORE);
    } else if (nrecvs > 0) {
        for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++)
            rc = MPI_Isend(NULL, 0, MPI_BYTE, recvfrom[i], TAG_RECEXCH, comm, &reqs[i]);
        if (rc == MPI_SUCCESS)
            rc = MPI_Waitall(nrecvs, reqs, MPI_STATUSES_IGNORE);
    }
out_free:
    free(recvfrom);
    free(digit);
    free(reqs);
    return rc;
}
