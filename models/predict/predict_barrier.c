/*
 * predict_barrier.c — α-β predictions of the barrier algorithms (src/coll/barrier/):
 * linear, dissemination, binomial, recursive_doubling, double_ring, and smp on single-core
 * hosts (the dissemination barrier's). A barrier moves no data: n is ignored and every
 * message is empty (one byte on collsim's wire).
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

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_barrier[] = {
    {"barrier", "linear", barrier_linear, ONE_WAY, "2(p-1)a"},
    {"barrier", "dissemination", barrier_dissemination, SYMMETRIC, "ceil(lg p) a"},
    {"barrier", "binomial", barrier_binomial, ONE_WAY, "2 ceil(lg p) a"},
    {"barrier", "recursive_doubling", barrier_recursive_doubling, SYMMETRIC | APPROXIMATE_NON_POF2,
     "lg p a (pof2); (floor(lg p) + 2) a otherwise"},
    {"barrier", "double_ring", barrier_double_ring, ONE_WAY, "2p a"},
    {"barrier", "smp", barrier_dissemination, NODE_AWARE | SYMMETRIC,
     "ceil(lg p) a (one rank per node)"},
};
const gsize predict_rows_barrier_count = G_N_ELEMENTS(predict_rows_barrier);
