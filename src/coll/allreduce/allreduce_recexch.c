/*
 * Allreduce: recursive exchange with radix k (every participant swaps its whole vector with
 * k-1 partners per phase and folds the k vectors).
 *
 * Origin:   MPICH MPIR_Allreduce_intra_recexch (MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL), with the
 *           partners of MPII_Recexchalgo_get_neighbors. This file takes the single-phase form
 *           (single_phase_recv: a phase's receives are posted at its start; MPICH's default
 *           posts two phases' receives at once, which changes nothing but when a rendezvous
 *           receive is first posted). A phase's sends go to the partners in the rotated order
 *           of their digit, own + 1, own + 2, … (mod k), so that the i-th messages of a group's
 *           members head for k different ranks; MPICH posts them in ascending order, which on
 *           collsim's NIC (one transfer leaving at a time) makes the first message of every
 *           member but the lowest converge on the lowest one.
 * Requires: nothing (any op, any number of ranks, any datatype). Handles MPI_IN_PLACE.
 *           Order-preserving: MPICH folds in rank order for non-commutative ops and for
 *           floating-point types (for reproducibility) and out of order otherwise; here the fold
 *           is always the ordered one, with the same number of reductions. In step 1 the set's
 *           last rank folds its senders nearest first, x_(r-j) ∘ (… ∘ (x_(r-1) ∘ x_r)), so a
 *           participant holds a run of consecutive ranks; in a phase the k runs of a group are
 *           consecutive too, and every member folds them left to right, ((d_0 ∘ d_1) ∘ …) ∘
 *           d_(k-1), from the same bits: all ranks end with bitwise-identical results.
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4; MPICH's
 *           MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL defaults to 2). When p < k, k becomes max(p, 2).
 * Cost:     q = k^F ranks (F = ⌊log_k p⌋) take part in F phases of k-1 messages of n bytes out
 *           and in at once, each phase followed by k-1 reductions: F((k-1)(α + nβ) + (k-1)nγ)
 *           (one port); when p > q, up to k-1 vectors into a participant and folded first,
 *           and the result sent back to them at the end.
 * Steps:    with r = p - q and T = ⌊r·k/(k-1)⌋, the first T ranks form sets of k consecutive
 *           ranks whose last rank participates (step-2 rank rank/k), the others sending it
 *           their vectors (a short last set sends to rank T); ranks from T on participate as
 *           rank - r. For p = 6, k = 4 (q = 4, r = 2, T = 2):
 *
 *     step 1:  0 -> 2, 1 -> 2          (2 folds x0 ∘ (x1 ∘ x2); participants 2, 3, 4, 5)
 *     step 2:  each of 2, 3, 4, 5 <-> the three others, then ((d2 ∘ d3) ∘ d4) ∘ d5
 *     step 3:  2 -> 1, 2 -> 0
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_RECEXCH = 10 };

/* The real rank of step-2 rank n: the sets' last ranks first, then the others shifted. */
static int
step2_real_rank(long long n, int k, int rem)
{
    return (int)(n < rem / (k - 1) ? n * k + (k - 1) : n + rem);
}

/*
 * Fold the k vectors of a phase left to right in rank order: nbr[0 … k-2] hold the partners'
 * vectors in ascending rank order, `own` sits between nbr[below-1] and nbr[below]. k-1
 * reductions; the result ends in `own`.
 */
static int
fold_in_order(void **nbr, void *own, int k, int below, int count, MPI_Datatype datatype, MPI_Op op)
{
    int rc = MPI_SUCCESS;

    /* the partners below: nbr[i+1] = nbr[i] ∘ nbr[i+1], then own = (their fold) ∘ own */
    for (int i = 0; i + 1 < below && rc == MPI_SUCCESS; i++)
        rc = MPI_Reduce_local(nbr[i], nbr[i + 1], count, datatype, op);
    if (below > 0 && rc == MPI_SUCCESS)
        rc = MPI_Reduce_local(nbr[below - 1], own, count, datatype, op);
    if (below == k - 1 || rc != MPI_SUCCESS)
        return rc;
    /* the partners above continue the same left fold, which ends in the last of them */
    rc = MPI_Reduce_local(own, nbr[below], count, datatype, op);
    for (int i = below; i + 1 < k - 1 && rc == MPI_SUCCESS; i++)
        rc = MPI_Reduce_local(nbr[i], nbr[i + 1], count, datatype, op);
    if (rc == MPI_SUCCESS)
        rc = coll_copy(nbr[k - 2], own, count, datatype);
    return rc;
}

/* Wait for the nreq requests (also after an error: none may leak); the first error wins. */
static int
wait_all(int rc, int nreq, MPI_Request reqs[])
{
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    return rc;
}

