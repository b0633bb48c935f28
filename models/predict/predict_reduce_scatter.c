/*
 * predict_reduce_scatter.c — α-β-γ predictions of reduce_scatter and
 * reduce_scatter_block (src/coll/reduce_scatter/, reduce_scatter_block/): reduce then
 * scatter, recursive_halving, pairwise, ring, recursive_doubling, Open MPI's butterfly and
 * MPICH's noncommutative. n is the whole vector each rank contributes (p blocks
 * of n/p); reduce_scatter_block's rows share reduce_scatter's formulas.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* reduce_scatterv / reduce_scatter: in-order binary reduce to rank 0, then rank 0 sends each
 * rank its block of n/p in turn. */
static double
reduce_scatter_reduce_then_scatter(const struct ctx *c)
{
    return reduce_in_order_binary_to(c, 0) + fan_out_posted(c, (guint)(c->p - 1), c->n / c->p);
}

/* recursive_halving: p = 2^F: Σ_{k=1..F} (xmsg(n/2^k) + (n/2^k)γ);
 * TEXTBOOK Fα + ((p-1)/p)n(β + γ) (Thakur et al.). Non-pof2: pairwise fold of the 2r lowest
 * ranks first (msg(n) + nγ), halving among p2 ranks, then the odd ranks hand the even ones
 * their block (msg(n/p)). */
static double
reduce_scatter_recursive_halving(const struct ctx *c)
{
    int p = c->p, q = 1 << floor_log2(p);
    double time = recursive_halving(c, q, c->n);
    if (!is_pof2(p))
        time += msg(c, c->n) + reduce_gamma(c) + msg(c, c->n / p);
    return time;
}

/* pairwise / ring: p-1 steps, each sending one block of n/p to r + k, receiving one from
 * r - k and reducing it: (p-1)(xmsg(n/p) + (n/p)γ); TEXTBOOK (p-1)α + ((p-1)/p)n(β + γ). */
static double
reduce_scatter_pairwise(const struct ctx *c)
{
    double block = c->n / c->p;
    return (c->p - 1) * (xmsg(c, block) + block * c->g);
}

/*
 * recursive_doubling (order-keeping, MPICH) for p not a power of two, rank by rank
 * (reduce_scatter_recursive_doubling.c): in round `mask` every rank whose partner r xor mask
 * exists sends all blocks but its own subtree's and receives all but the partner subtree's
 * (both cut at p); where the partner subtree is cut short, the ranks that had a partner pass
 * what they received on along a binomial tree inside their subtree; then every rank that
 * received folds it. A forwarded message may share a link with another: approximate.
 */
static double
reduce_scatter_recursive_doubling_clocks(const struct ctx *c)
{
    int p = c->p;
    double block = c->n / p, beta = c->b * (1.0 + c->x);
    struct rank_clocks rc;
    clocks_init(&rc, p);
    int *partner = g_new(int, p);
    double *out = g_new(double, p), *folds = g_new(double, p);
    gboolean *active = g_new(gboolean, p);
    for (int mask = 1, level = 0; mask < p; mask <<= 1, level++) {
        for (int r = 0; r < p; r++) {
            int my_root = r >> level << level;
            partner[r] = r ^ mask;
            active[r] = partner[r] < p;
            out[r] = (p - MIN(mask, p - my_root)) * block;
        }
        for (int r = 0; r < p; r++)
            folds[r] = active[r] ? out[partner[r]] : 0.0;
        clocks_exchange(c, &rc, partner, partner, out, active, beta);
        for (int sub = mask >> 1, k = level; sub > 0; sub >>= 1, k--) {
            for (int r = 0; r < p; r++) {
                int dst_root = (r ^ mask) >> level << level;
                int completed = p - (r >> level << level) - mask;
                int peer = r ^ sub, tree_root = r >> k << k;
                if (dst_root + mask <= p || peer <= r || peer >= p)
                    continue;
                if (r < tree_root + completed && peer >= tree_root + completed) {
                    double bytes = (p - MIN(mask, p - dst_root)) * block;
                    clocks_message(c, &rc, r, peer, bytes, c->b);
                    folds[peer] = bytes;
                }
            }
        }
        for (int r = 0; r < p; r++)
            rc.clock[r] += folds[r] * c->g;
    }
    double end = clocks_max(&rc);
    clocks_free(&rc);
    g_free(partner);
    g_free(out);
    g_free(folds);
    g_free(active);
    return end;
}

/* recursive_doubling (order-keeping, MPICH): round k (k = 0 … F-1) exchanges everything but
 * the 2^k blocks of the partner's own subgroup, n(p - 2^k)/p, and reduces it;
 * TEXTBOOK at p = 2^F: Fα + (F - (p-1)/p)n(β + γ) (Thakur et al.). Exact at p = 2^F; other p
 * rank by rank (above). */
