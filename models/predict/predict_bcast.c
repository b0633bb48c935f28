/*
 * predict_bcast.c — α-β predictions of the broadcast algorithms (src/coll/bcast/): linear,
 * trees (binomial, k-nomial), pipelines (chain, heap binary tree, Open MPI's split binary
 * tree), the two scatter-allgather schemes of van de Geijn, the libraries' chain, kary,
 * pipelined_tree, flattree_pipeline and segmented_binomial, and smp on single-core hosts.
 * n is the whole buffer.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* linear: the root sends n to each of the p-1 others in turn (blocking sends, one port):
 * (p-1)·msg(n); TEXTBOOK (p-1)(α + nβ). Exact. */
static double
bcast_linear(const struct ctx *c)
{
    return fan_out_equal(c, c->p - 1, c->n);
}

/* binomial: node r sends to r + 2^(L-1), …, r + 1 (those that exist), largest subtree first,
 * one message after the other: the longest path of the tree, L·msg(n) (TEXTBOOK Lα + Lnβ).
 * Exact: every rank receives one message only. */
static double
bcast_binomial(const struct ctx *c)
{
    return knomial_down(c, c->p, 2, c->n, -1);
}

/* knomial: radix k; node r sends to r + j·k^i (j = 1 … k-1), largest k^i first, one after
 * the other; at p = k^d: d(k-1)·msg(n). Exact. */
static double
bcast_knomial(const struct ctx *c)
{
    return knomial_down(c, c->p, c->radix, c->n, -1);
}

/* pipeline_chain: root -> root+1 -> … (p-1 hops), n in segments.
 * TEXTBOOK (p + S - 2)(α + sβ). COLLSIM: pipelined_tree; with eager segments
 * (p + S - 3)·msg(s) + msg(s_last). Exact. */
static double
bcast_pipeline_chain(const struct ctx *c)
{
    if (c->textbook)
        return pipeline_chain(c, c->p - 1, c->n, 0.0, 0);
    return pipelined_tree(c, PIPE_CHAIN, c->n);
}

/*
 * The messages before the last node of a heap binary tree (children 2r+1, 2r+2) has its data
 * when every node sends to its first child, then to its second: a first child is one message
 * after its parent, a second child two. Node r = i - 1 is reached through the bits of i after
 * its leading one (0: first child, 1: second), so its depth is (bits after the leading one) +
 * (ones among them); the deepest of the i <= p is p itself, or p with one of its ones cleared
 * and every lower bit set, or 2^(bits of p - 1) - 1.
 */
static int
heap_binary_depth(int p)
{
    int top = floor_log2(MAX(p, 1)), best = 0;
    for (int b = -1; b <= top; b++) {
        long long i;
        if (b < 0)
            i = p; /* p itself */
        else if (b == top)
            i = (1LL << top) - 1; /* one bit shorter, all ones */
        else if ((p >> b) & 1)
            i = ((long long)p & ~((1LL << (b + 1)) - 1)) | ((1LL << b) - 1);
        else
            continue;
        if (i < 1)
            continue;
        int bits = 0, ones = 0;
        for (long long x = i; x > 0; x >>= 1) {
            bits++;
            ones += (int)(x & 1);
        }
        best = MAX(best, (bits - 1) + (ones - 1));
    }
    return best;
}

/*
 * pipeline_binary: a binary tree (children 2r+1, 2r+2 of relative rank r), each node
 * forwarding every segment to its f = min(2, p-1) children in turn.
 * TEXTBOOK: the first segment reaches the last node after D messages (D = heap_binary_depth:
 * 2H - 2 for p = 2^H >= 4, 2H for p = 2^(H+1) - 1), then a segment leaves the root every f
 * messages: T = (f(S - 1) + D)(α + sβ). COLLSIM: pipelined_tree. Exact.
 */
static double
bcast_pipeline_binary(const struct ctx *c)
{
    if (c->textbook) {
        double s;
        double S = segments(c, c->n, &s), f = MIN(2, c->p - 1);
        return (f * (S - 1.0) + heap_binary_depth(c->p)) * (c->a + s * c->b);
    }
    return pipelined_tree(c, PIPE_HEAP_BINARY, c->n);
}

/* The split binary tree of bcast_split_binary.c: parent and children of relative rank v. */
static int
split_tree_links(long long v, int p, long long children[2])
{
    long long level = 1;
    while (v >= 2 * level - 1)
        level *= 2;
    int k = 0;
    for (int i = 1; i <= 2; i++)
        if (v + i * level < p)
            children[k++] = v + i * level;
    return k;
}

