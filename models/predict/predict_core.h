/*
 * predict_core.h — the private machinery of the analytic predictions (models/predict/): the
 * evaluation context, the message primitives, the fans, tree, pipeline and rank-clock
 * evaluators, the row type and flags, and each collective's table of rows. Not part of the
 * API: model_predict.h is; only models/model_predict.c and models/predict/ include this.
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
 * the rules of collsim's transport (sim/transport/p2p.c):
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
 * Invariants:
 *  - everything here is a pure function of its arguments (no global state), so predictions
 *    are deterministic and may run from several threads;
 *  - the one-line primitives are static inline here, the rest is defined in predict_core.c;
 *    every declared function and table is G_GNUC_INTERNAL, so libcollsim exports none of
 *    these short names;
 *  - a formula shared by two collectives lives in the file of the first (in table order) and
 *    is declared at the end of this header;
 *  - each predict_rows_<collective>[] holds the rows of that collective only, its node-aware
 *    (smp) row, if any, last.
 *
 * libc and GLib only, as all of models/.
 */
#ifndef COLLSIM_PREDICT_CORE_H
#define COLLSIM_PREDICT_CORE_H

#include <glib.h>

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

static inline int
floor_log2(int p)
{
    int k = 0;
    while ((p >>= 1) > 0)
        k++;
    return k;
}

static inline int
ceil_log2(int p)
{
    int k = 0;
    while ((1LL << k) < (long long)p)
        k++;
    return k;
}

static inline gboolean
is_pof2(int p)
{
    return (p & (p - 1)) == 0;
}

static inline gboolean
is_eager(const struct ctx *c, double m)
{
    return c->textbook || m <= c->eager;
}

/* Bytes on the wire of an eager message: an empty one still travels as one byte. */
static inline double
wire(const struct ctx *c, double m)
{
    return c->textbook ? m : MAX(m, 1.0);
}

/* How long a message keeps its sender's NIC busy: its bytes at the link's rate, which
 * collsim's NIC lowers by the cross traffic's 5 % (sim/transport/p2p.c, port_rate). */
static inline double
inject(const struct ctx *c, double m)
{
    return wire(c, m) * c->b * (1.0 + c->x);
}

static inline double
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
static inline double
msg(const struct ctx *c, double m)
{
    return msg_beta(c, m, c->b);
}

/* One message of a round in which every rank sends and receives (cross traffic). */
static inline double
xmsg(const struct ctx *c, double m)
{
    return msg_beta(c, m, c->b * (1.0 + c->x));
}

static inline double
reduce_gamma(const struct ctx *c)
{
    return c->n * c->g;
}

/* ---------------------------------------------------------------- fans (predict_core.c) */

G_GNUC_INTERNAL double fan_out_equal(const struct ctx *c, double k, double m);
G_GNUC_INTERNAL double fan_in_equal(const struct ctx *c, double k, double m, double reduce);
G_GNUC_INTERNAL double fan_in_posted(const struct ctx *c, double k, double m);
G_GNUC_INTERNAL double isend_rendezvous(const struct ctx *c, guint k, double m, double beta);
G_GNUC_INTERNAL double fan_out_posted(const struct ctx *c, guint k, double m);

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

G_GNUC_INTERNAL void tree_init(struct tree *t, const struct ctx *c, enum tree_shape shape,
                               int radix, double bytes, double block, double reduce);
G_GNUC_INTERNAL double tree_down(struct tree *t, int s);
G_GNUC_INTERNAL double tree_up(struct tree *t, int s, gboolean top);
G_GNUC_INTERNAL double knomial_down(const struct ctx *c, int ranks, int radix, double m,
                                    double block);
G_GNUC_INTERNAL double tree_up_time(const struct ctx *c, enum tree_shape shape, int ranks,
                                    int radix, double m, double block, double reduce);
G_GNUC_INTERNAL double tree_time(const struct ctx *c, enum tree_shape shape, int ranks,
                                 int radix, double m, double block, double reduce, gboolean up,
                                 gboolean announce);

/* ---------------------------------------------------------------- shared building blocks */

G_GNUC_INTERNAL double recursive_doubling_allgather(const struct ctx *c, double m);
G_GNUC_INTERNAL double recursive_halving(const struct ctx *c, int q, double m);
G_GNUC_INTERNAL double recursive_doubling_gather_back(const struct ctx *c, int q, double m);
G_GNUC_INTERNAL double segments(const struct ctx *c, double m, double *segment);
G_GNUC_INTERNAL double pipeline_chain(const struct ctx *c, int hops, double m, double reduce_gamma,
                                      int tail);

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

G_GNUC_INTERNAL void clocks_init(struct rank_clocks *rc, int p);
G_GNUC_INTERNAL void clocks_free(struct rank_clocks *rc);
G_GNUC_INTERNAL double clocks_max(const struct rank_clocks *rc);
G_GNUC_INTERNAL void clocks_message(const struct ctx *c, struct rank_clocks *rc, int s, int d,
                                    double m, double beta);
