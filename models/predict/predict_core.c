/*
 * predict_core.c — the machinery every prediction formula of models/predict/ is written with:
 * the fans of messages out of and into one rank, processor sharing on one link, the tree
 * evaluators, the shared building blocks (recursive doubling and halving, segments, the
 * textbook pipeline) and the rank-by-rank clocks and pipelines. predict_core.h gives the
 * notation and the transport rules these implement, and the one-line primitives (msg, xmsg,
 * wire, inject …) they are built on.
 *
 * Assumed algorithm structures: those of src/coll/ (read from the sources): blocking sends
 * and receives in the order given; trees on ranks relative to the root; children of a
 * k-nomial node sent to in descending mask order, received from in ascending mask order.
 *
 * Invariants: pure functions of their arguments; what they allocate they free before
 * returning; the functions static here are used by this file only.
 */
#include <math.h>
#include <string.h>

#include "predict_core.h"

/* ---------------------------------------------------------------- fans of equal messages */

/* k messages of m bytes sent one after the other by one rank to k distinct waiting ranks with
 * blocking sends: the time the last one arrives. Eager: the sends return at once and the NIC
 * starts each message when the previous one's bytes have left, so the last lands at
 * α + k·max(m,1)β. Rendezvous: a send returns once its data has arrived: k·msg(m).
 * TEXTBOOK (one port): k(α + mβ). */
double
fan_out_equal(const struct ctx *c, double k, double m)
{
    if (k <= 0)
        return 0.0;
    if (!c->textbook && is_eager(c, m))
        return c->a + wire(c, m) * c->b + (k - 1) * MAX(c->os, inject(c, m));
    return k * msg(c, m);
}

/* k ranks each send m bytes at time 0 to one rank, which receives them in a fixed order with
 * blocking receives and spends `reduce` seconds after each: the time it is done. */
double
fan_in_equal(const struct ctx *c, double k, double m, double reduce)
{
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b + reduce);
    /* the receiver pays o_r for every message (α holds the first one's) */
    if (is_eager(c, m))
        return c->a + k * wire(c, m) * c->b + k * reduce + (k - 1) * c->orr;
    /* the k envelopes share the link and land at α + kβ; each receive, once posted, returns
     * its clear-to-send (α + β) and the data follows (α + mβ) */
    return c->a + k * c->b + k * (2.0 * c->an + (m + 1.0) * c->b + reduce) + (k - 1) * c->orr;
}

/* k ranks each send m bytes at time 0 to one rank that has posted all k receives at once
 * (MPI_Irecv, MPI_Waitall): every transfer shares its link from the start. Eager:
 * α + k·max(m,1)β. Rendezvous: the k one-byte envelopes arrive together at α + kβ; the
 * receiver answers them all, its NIC sending the clear-to-sends β apart; the first data
 * starts flowing at 3α + (k+1)β and the link stays busy until all k·m bytes are in
 * (m >= k, which rendezvous sizes are): 3α + (k+1)β + kmβ. */
double
fan_in_posted(const struct ctx *c, double k, double m)
{
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b);
    if (is_eager(c, m))
        return c->a + k * wire(c, m) * c->b + (k - 1) * c->orr;
    return c->a + 2.0 * c->an + (k + 1.0) * c->b + k * m * c->b + (k - 1) * c->orr;
}

/* ---------------------------------------------------------------- processor sharing */

/* A transfer on one link, its bandwidth phase starting at `start` (after its latency). */
struct flow {
    double start;
    double bytes; /* what remains to be sent */
    double tag;   /* what the caller knows it by */
};

/* ---------------------------------------------------------------- fans of a tree node */

/*
 * A node holding its data at time 0 sends messages of bytes[0..k) in that order (blocking
 * sends) to k waiting children: arrival[i], when child i has its message. An eager send
 * returns at once and its NIC starts the message when the previous one's bytes have left;
 * a rendezvous send starts its envelope then and returns when its data has arrived (the
 * child answers at once: msg(m) after the envelope left). TEXTBOOK: one port, one message
 * after the other. Each child receives from this node only, so nothing shares a link: exact.
 */