/*
 * split_binary (Open MPI's split binary tree): the root sends the first half down the subtree
 * of rank 1 and the second half down that of rank 2, alternating segments; every rank
 * forwards its half's segments to its children; then ranks 2j-1 and 2j swap halves
 * (MPI_Sendrecv), and for even p the root sends the second half to p-1. p = 2: one message.
 * TEXTBOOK: 2(H + S_h - 1)(α + s_hβ) + α + (n/2)β, H = F.
 * COLLSIM (approximate): evaluated rank by rank as pipelined_tree, then the swaps; not
 * counted: a partner's eager half arriving while a rank still receives its own segments
 * shares its link (both arrive later), and cross traffic.
 */
static double
bcast_split_binary(const struct ctx *c)
{
    int p = c->p;
    if (p == 2)
        return msg(c, c->n);
    double half = c->n / 2.0;
    if (c->textbook) {
        double s;
        double S = segments(c, half, &s), H = floor_log2(p);
        return 2.0 * (H + S - 1.0) * (c->a + s * c->b) + c->a + half * c->b;
    }
    double last;
    double S = segment_count(c, half, &last);
    double *arrival = g_new0(double, p), *now = g_new0(double, p), *port = g_new0(double, p);
    for (double s = 0; s < S; s++) {
        double len = s + 1 < S ? c->seg : last;
        for (int v = 0; v < p; v++) {
            long long children[2];
            int k = split_tree_links(v, p, children);
            now[v] = MAX(now[v], arrival[v]);
            for (int i = 0; i < k; i++) {
                long long ch = children[i];
                arrival[ch] = pipeline_send(c, len, &now[v], &port[v], now[ch], 0.0);
            }
        }
    }
    /* the swaps: ranks (a, b) each send the other their half */
    double end = 0.0;
    for (int v = 0; v < p; v++)
        end = MAX(end, now[v]);
    for (int a = (p % 2 == 0) ? 0 : 1; a < p; a += 2) {
        int b = a == 0 ? p - 1 : a + 1;
        if (b >= p)
            break;
        double into[2];
        int pair[2] = {a, b};
        for (int i = 0; i < 2; i++) {
            int from = pair[i], to = pair[1 - i];
            if (from == 0 && i == 1)
                continue;
            double leave = MAX(now[from], port[from]);
            if (is_eager(c, half))
                into[1 - i] = leave + (a == 0 ? msg(c, half) : xmsg(c, half));
            else
                into[1 - i] = MAX(leave + c->a + c->b, now[to]) + 2.0 * c->an + c->b +
                              half * c->b * (a == 0 ? 1.0 : 1.0 + c->x);
        }
        if (a == 0) {
            end = MAX(end, MAX(now[b], into[1]));
            if (!is_eager(c, half))
                end = MAX(end, into[1]);
            continue;
        }
        end = MAX(end, MAX(now[a], into[0]));
        end = MAX(end, MAX(now[b], into[1]));
    }
    g_free(arrival);
    g_free(now);
    g_free(port);
    return end;
}

/*
 * scatter_ring_allgather (van de Geijn): binomial scatter of the p blocks of n/p, then a ring
 * allgather of p-1 shifts. TEXTBOOK at p = 2^F: (F + p - 1)α + 2((p-1)/p)nβ (Thakur et al.).
 * COLLSIM: the scatter's time T_s plus (p-1)·xmsg(n/p), although each rank starts the ring
 * as soon as it has its blocks: no step of the ring takes more than one message after the
 * later of its two ranks is there (by induction every rank is done with step i by
 * T_s + i·xmsg), and the rank that gets its block last at T_s starts a chain of p-1
 * messages, each needing the previous one (its successor forwards what it received). Exact
 * when p divides the count (equal blocks), unless an early ring message reached a rank while
 * its scatter message is still arriving (they would share its link): not seen at any p from
 * 3 to 16 (tests/coll/check_timing.c runs 5, 8, 12, 16). With cross traffic: approximate.
 */
static double
bcast_scatter_ring_allgather(const struct ctx *c)
{
    double block = c->n / c->p;
    return knomial_down(c, c->p, 2, 0, block) + (c->p - 1) * xmsg(c, block);
}

/* scatter_recursive_doubling_allgather: binomial scatter, then recursive-doubling allgather
 * with MPICH's fix-ups for p not a power of two. TEXTBOOK at p = 2^F: 2Fα + 2((p-1)/p)nβ
 * (Thakur et al.). COLLSIM: rank by rank as scatter_ring_allgather; approximate for the
 * same reason. */
static double
bcast_scatter_recursive_doubling_allgather(const struct ctx *c)
{
    double block = c->n / c->p;
    if (c->textbook)
        return knomial_down(c, c->p, 2, 0, block) + recursive_doubling_allgather(c, block);
    struct rank_clocks rc;
    clocks_init(&rc, c->p);
    clocks_binomial_scatter(c, &rc, block);
    clocks_recursive_doubling_allgather(c, &rc, block);
    double end = clocks_max(&rc);
    clocks_free(&rc);
    return end;
}

