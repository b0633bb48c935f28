/*
 * predict_allreduce.c — α-β-γ predictions of the allreduce algorithms
 * (src/coll/allreduce/): reduce_bcast, recursive_doubling, halving_doubling, ring,
 * ring_segmented, rabenseifner, Open MPI's linear, nonoverlapping and allgather_reduce, MPICH's
 * tree, recexch and k_reduce_scatter_allgather, and smp on single-core hosts. n is the whole
 * buffer.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* reduce_bcast: in-order binary reduce to rank 0, then binomial broadcast from 0. */
static double
allreduce_reduce_bcast(const struct ctx *c)
{
    return reduce_in_order_binary_to(c, 0) + knomial_down(c, c->p, 2, c->n, -1);
}

/* recursive_doubling: p = 2^F: F exchanges of the whole vector, each followed by a reduction:
 * F(xmsg(n) + nγ); TEXTBOOK Fα + Fnβ + Fnγ (Thakur et al.). Otherwise the 2r lowest ranks
 * fold pairwise first (msg(n) + nγ) and the result is sent back at the end (msg(n)). */
static double
allreduce_recursive_doubling(const struct ctx *c)
{
    double time = floor_log2(c->p) * (xmsg(c, c->n) + reduce_gamma(c));
    if (!is_pof2(c->p))
        time += 2.0 * msg(c, c->n) + reduce_gamma(c);
    return time;
}

/* halving_doubling (the textbook's doubling scheme): while s > 1 ranks the upper ⌊s/2⌋ ranks
 * send the whole vector to their mirror ranks, which reduce (L steps), then the result
 * doubles back along the same pairs (L steps): L(msg(n) + nγ) + L·msg(n). */
static double
allreduce_halving_doubling(const struct ctx *c)
{
    int L = ceil_log2(c->p);
    return L * (msg(c, c->n) + reduce_gamma(c)) + L * msg(c, c->n);
}

/* ring: p-1 shifts of a block with a reduction (reduce-scatter), then p-1 shifts (allgather):
 * (p-1)(xmsg(n/p) + (n/p)γ) + (p-1)xmsg(n/p); TEXTBOOK 2(p-1)α + 2((p-1)/p)nβ + ((p-1)/p)nγ. */
static double
allreduce_ring(const struct ctx *c)
{
    double block = c->n / c->p;
    return (c->p - 1) * (2.0 * xmsg(c, block) + block * c->g);
}

/* ring_segmented (Open MPI): Q = ⌈(n/p)/segment⌉ phases, each a ring allreduce of blocks of
 * n/(pQ): Q(p-1)(2·xmsg(n/(pQ)) + (n/(pQ))γ). Approximate: Open MPI overlaps the phases. */
static double
allreduce_ring_segmented(const struct ctx *c)
{
    double block = c->n / c->p, piece;
    double Q = segments(c, block, &piece);
    return Q * (c->p - 1) * (2.0 * xmsg(c, piece) + piece * c->g);
}

/* rabenseifner: reduce-scatter by recursive halving, allgather by recursive doubling, among
 * p2 ranks; non-pof2: pairwise fold first (msg(n) + nγ), result back at the end (msg(n)).
 * TEXTBOOK: Thakur et al.'s rows verbatim:
 *   p = 2^F: 2Fα + 2((p-1)/p)nβ + ((p-1)/p)nγ
 *   else:    (2F + 2)α + (2(p-1)/p + 2)nβ + (1 + (p-1)/p)nγ */
static double
allreduce_rabenseifner(const struct ctx *c)
{
    int p = c->p, F = floor_log2(p), q = 1 << F;
    if (c->textbook)
        return rabenseifner_textbook(c, 2.0);
    double time = recursive_halving(c, q, c->n) + recursive_doubling_gather_back(c, q, c->n);
    if (!is_pof2(p))
        time += 2.0 * msg(c, c->n) + reduce_gamma(c);
    return time;
}

/* smp on single-core hosts: the inter-node algorithm it picks (predict_bcast.c, bcast_smp,
 * says why). */
static double
allreduce_smp(const struct ctx *c)
{
    return c->n > 2048 ? allreduce_rabenseifner(c) : allreduce_recursive_doubling(c);
}

/* linear (Open MPI's basic_linear): rank 0 receives and folds p-1 vectors, then sends the
 * result to p-1 ranks one after the other. TEXTBOOK (p-1)(α + nβ + nγ) + (p-1)(α + nβ).
 * COLLSIM: the fans of collsim's transport (fan_in_equal, fan_out_equal), one after the other
 * (the bcast starts once rank 0 has folded the last vector): exact without cross traffic. */
static double
allreduce_linear(const struct ctx *c)
{
    return fan_in_equal(c, c->p - 1, c->n, reduce_gamma(c)) + fan_out_equal(c, c->p - 1, c->n);
}

