/*
 * predict_barrier.c — α-β predictions of the barrier algorithms (src/coll/barrier/):
 * linear, dissemination, binomial, recursive_doubling, double_ring, the libraries' two_proc,
 * tree, k_dissemination and recexch, and smp on single-core hosts (the dissemination
 * barrier's). A barrier moves no data: n is ignored and every message is empty (one byte on
 * collsim's wire).
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* linear: the p-1 others send an empty message (one byte) to rank 0 at once, which then
 * releases them one after the other.
 * TEXTBOOK 2(p-1)α. COLLSIM: the one-byte messages share rank 0's link and all arrive at
 * α + (p-1)β; the releases leave one at a time: pα + 2(p-1)β. Exact. */
static double
barrier_linear(const struct ctx *c)
{
    return fan_in_equal(c, c->p - 1, 0, 0) + fan_out_equal(c, c->p - 1, 0);
}

/* dissemination: L rounds; in round k every rank sends an empty message to r + 2^k and
 * receives one from r - 2^k (a shift): L·xmsg(0) = L(α + (1+x)β) in COLLSIM. Exact. */
static double
barrier_dissemination(const struct ctx *c)
{
    return ceil_log2(c->p) * xmsg(c, 0);
}

/* binomial: empty messages up a binomial tree to rank 0 (children nearest first), then down
 * it (farthest first). TEXTBOOK 2Lα. COLLSIM: the tree evaluators (arrivals sharing a
 * parent's link; releases one after the other); at p = 2^F, 2F(α + β). Exact. */
static double
barrier_binomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, 0, -1, 0) + knomial_down(c, c->p, 2, 0, -1);
}

/*
 * The exchange rounds of a recursive-doubling pattern among q = 2^F ranks starting at
 * start[0..q) (start is updated to the end times): in round k rank r sends a message of m
 * bytes to r xor 2^k and receives one from it (MPI_Sendrecv): a rank's message leaves at
 * max(its start of the round, the time its NIC has sent the previous message's bytes).
 * `port` holds when each rank's NIC is free (updated). Eager messages only, no cross
 * traffic (the partners' messages may not overlap).
 */
static void
exchange_rounds(const struct ctx *c, int q, double m, double *start, double *port)
{
    double cost = msg(c, m), busy = c->textbook ? cost : inject(c, m);
    double *launch = g_new(double, q);
    for (int mask = 1; mask < q; mask <<= 1) {
        for (int r = 0; r < q; r++) {
            launch[r] = MAX(start[r], port[r]);
            port[r] = launch[r] + busy;
        }
        for (int r = 0; r < q; r++)
            start[r] = MAX(start[r], launch[r ^ mask] + cost);
    }
    g_free(launch);
}

/* recursive_doubling: p = 2^F: F pairwise exchanges (r xor 2^k) of empty messages:
 * F·xmsg(0). Otherwise the r = p - p2 ranks above p2 first send to r - p2 (one message); the
 * p2 low ranks exchange F times, those with a partner above starting one message late (an
 * O(p log p) evaluation of the rounds with one port); then they release the partners.
 * TEXTBOOK (F + 2)α. COLLSIM exact without cross traffic. */
static double
barrier_recursive_doubling(const struct ctx *c)
{
    int p = c->p, F = floor_log2(p), q = 1 << F, extra = p - q;
    if (is_pof2(p))
        return F * xmsg(c, 0);
    if (c->textbook)
        return (F + 2.0) * c->a;
    double *start = g_new(double, q), *port = g_new0(double, q);
    for (int r = 0; r < q; r++)
        start[r] = r < extra ? msg(c, 0) : 0.0;
    exchange_rounds(c, q, 0, start, port);
    double end = 0.0;
    for (int r = 0; r < q; r++) {
        end = MAX(end, start[r]);
        if (r < extra)
            end = MAX(end, MAX(start[r], port[r]) + msg(c, 0));
    }
    g_free(start);
    g_free(port);
    return end;
}

/* double_ring: a token goes round the ring 0 -> 1 -> … -> p-1 -> 0 twice: 2p messages, each
 * sent when the previous has arrived: 2p·msg(0). Exact. */
