/*
 * model_predict.c — α-β-γ predictions of every collective algorithm, one table row each.
 *
 * Notation: p ranks, n bytes (model_predict.h says what n counts per collective), L = ⌈lg p⌉,
 * F = ⌊lg p⌋, p2 = 2^F, r = p - p2, b = n/p a block, S the number of segments.
 *
 * Every formula is written with a handful of primitives whose cost depends on the mode
 * (model_predict.h): msg(m), one message of m bytes to a waiting receiver; xmsg(m), one
 * message of a round in which every rank sends and receives (exchange or shift); fans of k
 * messages out of or into one rank; and the tree evaluators for binomial, k-nomial and
 * in-order binary trees. In TEXTBOOK mode the primitives are one-port Hockney (msg = α + mβ,
 * a rank sends or receives one message at a time), so at power-of-two p every formula with a
 * row in COST_MODELS.md gives exactly that row (the tests check it). In COLLSIM mode they are
 * the rules of collsim's transport (sim/p2p.c):
 *
 *   msg(m)   = α + max(m,1)β          m <= eager threshold E
 *            = 3α + (m+2)β            m > E (one-byte envelope, one-byte clear-to-send back
 *                                     once the receive is posted, then the data)
 *   xmsg(m)  = the same with β(1 + crosstraffic)
 *   the NIC: a rank starts one transfer (an eager message or an envelope) at a time, the next
 *   once the previous one's bytes have left, so k back-to-back eager messages land at
 *   α + (i+1)·max(m,1)β while blocking rendezvous sends follow each other, k·msg(m);
 *   rendezvous data does not use the NIC's queue, so the data of MPI_Isend'ed rendezvous
 *   messages flow together (isend_rendezvous);
 *   receivers are not serialised: transfers arriving at one rank together share its link
 *   (processor sharing, envelopes included: fan_in_announced, fan_in_posted).
 *
 * Tree algorithms are evaluated on the tree itself (the shape depends on p only through
 * subtree sizes, so a memo over sizes makes it O(log² p)); pipelines segment by segment and
 * rank by rank (O(pS)); a few algorithms rank by rank with clocks and ports (O(p log p)).
 *
 * Assumed algorithm structures: those of src/coll/ (read from the sources): blocking sends
 * and receives in the order given; trees on ranks relative to the root; children of a
 * k-nomial node sent to in descending mask order, received from in ascending mask order.
 *
 * model_predict_exact() says where COLLSIM equals collsim's simulated time (CM02, no
 * overheads, all ranks starting together); tests/coll/check_timing.c checks every
 * registry row at p = 5, 8, 12, 16, eager and rendezvous sizes, to 1e-6 relative where
 * exact (with SimGrid's surf/precision lowered to 1e-15: its default 1e-9 s rounds event
 * times), within stated bounds elsewhere. Each formula's comment says which it is.
 */
#include <math.h>
#include <string.h>

#include "model_predict.h"

#include "model_network.h"

/* ---------------------------------------------------------------- context and primitives */

struct ctx {
    int p;
    double n;
    double a, b, g; /* α, β, γ (COLLSIM: α includes one o_s and one o_r) */
    double os, orr; /* COLLSIM: o_s and o_r, for a rank sending or receiving several in a row */
    double an;      /* α of the network alone: a rendezvous's clear-to-send and data trips */
    double x;       /* cross-traffic weight (0 in TEXTBOOK mode) */
    double eager;   /* eager threshold (INFINITY in TEXTBOOK mode) */
    double seg;
    int radix;
    int root;
    gboolean textbook;
};

static int
floor_log2(int p)
{
    int k = 0;
    while ((p >>= 1) > 0)
        k++;
    return k;
}

static int
ceil_log2(int p)
{
    int k = 0;
    while ((1LL << k) < (long long)p)
        k++;
    return k;
}

static gboolean
is_pof2(int p)
{
    return (p & (p - 1)) == 0;
}

static gboolean
is_eager(const struct ctx *c, double m)
{
    return c->textbook || m <= c->eager;
}

/* Bytes on the wire of an eager message: an empty one still travels as one byte. */
static double
wire(const struct ctx *c, double m)
{
    return c->textbook ? m : MAX(m, 1.0);
}

/* How long a message keeps its sender's NIC busy: its bytes at the link's rate, which
 * collsim's NIC lowers by the cross traffic's 5 % (sim/p2p.c, port_rate). */