static void
fan_out(const struct ctx *c, const double *bytes, guint k, double *arrival)
{
    double t = 0.0, nic = 0.0; /* the node's program and its NIC */
    for (guint i = 0; i < k; i++) {
        if (c->textbook) {
            arrival[i] = t += msg(c, bytes[i]);
            continue;
        }
        double leave = MAX(t, nic);
        if (is_eager(c, bytes[i])) {
            nic = leave + inject(c, bytes[i]);
            arrival[i] = leave + c->a + wire(c, bytes[i]) * c->b;
            t += c->os; /* the next send's overhead (α holds the first one's) */
        } else {
            nic = leave + c->b;
            arrival[i] = t = leave + msg(c, bytes[i]);
        }
    }
}

/*
 * Processor sharing on one link with flows that start while others run: the completions in
 * time order. Every active flow is served at the same rate (SimGrid's max-min sharing of
 * flows whose only bottleneck is this link). With `virtual` the bytes each active flow has
 * received since the start, a flow that starts at virtual v with b bytes completes when
 * virtual reaches v + b, so completions come off a heap in that order: O(log n) each.
 * Flows must be added with a start no earlier than the last completion returned.
 */
struct ps_link {
    double beta;
    double now;
    double virtual;
    GArray *active;  /* struct flow, a min-heap on bytes = the virtual finish */
    GArray *pending; /* struct flow, sorted by start, latest first */
};

static void
ps_init(struct ps_link *l, double beta)
{
    l->beta = beta;
    l->now = 0.0;
    l->virtual = 0.0;
    l->active = g_array_new(FALSE, FALSE, sizeof(struct flow));
    l->pending = g_array_new(FALSE, FALSE, sizeof(struct flow));
}

static void
ps_free(struct ps_link *l)
{
    g_array_free(l->active, TRUE);
    g_array_free(l->pending, TRUE);
}

static void
ps_add(struct ps_link *l, double start, double bytes, double tag)
{
    struct flow f = {start, bytes, tag};
    guint i = l->pending->len;
    while (i > 0 && g_array_index(l->pending, struct flow, i - 1).start < start)
        i--; /* equal starts keep their order of addition: later ones nearer the front */
    g_array_insert_val(l->pending, i, f);
}

static gboolean
heap_less(const struct flow *x, const struct flow *y)
{
    return x->bytes < y->bytes || (x->bytes == y->bytes && x->tag < y->tag);
}

static void
ps_heap_push(GArray *heap, struct flow f)
{
    g_array_append_val(heap, f);
    struct flow *h = (struct flow *)(void *)heap->data;
    for (guint k = heap->len - 1; k > 0 && heap_less(&h[k], &h[(k - 1) / 2]); k = (k - 1) / 2) {
        struct flow t = h[k];
        h[k] = h[(k - 1) / 2];
        h[(k - 1) / 2] = t;
    }
}

static struct flow
ps_heap_pop(GArray *heap)
{
    struct flow *h = (struct flow *)(void *)heap->data;
    struct flow top = h[0];
    h[0] = h[heap->len - 1];
    g_array_set_size(heap, heap->len - 1);
    h = (struct flow *)(void *)heap->data;
    for (guint k = 0;;) {
        guint l = 2 * k + 1, r = l + 1, m = k;
        if (l < heap->len && heap_less(&h[l], &h[m]))
            m = l;
        if (r < heap->len && heap_less(&h[r], &h[m]))
            m = r;
        if (m == k)
            break;
        struct flow t = h[k];
        h[k] = h[m];
        h[m] = t;
        k = m;
    }
    return top;
}

/* Advance to the next completion; its tag and time. FALSE when nothing is left. */
static gboolean
ps_next(struct ps_link *l, double *tag, double *when)
{
    for (;;) {
        guint n = l->active->len, np = l->pending->len;
        if (n == 0 && np == 0)
            return FALSE;
        double next_start =
            np > 0 ? g_array_index(l->pending, struct flow, np - 1).start : INFINITY;
        if (n > 0) {
            const struct flow *first = &g_array_index(l->active, struct flow, 0);
            double done_at = l->now + (first->bytes - l->virtual) * l->beta * n;
            if (done_at <= next_start) {
                struct flow f = ps_heap_pop(l->active);
                l->now = done_at;
                l->virtual = f.bytes;
                *tag = f.tag;
                *when = done_at;
                return TRUE;
            }
            l->virtual += (next_start - l->now) / (l->beta * n);
        }
        l->now = next_start;
        while (l->pending->len > 0 &&
               g_array_index(l->pending, struct flow, l->pending->len - 1).start <= l->now) {
            struct flow f = g_array_index(l->pending, struct flow, l->pending->len - 1);
            g_array_set_size(l->pending, l->pending->len - 1);
            f.bytes += l->virtual;
            ps_heap_push(l->active, f);
        }
    }
}