static double
reduce_scatter_recursive_doubling(const struct ctx *c)
{
    if (!c->textbook && !is_pof2(c->p))
        return reduce_scatter_recursive_doubling_clocks(c);
    int rounds = is_pof2(c->p) ? floor_log2(c->p) : ceil_log2(c->p);
    double time = 0.0;
    for (int k = 0; k < rounds; k++) {
        double part = c->n * (double)(c->p - (1LL << k)) / c->p;
        time += xmsg(c, part) + part * c->g;
    }
    return time;
}

/* butterfly (Open MPI, Träff): non-pof2: the 2r lowest ranks fold pairwise first
 * (msg(n) + nγ); halving with distance doubling among p2 ranks, the same volumes as
 * recursive_halving; then, once p2 >= 4, the ranks whose mirror rank is another one swap a
 * block (xmsg(n/p)), and a survivor standing for a folded rank sends it its block first
 * (msg(n/p)). TEXTBOOK (p = 2^F >= 4) Fα + ((p-1)/p)n(β + γ) + α + (n/p)β. COLLSIM
 * approximate: with fewer items than ranks most halves are empty and not sent; non-pof2: the
 * folded ranks' blocks and the swaps overlap differently. */
static double
reduce_scatter_butterfly(const struct ctx *c)
{
    int p = c->p, q = 1 << floor_log2(p);
    double time = recursive_halving(c, q, c->n);
    if (q >= 4)
        time += xmsg(c, c->n / p);
    if (!is_pof2(p))
        time += msg(c, c->n) + reduce_gamma(c) + msg(c, c->n / p);
    return time;
}

/* noncommutative (MPICH, p = 2^F only): halving with distance doubling on blocks in mirror
 * order, no final exchange: recursive_halving's volumes, Σ_{k=1..F} (xmsg(n/2^k) + (n/2^k)γ);
 * TEXTBOOK Fα + ((p-1)/p)n(β + γ). */
static double
reduce_scatter_noncommutative(const struct ctx *c)
{
    return recursive_halving(c, 1 << floor_log2(c->p), c->n);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_reduce_scatter[] = {
    {"reduce_scatter", "reduce_scatterv", reduce_scatter_reduce_then_scatter, RETURNS_AT_ZERO | APPROXIMATE,
     "2 floor(lg p)(a + n b + n c) + (a + n b) + (p-1)(a + (n/p) b)"},
    {"reduce_scatter", "recursive_halving", reduce_scatter_recursive_halving, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "lg p a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter", "pairwise", reduce_scatter_pairwise, RETURNS_AT_ZERO | SYMMETRIC,
     "(p-1) a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter", "ring", reduce_scatter_pairwise, RETURNS_AT_ZERO | SYMMETRIC, "(p-1) a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter", "recursive_doubling", reduce_scatter_recursive_doubling,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "lg p a + (lg p - (p-1)/p) n (b + c)"},
    {"reduce_scatter", "butterfly", reduce_scatter_butterfly, RETURNS_AT_ZERO | APPROXIMATE,
     "lg p a + ((p-1)/p) n (b + c) + [p >= 4](a + (n/p) b) (pof2)"},
    {"reduce_scatter", "noncommutative", reduce_scatter_noncommutative,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2, "lg p a + ((p-1)/p) n (b + c) (pof2 only)"},
};
const gsize predict_rows_reduce_scatter_count = G_N_ELEMENTS(predict_rows_reduce_scatter);

const struct predict_row predict_rows_reduce_scatter_block[] = {
    {"reduce_scatter_block", "reduce_scatter", reduce_scatter_reduce_then_scatter, RETURNS_AT_ZERO | APPROXIMATE,
     "2 floor(lg p)(a + n b + n c) + (a + n b) + (p-1)(a + (n/p) b)"},
    {"reduce_scatter_block", "recursive_halving", reduce_scatter_recursive_halving,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2, "lg p a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter_block", "pairwise", reduce_scatter_pairwise, RETURNS_AT_ZERO | SYMMETRIC,
     "(p-1) a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter_block", "ring", reduce_scatter_pairwise, RETURNS_AT_ZERO | SYMMETRIC,
     "(p-1) a + ((p-1)/p) n (b + c)"},
    {"reduce_scatter_block", "recursive_doubling", reduce_scatter_recursive_doubling,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "lg p a + (lg p - (p-1)/p) n (b + c)"},
    {"reduce_scatter_block", "butterfly", reduce_scatter_butterfly, RETURNS_AT_ZERO | APPROXIMATE,
     "lg p a + ((p-1)/p) n (b + c) + [p >= 4](a + (n/p) b) (pof2)"},
    {"reduce_scatter_block", "noncommutative", reduce_scatter_noncommutative,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2, "lg p a + ((p-1)/p) n (b + c) (pof2 only)"},
};
const gsize predict_rows_reduce_scatter_block_count = G_N_ELEMENTS(predict_rows_reduce_scatter_block);
