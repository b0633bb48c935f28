/*
 * model_predict.h — analytic time predictions for every collective algorithm of collsim.
 *
 * One prediction per (collective, algorithm) pair, both spelled exactly as in the registry
 * (src/coll/coll_registry.c), from the Hockney parameters α (seconds per message), β (seconds
 * per byte) and γ (seconds per byte of applying the reduction op). Two modes:
 *
 *  MODEL_PREDICT_TEXTBOOK  the classic one-port Hockney model of Thakur, Rabenseifner & Gropp
 *                          (2005): every message costs α + nβ, a rank sends one message at a
 *                          time and receives one at a time. At power-of-two p these are the
 *                          formulas of ../shared/reference/COST_MODELS.md.
 *
 *  MODEL_PREDICT_COLLSIM   what collsim's transport (sim/transport/p2p.c) does on a network without
 *                          contention between distinct host pairs (a flat cluster behind a
 *                          non-blocking switch):
 *                          - an eager message (n <= eager_threshold) costs α + max(n,1)·β: an
 *                            empty message travels as one byte;
 *                          - a rendezvous message (n > eager_threshold) costs 3α + (n+2)·β: a
 *                            one-byte envelope, once the receive is posted a one-byte
 *                            clear-to-send back, then the data;
 *                          - a NIC per rank: a rank's messages (eager ones, envelopes) leave
 *                            one after the other, each once the previous one's bytes have
 *                            left (k back-to-back eager sends land at α + (i+1)·nβ), their
 *                            latencies overlapping; rendezvous data flows beside it;
 *                          - receivers are not serialised: transfers arriving at one rank at
 *                            the same time share its link (SimGrid's max-min sharing);
 *                          - in a round where every rank sends and receives at once (an
 *                            exchange, a ring shift), each link also carries the reverse
 *                            "cross traffic" of the incoming flow (SimGrid's
 *                            network/crosstraffic, weight 0.05 when on), so β becomes
 *                            β·(1 + crosstraffic) in that round.
 *                          Reductions cost n·γ of the rank's own time (sg_actor_execute).
 *                          Per-message overheads o_s and o_r are added to α (every message
 *                          on the critical path paying both once): an approximation where a
 *                          rank sends or receives several messages in a row.
 *
 * The COLLSIM predictions equal the simulated time (max over ranks) where
 * model_predict_exact() says so — never with overheads or a gap; the others are
 * approximations, each formula's comment saying why.
 *
 * Where the formulas live: models/predict/predict_<collective>.c, one file per collective as
 * src/coll/ has one folder each (the v, w, block and ex variants with their base collective:
 * predict_scatter.c holds scatter and scatterv, predict_gather.c gather and gatherv,
 * predict_allgather.c allgather(v), predict_alltoall.c alltoall(v,w), predict_reduce_scatter.c
 * reduce_scatter(_block), predict_scan.c scan and exscan; then barrier, bcast, reduce,
 * allreduce), each ending with its table of rows; the machinery they share (message
 * primitives, fans, trees, pipelines, rank clocks) in the private models/predict/predict_core.h
 * and .c; model_predict.c implements this header over those tables.
 *
 * What `bytes` (n) means, per collective:
 *   barrier                                   ignored
 *   bcast, reduce, allreduce, scan, exscan    the whole buffer (count × type size)
 *   reduce_scatter, reduce_scatter_block      the whole vector each rank contributes (p blocks
 *                                             of n/p; for reduce_scatter: the sum of recvcounts)
 *   gather(v), scatter(v), allgather(v)       one rank's block (sendcount × type size); the
 *                                             gathered total is p·n (v variants: equal blocks)
 *   alltoall(v,w)                             the block sent to one destination (p·n per rank)
 * Blocks of n/p bytes are taken as real numbers (exact when p divides the count). Pipelined
 * algorithms cut n into segments of segment_bytes, the last one holding the rest (exact when
 * the type size divides segment_bytes). A data-movement call of 0 bytes costs nothing.
 *
 * This module knows nothing of src/ or SimGrid: libc and GLib only.
 */
#ifndef COLLSIM_MODEL_PREDICT_H
#define COLLSIM_MODEL_PREDICT_H

#include <glib.h>

/* The defaults of model_predict_params_init: collsim's transport and default cluster. */
#define MODEL_PREDICT_EAGER_THRESHOLD 65536.0 /* model_transport_defaults() */
#define MODEL_PREDICT_CROSSTRAFFIC 0.05       /* SimGrid's reverse-route weight */
#define MODEL_PREDICT_SEGMENT_BYTES 65536.0   /* the registry's default (SEG_DEFAULT) */
#define MODEL_PREDICT_RADIX 4                 /* the registry's default k-nomial radix */

enum model_predict_mode {
    MODEL_PREDICT_COLLSIM, /* collsim's transport without contention (the default) */
    MODEL_PREDICT_TEXTBOOK /* one-port Hockney, every message α + nβ (Thakur et al. 2005) */
};