static double
barrier_double_ring(const struct ctx *c)
{
    return 2.0 * c->p * msg(c, 0);
}

/* two_proc: both ranks send an empty message to the other at once: xmsg(0). TEXTBOOK α.
 * Exact. */
static double
barrier_two_proc(const struct ctx *c)
{
    return xmsg(c, 0);
}

/*
 * One round of k-1 empty messages out of every rank and k-1 into it, all ranks alike: a
 * rank's messages leave one after the other (each once the NIC has sent the previous one's
 * byte, or after o_s), the last landing xmsg(0) after it left; the k-1 arriving at a rank
 * come from k-1 senders each at a different place in its queue, so they do not overlap.
 * TEXTBOOK (k-1)α (one port).
 */
static double
round_of_k(const struct ctx *c, int k)
{
    if (c->textbook)
        return (k - 1) * c->a;
    return xmsg(c, 0) + (k - 2) * MAX(c->os, inject(c, 0));
}

/* k_dissemination: k cut to p; ⌈log_k p⌉ rounds of round_of_k (a round's sends leave once
 * the previous round's messages are in). k = 2 is the dissemination barrier. Exact. */
static double
barrier_k_dissemination(const struct ctx *c)
{
    int k = MIN(c->radix, c->p), phases = 0;
    for (long long pk = 1; pk < c->p; pk *= k)
        phases++;
    return phases * round_of_k(c, k);
}

/*
 * recexch: k cut to max(p, 2) when p < k; m the largest power of k not above p, r = p - m.
 * log_k m rounds of round_of_k among the m participants; when r > 0, before them the
 * participants wait for up to k-1 empty messages sent together (fan_in_posted), and after
 * them they release those ranks (fan_out_posted). TEXTBOOK log_k m·(k-1)α + 2(k-1)α when
 * r > 0. COLLSIM approximate when r > 0: participants without a step-1 sender start their
 * exchanges early and some of the groups are smaller than k-1.
 */
static double
barrier_recexch(const struct ctx *c)
{
    int k = c->p < c->radix ? MAX(c->p, 2) : c->radix, phases = 0;
    long long m = 1;
    while (m * k <= c->p) {
        m *= k;
        phases++;
    }
    double t = phases * round_of_k(c, k);
    if (c->p == m)
        return t;
    if (c->textbook)
        return t + 2.0 * (k - 1) * c->a;
    guint senders = (guint)MIN((long long)k - 1, c->p - m);
    return fan_in_posted(c, senders, 0) + t + fan_out_posted(c, senders, 0);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_barrier[] = {
    {"barrier", "linear", barrier_linear, ONE_WAY, "2(p-1)a"},
    {"barrier", "dissemination", barrier_dissemination, SYMMETRIC, "ceil(lg p) a"},
    {"barrier", "binomial", barrier_binomial, ONE_WAY, "2 ceil(lg p) a"},
    {"barrier", "recursive_doubling", barrier_recursive_doubling, SYMMETRIC | APPROXIMATE_NON_POF2,
     "lg p a (pof2); (floor(lg p) + 2) a otherwise"},
    {"barrier", "double_ring", barrier_double_ring, ONE_WAY, "2p a"},
    {"barrier", "two_proc", barrier_two_proc, SYMMETRIC, "a (p = 2)"},
    {"barrier", "tree", barrier_binomial, ONE_WAY, "2 ceil(lg p) a"},
    {"barrier", "k_dissemination", barrier_k_dissemination, NEEDS_RADIX | SYMMETRIC,
     "ceil(log_k p)(k-1) a"},
    {"barrier", "recexch", barrier_recexch, NEEDS_RADIX | APPROXIMATE,
     "log_k m (k-1) a, plus 2(k-1) a when p is not a power of k (m = k^floor(log_k p))"},
    {"barrier", "smp", barrier_dissemination, NODE_AWARE | SYMMETRIC,
     "ceil(lg p) a (one rank per node)"},
};
const gsize predict_rows_barrier_count = G_N_ELEMENTS(predict_rows_barrier);
