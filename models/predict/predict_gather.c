/*
 * predict_gather.c — α-β predictions of gather and gatherv (src/coll/gather/,
 * src/coll/gatherv/): linear, binomial, Open MPI's linear_sync, and gather's smp on
 * single-core hosts (the binomial gatherv's). n is one rank's block; the v variants take
 * equal blocks. gather_binomial also serves allgather's gather_bcast (declared in
 * predict_core.h).
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* linear gather(v): every rank sends its block to the root, which has posted all receives
 * (MPI_Irecv, then MPI_Waitall): fan_in_posted, eager α + (p-1)·max(n,1)β, rendezvous
 * 2α + (p-1)(n+1)β. TEXTBOOK (p-1)(α + nβ). Exact. */
static double
gather_linear(const struct ctx *c)
{
    return fan_in_posted(c, c->p - 1, c->n);
}

/* binomial gather: node r receives from r + 1, r + 2, r + 4 … their subtrees' blocks, then
 * sends its own subtree's to its parent. TEXTBOOK at p = 2^F: Fα + (p-1)nβ. COLLSIM: the
 * tree evaluator (a node's children arriving together share its link). Exact. */
double
gather_binomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, 0, c->n, 0);
}

/* binomial gatherv: as gather, but a rank whose parent is not the root first tells it how
 * many bytes its subtree holds (one int, one more message through its port). Exact. */
static double
gatherv_binomial(const struct ctx *c)
{
    return tree_time(c, TREE_KNOMIAL, c->p, 2, 0, c->n, 0.0, TRUE, TRUE);
}

/*
 * linear_sync (Open MPI): for each rank in turn the root sends an empty invitation and waits
 * for the rank's first segment (f = min(segment_bytes, n) bytes); the rest (n - f) follows
 * from that rank into a receive posted beforehand, while the root goes on with the next
 * rank. TEXTBOOK (p-1)(2α + nβ), plus (p-1)α when n > f. COLLSIM, rank after rank: the
 * invitation leaves the root's NIC, lands msg(0) later, the first segment lands msg(f)
 * after that (the rank's NIC idle), the rest leaves once the rank's NIC has sent the first
 * (eager) or after it has arrived (rendezvous). Every byte crosses the root's link, so the
 * end is also no earlier than the first segment's latency plus (p-1)nβ: the larger of the
 * two. Approximate: how the rests and the next ranks' first segments share the root's link
 * in between is not followed.
 */
static double
gather_linear_sync(const struct ctx *c)
{
    double f = MIN(c->seg, c->n), rest = c->n - f;
    if (c->textbook)
        return (c->p - 1) * (2.0 * c->a + c->n * c->b + (rest > 0 ? c->a : 0.0));
    double t = 0.0, port = 0.0, end = 0.0;
    for (int i = 1; i < c->p; i++) {
        double leave = MAX(t, port);
        port = leave + MAX(c->os, inject(c, 0));
        double invited = leave + msg(c, 0);
        t = invited + msg(c, f);
        if (rest > 0) {
            double rest_leave = is_eager(c, f) ? invited + MAX(c->os, inject(c, f)) : t;
            end = MAX(end, rest_leave + msg(c, rest));
        }
    }
    double first_latency = msg(c, 0) + msg(c, f) - f * c->b;
    double link_bound = first_latency + (c->p - 1) * c->n * c->b;
    return MAX(MAX(t, end), link_bound);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_gather[] = {
    {"gather", "linear", gather_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"gather", "binomial", gather_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "lg p a + (p-1) n b"},
    {"gather", "linear_sync", gather_linear_sync,
     ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO | APPROXIMATE,
     "(p-1)(2a + n b), plus (p-1) a when n > s (the first segment)"},
    {"gather", "smp", gatherv_binomial,
     NODE_AWARE | ROOTED | RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 b) per rank whose parent is not the root (one rank per node)"},
};
const gsize predict_rows_gather_count = G_N_ELEMENTS(predict_rows_gather);

const struct predict_row predict_rows_gatherv[] = {
    {"gatherv", "linear", gather_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"gatherv", "binomial", gatherv_binomial, ROOTED | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 b) from each rank whose parent is not the root"},
};
const gsize predict_rows_gatherv_count = G_N_ELEMENTS(predict_rows_gatherv);
