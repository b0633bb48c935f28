/*
 * predict_alltoall.c — α-β predictions of alltoall, alltoallv and alltoallw
 * (src/coll/alltoall/, alltoallv/, alltoallw/): pairwise, bruck, linear, ring, linear_sync,
 * two_proc, scattered, k_bruck, pairwise_sendrecv_replace, 2dmesh, 3dmesh, pair_mpi_barrier,
 * ring_mpi_barrier. n is the block sent to one destination; the v and w rows take equal
 * blocks and share alltoall's formulas.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* pairwise: p-1 exchanges; at step k rank r sends its block to r xor k (p = 2^F) or r + k and
 * receives from r xor k or r - k: (p-1)·xmsg(n). TEXTBOOK (p-1)(α + nβ) (Thakur et al. write
 * nβ for the p-1 blocks sent, n their total). Exact. */
static double
alltoall_pairwise(const struct ctx *c)
{
    return (c->p - 1) * xmsg(c, c->n);
}

/* bruck: L rounds; in round k every rank sends the blocks whose index has bit k set,
 * cnt_k = #{j < p : bit k of j is 1} (p/2 at p = 2^F), to r + 2^k.
 * TEXTBOOK at p = 2^F: Fα + F(p/2)nβ (Thakur et al.'s lg p α + (n/2) lg p β, n = pn here).
 * Exact. */
static double
alltoall_bruck(const struct ctx *c)
{
    double time = 0.0;
    for (int k = 0; k < ceil_log2(c->p); k++) {
        long long period = 1LL << (k + 1), half = 1LL << k, p = c->p;
        long long cnt = (p / period) * half + MAX(0LL, p % period - half);
        time += xmsg(c, (double)cnt * c->n);
    }
    return time;
}

/* linear: every rank posts all its receives and sends at once (to r - 1, r - 2, …), then
 * waits for them all. TEXTBOOK (one port) (p-1)(α + nβ). COLLSIM eager: each NIC sends its
 * p-1 messages back to back and every link carries as many in as out (plus the reverse
 * traffic): α + (p-1)·max(n,1)β(1+x). Rendezvous:
 * as the linear scatter's (isend_rendezvous), every link carrying the same flows by
 * symmetry, β(1+x) for the reverse traffic. Exact. */
static double
alltoall_linear(const struct ctx *c)
{
    double k = c->p - 1;
    if (c->textbook)
        return k * (c->a + c->n * c->b);
    if (is_eager(c, c->n))
        return c->a + k * wire(c, c->n) * c->b * (1.0 + c->x) + (k - 1) * (c->os + c->orr);
    return isend_rendezvous(c, (guint)k, c->n, c->b * (1.0 + c->x));
}

/* ring: at step k = 1 … p-1 rank r sends to r + k and receives from r - k: as pairwise. */
static double
alltoall_ring(const struct ctx *c)
{
    return alltoall_pairwise(c);
}

/* k receives and k sends posted at once by every rank, then one wait (a batch of the linear
 * algorithm): as alltoall_linear with k in place of p-1. */
static double
posted_batch(const struct ctx *c, double k)
{
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + c->n * c->b);
    if (is_eager(c, c->n))
        return c->a + k * wire(c, c->n) * c->b * (1.0 + c->x) + (k - 1) * (c->os + c->orr);
    return isend_rendezvous(c, (guint)k, c->n, c->b * (1.0 + c->x));
}

/* linear_sync: the linear algorithm with at most k = radix receives and k sends in flight.
 * TEXTBOOK (one port) (p-1)(α + nβ). COLLSIM: k >= p-1 posts everything at once, the linear
 * algorithm (exact); otherwise eager sends complete at once and the late receives find their
 * data buffered, so the linear time again, while rendezvous transfers go in ⌈(p-1)/k⌉ waves
 * of k. Approximate: a freed slot is refilled at once, so the waves overlap. */