G_GNUC_INTERNAL void clocks_exchange(const struct ctx *c, struct rank_clocks *rc, const int *to,
                                     const int *from, const double *out, const gboolean *active,
                                     double beta);
G_GNUC_INTERNAL void clocks_binomial_scatter(const struct ctx *c, struct rank_clocks *rc, double m);
G_GNUC_INTERNAL void clocks_recursive_doubling_allgather(const struct ctx *c,
                                                         struct rank_clocks *rc, double m);

/* ---------------------------------------------------------------- pipelines */

enum pipe_tree { PIPE_CHAIN, PIPE_HEAP_BINARY };

G_GNUC_INTERNAL double segment_count(const struct ctx *c, double m, double *last);
G_GNUC_INTERNAL double pipeline_send(const struct ctx *c, double len, double *now, double *port,
                                     double child_ready, double eager_overhead);
G_GNUC_INTERNAL double pipelined_tree_reducing(const struct ctx *c, enum pipe_tree shape, double m,
                                               double gamma, gboolean tail);
G_GNUC_INTERNAL double pipelined_tree(const struct ctx *c, enum pipe_tree shape, double m);

/* ---------------------------------------------------------------- formulas of two collectives */

/* predict_allgather.c: a round of k messages of m bytes every rank posts at once, receiving as
 * many (allreduce's recexch swaps its vectors with it) */
G_GNUC_INTERNAL double posted_round(const struct ctx *c, double k, double m);
/* predict_gather.c: binomial gather (allgather's gather_bcast gathers with it) */
G_GNUC_INTERNAL double gather_binomial(const struct ctx *c);
/* predict_reduce.c: the in-order binary reduce to `root` (allreduce's reduce_bcast and
 * reduce_scatter's reduce_scatterv reduce with it) */
G_GNUC_INTERNAL double reduce_in_order_binary_to(const struct ctx *c, int root);
/* predict_reduce.c: Thakur et al.'s TEXTBOOK rows of Rabenseifner's reduce (extra = 1) and
 * allreduce (extra = 2) */
G_GNUC_INTERNAL double rabenseifner_textbook(const struct ctx *c, double extra);

/* ---------------------------------------------------------------- rows */

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
    NODE_AWARE = 1 << 7,           /* an smp row: model_predict_entries() lists these after every
                                      collective's others (model_predict.c says in which order) */
};

struct predict_row {
    const char *collective;
    const char *algorithm;
    double (*time)(const struct ctx *c);
    unsigned flags;
    const char *formula; /* TEXTBOOK mode, ASCII */
};

#define LIN "(p-1)(a + n b)"

/* Each collective's rows and their number, in the order model_predict_entries() lists them. */
G_GNUC_INTERNAL extern const struct predict_row predict_rows_barrier[]; /* predict_barrier.c */
G_GNUC_INTERNAL extern const gsize predict_rows_barrier_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_bcast[]; /* predict_bcast.c */
G_GNUC_INTERNAL extern const gsize predict_rows_bcast_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_scatter[]; /* predict_scatter.c */
G_GNUC_INTERNAL extern const gsize predict_rows_scatter_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_scatterv[]; /* predict_scatter.c */
G_GNUC_INTERNAL extern const gsize predict_rows_scatterv_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_gather[]; /* predict_gather.c */
G_GNUC_INTERNAL extern const gsize predict_rows_gather_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_gatherv[]; /* predict_gather.c */
G_GNUC_INTERNAL extern const gsize predict_rows_gatherv_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_allgather[]; /* predict_allgather.c */
G_GNUC_INTERNAL extern const gsize predict_rows_allgather_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_allgatherv[]; /* predict_allgather.c */
G_GNUC_INTERNAL extern const gsize predict_rows_allgatherv_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_alltoall[]; /* predict_alltoall.c */
G_GNUC_INTERNAL extern const gsize predict_rows_alltoall_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_alltoallv[]; /* predict_alltoall.c */
G_GNUC_INTERNAL extern const gsize predict_rows_alltoallv_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_alltoallw[]; /* predict_alltoall.c */
G_GNUC_INTERNAL extern const gsize predict_rows_alltoallw_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_reduce[]; /* predict_reduce.c */
G_GNUC_INTERNAL extern const gsize predict_rows_reduce_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_allreduce[]; /* predict_allreduce.c */
G_GNUC_INTERNAL extern const gsize predict_rows_allreduce_count;
/* predict_reduce_scatter.c */
G_GNUC_INTERNAL extern const struct predict_row predict_rows_reduce_scatter[];
G_GNUC_INTERNAL extern const gsize predict_rows_reduce_scatter_count;
/* predict_reduce_scatter.c */
G_GNUC_INTERNAL extern const struct predict_row predict_rows_reduce_scatter_block[];
G_GNUC_INTERNAL extern const gsize predict_rows_reduce_scatter_block_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_scan[]; /* predict_scan.c */
G_GNUC_INTERNAL extern const gsize predict_rows_scan_count;
G_GNUC_INTERNAL extern const struct predict_row predict_rows_exscan[]; /* predict_scan.c */
G_GNUC_INTERNAL extern const gsize predict_rows_exscan_count;

#endif