/*
 * A rank posts k rendezvous sends of m bytes at once (MPI_Isend, then MPI_Waitall) to k
 * ranks already waiting for them: its NIC sends the one-byte envelopes β apart (envelope i
 * lands at iβ + α + β); each receiver answers at once (its clear-to-send lands back α + β
 * later) and the data flows (after α) sharing the sender's link with the other data
 * transfers. Link time per byte `beta`. Returns when the last data has arrived. O(k log k).
 */
double
isend_rendezvous(const struct ctx *c, guint k, double m, double beta)
{
    struct ps_link l;
    ps_init(&l, beta);
    double last = 0.0, tag, when;
    /* latest first: ps_add keeps its pending flows in that order, so each add appends */
    for (guint i = k; i-- > 0;)
        ps_add(&l, i * beta + c->a + 2.0 * c->an + 2.0 * beta, m, (double)i);
    while (ps_next(&l, &tag, &when))
        last = MAX(last, when);
    ps_free(&l);
    return last;
}

/* k messages of m bytes posted at once by one rank (MPI_Isend to k waiting ranks, then
 * MPI_Waitall): the time the last arrives. Eager: the NIC sends them back to back,
 * α + k·max(m,1)β (TEXTBOOK k(α + mβ)). Rendezvous: isend_rendezvous. */
double
fan_out_posted(const struct ctx *c, guint k, double m)
{
    if (k == 0)
        return 0.0;
    if (c->textbook)
        return k * msg(c, m);
    if (is_eager(c, m))
        return c->a + wire(c, m) * c->b + (k - 1) * MAX(c->os, inject(c, m));
    return isend_rendezvous(c, k, m, c->b);
}

/*
 * A node receives from k children in that order (blocking receives): child i can start
 * sending at ready[i]; it first sends a `header`-byte message when header > 0 (gatherv's
 * size announcement), then bytes[i]; after each data receive the node spends reduce[i].
 * Returns when the node is done. COLLSIM: a child's second message leaves when its NIC has
 * sent the first's bytes; eager transfers flow at once, rendezvous envelopes too (one byte),
 * and a rendezvous data transfer starts α + β after its envelope has landed and the node
 * has posted that receive (the clear-to-send's trip); everything arriving at the node
 * shares its link (processor sharing, envelopes included). Exact on a contention-free
 * network without cross traffic.
 */
static double
fan_in_announced(const struct ctx *c, const double *ready, const double *bytes,
                 const double *reduce, guint k, double header)
{
    double t = 0.0;
    guint per = header > 0 ? 2 : 1, total = k * per;
    if (c->textbook) {
        for (guint i = 0; i < k; i++) {
            if (header > 0)
                t = MAX(t, ready[i]) + c->a + header * c->b;
            t = MAX(t, ready[i]) + c->a + bytes[i] * c->b + reduce[i];
        }
        return t;
    }
    /* per message m = i·per + j: its size, protocol and progress */
    double *size = g_new(double, total), *landed = g_new(double, total);
    double *envelope = g_new(double, total);
    gboolean *started = g_new0(gboolean, total);
    for (guint i = 0; i < k; i++) {
        if (header > 0)
            size[i * per] = header;
        size[i * per + per - 1] = bytes[i];
    }
    for (guint m = 0; m < total; m++)
        landed[m] = envelope[m] = -1.0;
    struct ps_link l;
    ps_init(&l, c->b);
    /* tags: 2m for a whole eager message or a rendezvous data transfer, 2m + 1 an envelope.
     * A child's header is eager (4 bytes): its NIC starts the next message once the header's
     * bytes have left. */
    for (guint i = 0; i < k; i++) {
        double leave = ready[i];
        for (guint j = 0; j < per; j++) {
            guint m = i * per + j;
            gboolean eager = is_eager(c, size[m]);
            ps_add(&l, leave + c->a, eager ? wire(c, size[m]) : 1.0,
                   eager ? 2.0 * m : 2.0 * m + 1.0);
            leave += inject(c, eager ? size[m] : 1.0);
        }
    }
    guint cur = 0;
    double tag, when;
    while (cur < total && ps_next(&l, &tag, &when)) {
        guint m = (guint)(tag / 2.0);
        gboolean is_envelope = ((guint)tag) % 2 == 1;
        if (is_envelope)
            envelope[m] = when;
        else
            landed[m] = when;
        /* the node takes its receives in order as far as it can */
        while (cur < total) {
            if (landed[cur] >= 0) {
                t = MAX(t, landed[cur]) + (cur % per + 1 == per ? reduce[cur / per] : 0.0);
                cur++;
                continue;
            }
            if (!is_eager(c, size[cur]) && envelope[cur] >= 0 && !started[cur]) {
                /* the receive is posted and its envelope here: the clear-to-send goes back
                 * (α + β) and the data flows (after α) */
                started[cur] = TRUE;
                ps_add(&l, MAX(t, envelope[cur]) + 2.0 * c->an + c->b, size[cur], 2.0 * cur);
            }
            break;
        }
    }
    ps_free(&l);
    g_free(size);
    g_free(landed);
    g_free(envelope);
    g_free(started);
    return t;
}

