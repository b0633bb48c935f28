/*
 * predict_gather.c — α-β predictions of gather and gatherv (src/coll/gather/,
 * src/coll/gatherv/): linear, binomial, and gather's smp on single-core hosts (the binomial
 * gatherv's). n is one rank's block; the v variants take equal blocks. gather_binomial also
 * serves allgather's gather_bcast (declared in predict_core.h).
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

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_gather[] = {
    {"gather", "linear", gather_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"gather", "binomial", gather_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "lg p a + (p-1) n b"},
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