/* nonoverlapping (Open MPI): binomial reduce to rank 0, then binomial bcast from 0.
 * TEXTBOOK ⌈lg p⌉(α + nβ + nγ) + ⌈lg p⌉(α + nβ). COLLSIM: the two trees evaluated one after
 * the other (the bcast starts when rank 0 has the result), each as reduce and bcast binomial
 * are: exact without cross traffic. */
static double
allreduce_nonoverlapping(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, c->n, -1, reduce_gamma(c)) +
           knomial_down(c, c->p, 2, c->n, -1);
}

/* allgather_reduce (Open MPI 5): recursive-doubling allgather of the p vectors, then p-1 local
 * reductions of n bytes. TEXTBOOK (p = 2^F) Fα + (p-1)nβ + (p-1)nγ. COLLSIM: the allgather
 * as predict_allgather.c evaluates it (rank by rank with MPICH's fix-up messages at non-pof2
 * p, approximate), then the fold. */
static double
allreduce_allgather_reduce(const struct ctx *c)
{
    double fold = (c->p - 1) * reduce_gamma(c);
    if (c->textbook || is_pof2(c->p))
        return recursive_doubling_allgather(c, c->n) + fold;
    struct rank_clocks rc;
    clocks_init(&rc, c->p);
    clocks_recursive_doubling_allgather(c, &rc, c->n);
    double end = clocks_max(&rc);
    clocks_free(&rc);
    return end + fold;
}

/*
 * tree (MPICH): each of S segments of s bytes goes up the k-nomial tree rooted at 0 and back
 * down; the segments pipeline behind the root, which per segment receives, reduces and sends
 * to each of its f children. TEXTBOOK (an upper bound: the segments one after the other)
 * S·L(k-1)(α + sβ + sγ) + S·L(k-1)(α + sβ), L = ⌈log_k p⌉. COLLSIM (approximate): one
 * segment's trip up and down, then (S - 1) root stages of f(msg(s) + sγ) + f·msg(s).
 */
static double
allreduce_tree(const struct ctx *c)
{
    double s;
    double S = segments(c, c->n, &s);
    int k = c->radix >= 2 ? c->radix : 2, L = 0, f = 0;
    for (long long span = 1; span < c->p; span *= k)
        L++;
    for (long long span = 1; span < c->p; span *= k)
        for (int j = 1; j < k && span * j < c->p; j++)
            f++;
    if (c->textbook)
        return S * L * (k - 1.0) * (2.0 * (c->a + s * c->b) + s * c->g);
    double up = tree_up_time(c, TREE_KNOMIAL, c->p, k, s, -1, s * c->g);
    double down = knomial_down(c, c->p, k, s, -1);
    return up + down + (S - 1.0) * f * (2.0 * msg(c, s) + s * c->g);
}

/* MPICH's recursive exchange at p ranks and radix k (MPII_Recexchalgo_get_neighbors): k
 * lowered to max(p, 2) when p < k; q = k^F participants; `senders`, the most ranks folded
 * into one participant (0 when p = q: k-1 when a whole set of k exists, else p - q). */
struct recexch_shape {
    int k, F, q, senders;
};

static void
recexch_shape(const struct ctx *c, struct recexch_shape *x)
{
    x->k = c->p < c->radix ? MAX(c->p, 2) : c->radix;
    x->q = 1;
    x->F = 0;
    while ((long long)x->q * x->k <= c->p) {
        x->q *= x->k;
        x->F++;
    }
    x->senders = MIN(x->k - 1, c->p - x->q);
}

/*
 * recexch (MPICH, radix k): up to s = k-1 vectors into a participant at once (fan_in_posted)
 * and folded (s·nγ); F phases, each a posted round of k-1 whole vectors out and in
 * (posted_round) and k-1 reductions; the result back to the s senders (fan_out_posted).
 * TEXTBOOK s(α + nβ + nγ) + F(k-1)(α + nβ + nγ) + s(α + nβ). COLLSIM: exact at p = k^F (every
 * rank alike); otherwise approximate: participants without senders start step 2 early, and
 * the formula runs the three steps one after the other.
 */
static double
allreduce_recexch(const struct ctx *c)
{
    struct recexch_shape x;
    recexch_shape(c, &x);
    double s = x.senders, fold = reduce_gamma(c);
    return fan_in_posted(c, s, c->n) + s * fold +
           x.F * (posted_round(c, x.k - 1, c->n) + (x.k - 1) * fold) +
           fan_out_posted(c, (guint)x.senders, c->n);
}

/* The critical path, in exchanges, of k ranks that each exchange with the k-1 others one after
 * the other in ascending order (each exchange needing both sides): the pairs (a, b) taken in
 * lexicographic order, each done one exchange after the later of its two ranks is free
 * (1 for k = 2, 3 for k = 3, 5 for k = 4). O(k²). */
static int
ascending_exchanges(int k)
{
    int *clock = g_new0(int, k), most = 0;
    for (int a = 0; a < k; a++)
        for (int b = a + 1; b < k; b++) {
            clock[a] = clock[b] = MAX(clock[a], clock[b]) + 1;
            most = MAX(most, clock[a]);
        }
    g_free(clock);
    return most;
}