/* ---------------------------------------------------------------- the libraries' trees */

/* A tree over relative ranks 0 … p-1 in which every child has a higher number than its
 * parent: fills children[] (in the order the parent serves them) and returns how many. */
typedef int links_fn(const struct ctx *c, long long v, long long *children);

/* Open MPI's chains (ompi_coll_base_topo_build_chain): f = min(radix, p-1) chains of
 * consecutive ranks 1 … p-1, the first (p-1) mod f one rank longer; the root serves their
 * heads in order, every other rank the next rank of its chain. */
static int
chain_links(const struct ctx *c, long long v, long long *children)
{
    long long f = MIN(c->radix, c->p - 1), maxlen = (c->p - 1) / f, mark = (c->p - 1) % f;
    if (mark != 0)
        maxlen++;
    else
        mark = f;
    if (v == 0) {
        long long head = 1;
        for (long long i = 0; i < f; head += i < mark ? maxlen : maxlen - 1, i++)
            children[i] = head;
        return (int)f;
    }
    long long before = mark * maxlen, head, len;
    if (v - 1 < before) {
        head = 1 + (v - 1) / maxlen * maxlen;
        len = maxlen;
    } else {
        head = 1 + before + (v - 1 - before) / (maxlen - 1) * (maxlen - 1);
        len = maxlen - 1;
    }
    if (v + 1 < head + len) {
        children[0] = v + 1;
        return 1;
    }
    return 0;
}

/* MPICH's k-ary tree: children v·k + 1 … v·k + k. */
static int
kary_links(const struct ctx *c, long long v, long long *children)
{
    int n = 0;
    for (long long ch = v * c->radix + 1; ch <= v * c->radix + c->radix && ch < c->p; ch++)
        children[n++] = ch;
    return n;
}

/* Open MPI's binomial tree (ompi_coll_base_topo_build_bmtree): children v + 2^j for every
 * 2^j above v, nearest first. */
static int
bmtree_links(const struct ctx *c, long long v, long long *children)
{
    int n = 0;
    long long mask = 1;
    while (mask <= v)
        mask <<= 1;
    for (; v + mask < c->p; mask <<= 1)
        children[n++] = v + mask;
    return n;
}

/*
 * A broadcast of m bytes in segments down a tree given by `links`, each rank posting the
 * receive of segment s+1 before it waits for segment s and then sending s to its children
 * with blocking sends (coll_tree_forward_segments). COLLSIM: rank by rank and segment by
 * segment with the rules of pipelined_tree (predict_core.c), whose loop this is for any
 * tree: exact, as there. TEXTBOOK: the one-port full-duplex pipeline, every send α + sβ
 * after the previous one of the same rank, a rank's receives overlapping its sends.
 */
static double
pipelined_links(const struct ctx *c, links_fn *links, double m)
{
    int p = c->p;
    double last;
    double S = segment_count(c, m, &last);
    double *arrival = g_new0(double, p), *now = g_new0(double, p), *port = g_new0(double, p);
    double *posted = g_new0(double, p), *waits = g_new0(double, p);
    long long *children = g_new(long long, p);
    for (double s = 0; s < S; s++) {
        double len = s + 1 < S ? c->seg : last;
        for (int v = 0; v < p; v++) {
            posted[v] = waits[v];
            waits[v] = now[v];
            now[v] = MAX(now[v], arrival[v]);
            int k = links(c, v, children);
            for (int i = 0; i < k; i++) {
                long long ch = children[i];
                if (c->textbook) {
                    now[v] += msg(c, len);
                    arrival[ch] = now[v];
                } else {
                    arrival[ch] = pipeline_send(c, len, &now[v], &port[v], posted[ch], c->os);
                }
            }
        }
    }
    double end = 0.0;
    for (int v = 0; v < p; v++)
        end = MAX(end, MAX(now[v], arrival[v]));
    g_free(arrival);
    g_free(now);
    g_free(port);
    g_free(posted);
    g_free(waits);
    g_free(children);
    return end;
}

/* chain (Open MPI): pipelined_links over the chains. TEXTBOOK at most
 * (f(S-1) + f + L - 1)(α + sβ), chains of L ranks. COLLSIM exact. */
static double
bcast_chain(const struct ctx *c)
{
    return pipelined_links(c, chain_links, c->n);
}

/* kary (MPICH, not pipelined): one segment down the k-ary tree: a node's children get the
 * buffer one after the other. TEXTBOOK at most D·k(α + nβ). COLLSIM exact. */
static double
bcast_kary(const struct ctx *c)
{
    struct ctx whole = *c;
    whole.seg = MAX(c->n, 1.0);
    return pipelined_links(&whole, kary_links, c->n);
}