/* ---------------------------------------------------------------- tree evaluators */

void
tree_init(struct tree *t, const struct ctx *c, enum tree_shape shape, int radix, double bytes,
          double block, double reduce)
{
    memset(t, 0, sizeof *t);
    t->c = c;
    t->shape = shape;
    t->radix = radix;
    t->bytes = bytes;
    t->block = block;
    t->reduce = reduce;
}

/*
 * Subtree sizes of the children of the root of a subtree of s ranks, in sending order
 * (descending masks) if `down`, else in receiving order (ascending masks).
 */
static GArray *
tree_children(const struct tree *t, int s, gboolean down)
{
    GArray *sizes = g_array_new(FALSE, FALSE, sizeof(int));
    if (t->shape == TREE_IN_ORDER) {
        int first = s / 2, second = (s - 1) / 2; /* ⌈(s-1)/2⌉ and ⌊(s-1)/2⌋ */
        if (first > 0)
            g_array_append_val(sizes, first);
        if (second > 0)
            g_array_append_val(sizes, second);
        return sizes;
    }
    GArray *masks = g_array_new(FALSE, FALSE, sizeof(gint64));
    for (gint64 mask = 1; mask < s; mask *= t->radix)
        g_array_append_val(masks, mask);
    for (guint l = 0; l < masks->len; l++) {
        gint64 mask = g_array_index(masks, gint64, down ? masks->len - 1 - l : l);
        for (gint64 j = 1; j < t->radix && j * mask < s; j++) {
            int size = (int)MIN(mask, (gint64)s - j * mask);
            g_array_append_val(sizes, size);
        }
    }
    g_array_free(masks, TRUE);
    return sizes;
}

static double
tree_message_bytes(const struct tree *t, int size)
{
    return t->block >= 0 ? t->block * size : t->bytes;
}

static gboolean
memo_get(const struct tree *t, int s, double *time)
{
    for (guint i = 0; i < t->n_memo; i++) {
        if (t->memo_size[i] == s) {
            *time = t->memo_time[i];
            return TRUE;
        }
    }
    return FALSE;
}

static void
memo_put(struct tree *t, int s, double time)
{
    if (t->n_memo < TREE_MEMO) {
        t->memo_size[t->n_memo] = s;
        t->memo_time[t->n_memo++] = time;
    }
}

/* Time from the subtree's root holding the data to every rank of the subtree having it. */
double
tree_down(struct tree *t, int s)
{
    double time = 0.0;
    if (s <= 1 || memo_get(t, s, &time))
        return time;
    GArray *sizes = tree_children(t, s, TRUE);
    guint k = sizes->len;
    /* the node's messages in sending order: to each child its sizes (one int per rank of a
     * subtree of several: scatterv) then its data */
    double *bytes = g_new(double, 2 * k), *arrival = g_new(double, 2 * k);
    guint *data_at = g_new(guint, k), n = 0;
    for (guint i = 0; i < k; i++) {
        int size = g_array_index(sizes, int, i);
        if (t->announce && size > 1)
            bytes[n++] = 4.0 * size;
        data_at[i] = n;
        bytes[n++] = tree_message_bytes(t, size);
    }
    fan_out(t->c, bytes, n, arrival);
    for (guint i = 0; i < k; i++)
        time = MAX(time, arrival[data_at[i]] + tree_down(t, g_array_index(sizes, int, i)));
    g_free(data_at);
    g_free(bytes);
    g_free(arrival);
    g_array_free(sizes, TRUE);
    memo_put(t, s, time);
    return time;
}