static double
alltoall_linear_sync(const struct ctx *c)
{
    double peers = c->p - 1, k = MIN((double)c->radix, peers), time = 0.0;
    if (c->textbook || k >= peers || is_eager(c, c->n))
        return alltoall_linear(c);
    for (double left = peers; left > 0; left -= k)
        time += posted_batch(c, MIN(k, left));
    return time;
}

/* two_proc: one exchange with the other rank: (p-1)·xmsg(n) = xmsg(n) at p = 2, the only size
 * it runs at. TEXTBOOK α + nβ. Exact. */
static double
alltoall_two_proc(const struct ctx *c)
{
    return (c->p - 1) * xmsg(c, c->n);
}

/* scattered: batches of k = radix receives and sends (the first one k-1: the own block is a
 * local copy), every rank waiting for its whole batch before the next: Σ over the batches of
 * the linear algorithm's time for that many transfers. TEXTBOOK (p-1)(α + nβ). Exact (every
 * rank does the same at the same time; at k >= p it is the linear algorithm). */
static double
alltoall_scattered(const struct ctx *c)
{
    double time = 0.0;
    for (int ii = 0; ii < c->p; ii += c->radix) {
        int ss = MIN(c->radix, c->p - ii);
        time += posted_batch(c, ii == 0 ? ss - 1 : ss);
    }
    return time;
}

/* How many of the slots 1 … p-1 have base-k digit `d` at the place of weight `delta`. */
static double
digit_slots(long long p, long long k, long long delta, long long d)
{
    long long period = delta * k, cnt = (p / period) * delta;
    cnt += MIN(MAX(0LL, p % period - d * delta), delta);
    return (double)cnt;
}

/* k_bruck: L_k = ⌈log_k p⌉ rounds; in round i every rank posts, for each digit d = 1 … k-1 with
 * slots, one message of cnt_d blocks to r + d·k^i (and the matching receive), then waits.
 * TEXTBOOK: a rank's k-1 messages one after the other, Σ (α + cnt_d nβ); at p = k^F,
 * F(k-1)(α + (p/k)nβ). COLLSIM: one message a round (k = 2, or a round with one digit in use)
 * costs xmsg; eager messages leave back to back, α + Σ cnt_d·nβ(1+x); rendezvous ones flow
 * together (isend_rendezvous of the largest). Approximate where messages of different sizes
 * or protocols share a round. */
static double
alltoall_k_bruck(const struct ctx *c)
{
    long long k = MIN((long long)c->radix, (long long)MAX(c->p, 2));
    double total = 0.0;
    for (long long delta = 1; delta < c->p; delta *= k) {
        double bytes = 0.0, largest = 0.0, round = 0.0;
        guint m = 0;
        for (long long d = 1; d < k; d++) {
            double slots = digit_slots(c->p, k, delta, d), b = slots * c->n;
            if (slots == 0)
                continue;
            m++;
            bytes += wire(c, b);
            largest = MAX(largest, b);
            round += msg(c, b);
        }
        if (c->textbook)
            total += round;
        else if (m == 1)
            total += xmsg(c, largest);
        else if (is_eager(c, largest))
            total += c->a + bytes * c->b * (1.0 + c->x) + (m - 1) * (c->os + c->orr);
        else
            total += isend_rendezvous(c, m, largest, c->b * (1.0 + c->x));
    }
    return total;
}

/* pairwise_sendrecv_replace: pair (i, j) swaps once rank i has done (i, j-1) and rank j has
 * done (i-1, j); with every exchange taking one step, (i, j) ends at step i + j, the last one
 * (p-2, p-1) at 2p-3: (2p-3)·xmsg(n). TEXTBOOK (2p-3)(α + nβ). Approximate: an eager message
 * does not wait for its receiver, so a rank runs ahead of the wavefront. */
