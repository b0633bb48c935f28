/*
 * predict_scatter.c — α-β predictions of scatter and scatterv (src/coll/scatter/,
 * src/coll/scatterv/): linear, binomial, Open MPI's linear_nb (the linear formula: the same
 * sends in the same order), and scatter's smp on single-core hosts (the binomial
 * scatterv's). n is one rank's block; the v variants take equal blocks.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* linear scatter(v): the root posts a send of each rank's block at once (MPI_Isend, then
 * MPI_Waitall). Eager: one after the other through the port, (p-1)·msg(n). Rendezvous: the
 * envelopes leave one after the other and every data transfer shares the root's link from
 * its envelope's landing on (isend_rendezvous). TEXTBOOK (p-1)(α + nβ). Exact. */
static double
scatter_linear(const struct ctx *c)
{
    return fan_out_posted(c, (guint)(c->p - 1), c->n);
}

/* binomial scatter: node r sends r + 2^i the blocks of its subtree (2^i·n or fewer), largest
 * first, one message after the other. TEXTBOOK at p = 2^F: Fα + (p-1)nβ (Thakur et al.'s
 * lg p α + ((p-1)/p)·pn·β). Exact. */
static double
scatter_binomial(const struct ctx *c)
{
    return knomial_down(c, c->p, 2, 0, c->n);
}

/* binomial scatterv: as scatter, but a subtree of j > 1 ranks first gets their sizes (j ints,
 * one more message) and then its blocks. Exact. */
static double
scatterv_binomial(const struct ctx *c)
{
    return tree_time(c, TREE_KNOMIAL, c->p, 2, 0, c->n, 0.0, FALSE, TRUE);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_scatter[] = {
    {"scatter", "linear", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"scatter", "binomial", scatter_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "lg p a + (p-1) n b"},
    {"scatter", "linear_nb", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"scatter", "smp", scatterv_binomial,
     NODE_AWARE | ROOTED | RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 j b) before each subtree of j > 1 ranks (one rank per node)"},
};
const gsize predict_rows_scatter_count = G_N_ELEMENTS(predict_rows_scatter);

const struct predict_row predict_rows_scatterv[] = {
    {"scatterv", "linear", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"scatterv", "binomial", scatterv_binomial, ROOTED | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 j b) before each subtree of j > 1 ranks"},
    {"scatterv", "linear_nb", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
};
const gsize predict_rows_scatterv_count = G_N_ELEMENTS(predict_rows_scatterv);