/* Time from every rank starting to the subtree's root having received (and reduced) all;
 * `top`: the subtree is the whole tree (its root is the collective's root). */
double
tree_up(struct tree *t, int s, gboolean top)
{
    double time = 0.0;
    if (s <= 1 || (!top && memo_get(t, s, &time)))
        return time;
    GArray *sizes = tree_children(t, s, FALSE);
    guint k = sizes->len;
    double *ready = g_new(double, k), *bytes = g_new(double, k), *reduce = g_new(double, k);
    for (guint i = 0; i < k; i++) {
        int size = g_array_index(sizes, int, i);
        ready[i] = tree_up(t, size, FALSE);
        bytes[i] = tree_message_bytes(t, size);
        reduce[i] = t->reduce;
    }
    time = fan_in_announced(t->c, ready, bytes, reduce, k, t->announce && !top ? 4.0 : 0.0);
    g_free(ready);
    g_free(bytes);
    g_free(reduce);
    g_array_free(sizes, TRUE);
    if (!top)
        memo_put(t, s, time);
    return time;
}

/* A broadcast of m bytes (block < 0) or a scatter of blocks (block >= 0) down a k-nomial tree. */
double
knomial_down(const struct ctx *c, int ranks, int radix, double m, double block)
{
    return tree_time(c, TREE_KNOMIAL, ranks, radix, m, block, 0.0, FALSE, FALSE);
}

/* A reduction of m bytes (block < 0) or a gather of blocks (block >= 0) up a tree. */
double
tree_up_time(const struct ctx *c, enum tree_shape shape, int ranks, int radix, double m,
             double block, double reduce)
{
    return tree_time(c, shape, ranks, radix, m, block, reduce, TRUE, FALSE);
}

/* The evaluation behind the two above and the v-variants (announce, see struct tree): a
 * fresh tree (on the heap: its memo is large), evaluated down from or up to its root. */
double
tree_time(const struct ctx *c, enum tree_shape shape, int ranks, int radix, double m,
          double block, double reduce, gboolean up, gboolean announce)
{
    struct tree *t = g_new(struct tree, 1);
    tree_init(t, c, shape, radix, m, block, reduce);
    t->announce = announce;
    double time = up ? tree_up(t, ranks, TRUE) : tree_down(t, ranks);
    g_free(t);
    return time;
}

/* ---------------------------------------------------------------- shared building blocks */

/*
 * Allgather by recursive doubling of blocks of m bytes. p a power of two: round k (k = 0 …
 * F-1) exchanges the 2^k blocks gathered so far: Σ xmsg(2^k m) = Fα + (p-1)mβ. Otherwise
 * (approximate) L rounds, round k exchanging min(2^k, p - 2^k) blocks; MPICH's extra messages
 * to ranks whose partner is missing are not counted.
 */
double
recursive_doubling_allgather(const struct ctx *c, double m)
{
    int rounds = is_pof2(c->p) ? floor_log2(c->p) : ceil_log2(c->p);
    double time = 0.0;
    for (int k = 0; k < rounds; k++)
        time += xmsg(c, (double)MIN(1LL << k, (long long)c->p - (1LL << k)) * m);
    return time;
}

/*
 * Reduce-scatter by recursive halving among q = 2^F ranks of a vector of m bytes: round k
 * (k = 1 … F) exchanges half of what is left, m/2^k, and reduces it:
 * Σ (xmsg(m/2^k) + (m/2^k)γ) = Fα + m((q-1)/q)(β + γ).
 */
double
recursive_halving(const struct ctx *c, int q, double m)
{
    double time = 0.0;
    for (int k = 1; (1LL << k) <= q; k++) {
        double part = m / (double)(1LL << k);
        time += xmsg(c, part) + part * c->g;
    }
    return time;
}