static double
inject(const struct ctx *c, double m)
{
    return wire(c, m) * c->b * (1.0 + c->x);
}

static double
msg_beta(const struct ctx *c, double m, double beta)
{
    if (c->textbook)
        return c->a + m * beta;
    if (m <= c->eager)
        return c->a + MAX(m, 1.0) * beta;
    /* envelope, clear-to-send (one byte each), data */
    return c->a + 2.0 * c->an + (m + 2.0) * beta;
}

/* One message of m bytes to a receiver already waiting. */
static double
msg(const struct ctx *c, double m)
{
    return msg_beta(c, m, c->b);
}

/* One message of a round in which every rank sends and receives (cross traffic). */
static double
xmsg(const struct ctx *c, double m)
{
    return msg_beta(c, m, c->b * (1.0 + c->x));
}

/* k messages of m bytes sent one after the other by one rank to k distinct waiting ranks with
 * blocking sends: the time the last one arrives. Eager: the sends return at once and the NIC
 * starts each message when the previous one's bytes have left, so the last lands at
 * α + k·max(m,1)β. Rendezvous: a send returns once its data has arrived: k·msg(m).
 * TEXTBOOK (one port): k(α + mβ). */
static double
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
static double
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
static double
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
static double
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
static double
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

enum tree_shape {
    TREE_KNOMIAL,  /* node 0 of a subtree of s ranks; children j·k^i (j < k) cover k^i ranks */
    TREE_IN_ORDER, /* Open MPI's in-order binary tree: root s-1; the subtree of the ⌈(s-1)/2⌉
                      lowest ranks is received first, then that of the ⌊(s-1)/2⌋ others */
};

#define TREE_MEMO 512

struct tree {
    const struct ctx *c;
    enum tree_shape shape;
    int radix;
    double bytes;      /* bytes of every message, when block < 0 */
    double block;      /* >= 0: a child's message carries (its subtree's size) × block bytes */
    double reduce;     /* seconds spent after each receive (n·γ), 0 for data movement */
    gboolean announce; /* v-variants: gatherv's children of a non-root node send their byte
                          count (one int) first; scatterv's subtrees of several ranks get
                          their ranks' sizes (one int each) first */
    guint n_memo;
    int memo_size[TREE_MEMO];
    double memo_time[TREE_MEMO];
};

static void
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
static double
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
static double
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
static double
knomial_down(const struct ctx *c, int ranks, int radix, double m, double block)
{
    struct tree *t = g_new(struct tree, 1);
    tree_init(t, c, TREE_KNOMIAL, radix, m, block, 0.0);
    double time = tree_down(t, ranks);
    g_free(t);
    return time;
}