/* pipelined_tree (MPICH): the k-ary tree in segments. COLLSIM exact. */
static double
bcast_pipelined_tree(const struct ctx *c)
{
    return pipelined_links(c, kary_links, c->n);
}

/* segmented_binomial (Open MPI): the binomial tree whose children are served nearest first,
 * in segments. COLLSIM exact. */
static double
bcast_segmented_binomial(const struct ctx *c)
{
    return pipelined_links(c, bmtree_links, c->n);
}

/*
 * flattree_pipeline (SMPI): the root sends rank after rank all of its S segments with
 * blocking sends, every receive posted from the start: (p-1)S messages out of one NIC.
 * TEXTBOOK (p-1)(S(α + sβ)) = (p-1)(Sα + nβ). COLLSIM: pipeline_send with the receivers
 * always ready: eager segments leave back to back, rendezvous ones follow each other. Exact.
 */
static double
bcast_flattree_pipeline(const struct ctx *c)
{
    double last, now = 0.0, port = 0.0, end = 0.0;
    double S = segment_count(c, c->n, &last);
    for (int r = 1; r < c->p; r++)
        for (double s = 0; s < S; s++) {
            double len = s + 1 < S ? c->seg : last;
            if (c->textbook) {
                now += msg(c, len);
                end = now;
            } else {
                /* not inside MAX(), which would evaluate the send twice */
                double arrival = pipeline_send(c, len, &now, &port, 0.0, c->os);
                end = MAX(end, arrival);
            }
        }
    return MAX(end, now);
}

/*
 * The node-aware (smp) algorithms on single-core hosts: every node is one rank, so the
 * intra-node steps send nothing and the time is that of the inter-node algorithm each one
 * picks (see its file in src/coll/). With several ranks per node these formulas do not
 * apply: the predictions know one α and β, not a node's.
 */
static double
bcast_smp(const struct ctx *c)
{
    return c->n < 12 * 1024 || c->p < 8 ? bcast_binomial(c) : bcast_scatter_ring_allgather(c);
}

/* ---------------------------------------------------------------- rows */

const struct predict_row predict_rows_bcast[] = {
    {"bcast", "linear", bcast_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"bcast", "binomial", bcast_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "ceil(lg p)(a + n b)"},
    {"bcast", "knomial", bcast_knomial, ROOTED | NEEDS_RADIX | RETURNS_AT_ZERO | ONE_WAY,
     "(k-1) log_k p (a + n b) (p = k^d)"},
    {"bcast", "pipeline_chain", bcast_pipeline_chain, ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO,
     "(p + S - 2)(a + s b), S = ceil(n/s)"},
    {"bcast", "pipeline_binary", bcast_pipeline_binary, ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO,
     "(2(S - 1) + D)(a + s b), D = 2 lg p - 2 (p = 2^k >= 4)"},
    {"bcast", "split_binary", bcast_split_binary, ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO | APPROXIMATE,
     "2(floor(lg p) + S/2 - 1)(a + s b) + a + (n/2) b"},
    {"bcast", "scatter_ring_allgather", bcast_scatter_ring_allgather,
     ROOTED | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "(lg p + p - 1) a + 2 ((p-1)/p) n b"},
    {"bcast", "scatter_recursive_doubling_allgather", bcast_scatter_recursive_doubling_allgather,
     ROOTED | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2, "2 lg p a + 2 ((p-1)/p) n b"},
    {"bcast", "chain", bcast_chain, ROOTED | NEEDS_SEGMENT | NEEDS_RADIX | RETURNS_AT_ZERO,
     "(f(S - 1) + f + L - 1)(a + s b) at most, f = radix chains of L = ceil((p-1)/f)"},
    {"bcast", "kary", bcast_kary, ROOTED | NEEDS_RADIX | RETURNS_AT_ZERO | ONE_WAY,
     "D k (a + n b) at most, D the depth of the k-ary tree"},
    {"bcast", "pipelined_tree", bcast_pipelined_tree,
     ROOTED | NEEDS_SEGMENT | NEEDS_RADIX | RETURNS_AT_ZERO,
     "(k(S - 1) + D k)(a + s b) at most, D the depth of the k-ary tree"},
    {"bcast", "flattree_pipeline", bcast_flattree_pipeline,
     ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO | ONE_WAY, "(p-1)(S a + n b)"},
    {"bcast", "segmented_binomial", bcast_segmented_binomial,
     ROOTED | NEEDS_SEGMENT | RETURNS_AT_ZERO, "(L S + L - 1)(a + s b) at most, L = ceil(lg p)"},
    {"bcast", "smp", bcast_smp,
     NODE_AWARE | ROOTED | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "binomial below 12 KiB or p < 8, else scatter_ring_allgather (one rank per node)"},
};
const gsize predict_rows_bcast_count = G_N_ELEMENTS(predict_rows_bcast);