/* Allgather by recursive doubling among q = 2^F ranks of what recursive_halving left:
 * Σ_{k=1..F} xmsg(m/2^k) = Fα + m((q-1)/q)β. */
double
recursive_doubling_gather_back(const struct ctx *c, int q, double m)
{
    double time = 0.0;
    for (int k = 1; (1LL << k) <= q; k++)
        time += xmsg(c, m / (double)(1LL << k));
    return time;
}

/* Segments: S = max(1, ⌈n/segment⌉) of n/S bytes each (equal; exact when the segment size
 * divides n). */
double
segments(const struct ctx *c, double m, double *segment)
{
    double s = MAX(1.0, ceil(m / c->seg));
    *segment = m / s;
    return s;
}

/*
 * A pipeline along a chain of `hops` hops (hops >= 1) carrying m bytes in S segments of
 * size s; every receiving rank spends s·γ' on each segment (γ' = reduce_gamma, 0 for a
 * broadcast) and forwards it; `tail` > 0 adds one more hop without reduction (the reduce
 * chain's last rank sending to a root elsewhere).
 *
 * TEXTBOOK: (hops + tail + S - 1) stages; a stage is α + sβ + sγ' (α + sβ for the tail):
 *   T = (hops + S - 1)(α + sβ + sγ') + tail·(α + sβ).
 * COLLSIM (used for the reduce chain's rendezvous segments only; approximate, derived before
 * the one-port transport): a rank posts the receive of segment j+1 only after its send of j
 * has completed, so, with m_s = msg(s) = 2α + (s+1)β and d = α + sβ (the data part):
 *   hops = 1:  T = m_s + sγ' + (S-1)(max(α + β, sγ') + d)
 *   hops >= 2: T = hops(m_s + sγ') + (S-1)(m_s + d + sγ')
 *   plus tail·m_s. Eager segments: pipelined_tree_reducing.
 */
double
pipeline_chain(const struct ctx *c, int hops, double m, double reduce_gamma, int tail)
{
    double s;
    double S = segments(c, m, &s);
    double gs = s * reduce_gamma;
    if (c->textbook)
        return (hops + S - 1.0) * (c->a + s * c->b + gs) + tail * (c->a + s * c->b);
    double ms = msg(c, s), d = c->a + s * c->b;
    double time = hops == 1 ? ms + gs + (S - 1.0) * (MAX(c->a + c->b, gs) + d)
                            : hops * (ms + gs) + (S - 1.0) * (ms + d + gs);
    return time + tail * ms;
}

/* ---------------------------------------------------------------- rank-by-rank evaluation */

/* The rules these follow are above struct rank_clocks, in predict_core.h. */

void
clocks_init(struct rank_clocks *rc, int p)
{
    rc->p = p;
    rc->clock = g_new0(double, p);
    rc->port = g_new0(double, p);
}

void
clocks_free(struct rank_clocks *rc)
{
    g_free(rc->clock);
    g_free(rc->port);
}

double
clocks_max(const struct rank_clocks *rc)
{
    double end = 0.0;
    for (int r = 0; r < rc->p; r++)
        end = MAX(end, rc->clock[r]);
    return end;
}

/* One message s -> d of m bytes with blocking calls on both sides (MPI_Send, MPI_Recv), the
 * receiver's clock at its receive: advances both clocks. `beta` per byte. */
void
clocks_message(const struct ctx *c, struct rank_clocks *rc, int s, int d, double m, double beta)
{
    double leave = MAX(rc->clock[s], rc->port[s]);
    if (is_eager(c, m)) {
        rc->port[s] = leave + inject(c, m);
        rc->clock[d] = MAX(rc->clock[d], leave + c->a + wire(c, m) * beta);
        rc->clock[s] += c->os;
        return;
    }
    rc->port[s] = leave + beta;
    double arrival = MAX(leave + c->a + beta, rc->clock[d]) + 2.0 * c->an + (m + 1.0) * beta;
    rc->clock[s] = rc->clock[d] = arrival;
}

/*
 * One round of MPI_Sendrecv on every rank r with `active[r]` (NULL: all): r sends out[r]
 * bytes to to[r] and receives from from[r] (to and from are inverse permutations on the
 * active ranks). Clocks are those at entering the call; all messages of the round are
 * computed from them, then the clocks advance.
 */