/* A reduction of m bytes (block < 0) or a gather of blocks (block >= 0) up a tree. */
static double
tree_up_time(const struct ctx *c, enum tree_shape shape, int ranks, int radix, double m,
             double block, double reduce)
{
    struct tree *t = g_new(struct tree, 1);
    tree_init(t, c, shape, radix, m, block, reduce);
    double time = tree_up(t, ranks, TRUE);
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
static double
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
static double
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
static double
recursive_doubling_gather_back(const struct ctx *c, int q, double m)
{
    double time = 0.0;
    for (int k = 1; (1LL << k) <= q; k++)
        time += xmsg(c, m / (double)(1LL << k));
    return time;
}

/* Segments: S = max(1, ⌈n/segment⌉) of n/S bytes each (equal; exact when the segment size
 * divides n). */
static double
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
static double
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

/*
 * Some algorithms are evaluated rank by rank: every rank has a clock (the time its program
 * reaches the next call) and a port (the time its NIC has sent the bytes of its last
 * message). collsim's rules for one message of m bytes from s to d, s at its send and d at
 * (or past) the matching receive:
 *  - eager: leaves at max(clock_s, port_s), which is free again max(m,1)β later, and lands
 *    α + max(m,1)β after leaving; the send returns at once and the receive completes at the
 *    landing (or when d gets there, if later);
 *  - rendezvous: the envelope leaves at max(clock_s, port_s) and lands α + β later; once d
 *    has reached the receive its clear-to-send goes back (α + β) and the data flows
 *    (α + mβ); the send and the receive complete when it has arrived.
 * A rank's incoming transfers are taken not to overlap (exact when they do not; otherwise
 * they would share its link).
 */
struct rank_clocks {
    int p;
    double *clock;
    double *port;
};

static void
clocks_init(struct rank_clocks *rc, int p)
{
    rc->p = p;
    rc->clock = g_new0(double, p);
    rc->port = g_new0(double, p);
}

static void
clocks_free(struct rank_clocks *rc)
{
    g_free(rc->clock);
    g_free(rc->port);
}

static double
clocks_max(const struct rank_clocks *rc)
{
    double end = 0.0;
    for (int r = 0; r < rc->p; r++)
        end = MAX(end, rc->clock[r]);
    return end;
}

/* One message s -> d of m bytes with blocking calls on both sides (MPI_Send, MPI_Recv), the
 * receiver's clock at its receive: advances both clocks. `beta` per byte. */
static void
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
static void
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
static void
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
static void
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

/* ---------------------------------------------------------------- barrier */

/* linear: the p-1 others send an empty message (one byte) to rank 0 at once, which then
 * releases them one after the other.
 * TEXTBOOK 2(p-1)α. COLLSIM: the one-byte messages share rank 0's link and all arrive at
 * α + (p-1)β; the releases leave one at a time: pα + 2(p-1)β. Exact. */
static double
barrier_linear(const struct ctx *c)
{
    return fan_in_equal(c, c->p - 1, 0, 0) + fan_out_equal(c, c->p - 1, 0);
}

/* dissemination: L rounds; in round k every rank sends an empty message to r + 2^k and
 * receives one from r - 2^k (a shift): L·xmsg(0) = L(α + (1+x)β) in COLLSIM. Exact. */
static double
barrier_dissemination(const struct ctx *c)
{
    return ceil_log2(c->p) * xmsg(c, 0);
}

/* binomial: empty messages up a binomial tree to rank 0 (children nearest first), then down
 * it (farthest first). TEXTBOOK 2Lα. COLLSIM: the tree evaluators (arrivals sharing a
 * parent's link; releases one after the other); at p = 2^F, 2F(α + β). Exact. */
static double
barrier_binomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, 0, -1, 0) + knomial_down(c, c->p, 2, 0, -1);
}

/*
 * The exchange rounds of a recursive-doubling pattern among q = 2^F ranks starting at
 * start[0..q) (start is updated to the end times): in round k rank r sends a message of m
 * bytes to r xor 2^k and receives one from it (MPI_Sendrecv): a rank's message leaves at
 * max(its start of the round, the time its NIC has sent the previous message's bytes).
 * `port` holds when each rank's NIC is free (updated). Eager messages only, no cross
 * traffic (the partners' messages may not overlap).
 */
static void
exchange_rounds(const struct ctx *c, int q, double m, double *start, double *port)
{
    double cost = msg(c, m), busy = c->textbook ? cost : inject(c, m);
    double *launch = g_new(double, q);
    for (int mask = 1; mask < q; mask <<= 1) {
        for (int r = 0; r < q; r++) {
            launch[r] = MAX(start[r], port[r]);
            port[r] = launch[r] + busy;
        }
        for (int r = 0; r < q; r++)
            start[r] = MAX(start[r], launch[r ^ mask] + cost);
    }
    g_free(launch);
}

/* recursive_doubling: p = 2^F: F pairwise exchanges (r xor 2^k) of empty messages:
 * F·xmsg(0). Otherwise the r = p - p2 ranks above p2 first send to r - p2 (one message); the
 * p2 low ranks exchange F times, those with a partner above starting one message late (an
 * O(p log p) evaluation of the rounds with one port); then they release the partners.
 * TEXTBOOK (F + 2)α. COLLSIM exact without cross traffic. */
static double
barrier_recursive_doubling(const struct ctx *c)
{
    int p = c->p, F = floor_log2(p), q = 1 << F, extra = p - q;
    if (is_pof2(p))
        return F * xmsg(c, 0);
    if (c->textbook)
        return (F + 2.0) * c->a;
    double *start = g_new(double, q), *port = g_new0(double, q);
    for (int r = 0; r < q; r++)
        start[r] = r < extra ? msg(c, 0) : 0.0;
    exchange_rounds(c, q, 0, start, port);
    double end = 0.0;
    for (int r = 0; r < q; r++) {
        end = MAX(end, start[r]);
        if (r < extra)
            end = MAX(end, MAX(start[r], port[r]) + msg(c, 0));
    }
    g_free(start);
    g_free(port);
    return end;
}

/* double_ring: a token goes round the ring 0 -> 1 -> … -> p-1 -> 0 twice: 2p messages, each
 * sent when the previous has arrived: 2p·msg(0). Exact. */
