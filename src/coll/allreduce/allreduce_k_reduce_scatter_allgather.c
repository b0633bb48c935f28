/*
 * Allreduce: reduce-scatter then allgather by recursive exchange with radix k (vector divided
 * by k per phase on the way down, multiplied by k on the way back).
 *
 * Origin:   MPICH MPIR_Allreduce_intra_k_reduce_scatter_allgather (radix
 *           MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL), with the partners of
 *           MPII_Recexchalgo_get_neighbors and the block ranges of
 *           MPII_Recexchalgo_get_count_and_offset and _reverse_digits_step2. This file takes the
 *           single-phase form of the allgather (single_phase_recv: a phase's receives are posted
 *           at its start; MPICH's default posts two phases' at once, which changes nothing but
 *           when a rendezvous receive is first posted).
 * Requires: a commutative op (MPICH asserts it, and its coll_algorithms.txt restricts the
 *           algorithm to commutative ops): a received piece is folded in front of the own one
 *           in the partners' order, not the ranks'. Any count (with count < q every block but
 *           the last is empty), any number of ranks, any datatype. Handles MPI_IN_PLACE.
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4; MPICH's
 *           MPIR_CVAR_ALLREDUCE_RECEXCH_KVAL defaults to 2). When p < k, k becomes max(p, 2).
 * Cost:     q = k^F participants (F = ⌊log_k p⌋), n/q-byte blocks. Reduce-scatter: in phase i
 *           (i = 0 … F-1) k-1 exchanges, one partner after the other, of n/k^(i+1) bytes, each
 *           folded: F(k-1)α + ((q-1)/q)n(β + γ) when no exchange waits for a partner busy
 *           with another (k = 2); allgather: F phases of k-1 messages of n·k^i/q bytes out
 *           and in at once: F(k-1)α + ((q-1)/q)nβ (one port); when p > q, up to k-1 vectors
 *           into a participant first (received and folded one after the other) and the result
 *           back to them at the end.
 * Steps:    the ranks beyond q fold into sets' last ranks as in allreduce recexch. The vector
 *           is cut into q blocks (⌊count/q⌋ items, the last one also the rest), block b
 *           belonging to step-2 rank b. Let rev(s) be step-2 rank s with its F base-k digits
 *           reversed. Reduce-scatter phase i: a participant exchanges with the k-1 step-2
 *           ranks t differing from s in digit i, in ascending order, sending the k^(F-1-i)
 *           blocks of the aligned group holding block rev(t), receiving those of the group
 *           holding rev(s), and folding them in; it ends with block rev(s) fully reduced.
 *           Allgather phase i (digit F-1-i): it sends its k^i blocks (the group holding
 *           rev(s)) to the k-1 partners and receives theirs. The allgather's sends go to the
 *           partners in the rotated order of their digit, own + 1, own + 2, … (mod k), so
 *           that the i-th messages of a group's members head for k different ranks; MPICH
 *           posts them in ascending order, which on collsim's NIC (one transfer leaving at a
 *           time) makes the first message of every member but the lowest converge on the
 *           lowest one. The reduce-scatter keeps MPICH's order: its exchanges are blocking.
 *           For p = 4, k = 2 (blocks B0 … B3; rev: 0 -> 0, 1 -> 2, 2 -> 1, 3 -> 3):
 *
 *     rs 0:  0 <-> 1 (0 keeps B0 B1, 1 keeps B2 B3), 2 <-> 3 (2 keeps B0 B1, 3 keeps B2 B3)
 *     rs 1:  0 <-> 2 (0 keeps B0, 2 keeps B1), 1 <-> 3 (1 keeps B2, 3 keeps B3)
 *     ag 0:  0 <-> 2 (B0, B1), 1 <-> 3 (B2, B3);  ag 1:  0 <-> 1, 2 <-> 3 (B0 B1, B2 B3)
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_K_RSAG = 11 };

/* MPICH's recursive exchange at `size` ranks (see the header). */
struct rsag {
    int k, phases, rem, q, count, block;
};

/* The real rank of step-2 rank n: the sets' last ranks first, then the others shifted. */
static int
real_rank(const struct rsag *x, long long n)
{
    return (int)(n < x->rem / (x->k - 1) ? n * x->k + (x->k - 1) : n + x->rem);
}

/* Step-2 rank s with its base-k digits reversed. */
static long long
reversed(const struct rsag *x, long long s)
{
    long long r = 0;
    for (int i = 0; i < x->phases; i++, s /= x->k)
        r = r * x->k + s % x->k;
    return r;
}

/* The first item of block b (b = q gives count). */
static int
block_start(const struct rsag *x, long long b)
{
    return b >= x->q ? x->count : (int)(b * x->block);
}