void
clocks_exchange(const struct ctx *c, struct rank_clocks *rc, const int *to, const int *from,
                const double *out, const gboolean *active, double beta)
{
    int p = rc->p;
    double *arrival = g_new(double, p); /* of r's message at to[r] */
    double *done = g_new(double, p);    /* when r's send is complete */
    for (int r = 0; r < p; r++) {
        if (active != NULL && !active[r])
            continue;
        double leave = MAX(rc->clock[r], rc->port[r]);
        if (is_eager(c, out[r])) {
            rc->port[r] = leave + inject(c, out[r]);
            arrival[r] = leave + c->a + wire(c, out[r]) * beta;
            done[r] = rc->clock[r];
        } else {
            rc->port[r] = leave + beta;
            arrival[r] = MAX(leave + c->a + beta, rc->clock[to[r]]) + 2.0 * c->an +
                         (out[r] + 1.0) * beta;
            done[r] = arrival[r];
        }
    }
    for (int r = 0; r < p; r++)
        if (active == NULL || active[r])
            rc->clock[r] = MAX(MAX(rc->clock[r], done[r]), arrival[from[r]]);
    g_free(arrival);
    g_free(done);
}

/*
 * Binomial scatter of blocks of m bytes from relative rank 0 (bcast's scatter phase): every
 * rank's clock set to when it has its blocks and the root's port to its last landing.
 * Node v sends v + 2^i (largest first) the min(2^i, p - v - 2^i) blocks of its subtree.
 */
void
clocks_binomial_scatter(const struct ctx *c, struct rank_clocks *rc, double m)
{
    int p = rc->p;
    for (int v = 0; v < p; v++) {
        int low = v == 0 ? 1 << ceil_log2(p) : v & -v;
        for (int mask = low >> 1; mask > 0; mask >>= 1) {
            if (v + mask >= p)
                continue;
            int blocks = MIN(mask, p - v - mask);
            clocks_message(c, rc, v, v + mask, blocks * m, c->b);
        }
    }
}

/*
 * MPICH's recursive-doubling allgather of blocks of m bytes on relative ranks, including the
 * fix-up for p not a power of two (allgather_recursive_doubling.c): in round mask every rank
 * whose partner r xor mask exists exchanges its group's blocks (cut at p) with it; in a
 * group whose partner group is cut, the first `completed` ranks then pass the partner's
 * blocks on along a binomial tree inside the group.
 */
void
clocks_recursive_doubling_allgather(const struct ctx *c, struct rank_clocks *rc, double m)
{
    int p = rc->p;
    int *partner = g_new(int, p);
    double *out = g_new(double, p);
    gboolean *active = g_new(gboolean, p);
    double beta = c->b * (1.0 + c->x);
    for (int mask = 1; mask < p; mask <<= 1) {
        for (int r = 0; r < p; r++) {
            partner[r] = r ^ mask;
            active[r] = partner[r] < p;
            int group = r & ~(mask - 1);
            out[r] = (MIN(group + mask, p) - group) * m;
        }
        clocks_exchange(c, rc, partner, partner, out, active, beta);
        /* fix-ups, in the one group [g, g + mask) whose partner group is cut by p: sub-steps
         * from mask/2 down to 1, senders before receivers in each */
        int g = ((p - 1) / (2 * mask)) * (2 * mask);
        for (int sub = mask >> 1; sub > 0 && g + mask < p; sub >>= 1) {
            for (int r = g; r < g + mask; r++) {
                int group = r & ~(mask - 1), peer = r ^ sub;
                int partner_group = (r ^ mask) & ~(mask - 1);
                if (!(partner_group > group && partner_group + mask > p))
                    continue;
                int completed = p - group - mask, tree_root = r & ~(2 * sub - 1);
                if (completed <= 0 || peer >= p)
                    continue;
                if (peer > r && r < tree_root + completed && peer >= tree_root + completed)
                    clocks_message(c, rc, r, peer, (p - group - mask) * m, c->b);
            }
        }
    }
    g_free(partner);
    g_free(out);
    g_free(active);
}

/* ---------------------------------------------------------------- pipelines */

/* Segments of a pipeline: S = max(1, ⌈m/segment⌉) of `segment` bytes, the last one holding
 * the rest (the algorithms' segment_items with a type size that divides the segment). */
double
segment_count(const struct ctx *c, double m, double *last)
{
    double S = MAX(1.0, ceil(m / c->seg));
    *last = m - (S - 1.0) * c->seg;
    return S;
}