static double
barrier_double_ring(const struct ctx *c)
{
    return 2.0 * c->p * msg(c, 0);
}

/* ---------------------------------------------------------------- bcast */

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

/* Segments of a pipeline: S = max(1, ⌈m/segment⌉) of `segment` bytes, the last one holding
 * the rest (the algorithms' segment_items with a type size that divides the segment). */
static double
segment_count(const struct ctx *c, double m, double *last)
{
    double S = MAX(1.0, ceil(m / c->seg));
    *last = m - (S - 1.0) * c->seg;
    return S;
}

enum pipe_tree { PIPE_CHAIN, PIPE_HEAP_BINARY };

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
static double
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
                double leave = MAX(now[v], port[v]);
                if (is_eager(c, len)) {
                    port[v] = leave + inject(c, len);
                    arrival[ch] = leave + c->a + wire(c, len) * c->b;
                    now[v] += c->os;
                } else {
                    /* the child answers once the envelope is there and the receive posted:
                     * it is inside MPI then (waiting, or sending the previous segment) */
                    port[v] = leave + c->b;
                    arrival[ch] =
                        MAX(leave + c->a + c->b, posted[ch]) + 2.0 * c->an + (len + 1.0) * c->b;
                    now[v] = arrival[ch];
                }
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

static double
pipelined_tree(const struct ctx *c, enum pipe_tree shape, double m)
{
    return pipelined_tree_reducing(c, shape, m, 0.0, FALSE);
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
                double leave = MAX(now[v], port[v]);
                if (is_eager(c, len)) {
                    port[v] = leave + inject(c, len);
                    arrival[ch] = leave + c->a + wire(c, len) * c->b;
                } else {
                    port[v] = leave + c->b;
                    arrival[ch] =
                        MAX(leave + c->a + c->b, now[ch]) + 2.0 * c->an + (len + 1.0) * c->b;
                    now[v] = arrival[ch];
                }
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

/* ---------------------------------------------------------------- scatter, gather */

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
    struct tree *t = g_new(struct tree, 1);
    tree_init(t, c, TREE_KNOMIAL, 2, 0, c->n, 0.0);
    t->announce = TRUE;
    double time = tree_down(t, c->p);
    g_free(t);
    return time;
}

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
static double
gather_binomial(const struct ctx *c)
{
    return tree_up_time(c, TREE_KNOMIAL, c->p, 2, 0, c->n, 0);
}

/* binomial gatherv: as gather, but a rank whose parent is not the root first tells it how
 * many bytes its subtree holds (one int, one more message through its port). Exact. */
static double
gatherv_binomial(const struct ctx *c)
{
    struct tree *t = g_new(struct tree, 1);
    tree_init(t, c, TREE_KNOMIAL, 2, 0, c->n, 0.0);
    t->announce = TRUE;
    double time = tree_up(t, c->p, TRUE);
    g_free(t);
    return time;
}

/* ---------------------------------------------------------------- allgather(v) */

/* ring: p-1 shifts of one block: (p-1)·xmsg(n). TEXTBOOK (p-1)α + (p-1)nβ. Exact. */
static double
allgather_ring(const struct ctx *c)
{
    return (c->p - 1) * xmsg(c, c->n);
}

/* recursive_doubling: TEXTBOOK at p = 2^F: Fα + (p-1)nβ (recursive_doubling_allgather()).
 * COLLSIM: p = 2^F: Σ xmsg(2^k n), exact. Otherwise rank by rank with MPICH's fix-up
 * messages (clocks_recursive_doubling_allgather); approximate: a fix-up message may share a
 * link with an exchange. */
static double
allgather_recursive_doubling(const struct ctx *c)
{
    if (c->textbook || is_pof2(c->p))
        return recursive_doubling_allgather(c, c->n);
    struct rank_clocks rc;
    clocks_init(&rc, c->p);
    clocks_recursive_doubling_allgather(c, &rc, c->n);
    double end = clocks_max(&rc);
    clocks_free(&rc);
    return end;
}

/* bruck: L rounds; in round k every rank sends min(2^k, p - 2^k) blocks to r - 2^k and
 * receives as many from r + 2^k (p-1 blocks in all), then rotates locally.
 * TEXTBOOK Lα + (p-1)nβ. Exact (every rank sends as much in every round). */
static double
allgather_bruck(const struct ctx *c)
{
    double time = 0.0;
    for (int k = 0; k < ceil_log2(c->p); k++)
        time += xmsg(c, (double)MIN(1LL << k, (long long)c->p - (1LL << k)) * c->n);
    return time;
}

