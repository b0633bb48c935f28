/*
 * predict_reduce.c — α-β-γ predictions of the reduce algorithms (src/coll/reduce/): chain,
 * linear, trees (binomial, k-nomial, in-order binary), pipelines (chain, binary), rabenseifner,
 * Open MPI's segmented binary tree and fan-out chains, and smp on single-core hosts. n is the whole buffer; γ is charged n·γ per fold.
 * reduce_in_order_binary_to also serves allreduce's reduce_bcast and reduce_scatter's
 * reduce_scatterv (declared in predict_core.h).
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* chain (the seed's): 0 -> 1 -> … -> p-1, each rank adding its contribution, then p-1 sends
 * the result to the root: (p-1)(msg(n) + nγ) + [root != p-1]·msg(n).
 * TEXTBOOK (p-1)(α + nβ + nγ) + [root != p-1](α + nβ). */
static double
reduce_chain(const struct ctx *c)
{
    double time = (c->p - 1) * (msg(c, c->n) + reduce_gamma(c));
    return c->root != c->p - 1 ? time + msg(c, c->n) : time;
}

/* linear: the root receives every contribution in rank order, folding each as it comes.
 * TEXTBOOK (p-1)(α + nβ + nγ). COLLSIM: eager α + (p-1)nβ + (p-1)nγ (all arrive together);
 * rendezvous α + (p-1)β + (p-1)(α + nβ + nγ). */
static double
reduce_linear(const struct ctx *c)
{
    return fan_in_equal(c, c->p - 1, c->n, reduce_gamma(c));
}

/* binomial: node r receives from r + 1, r + 2, r + 4 … (ascending), reducing after each, then
 * sends to its parent. TEXTBOOK (one-port) L(α + nβ + nγ) (Thakur et al.). COLLSIM at
 * p = 2^F: F(msg(n) + nγ); otherwise fewer hops (the tree is F deep) but L reductions at the
 * root, and children arriving together share its link. */
static double
reduce_binomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, c->n, -1, reduce_gamma(c));
}

/* knomial: as binomial with k-1 children per level: at p = k^d, TEXTBOOK d(k-1)(α + nβ + nγ). */
static double
reduce_knomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, c->radix, c->n, -1, reduce_gamma(c));
}

/* in_order_binary (Open MPI's in-order binary tree): the tree's root is rank p-1 and the root
 * of a subtree of s ranks has subtrees of ⌈(s-1)/2⌉ (lower ranks, received first) and
 * ⌊(s-1)/2⌋ ranks, F levels; each node receives and reduces both, then the result goes to the
 * root if it is not p-1. TEXTBOOK at p = 2^(F+1) - 1: 2F(α + nβ + nγ) + [root != p-1](α + nβ).
 * COLLSIM: children whose messages are in flight together share the node's link. */
double
reduce_in_order_binary_to(const struct ctx *c, int root)
{
    double time = tree_up_time(c, TREE_IN_ORDER, c->p, 2, c->n, -1, reduce_gamma(c));
    return root != c->p - 1 ? time + msg(c, c->n) : time;
}

static double
reduce_in_order_binary(const struct ctx *c)
{
    return reduce_in_order_binary_to(c, c->root);
}

/* pipeline_chain: the chain 0 -> … -> p-1 -> root in segments: see pipeline_chain(). */
static double
reduce_pipeline_chain(const struct ctx *c)
{
    if (c->textbook || !is_eager(c, MIN(c->n, c->seg)))
        return pipeline_chain(c, c->p - 1, c->n, c->g, c->root != c->p - 1);
    /* eager segments, one port: as the broadcast's pipeline, each rank reducing a segment
     * before forwarding it; approximate: a queued send whose port frees while the rank is
     * reducing the next segment leaves only when the reduction ends */
    return pipelined_tree_reducing(c, PIPE_CHAIN, c->n, c->g, c->root != c->p - 1);
}

/*
 * pipeline_binary: the in-order binary tree (F levels, f = min(2, p-1) children) in segments;
 * per segment a node receives from its children and reduces each.
 * TEXTBOOK: (F + S - 1)·f(α + sβ + sγ) + [root != p-1](α + sβ).
 * COLLSIM (approximate): rendezvous segments: the same with msg(s) for α + sβ; eager segments
 * travel together: F(α + f·nβ + f·nγ) + [root != p-1]·msg(n).
 */