/*
 * One segment of len bytes from a rank to one child under the rules listed below: it leaves
 * at max(*now, *port), the sender's program time and its NIC's. Eager: it arrives α + sβ
 * after leaving and the sender goes on after `eager_overhead` (pipelined_tree_reducing
 * charges o_s; bcast_split_binary's model charges nothing). Rendezvous: the clear-to-send
 * waits for the child's receive, ready at `child_ready`, and the sender waits until the data
 * has arrived. Returns the arrival time at the child.
 */
double
pipeline_send(const struct ctx *c, double len, double *now, double *port, double child_ready,
              double eager_overhead)
{
    double leave = MAX(*now, *port);
    double arrival;
    if (is_eager(c, len)) {
        *port = leave + inject(c, len);
        arrival = leave + c->a + wire(c, len) * c->b;
        *now += eager_overhead;
    } else {
        *port = leave + c->b;
        arrival = MAX(leave + c->a + c->b, child_ready) + 2.0 * c->an + (len + 1.0) * c->b;
        *now = arrival;
    }
    return arrival;
}

/*
 * A broadcast of m bytes pipelined in segments down a chain (relative rank v sends to v+1) or
 * a heap binary tree (v to 2v+1 then 2v+2), every inner rank posting the receive of segment
 * s+1 before waiting for segment s and then sending s to its children with blocking sends.
 * Evaluated rank by rank and segment by segment, O(pS), with collsim's rules:
 *  - the NIC: a message leaves at max(the sender's program time, the time the NIC has sent
 *    its previous message's bytes);
 *  - eager: arrives α + sβ after leaving, the send returns at once;
 *  - rendezvous: the envelope lands α + β after leaving; the clear-to-send goes back (α + β)
 *    once the receiver waits for that segment (MPI_Wait: it has finished sending the
 *    previous one), then the data flows (α + sβ); the send returns when it has arrived.
 * Every rank receives from its parent only, and a rank's messages never overlap: exact.
 * With gamma > 0 (the reduce chain, eager segments) every rank but the first spends
 * len·gamma on a segment before forwarding it, and `tail` adds one more rank receiving from
 * the last (the root elsewhere): approximate, since a send queued behind the port while the
 * rank reduces the next segment leaves only when the reduction ends (not counted).
 */
double
pipelined_tree_reducing(const struct ctx *c, enum pipe_tree shape, double m, double gamma,
                        gboolean tail)
{
    int p = c->p, nodes = p + (tail ? 1 : 0); /* the tail: one more rank, receiving only */
    double last;
    double S = segment_count(c, m, &last);
    double *arrival = g_new0(double, nodes), *now = g_new0(double, nodes);
    double *port = g_new0(double, nodes);
    /* posted[v]: when v posted the receive of the segment its parent sends next (it posts
     * segment s+1 as it starts waiting for s; segments 0 and 1 at the start) */
    double *posted = g_new0(double, nodes), *waits = g_new0(double, nodes);
    for (double s = 0; s < S; s++) {
        double len = s + 1 < S ? c->seg : last;
        for (int v = 0; v < nodes; v++) {
            posted[v] = waits[v];
            waits[v] = now[v];
            now[v] = MAX(now[v], arrival[v]) + (v > 0 && v < p ? len * gamma : 0.0);
            long long first = shape == PIPE_CHAIN ? v + 1LL : 2LL * v + 1;
            long long past = shape == PIPE_CHAIN ? v + 2LL : 2LL * v + 3;
            for (long long ch = first; ch < past && ch < nodes; ch++) {
                /* a rendezvous child answers once the envelope is there and the receive
                 * posted: it is inside MPI then (waiting, or sending the previous segment) */
                arrival[ch] = pipeline_send(c, len, &now[v], &port[v], posted[ch], c->os);
            }
        }
    }
    double end = 0.0;
    for (int v = 0; v < nodes; v++)
        end = MAX(end, now[v]);
    g_free(arrival);
    g_free(now);
    g_free(port);
    g_free(posted);
    g_free(waits);
    return end;
}

double
pipelined_tree(const struct ctx *c, enum pipe_tree shape, double m)
{
    return pipelined_tree_reducing(c, shape, m, 0.0, FALSE);
}