/* neighbor_exchange (Chen et al.; Open MPI): p even: one exchange of 1 block with one
 * neighbour, then p/2 - 1 exchanges of 2 blocks alternating neighbours:
 * xmsg(n) + (p/2 - 1)·xmsg(2n); TEXTBOOK (p/2)α + (p-1)nβ. Exact. (Odd p is refused by the
 * registry; the formula then gives the ring's.) */
static double
allgather_neighbor_exchange(const struct ctx *c)
{
    if (c->p % 2 != 0)
        return allgather_ring(c);
    return xmsg(c, c->n) + (c->p / 2 - 1) * xmsg(c, 2.0 * c->n);
}

/* gather_bcast: binomial gather of the blocks to rank 0, then binomial broadcast of all p·n
 * from rank 0, every other rank waiting for it. TEXTBOOK at p = 2^F:
 * Fα + (p-1)nβ + F(α + pnβ). Exact. */
static double
allgather_gather_bcast(const struct ctx *c)
{
    return gather_binomial(c) + knomial_down(c, c->p, 2, c->p * c->n, -1);
}

/* ---------------------------------------------------------------- alltoall(v,w) */

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

/* ---------------------------------------------------------------- reduce */

static double
reduce_gamma(const struct ctx *c)
{
    return c->n * c->g;
}

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
static double
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
    double frac = (p - 1.0) / p;
    if (c->textbook) {
        if (is_pof2(p))
            return 2.0 * F * c->a + 2.0 * frac * c->n * c->b + frac * c->n * c->g;
        return (2.0 * F + 1.0) * c->a + (2.0 * frac + 1.0) * c->n * c->b +
               (1.0 + frac) * c->n * c->g;
    }
    double time = is_pof2(p) ? 0.0 : msg(c, c->n) + reduce_gamma(c);
    time += recursive_halving(c, q, c->n);
    return time + tree_up_time(c, TREE_KNOMIAL, q, 2, 0, c->n / q, 0);
}

/* ---------------------------------------------------------------- allreduce */

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
    double frac = (p - 1.0) / p;
    if (c->textbook) {
        if (is_pof2(p))
            return 2.0 * F * c->a + 2.0 * frac * c->n * c->b + frac * c->n * c->g;
        return (2.0 * F + 2.0) * c->a + (2.0 * frac + 2.0) * c->n * c->b +
               (1.0 + frac) * c->n * c->g;
    }
    double time = recursive_halving(c, q, c->n) + recursive_doubling_gather_back(c, q, c->n);
    if (!is_pof2(p))
        time += 2.0 * msg(c, c->n) + reduce_gamma(c);
    return time;
}

/* ---------------------------------------------------------------- reduce_scatter(_block) */

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

/* ---------------------------------------------------------------- scan, exscan */

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

/* ---------------------------------------------------------------- the table */

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

static double
allgather_smp(const struct ctx *c)
{
    double total = c->n * c->p;
    if (total < 512 * 1024 && is_pof2(c->p))
        return allgather_recursive_doubling(c);
    return total < 80 * 1024 ? allgather_bruck(c) : allgather_ring(c);
}

/* Rabenseifner needs one item per node: assumed here for n > 2 KiB (items of at most
 * n / p bytes), hence APPROXIMATE. */
static double
reduce_smp(const struct ctx *c)
{
    return c->n > 2048 ? reduce_rabenseifner(c) : reduce_binomial(c);
}

static double
allreduce_smp(const struct ctx *c)
{
    return c->n > 2048 ? allreduce_rabenseifner(c) : allreduce_recursive_doubling(c);
}

enum {
    NEEDS_SEGMENT = 1 << 0,        /* uses segment_bytes */
    NEEDS_RADIX = 1 << 1,          /* uses radix */
    ROOTED = 1 << 2,               /* uses root */
    APPROXIMATE = 1 << 3,          /* COLLSIM mode is approximate */
    APPROXIMATE_NON_POF2 = 1 << 4, /* COLLSIM mode is exact at power-of-two p only */
    SYMMETRIC = 1 << 5,            /* every rank does the same at the same time: cross traffic is
                                      counted exactly (β(1+x)); otherwise exact without it only */
    ONE_WAY = 1 << 8,              /* no rank sends while a transfer into it flows, so the reverse
                                      traffic meets no other flow: exact with cross traffic too */
    RETURNS_AT_ZERO = 1 << 6,      /* a call of 0 bytes returns at once, costing nothing */
};

