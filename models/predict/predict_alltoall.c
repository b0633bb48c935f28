/*
 * predict_alltoall.c — α-β predictions of alltoall, alltoallv and alltoallw
 * (src/coll/alltoall/, alltoallv/, alltoallw/): pairwise, bruck, linear, ring. n is the
 * block sent to one destination; the v and w rows take equal blocks and share alltoall's
 * formulas.
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

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_alltoall[] = {
    {"alltoall", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "bruck", alltoall_bruck, SYMMETRIC | RETURNS_AT_ZERO, "lg p a + lg p (p/2) n b"},
    {"alltoall", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
};
const gsize predict_rows_alltoall_count = G_N_ELEMENTS(predict_rows_alltoall);

const struct predict_row predict_rows_alltoallv[] = {
    {"alltoallv", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
};
const gsize predict_rows_alltoallv_count = G_N_ELEMENTS(predict_rows_alltoallv);

const struct predict_row predict_rows_alltoallw[] = {
    {"alltoallw", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
};
const gsize predict_rows_alltoallw_count = G_N_ELEMENTS(predict_rows_alltoallw);