int
coll_allreduce_recexch(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                       MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, k = params != NULL && params->radix >= 2 ? params->radix : 4;
    int sendto = -1, nrecvs = 0, nphases = 0, rem, T, nreq = 0;
    long long p_of_k = 1, newrank = 0;
    int *recvfrom = NULL, *digit = NULL;
    void **nbr = NULL, **nbr_mem = NULL;
    MPI_Request *reqs = NULL;

    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;
    if (size < k)
        k = size > 2 ? size : 2;
    while (p_of_k * k <= size) {
        p_of_k *= k;
        nphases++;
    }
    rem = size - (int)p_of_k;
    T = (int)((long long)rem * k / (k - 1));

    if (rank < T && rank % k != k - 1) {
        sendto = rank + (k - 1 - rank % k);
        /* a short last set reports to rank T, whose run then starts with it */
        if (sendto > T - 1)
            sendto = T;
        rc = MPI_Send(recvbuf, count, datatype, sendto, TAG_RECEXCH, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(recvbuf, count, datatype, sendto, TAG_RECEXCH, comm, MPI_STATUS_IGNORE);
        return rc;
    }

    recvfrom = malloc(sizeof *recvfrom * (size_t)(k - 1));
    digit = malloc(sizeof *digit * (size_t)(nphases > 0 ? nphases : 1));
    reqs = malloc(sizeof *reqs * 2 * (size_t)(k - 1));
    nbr = calloc((size_t)(k - 1), sizeof *nbr);
    nbr_mem = calloc((size_t)(k - 1), sizeof *nbr_mem);
    if (recvfrom == NULL || digit == NULL || reqs == NULL || nbr == NULL || nbr_mem == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    for (int i = 0; i < k - 1; i++) {
        nbr[i] = coll_tmp_alloc(count, datatype, &nbr_mem[i]);
        if (nbr[i] == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
    }
    if (rank < T) {
        for (int i = 0; i < k - 1; i++)
            recvfrom[i] = rank - i - 1;
        nrecvs = k - 1;
        newrank = rank / k;
    } else {
        newrank = rank - rem;
        if (rank == T && T >= 1 && (T - 1) % k != k - 1) {
            nrecvs = (T - 1) % k + 1;
            for (int i = 0; i < nrecvs; i++)
                recvfrom[i] = T - 1 - i;
        }
    }

    /* step 1: the set's vectors, nearest first, each folded in front of the run so far */
    for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++) {
        rc = MPI_Irecv(nbr[i], count, datatype, recvfrom[i], TAG_RECEXCH, comm, &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    rc = wait_all(rc, nreq, reqs);
    for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++)
        rc = MPI_Reduce_local(nbr[i], recvbuf, count, datatype, op);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* step 2: phase i swaps with the k-1 step-2 ranks differing in base-k digit i */
    long long t = newrank;
    for (int i = 0; i < nphases; i++, t /= k)
        digit[i] = (int)(t % k);
    for (int phase = 0; phase < nphases; phase++) {
        int own = digit[phase], below = own, n = 0;
        nreq = 0;
        /* the receives first (partners ascending, the fold's order), then the sends */
        for (int pass = 0; pass < 2 && rc == MPI_SUCCESS; pass++)
            for (int j = 0; j < k && rc == MPI_SUCCESS; j++) {
                int d = pass == 0 ? j : (own + j) % k;
                if (d == own)
                    continue;
                long long partner = 0, power = 1;
                digit[phase] = d;
                for (int j = 0; j < nphases; j++, power *= k)
                    partner += digit[j] * power;
                digit[phase] = own;
                int peer = step2_real_rank(partner, k, rem);
                if (pass == 0)
                    rc = MPI_Irecv(nbr[n++], count, datatype, peer, TAG_RECEXCH, comm, &reqs[nreq]);
                else
                    rc = MPI_Isend(recvbuf, count, datatype, peer, TAG_RECEXCH, comm, &reqs[nreq]);
                nreq += rc == MPI_SUCCESS;
            }
        rc = wait_all(rc, nreq, reqs);
        if (rc == MPI_SUCCESS)
            rc = fold_in_order(nbr, recvbuf, k, below, count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* step 3: the result to the ranks of the set */
    nreq = 0;
    for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++) {
        rc = MPI_Isend(recvbuf, count, datatype, recvfrom[i], TAG_RECEXCH, comm, &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    rc = wait_all(rc, nreq, reqs);

out_free:
    if (nbr_mem != NULL)
        for (int i = 0; i < k - 1; i++)
            free(nbr_mem[i]);
    free(nbr_mem);
    free(nbr);
    free(reqs);
    free(digit);
    free(recvfrom);
    return rc;
}