struct row {
    const char *collective;
    const char *algorithm;
    double (*time)(const struct ctx *c);
    unsigned flags;
    const char *formula; /* TEXTBOOK mode, ASCII */
};

#define LIN "(p-1)(a + n b)"

static const struct row rows[] = {
    {"barrier", "linear", barrier_linear, ONE_WAY, "2(p-1)a"},
    {"barrier", "dissemination", barrier_dissemination, SYMMETRIC, "ceil(lg p) a"},
    {"barrier", "binomial", barrier_binomial, ONE_WAY, "2 ceil(lg p) a"},
    {"barrier", "recursive_doubling", barrier_recursive_doubling, SYMMETRIC | APPROXIMATE_NON_POF2,
     "lg p a (pof2); (floor(lg p) + 2) a otherwise"},
    {"barrier", "double_ring", barrier_double_ring, ONE_WAY, "2p a"},

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

    {"scatter", "linear", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"scatter", "binomial", scatter_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "lg p a + (p-1) n b"},
    {"scatterv", "linear", scatter_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"scatterv", "binomial", scatterv_binomial, ROOTED | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 j b) before each subtree of j > 1 ranks"},
    {"gather", "linear", gather_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"gather", "binomial", gather_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY, "lg p a + (p-1) n b"},
    {"gatherv", "linear", gather_linear, ROOTED | RETURNS_AT_ZERO | ONE_WAY, LIN},
    {"gatherv", "binomial", gatherv_binomial, ROOTED | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 b) from each rank whose parent is not the root"},

    {"allgather", "ring", allgather_ring, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},
    {"allgather", "recursive_doubling", allgather_recursive_doubling,
     SYMMETRIC | APPROXIMATE_NON_POF2 | RETURNS_AT_ZERO, "lg p a + (p-1) n b"},
    {"allgather", "bruck", allgather_bruck, SYMMETRIC | RETURNS_AT_ZERO, "ceil(lg p) a + (p-1) n b"},
    {"allgather", "neighbor_exchange", allgather_neighbor_exchange, SYMMETRIC | RETURNS_AT_ZERO,
     "(p/2) a + (p-1) n b"},
    {"allgather", "gather_bcast", allgather_gather_bcast, RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b + lg p (a + p n b)"},
    {"allgatherv", "ring", allgather_ring, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},
    {"allgatherv", "recursive_doubling", allgather_recursive_doubling,
     SYMMETRIC | APPROXIMATE_NON_POF2 | RETURNS_AT_ZERO, "lg p a + (p-1) n b"},
    {"allgatherv", "bruck", allgather_bruck, SYMMETRIC | RETURNS_AT_ZERO, "ceil(lg p) a + (p-1) n b"},
    {"allgatherv", "neighbor_exchange", allgather_neighbor_exchange, SYMMETRIC | RETURNS_AT_ZERO,
     "(p/2) a + (p-1) n b"},
    {"allgatherv", "gather_bcast", allgather_gather_bcast, RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b + lg p (a + p n b)"},

    {"alltoall", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "bruck", alltoall_bruck, SYMMETRIC | RETURNS_AT_ZERO, "lg p a + lg p (p/2) n b"},
    {"alltoall", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoall", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallv", "ring", alltoall_ring, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "pairwise", alltoall_pairwise, SYMMETRIC | RETURNS_AT_ZERO, LIN},
    {"alltoallw", "linear", alltoall_linear, SYMMETRIC | RETURNS_AT_ZERO, LIN},

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

    {"scan", "linear", scan_linear, RETURNS_AT_ZERO | ONE_WAY, "(p-1)(a + n b + n c)"},
    {"scan", "recursive_doubling", scan_recursive_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "ceil(lg p)(a + n b + 2 n c)"},
    {"exscan", "linear", exscan_linear, RETURNS_AT_ZERO | ONE_WAY, "(p-1)(a + n b) + (p-2) n c"},
    {"exscan", "recursive_doubling", exscan_recursive_doubling, RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "ceil(lg p)(a + n b) + (2 ceil(lg p) - 1) n c"},

    /* node-aware, on single-core hosts (bcast_smp above explains) */
    {"barrier", "smp", barrier_dissemination, SYMMETRIC, "ceil(lg p) a (one rank per node)"},
    {"bcast", "smp", bcast_smp, ROOTED | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "binomial below 12 KiB or p < 8, else scatter_ring_allgather (one rank per node)"},
    {"reduce", "smp", reduce_smp, RETURNS_AT_ZERO | ROOTED | APPROXIMATE,
     "binomial up to 2 KiB, else rabenseifner (one rank per node)"},
    {"allreduce", "smp", allreduce_smp, RETURNS_AT_ZERO | APPROXIMATE,
     "recursive_doubling up to 2 KiB, else rabenseifner (one rank per node)"},
    {"allgather", "smp", allgather_smp, SYMMETRIC | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "allgatherv recursive_doubling, bruck or ring by total size (one rank per node)"},
    {"gather", "smp", gatherv_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 b) per rank whose parent is not the root (one rank per node)"},
    {"scatter", "smp", scatterv_binomial, ROOTED | RETURNS_AT_ZERO | ONE_WAY,
     "lg p a + (p-1) n b, plus (a + 4 j b) before each subtree of j > 1 ranks (one rank per node)"},
};

#define N_ROWS (sizeof rows / sizeof rows[0])

static const struct row *
find_row(const char *collective, const char *algorithm)
{
    if (collective == NULL || algorithm == NULL)
        return NULL;
    for (gsize i = 0; i < N_ROWS; i++)
        if (strcmp(rows[i].collective, collective) == 0 &&
            strcmp(rows[i].algorithm, algorithm) == 0)
            return &rows[i];
    return NULL;
}

/* ---------------------------------------------------------------- public API */

void
model_predict_params_init(struct model_predict_params *params)
{
    g_return_if_fail(params != NULL);
    memset(params, 0, sizeof *params);
    params->ranks = 1;
    params->bytes = 0.0;
    /* the default network preset's generated cluster: two links, its model, no overheads
     * (the caller adds the run's) */
    const struct model_network *net = model_network_default();
    model_predict_route(net->simgrid_model, net->link_latency, net->link_bandwidth, 2,
                        &params->alpha, &params->beta);
    params->gamma = model_predict_gamma(1.0 / 8.0, 1e10);
    params->segment_bytes = MODEL_PREDICT_SEGMENT_BYTES;
    params->radix = MODEL_PREDICT_RADIX;
    params->root = 0;
    params->eager_threshold = (double)net->eager_threshold;
    params->crosstraffic = net->crosstraffic ? MODEL_PREDICT_CROSSTRAFFIC : 0.0;
    params->send_overhead = 0.0;
    params->recv_overhead = 0.0;
    params->gap = 0.0;
    params->mode = MODEL_PREDICT_COLLSIM;
}

double
model_predict_message_time(double n, double alpha, double beta, double eager_threshold)
{
    if (n <= eager_threshold)
        return alpha + MAX(n, 1.0) * beta;
    return 2.0 * alpha + (n + 1.0) * beta;
}

static gboolean
finite_nonneg(double x)
{
    return isfinite(x) && x >= 0.0;
}

static gboolean
params_valid(const struct row *row, const struct model_predict_params *p)
{
    if (p->ranks < 1 || !finite_nonneg(p->bytes) || !finite_nonneg(p->alpha) ||
        !finite_nonneg(p->beta) || !finite_nonneg(p->gamma))
        return FALSE;
    if (p->mode != MODEL_PREDICT_COLLSIM && p->mode != MODEL_PREDICT_TEXTBOOK)
        return FALSE;
    if (p->mode == MODEL_PREDICT_COLLSIM &&
        (isnan(p->eager_threshold) || p->eager_threshold < 0 || !finite_nonneg(p->crosstraffic)))
        return FALSE;
    if ((row->flags & NEEDS_SEGMENT) && !(isfinite(p->segment_bytes) && p->segment_bytes > 0))
        return FALSE;
    if ((row->flags & NEEDS_RADIX) && p->radix < 2)
        return FALSE;
    if ((row->flags & ROOTED) && (p->root < 0 || p->root >= p->ranks))
        return FALSE;
    return TRUE;
}

gboolean
model_predict_time(const char *collective, const char *algorithm,
                   const struct model_predict_params *params, double *seconds)
{
    g_return_val_if_fail(params != NULL, FALSE);
    g_return_val_if_fail(seconds != NULL, FALSE);
    const struct row *row = find_row(collective, algorithm);
    if (row == NULL || !params_valid(row, params))
        return FALSE;
    if (params->ranks == 1) {
        *seconds = 0.0;
        return TRUE;
    }
    gboolean textbook = params->mode == MODEL_PREDICT_TEXTBOOK;
    if (!textbook && (row->flags & RETURNS_AT_ZERO) && params->bytes == 0) {
        *seconds = 0.0; /* the algorithms return at once when there is nothing to move */
        return TRUE;
    }
    struct ctx c = {
        .p = params->ranks,
        .n = params->bytes,
        /* COLLSIM: every message on the critical path also pays the sender's o_s and the
         * receiver's o_r (approximate where a rank sends or receives several in a row) */
        .a = params->alpha +
             (textbook ? 0.0 : params->send_overhead + params->recv_overhead),
        .an = params->alpha,
        .os = textbook ? 0.0 : params->send_overhead,
        .orr = textbook ? 0.0 : params->recv_overhead,
        .b = params->beta,
        .g = params->gamma,
        .x = textbook ? 0.0 : params->crosstraffic,
        .eager = textbook ? INFINITY : params->eager_threshold,
        .seg = params->segment_bytes,
        .radix = params->radix,
        .root = (row->flags & ROOTED) ? params->root : 0,
        .textbook = textbook,
    };
    *seconds = row->time(&c);
    return TRUE;
}

gboolean
model_predict_exact(const char *collective, const char *algorithm,
                    const struct model_predict_params *params)
{
    g_return_val_if_fail(params != NULL, FALSE);
    const struct row *row = find_row(collective, algorithm);
    if (row == NULL || !params_valid(row, params) || params->mode != MODEL_PREDICT_COLLSIM)
        return FALSE;
    if (params->ranks == 1 || ((row->flags & RETURNS_AT_ZERO) && params->bytes == 0))
        return TRUE;
    /* gatherv/scatterv binomial still exchange sizes when there is no data: not modelled */
    if (params->bytes == 0 && strcmp(collective, "barrier") != 0)
        return FALSE;
    gboolean pof2 = is_pof2(params->ranks);
    if ((row->flags & APPROXIMATE) || ((row->flags & APPROXIMATE_NON_POF2) && !pof2))
        return FALSE;
    /* overheads and the gap are folded into α: exact only without them */
    if (params->send_overhead > 0 || params->recv_overhead > 0 || params->gap > 0)
        return FALSE;
    return (row->flags & (SYMMETRIC | ONE_WAY)) || params->crosstraffic == 0.0;
}

gboolean
model_predict_known(const char *collective, const char *algorithm)
{
    return find_row(collective, algorithm) != NULL;
}

const char *
model_predict_formula(const char *collective, const char *algorithm)
{
    const struct row *row = find_row(collective, algorithm);
    return row != NULL ? row->formula : NULL;
}

const struct model_predict_entry *
model_predict_entries(gsize *count)
{
    static struct model_predict_entry entries[N_ROWS];
    static gsize initialized;
    if (g_once_init_enter(&initialized)) {
        for (gsize i = 0; i < N_ROWS; i++)
            entries[i] = (struct model_predict_entry){
                rows[i].collective, rows[i].algorithm, rows[i].formula,
                (rows[i].flags & (APPROXIMATE | APPROXIMATE_NON_POF2)) != 0};
        g_once_init_leave(&initialized, 1);
    }
    if (count != NULL)
        *count = N_ROWS;
    return entries;
}

gboolean
model_predict_route(const char *network_model, double link_latency, double link_bandwidth,
                    int links, double *alpha, double *beta)
{
    g_return_val_if_fail(alpha != NULL && beta != NULL, FALSE);
    if (network_model == NULL || links < 1 || !(link_latency >= 0.0) || !isfinite(link_latency) ||
        !(link_bandwidth > 0.0) || !isfinite(link_bandwidth))
        return FALSE;
    double latency_factor, bandwidth_factor;
    if (g_ascii_strcasecmp(network_model, "CM02") == 0) {
        latency_factor = 1.0;
        bandwidth_factor = 1.0;
    } else if (g_ascii_strcasecmp(network_model, "LV08") == 0) {
        latency_factor = 13.01;
        bandwidth_factor = 0.97;
    } else {
        return FALSE;
    }
    *alpha = latency_factor * links * link_latency;
    *beta = 1.0 / (bandwidth_factor * link_bandwidth);
    return TRUE;
}

double
model_predict_gamma(double flops_per_byte, double host_speed)
{
    if (!(host_speed > 0.0) || !(flops_per_byte >= 0.0))
        return -1.0;
    return flops_per_byte / host_speed;
}