struct model_predict_params {
    int ranks;              /* p >= 1 */
    double bytes;           /* n >= 0: see the table above for what it counts, per collective */
    double alpha;           /* seconds per message (model_predict_route) */
    double beta;            /* seconds per byte (model_predict_route) */
    double gamma;           /* seconds per byte of applying the op (model_predict_gamma) */
    double segment_bytes;   /* pipelined algorithms: bytes per segment (> 0) */
    int radix;              /* k-nomial trees: fan-out k (>= 2) */
    int root;               /* rooted collectives: 0 <= root < ranks (the chain and the in-order
                               binary tree pay one more message when root != p-1) */
    double eager_threshold; /* COLLSIM: largest eager message in bytes; INFINITY: all eager */
    double crosstraffic;    /* COLLSIM: weight of reverse traffic (0.05; 0 turns it off) */
    double send_overhead;   /* COLLSIM: o_s, seconds of sender CPU per message (default 0) */
    double recv_overhead;   /* COLLSIM: o_r, seconds of receiver CPU per message (default 0) */
    double gap;             /* COLLSIM: g, the NIC's least time between two starts (default 0);
                               not in the formulas yet: a prediction with g > 0 is not exact */
    enum model_predict_mode mode;
};

/*
 * Fill `params` with collsim's defaults: COLLSIM mode; the cluster generated for the default
 * network preset (ib-edr: CM02, two links of 0.3 µs and 12.5 GB/s: α = 0.6 µs, β = 8e-11 s/B,
 * eager threshold 16384 B, no cross traffic); γ of MPI_SUM on doubles at 10 Gflop/s (1 flop
 * per 8 bytes: 1.25e-11 s/B); no overheads, no gap (a caller sets the run's); segments of
 * 65536 B, radix 4, root 0; ranks 1 and bytes 0.
 */
void model_predict_params_init(struct model_predict_params *params);

/*
 * The time of one point-to-point message of n bytes in collsim, receiver already waiting:
 * α + max(n,1)·β if n <= eager_threshold (eager; an empty message travels as one byte),
 * 2α + (n+1)·β otherwise (rendezvous: one-byte envelope, then the data).
 */
double model_predict_message_time(double n, double alpha, double beta, double eager_threshold);

/*
 * Predicted time (seconds, the slowest rank) of `algorithm` of `collective` with `params`.
 * FALSE, *seconds untouched, when no formula is known for the pair or when params are out of
 * range (ranks < 1, negative or non-finite sizes or costs, a rooted collective's root outside
 * 0 … p-1, a segmented algorithm with segment_bytes <= 0, a k-nomial one with radix < 2).
 * p = 1 costs 0. Cheap: O(log² p) for trees of a fixed radix, O(p log p) at worst (radix p).
 */
gboolean model_predict_time(const char *collective, const char *algorithm,
                            const struct model_predict_params *params, double *seconds);

/*
 * Whether the COLLSIM prediction of the pair with `params` equals collsim's simulated time
 * (to rounding) on a contention-free flat cluster with the CM02 network model, all ranks
 * starting at the same instant and no software overheads: FALSE for approximations (see
 * models/predict/ per formula), for TEXTBOOK mode, unknown pairs and invalid params.
 * Exactness may depend on p (power of two or not) and on cross traffic (exact with it only
 * for algorithms in which every rank does the same at the same time, or in which no rank
 * sends while a transfer into it is flowing).
 */
gboolean model_predict_exact(const char *collective, const char *algorithm,
                             const struct model_predict_params *params);

/* Whether a formula is known for the pair. */
gboolean model_predict_known(const char *collective, const char *algorithm);

/*
 * The TEXTBOOK formula of the pair as text for reports and `collsim list` (ASCII: a = α,
 * b = β, c = γ, lg = log2), or NULL when unknown. Static storage.
 */
const char *model_predict_formula(const char *collective, const char *algorithm);

/* Every (collective, algorithm) pair with a formula, in table order, for listings and tests. */
struct model_predict_entry {
    const char *collective;
    const char *algorithm;
    const char *formula;  /* as model_predict_formula */
    gboolean approximate; /* COLLSIM mode is an approximation (pipelines, some non-pof2) */
};
const struct model_predict_entry *model_predict_entries(gsize *count);

/*
 * α and β of a contention-free route of `links` links, each of latency `link_latency`
 * (seconds) and bandwidth `link_bandwidth` (bytes/s), the route's bottleneck, under SimGrid's
 * network model `network_model` (case-insensitive):
 *   "CM02": α = h·L,          β = 1/W
 *   "LV08": α = 13.01·h·L,    β = 1/(0.97·W)     (SimGrid's default)
 * FALSE for other models (SMPI's factors are piecewise in n) or for non-positive inputs.
 * SimGrid's TCP window bound (network/TCP-gamma, 4 MiB) caps the rate at γ_tcp/(2·h·L),
 * which binds only when W > γ_tcp/(2·h·L) (above 1 TB/s for h·L = 2 µs): not applied.
 */
gboolean model_predict_route(const char *network_model, double link_latency, double link_bandwidth,
                             int links, double *alpha, double *beta);

/*
 * γ (seconds per byte) of an op costing `flops_per_byte` (model_compute's flops per element
 * divided by the element's size in bytes, times the run's compute_scale) on a host computing
 * `host_speed` flop/s. A zero-cost model has γ = 0. Returns -1 for a non-positive speed or a
 * negative flop count.
 */
double model_predict_gamma(double flops_per_byte, double host_speed);

#endif