/*
 * k_reduce_scatter_allgather (MPICH, radix k): q = k^F participants, blocks of n/q. Up to
 * s = k-1 vectors into a participant, received and folded one after the other
 * (fan_in_equal); reduce-scatter phase i: k-1 exchanges of m_i = n/k^(i+1) bytes, each
 * folded, partners in ascending order, so that one waits for a partner busy with another:
 * U_k exchanges on the critical path (ascending_exchanges); allgather phase j: a posted round
 * of k-1 messages of n·k^j/q; the result back to the s senders (fan_out_posted).
 * TEXTBOOK (one port, the same schedule) s(α + nβ + nγ) + Σ_i U_k(α + m_iβ + m_iγ) +
 * Σ_j (k-1)(α + (n·k^j/q)β) + s(α + nβ). COLLSIM approximate: an exchange whose partner's
 * eager message has already arrived costs less than a round trip, and a phase's ranks do not
 * all start it together.
 */
static double
allreduce_k_reduce_scatter_allgather(const struct ctx *c)
{
    struct recexch_shape x;
    recexch_shape(c, &x);
    double time = fan_in_equal(c, x.senders, c->n, reduce_gamma(c));
    int U = ascending_exchanges(x.k);
    double m = c->n;
    for (int i = 0; i < x.F; i++) {
        m /= x.k;
        time += U * (xmsg(c, m) + m * c->g);
    }
    for (int j = 0; j < x.F; j++) {
        time += posted_round(c, x.k - 1, m);
        m *= x.k;
    }
    return time + fan_out_posted(c, (guint)x.senders, c->n);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_allreduce[] = {
    {"allreduce", "reduce_bcast", allreduce_reduce_bcast, RETURNS_AT_ZERO | APPROXIMATE,
     "2 floor(lg p)(a + n b + n c) + (a + n b) + ceil(lg p)(a + n b)"},
    {"allreduce", "recursive_doubling", allreduce_recursive_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "lg p (a + n b + n c) (pof2); + 2(a + n b) + n c otherwise"},
    {"allreduce", "halving_doubling", allreduce_halving_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "ceil(lg p)(a + n b + n c) + ceil(lg p)(a + n b)"},
    {"allreduce", "ring", allreduce_ring, RETURNS_AT_ZERO | SYMMETRIC, "2(p-1) a + 2((p-1)/p) n b + ((p-1)/p) n c"},
    {"allreduce", "ring_segmented", allreduce_ring_segmented, RETURNS_AT_ZERO | NEEDS_SEGMENT | APPROXIMATE,
     "Q (2(p-1) a + 2((p-1)/p)(n/Q) b + ((p-1)/p)(n/Q) c), Q = ceil(n/(p s))"},
    {"allreduce", "rabenseifner", allreduce_rabenseifner, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "2 lg p a + 2((p-1)/p) n b + ((p-1)/p) n c (pof2); "
     "(2 floor(lg p) + 2) a + (2(p-1)/p + 2) n b + (1 + (p-1)/p) n c otherwise"},
    {"allreduce", "linear", allreduce_linear, RETURNS_AT_ZERO,
     "(p-1)(a + n b + n c) + (p-1)(a + n b)"},
    {"allreduce", "nonoverlapping", allreduce_nonoverlapping, RETURNS_AT_ZERO,
     "ceil(lg p)(a + n b + n c) + ceil(lg p)(a + n b)"},
    {"allreduce", "allgather_reduce", allreduce_allgather_reduce,
     RETURNS_AT_ZERO | APPROXIMATE_NON_POF2, "lg p a + (p-1) n b + (p-1) n c (pof2)"},
    {"allreduce", "tree", allreduce_tree,
     RETURNS_AT_ZERO | NEEDS_SEGMENT | NEEDS_RADIX | APPROXIMATE,
     "S ceil(log_k p)(k-1)(2a + 2 s b + s c) (segments one after the other: an upper bound)"},
    {"allreduce", "recexch", allreduce_recexch, RETURNS_AT_ZERO | NEEDS_RADIX | APPROXIMATE,
     "floor(log_k p)(k-1)(a + n b + n c) (p = k^F); + s(2a + 2n b + n c), s = min(k-1, p - k^F)"},
    {"allreduce", "k_reduce_scatter_allgather", allreduce_k_reduce_scatter_allgather,
     RETURNS_AT_ZERO | NEEDS_RADIX | APPROXIMATE,
     "sum_i U_k(a + n/k^(i+1)(b + c)) + (k-1) floor(log_k p) a + ((q-1)/q) n b, q = k^F, "
     "U_k = 1, 3, 5 for k = 2, 3, 4; + s(2a + 2n b + n c), s = min(k-1, p - q)"},
    {"allreduce", "smp", allreduce_smp,
     NODE_AWARE | RETURNS_AT_ZERO | APPROXIMATE,
     "recursive_doubling up to 2 KiB, else rabenseifner (one rank per node)"},
};
const gsize predict_rows_allreduce_count = G_N_ELEMENTS(predict_rows_allreduce);