static double
alltoall_pairwise_sendrecv_replace(const struct ctx *c)
{
    return c->p < 2 ? 0.0 : (2.0 * c->p - 3.0) * xmsg(c, c->n);
}

/* A mesh step among a group of k+1 ranks, each posting its k receives and then sending m bytes
 * to the others with blocking sends in the group's order (SMPI's: the lowest first, itself
 * skipped). Eager messages leave every NIC back to back, α + k·max(m,1)β(1+x), whatever their
 * receivers. Rendezvous ones wait for their data to arrive: at step s every rank j > s sends to
 * rank s and every j <= s to rank s+1, so up to max(k-s, s+1) transfers share a receiver's
 * link, and a sender's next message waits for that: Σ_s of that many messages' bytes.
 * TEXTBOOK k(α + mβ). */
static double
mesh_step(const struct ctx *c, double k, double m)
{
    double bytes = 0.0;
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b);
    if (is_eager(c, m))
        return c->a + k * wire(c, m) * c->b * (1.0 + c->x) + (k - 1) * (c->os + c->orr);
    for (double s = 0; s < k; s++)
        bytes += MAX(k - s, s + 1) * m;
    return k * (c->a + 2.0 * c->an + 2.0 * c->b * (1.0 + c->x)) + bytes * c->b * (1.0 + c->x);
}

/* Z-1 messages of m bytes from every rank to r + i·(p/Z), i = 1 … Z-1 (blocking sends, receives
 * posted first): every receiver hears one sender at a time, as the linear algorithm but with
 * each rendezvous send waiting for the previous one. TEXTBOOK (Z-1)(α + mβ). */
static double
shifted_sends(const struct ctx *c, double k, double m)
{
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b);
    if (is_eager(c, m))
        return c->a + k * wire(c, m) * c->b * (1.0 + c->x) + (k - 1) * (c->os + c->orr);
    return k * xmsg(c, m);
}

/* 2dmesh: X rows of Y ranks (src/coll/alltoall/alltoall_2dmesh.c: X the least divisor from
 * ⌊√p⌋ up to p/2, swapped to X <= Y; 1 × p when none): Y-1 whole buffers (pn) along the row,
 * then X-1 messages of Y blocks along the column, both in the group's order (mesh_step).
 * TEXTBOOK (Y-1)(α + pnβ) + (X-1)(α + Ynβ). Approximate: the transfers sharing a receiver end
 * at different times, which the formula's steps do not follow. */
static double
alltoall_2dmesh(const struct ctx *c)
{
    int X = 1, Y = c->p, x = 1;
    while ((long long)(x + 1) * (x + 1) <= c->p)
        x++;
    for (; x <= c->p / 2; x++)
        if (c->p % x == 0) {
            X = MIN(x, c->p / x);
            Y = c->p / X;
            break;
        }
    return mesh_step(c, Y - 1, (double)c->p * c->n) + mesh_step(c, X - 1, (double)Y * c->n);
}

/* 3dmesh: Z planes of x × x (src/coll/alltoall/alltoall_3dmesh.c: x the least from ⌊∛p⌋ up to
 * p/3 with x² dividing p; 1 when none): x-1 whole buffers along the row, x-1 messages of x
 * buffers along the column, Z-1 messages of x² blocks between the planes. TEXTBOOK
 * (x-1)(α + pnβ) + (x-1)(α + xpnβ) + (Z-1)(α + x²nβ). Approximate, as 2dmesh (the row and
 * column steps in the group's order, mesh_step; the planes' step shifted, shifted_sends). */
static double
alltoall_3dmesh(const struct ctx *c)
{
    int x = 1, side = 1;
    while ((long long)(x + 1) * (x + 1) * (x + 1) <= c->p)
        x++;
    for (; x <= c->p / 3; x++)
        if (c->p % (x * x) == 0) {
            side = x;
            break;
        }
    double whole = (double)c->p * c->n, planes = c->p / (side * side);
    return mesh_step(c, side - 1, whole) + mesh_step(c, side - 1, side * whole) +
           shifted_sends(c, planes - 1, (double)side * side * c->n);
}

