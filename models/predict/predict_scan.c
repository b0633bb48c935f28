/*
 * predict_scan.c — α-β-γ predictions of scan and exscan (src/coll/scan/, src/coll/exscan/):
 * linear and recursive_doubling. n is the whole buffer.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* linear scan: rank i receives the prefix of 0 … i-1 from i-1, adds its own, passes it on:
 * (p-1)(msg(n) + nγ). */
static double
scan_linear(const struct ctx *c)
{
    return (c->p - 1) * (msg(c, c->n) + reduce_gamma(c));
}

/* recursive_doubling scan (MPICH): L rounds; in round k rank r exchanges its partial prefix
 * with r xor 2^k; the higher rank folds the incoming prefix into both its partial prefix and
 * its result, and the highest rank is the higher one in every round: L(xmsg(n) + 2nγ). */
static double
scan_recursive_doubling(const struct ctx *c)
{
    return ceil_log2(c->p) * (xmsg(c, c->n) + 2 * reduce_gamma(c));
}

/* linear exscan: as the scan chain, but rank 1 receives rank 0's value and the last rank
 * needs no reduction: (p-1)·msg(n) + (p-2)nγ. */
static double
exscan_linear(const struct ctx *c)
{
    return (c->p - 1) * msg(c, c->n) + (c->p - 2) * reduce_gamma(c);
}

/* recursive_doubling exscan: L rounds as the scan, each updating both the inclusive partial
 * and the exclusive result (2 reductions; the first round copies): L·xmsg(n) + (2L-1)nγ. */
static double
exscan_recursive_doubling(const struct ctx *c)
{
    int L = ceil_log2(c->p);
    return L * xmsg(c, c->n) + (2.0 * L - 1.0) * reduce_gamma(c);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_scan[] = {
    {"scan", "linear", scan_linear, RETURNS_AT_ZERO | ONE_WAY, "(p-1)(a + n b + n c)"},
    {"scan", "recursive_doubling", scan_recursive_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "ceil(lg p)(a + n b + 2 n c)"},
};
const gsize predict_rows_scan_count = G_N_ELEMENTS(predict_rows_scan);

const struct predict_row predict_rows_exscan[] = {
    {"exscan", "linear", exscan_linear, RETURNS_AT_ZERO | ONE_WAY, "(p-1)(a + n b) + (p-2) n c"},
    {"exscan", "recursive_doubling", exscan_recursive_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "ceil(lg p)(a + n b) + (2 ceil(lg p) - 1) n c"},
};
const gsize predict_rows_exscan_count = G_N_ELEMENTS(predict_rows_exscan);