static double
reduce_pipeline_binary(const struct ctx *c)
{
    double s;
    double S = segments(c, c->n, &s);
    double f = MIN(2, c->p - 1), H = floor_log2(c->p);
    gboolean tail = c->root != c->p - 1;
    if (c->textbook)
        return (H + S - 1.0) * f * (c->a + s * c->b + s * c->g) + tail * (c->a + s * c->b);
    if (is_eager(c, s))
        return H * (c->a + f * wire(c, c->n) * c->b + f * c->n * c->g) + tail * msg(c, c->n);
    return (H + S - 1.0) * f * (msg(c, s) + s * c->g) + tail * msg(c, s);
}

/*
 * Thakur et al.'s TEXTBOOK rows of Rabenseifner's reduce and allreduce, which differ only in
 * what a non-pof2 p adds (`extra`: 1 for reduce, the fold; 2 for allreduce, the fold and the
 * result sent back):
 *   p = 2^F: 2Fα + 2((p-1)/p)nβ + ((p-1)/p)nγ
 *   else:    (2F + extra)α + (2(p-1)/p + extra)nβ + (1 + (p-1)/p)nγ
 */
double
rabenseifner_textbook(const struct ctx *c, double extra)
{
    int p = c->p, F = floor_log2(p);
    double frac = (p - 1.0) / p;
    if (is_pof2(p))
        return 2.0 * F * c->a + 2.0 * frac * c->n * c->b + frac * c->n * c->g;
    return (2.0 * F + extra) * c->a + (2.0 * frac + extra) * c->n * c->b +
           (1.0 + frac) * c->n * c->g;
}

/*
 * rabenseifner: reduce-scatter by recursive halving, then a binomial gather of the p2 pieces
 * of n/p2 to the root. Non-pof2: first the 2r lowest ranks pair up, even sending its whole
 * vector to odd (msg(n) + nγ). TEXTBOOK: Thakur et al.'s rows verbatim:
 *   p = 2^F: 2Fα + 2((p-1)/p)nβ + ((p-1)/p)nγ
 *   else:    (2F + 1)α + (2(p-1)/p + 1)nβ + (1 + (p-1)/p)nγ
 */
static double
reduce_rabenseifner(const struct ctx *c)
{
    int p = c->p, F = floor_log2(p), q = 1 << F;
    if (c->textbook)
        return rabenseifner_textbook(c, 1.0);
    double time = is_pof2(p) ? 0.0 : msg(c, c->n) + reduce_gamma(c);
    time += recursive_halving(c, q, c->n);
    return time + tree_up_time(c, TREE_KNOMIAL, q, 2, 0, c->n / q, 0);
}

/* smp on single-core hosts (predict_bcast.c, bcast_smp, says why).
 * Rabenseifner needs one item per node: assumed here for n > 2 KiB (items of at most
 * n / p bytes), hence APPROXIMATE. */
static double
reduce_smp(const struct ctx *c)
{
    return c->n > 2048 ? reduce_rabenseifner(c) : reduce_binomial(c);
}

/*
 * binary (Open MPI's binary tree rooted at the root, in segments): F = ⌊lg p⌋ levels below the
 * root, f = min(2, p-1) children per node, S segments of s bytes; per segment a node receives
 * and reduces each child's. No trip to the root: the tree's top is the root.
 * TEXTBOOK: (F + S - 1)·f(α + sβ + sγ).
 * COLLSIM (approximate): rendezvous segments: (F + S - 1)(msg(s) + (f-1)sβ + f·sγ), the
 * children's segments sharing the node's link; eager segments travel together:
 * F(α + f·nβ + f·nγ).
 */
static double
reduce_binary(const struct ctx *c)
{
    double s;
    double S = segments(c, c->n, &s);
    double f = MIN(2, c->p - 1), H = floor_log2(c->p);
    if (c->textbook)
        return (H + S - 1.0) * f * (c->a + s * c->b + s * c->g);
    if (is_eager(c, s))
        return H * (c->a + f * wire(c, c->n) * c->b + f * c->n * c->g);
    /* both children's receives are posted ahead: their segments share the node's link */
    return (H + S - 1.0) * (msg(c, s) + (f - 1.0) * s * c->b + f * s * c->g);
}