/* The aligned group of `span` blocks holding block b: its first item and its item count. */
static int
group(const struct rsag *x, long long b, long long span, int *len)
{
    long long first = b - b % span;
    int start = block_start(x, first);
    *len = block_start(x, first + span) - start;
    return start;
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

/* k^i */
static long long
power_of_k(const struct rsag *x, int i)
{
    long long power = 1;
    while (i-- > 0)
        power *= x->k;
    return power;
}

/* Base-k digit i of step-2 rank s. */
static int
digit(const struct rsag *x, long long s, int i)
{
    return (int)(s / power_of_k(x, i) % x->k);
}

/* The step-2 rank whose digit i is d and whose other digits are those of s. */
static long long
partner(const struct rsag *x, long long s, int i, int d)
{
    return s + (d - digit(x, s, i)) * power_of_k(x, i);
}

int
coll_allreduce_k_reduce_scatter_allgather(const void *sendbuf, void *recvbuf, int count,
                                          MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                          const struct coll_params *params)
{
    int rank, size, rc, nrecvs = 0, T, nreq = 0, len;
    struct rsag x;
    long long s, span;
    void *tmp, *tmp_mem = NULL;
    MPI_Request *reqs = NULL;

    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;
    x.k = params != NULL && params->radix >= 2 ? params->radix : 4;
    if (size < x.k)
        x.k = size > 2 ? size : 2;
    x.q = 1;
    x.phases = 0;
    while ((long long)x.q * x.k <= size) {
        x.q *= x.k;
        x.phases++;
    }
    x.rem = size - x.q;
    x.count = count;
    x.block = count / x.q;
    T = (int)((long long)x.rem * x.k / (x.k - 1));

    if (rank < T && rank % x.k != x.k - 1) {
        int sendto = rank + (x.k - 1 - rank % x.k);
        if (sendto > T - 1)
            sendto = T;
        rc = MPI_Send(recvbuf, count, datatype, sendto, TAG_K_RSAG, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(recvbuf, count, datatype, sendto, TAG_K_RSAG, comm, MPI_STATUS_IGNORE);
        return rc;
    }

    if (rank < T) {
        nrecvs = x.k - 1;
        s = rank / x.k;
    } else {
        s = rank - x.rem;
        if (rank == T && T >= 1 && (T - 1) % x.k != x.k - 1)
            nrecvs = (T - 1) % x.k + 1;
    }
    tmp = coll_tmp_alloc(count, datatype, &tmp_mem);
    reqs = malloc(sizeof *reqs * 2 * (size_t)(x.k - 1)); /* nrecvs <= k-1 */
    if (tmp == NULL || reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }

    /* step 1: the set's vectors, nearest first, each received and folded in turn */
    for (int i = 1; i <= nrecvs && rc == MPI_SUCCESS; i++) {
        rc = MPI_Recv(tmp, count, datatype, rank - i, TAG_K_RSAG, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Reduce_local(tmp, recvbuf, count, datatype, op);
    }
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* reduce-scatter: phase i keeps 1/k of the groups kept so far, partners one at a time */
    span = x.q;
    for (int phase = 0; phase < x.phases; phase++) {
        int own = digit(&x, s, phase);
        span /= x.k;
        for (int d = 0; d < x.k && rc == MPI_SUCCESS; d++) {
            if (d == own)
                continue;
            long long t = partner(&x, s, phase, d);
            int out_len, in_len;
            int out = group(&x, reversed(&x, t), span, &out_len);
            int in = group(&x, reversed(&x, s), span, &in_len);
            nreq = 0;
            rc = MPI_Isend(coll_item(recvbuf, out, datatype), out_len, datatype, real_rank(&x, t),
                           TAG_K_RSAG, comm, &reqs[nreq]);
            nreq += rc == MPI_SUCCESS;
            if (rc == MPI_SUCCESS) {
                rc = MPI_Irecv(coll_item(tmp, in, datatype), in_len, datatype, real_rank(&x, t),
                               TAG_K_RSAG, comm, &reqs[nreq]);
                nreq += rc == MPI_SUCCESS;
            }
            rc = wait_all(rc, nreq, reqs);
            if (rc == MPI_SUCCESS && in_len > 0)
                rc = MPI_Reduce_local(coll_item(tmp, in, datatype),
                                      coll_item(recvbuf, in, datatype), in_len, datatype, op);
        }
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* allgather: the groups grow by k per phase, the farthest partners (last digit) first */
    span = 1;
    for (int phase = x.phases - 1; phase >= 0; phase--, span *= x.k) {
        int own = digit(&x, s, phase);
        int mine = group(&x, reversed(&x, s), span, &len);
        nreq = 0;
        for (int d = 0; d < x.k && rc == MPI_SUCCESS; d++) {
            if (d == own)
                continue;
            long long t = partner(&x, s, phase, d);
            int in_len, in = group(&x, reversed(&x, t), span, &in_len);
            rc = MPI_Irecv(coll_item(recvbuf, in, datatype), in_len, datatype, real_rank(&x, t),
                           TAG_K_RSAG, comm, &reqs[nreq]);
            nreq += rc == MPI_SUCCESS;
        }
        /* the sends in the rotated order of the digit (see the header) */
        for (int j = 1; j < x.k && rc == MPI_SUCCESS; j++) {
            long long t = partner(&x, s, phase, (own + j) % x.k);
            rc = MPI_Isend(coll_item(recvbuf, mine, datatype), len, datatype, real_rank(&x, t),
                           TAG_K_RSAG, comm, &reqs[nreq]);
            nreq += rc == MPI_SUCCESS;
        }
        rc = wait_all(rc, nreq, reqs);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* step 3: the result to the ranks of the set */
    nreq = 0;
    for (int i = 1; i <= nrecvs && rc == MPI_SUCCESS; i++) {
        rc = MPI_Isend(recvbuf, count, datatype, rank - i, TAG_K_RSAG, comm, &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    rc = wait_all(rc, nreq, reqs);

out_free:
    free(reqs);
    free(tmp_mem);
    return rc;
}