/* pair_mpi_barrier and ring_mpi_barrier: p dissemination barriers (⌈lg p⌉ rounds of empty
 * shifts each, as predict_barrier.c's dissemination) and p-1 exchanges of one block, each
 * after a barrier that leaves every rank at the same instant: p⌈lg p⌉·xmsg(0) +
 * (p-1)·xmsg(n), the exchanges left out when the blocks are empty (the barriers always run).
 * TEXTBOOK p⌈lg p⌉α + (p-1)(α + nβ). Exact. */
static double
alltoall_barrier_steps(const struct ctx *c)
{
    double barriers = (double)c->p * ceil_log2(c->p) * xmsg(c, 0);
    return barriers + (c->n > 0 ? (c->p - 1) * xmsg(c, c->n) : 0.0);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_alltoall[] = {
    {"alltoall", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "bruck", alltoall_bruck, SYMMETRIC | RETURNS_AT_ZERO, "lg p a + lg p (p/2) n b"},
    {"alltoall", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "linear_sync", alltoall_linear_sync,
     NEEDS_RADIX | APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "two_proc", alltoall_two_proc, SYMMETRIC | RETURNS_AT_ZERO, "a + n b"},
    {"alltoall", "scattered", alltoall_scattered, NEEDS_RADIX | SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "k_bruck", alltoall_k_bruck,
     NEEDS_RADIX | APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO,
     "log_k p (k-1) a + log_k p (k-1)(p/k) n b"},
    {"alltoall", "pairwise_sendrecv_replace", alltoall_pairwise_sendrecv_replace,
     APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO, "(2p-3)(a + n b)"},
    {"alltoall", "2dmesh", alltoall_2dmesh, APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO,
     "(Y-1)(a + p n b) + (X-1)(a + Y n b), p = X Y"},
    {"alltoall", "3dmesh", alltoall_3dmesh, APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO,
     "2(x-1) a + (x-1)(x+1) p n b + (Z-1)(a + x^2 n b), p = x^2 Z"},
    {"alltoall", "pair_mpi_barrier", alltoall_barrier_steps, SYMMETRIC,
     "p lg p a + (p-1)(a + n b)"},
    {"alltoall", "ring_mpi_barrier", alltoall_barrier_steps, SYMMETRIC,
     "p ceil(lg p) a + (p-1)(a + n b)"},
};
const gsize predict_rows_alltoall_count = G_N_ELEMENTS(predict_rows_alltoall);

const struct predict_row predict_rows_alltoallv[] = {
    {"alltoallv", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "scattered", alltoall_scattered, NEEDS_RADIX | SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "pairwise_sendrecv_replace", alltoall_pairwise_sendrecv_replace,
     APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO, "(2p-3)(a + n b)"},
    {"alltoallv", "linear_sync", alltoall_linear_sync,
     NEEDS_RADIX | APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "pair_mpi_barrier", alltoall_barrier_steps, SYMMETRIC,
     "p lg p a + (p-1)(a + n b)"},
    {"alltoallv", "ring_mpi_barrier", alltoall_barrier_steps, SYMMETRIC,
     "p ceil(lg p) a + (p-1)(a + n b)"},
};
const gsize predict_rows_alltoallv_count = G_N_ELEMENTS(predict_rows_alltoallv);

const struct predict_row predict_rows_alltoallw[] = {
    {"alltoallw", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "scattered", alltoall_scattered, NEEDS_RADIX | SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "pairwise_sendrecv_replace", alltoall_pairwise_sendrecv_replace,
     APPROXIMATE | SYMMETRIC | RETURNS_AT_ZERO, "(2p-3)(a + n b)"},
};
const gsize predict_rows_alltoallw_count = G_N_ELEMENTS(predict_rows_alltoallw);