/*
 * fanout_chain (Open MPI's chain: k = min(radix, p-1) chains of h = ⌈(p-1)/k⌉ ranks into the
 * root, in segments): a segment climbs h hops, reduced at each; the root receives and reduces
 * k segments per step. TEXTBOOK: (h - 1 + S)(α + sβ + sγ) + (k - 1)S(α + sβ + sγ).
 * COLLSIM (approximate): the segments pipeline along the chains and the heads' streams share
 * the root's link: (h - 1 + S)(msg(s) + sγ) + (k - 1)S·s(β + γ).
 */
static double
reduce_fanout_chain(const struct ctx *c)
{
    double s;
    double S = segments(c, c->n, &s);
    int k = MAX(1, MIN(c->radix > 0 ? c->radix : 1, c->p - 1));
    double h = c->p > 1 ? (double)((c->p - 1 + k - 1) / k) : 0.0;
    if (c->p <= 1)
        return 0.0;
    if (c->textbook)
        return (h - 1.0 + S + (k - 1.0) * S) * (c->a + s * c->b + s * c->g);
    /* the heads' segments share the root's link */
    return (h - 1.0 + S) * (msg(c, s) + s * c->g) + (k - 1.0) * S * s * (c->b + c->g);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_reduce[] = {
    {"reduce", "chain", reduce_chain, RETURNS_AT_ZERO | ROOTED | ONE_WAY,
     "(p-1)(a + n b + n c) + [root != p-1](a + n b)"},
    {"reduce", "linear", reduce_linear, RETURNS_AT_ZERO | ROOTED | ONE_WAY, "(p-1)(a + n b + n c)"},
    {"reduce", "binomial", reduce_binomial, RETURNS_AT_ZERO | ROOTED | ONE_WAY, "ceil(lg p)(a + n b + n c)"},
    {"reduce", "in_order_binary", reduce_in_order_binary, RETURNS_AT_ZERO | ROOTED | APPROXIMATE,
     "2 floor(lg p)(a + n b + n c) + [root != p-1](a + n b) (p = 2^k - 1)"},
    {"reduce", "knomial", reduce_knomial, RETURNS_AT_ZERO | ROOTED | NEEDS_RADIX | APPROXIMATE,
     "(k-1) log_k p (a + n b + n c) (p = k^d)"},
    {"reduce", "pipeline_chain", reduce_pipeline_chain, RETURNS_AT_ZERO | ROOTED | NEEDS_SEGMENT | APPROXIMATE,
     "(p + S - 2)(a + s b + s c) + [root != p-1](a + s b)"},
    {"reduce", "pipeline_binary", reduce_pipeline_binary, RETURNS_AT_ZERO | ROOTED | NEEDS_SEGMENT | APPROXIMATE,
     "2(floor(lg p) + S - 1)(a + s b + s c) + [root != p-1](a + s b)"},
    {"reduce", "rabenseifner", reduce_rabenseifner, RETURNS_AT_ZERO | ROOTED | APPROXIMATE_NON_POF2,
     "2 lg p a + 2((p-1)/p) n b + ((p-1)/p) n c (pof2); "
     "(2 floor(lg p) + 1) a + (2(p-1)/p + 1) n b + (1 + (p-1)/p) n c otherwise"},
    {"reduce", "binary", reduce_binary, RETURNS_AT_ZERO | ROOTED | NEEDS_SEGMENT | APPROXIMATE,
     "2(floor(lg p) + S - 1)(a + s b + s c)"},
    {"reduce", "fanout_chain", reduce_fanout_chain,
     RETURNS_AT_ZERO | ROOTED | NEEDS_SEGMENT | NEEDS_RADIX | APPROXIMATE,
     "(h - 1 + k S)(a + s b + s c), k = min(radix, p-1) chains of h = ceil((p-1)/k) ranks"},
    {"reduce", "smp", reduce_smp,
     NODE_AWARE | RETURNS_AT_ZERO | ROOTED | APPROXIMATE,
     "binomial up to 2 KiB, else rabenseifner (one rank per node)"},
};
const gsize predict_rows_reduce_count = G_N_ELEMENTS(predict_rows_reduce);
