/*
 * check_model_predict.c — the analytic predictions against values worked out by hand.
 *
 * Unless a test says otherwise: α = 1e-6 s, β = 1e-9 s/B, γ = 1e-10 s/B, so one eager message
 * of 1000 B costs α + nβ = 2e-6 s and reducing 1000 B costs nγ = 1e-7 s. Every expected value
 * is written out in the comment above its assertion, and compared to 1e-12 relative, so a
 * wrong exponent, a missing round or a swapped ⌊lg p⌋/⌈lg p⌉ fails.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "coll/coll_registry.h"
#include "models/model_predict.h"

#define A 1e-6
#define B 1e-9
#define G 1e-10

static struct model_predict_params
params(enum model_predict_mode mode, int ranks, double bytes)
{
    struct model_predict_params p;
    model_predict_params_init(&p);
    p.mode = mode;
    p.ranks = ranks;
    p.bytes = bytes;
    p.alpha = A;
    p.beta = B;
    p.gamma = G;
    /* the cases below were derived with SimGrid's TCP cross traffic on and SMPI's threshold */
    p.crosstraffic = MODEL_PREDICT_CROSSTRAFFIC;
    p.eager_threshold = MODEL_PREDICT_EAGER_THRESHOLD;
    return p;
}

static double
predict(const char *collective, const char *algorithm, const struct model_predict_params *p)
{
    double t = -1.0;
    ck_assert_msg(model_predict_time(collective, algorithm, p, &t), "no prediction for %s/%s",
                  collective, algorithm);
    return t;
}

#define ck_assert_time(got, expected)                                                              \
    do {                                                                                           \
        double got_ = (got), exp_ = (expected);                                                    \
        ck_assert_msg(fabs(got_ - exp_) <= 1e-12 * fabs(exp_) + 1e-21,                             \
                      "%s = %.15g, expected %.15g", #got, got_, exp_);                             \
    } while (0)

/* ---------------------------------------------------------------- message time */

START_TEST(test_model_predict_message_time_eager_and_rendezvous)
{
    /* eager, 1000 B: α + nβ = 1e-6 + 1e-6 */
    ck_assert_time(model_predict_message_time(1000, A, B, 65536), 2e-6);
    /* an empty message travels as one byte: α + β = 1e-6 + 1e-9 */
    ck_assert_time(model_predict_message_time(0, A, B, 65536), 1.001e-6);
    /* exactly the threshold is still eager: 1e-6 + 65536e-9 */
    ck_assert_time(model_predict_message_time(65536, A, B, 65536), 6.6536e-5);
    /* rendezvous, 100000 B: 2α + (n+1)β = 2e-6 + 100001e-9 = 1.02001e-4 */
    ck_assert_time(model_predict_message_time(100000, A, B, 65536), 1.02001e-4);
    /* an infinite threshold makes everything eager: 1e-6 + 1e-4 */
    ck_assert_time(model_predict_message_time(100000, A, B, INFINITY), 1.01e-4);
}
END_TEST

/* ---------------------------------------------------------------- route and γ */

START_TEST(test_model_predict_route_cm02_lv08)
{
    double a = 0, b = 0;
    /* the default cluster: 2 links of 1 µs, 12.5 GB/s. CM02: α = 2·1e-6, β = 1/12.5e9 = 8e-11 */
    ck_assert(model_predict_route("CM02", 1e-6, 12.5e9, 2, &a, &b));
    ck_assert_time(a, 2e-6);
    ck_assert_time(b, 8e-11);
    /* LV08: α = 13.01·2e-6 = 2.602e-5, β = 1/(0.97·12.5e9) = 1/1.2125e10 */
    ck_assert(model_predict_route("lv08", 1e-6, 12.5e9, 2, &a, &b));
    ck_assert_time(a, 2.602e-5);
    ck_assert_time(b, 8.247422680412371e-11);
    /* 3 hops of 0.5 µs at 1 GB/s under CM02: α = 1.5e-6, β = 1e-9 */
    ck_assert(model_predict_route("CM02", 0.5e-6, 1e9, 3, &a, &b));
    ck_assert_time(a, 1.5e-6);
    ck_assert_time(b, 1e-9);
    /* piecewise SMPI factors, unknown models and bad links have no closed form */
    ck_assert(!model_predict_route("SMPI", 1e-6, 12.5e9, 2, &a, &b));
    ck_assert(!model_predict_route("nonsense", 1e-6, 12.5e9, 2, &a, &b));
    ck_assert(!model_predict_route("CM02", 1e-6, 0, 2, &a, &b));
    ck_assert(!model_predict_route("CM02", 1e-6, 1e9, 0, &a, &b));
}
END_TEST

START_TEST(test_model_predict_gamma_from_compute_model)
{
    /* MPI_SUM on doubles: 1 flop per 8-byte element at 10 Gflop/s: 0.125 / 1e10 = 1.25e-11 */
    ck_assert_time(model_predict_gamma(1.0 / 8.0, 1e10), 1.25e-11);
    /* complex product: 6 flops per 16 bytes at 1 Gflop/s: 0.375e-9 */
    ck_assert_time(model_predict_gamma(6.0 / 16.0, 1e9), 3.75e-10);
    ck_assert_time(model_predict_gamma(0.0, 1e9), 0.0);
    ck_assert(model_predict_gamma(1.0, 0.0) < 0);
    ck_assert(model_predict_gamma(-1.0, 1e9) < 0);
}
END_TEST

START_TEST(test_model_predict_defaults_are_collsims)
{
    struct model_predict_params p;
    model_predict_params_init(&p);
    ck_assert_int_eq(p.mode, MODEL_PREDICT_COLLSIM);
    /* the default preset, ib-edr: CM02, two links of 0.3 us and 12.5 GB/s, 16 KiB, no TCP
     * cross traffic; no overheads until the caller sets the run's */
    ck_assert_time(p.alpha, 6e-7);
    ck_assert_time(p.beta, 8e-11);
    ck_assert_time(p.gamma, 1.25e-11);
    ck_assert_time(p.eager_threshold, 16384);
    ck_assert_time(p.crosstraffic, 0);
    ck_assert_time(p.send_overhead, 0);
    ck_assert_time(p.recv_overhead, 0);
    ck_assert_time(p.gap, 0);
    /* the registry's defaults (SEG_DEFAULT and the k-nomial radix) */
    ck_assert_time(p.segment_bytes, 65536);
    ck_assert_int_eq(p.radix, 4);
    size_t rows = 0;
    const struct coll_algorithm *row = coll_registry_rows(&rows);
    for (size_t i = 0; i < rows; i++) {
        if (row[i].caps & COLL_SEGMENTED)
            ck_assert_time(row[i].defaults.segment_bytes, p.segment_bytes);
        if (row[i].caps & COLL_RADIX)
            ck_assert_int_eq(row[i].defaults.radix, p.radix);
    }
    ck_assert_int_eq(p.root, 0);
}
END_TEST

/* ---------------------------------------------------------------- reduce */

START_TEST(test_model_predict_reduce_binomial_pof2)
{
    /* p = 8, n = 1000: 3 rounds of (α + nβ + nγ) = 3·(1e-6 + 1e-6 + 1e-7) = 6.3e-6, in both
     * modes (each round one eager message, receiver waiting, no two children at once) */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 8, 1000);
    ck_assert_time(predict("reduce", "binomial", &p), 6.3e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("reduce", "binomial", &p), 6.3e-6);
    /* rendezvous (threshold 500 < 1000): envelope, clear-to-send and data, 3α + (n+2)β, then
     * nγ, three times: 3·(3e-6 + 1.002e-6 + 1e-7) = 3·4.102e-6 = 1.2306e-5 */
    p.eager_threshold = 500;
    ck_assert_time(predict("reduce", "binomial", &p), 1.2306e-5);
    /* the root does not matter */
    p.root = 5;
    ck_assert_time(predict("reduce", "binomial", &p), 1.2306e-5);
}
END_TEST

START_TEST(test_model_predict_reduce_binomial_non_pof2)
{
    /* p = 6, n = 1000. TEXTBOOK one-port: the root receives ⌈lg 6⌉ = 3 messages in turn:
     * 3·2.1e-6 = 6.3e-6 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 6, 1000);
    ck_assert_time(predict("reduce", "binomial", &p), 6.3e-6);
    /* COLLSIM: the root's children hold 1, 2 and 2 ranks. Child 1 sends at 0 and arrives at
     * α + nβ = 2e-6; children 2 and 4 have each reduced one message (2.1e-6), send together
     * and share the root's link: both arrive at 2.1e-6 + α + 2nβ = 5.1e-6. The root:
     * 2e-6 + γn = 2.1e-6; then 5.1e-6 + 1e-7 = 5.2e-6; then 5.2e-6 + 1e-7 = 5.3e-6 */
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("reduce", "binomial", &p), 5.3e-6);
}
END_TEST

START_TEST(test_model_predict_reduce_chain_root)
{
    /* p = 4, n = 1000: 3 hops of (α + nβ + nγ) = 6.3e-6, plus α + nβ = 2e-6 to a root that is
     * not p-1: 8.3e-6; with root = p-1 = 3 no last message */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 4, 1000);
    ck_assert_time(predict("reduce", "chain", &p), 8.3e-6);
    p.root = 3;
    ck_assert_time(predict("reduce", "chain", &p), 6.3e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("reduce", "chain", &p), 6.3e-6);
    p.root = 1;
    ck_assert_time(predict("reduce", "chain", &p), 8.3e-6);
}
END_TEST

START_TEST(test_model_predict_reduce_linear_eager_fan_in)
{
    /* p = 5, n = 1000. TEXTBOOK: 4·(α + nβ + nγ) = 8.4e-6. COLLSIM eager: the 4 messages
     * share the root's link and arrive together at α + 4nβ = 5e-6, then 4 reductions:
     * 5e-6 + 4e-7 = 5.4e-6. Rendezvous (threshold 500): envelopes at α + 4β = 1.004e-6, then
     * per receive in turn a clear-to-send (α + β), the data (α + nβ) and nγ:
     * 1.004e-6 + 4·(2e-6 + 1.001e-6 + 1e-7) = 1.3408e-5 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 5, 1000);
    ck_assert_time(predict("reduce", "linear", &p), 8.4e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("reduce", "linear", &p), 5.4e-6);
    p.eager_threshold = 500;
    ck_assert_time(predict("reduce", "linear", &p), 1.3408e-5);
}
END_TEST

START_TEST(test_model_predict_rabenseifner_table)
{
    /* Thakur et al.'s rows, TEXTBOOK, n = 1e5.
     * p = 16: 2·4α + 2(15/16)nβ + (15/16)nγ = 8e-6 + 1.875e-4 + 9.375e-6 = 2.04875e-4 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 16, 1e5);
    ck_assert_time(predict("reduce", "rabenseifner", &p), 2.04875e-4);
    ck_assert_time(predict("allreduce", "rabenseifner", &p), 2.04875e-4);
    /* p = 10 (⌊lg⌋ = 3): reduce (2·3 + 1)α + (2·0.9 + 1)nβ + (1 + 0.9)nγ
     * = 7e-6 + 2.8e-4 + 1.9e-5 = 3.06e-4;
     * allreduce (2·3 + 2)α + (2·0.9 + 2)nβ + 1.9nγ = 8e-6 + 3.8e-4 + 1.9e-5 = 4.07e-4 */
    p.ranks = 10;
    ck_assert_time(predict("reduce", "rabenseifner", &p), 3.06e-4);
    ck_assert_time(predict("allreduce", "rabenseifner", &p), 4.07e-4);
}
END_TEST

START_TEST(test_model_predict_reduce_in_order_binary)
{
    /* p = 4, n = 1000: the tree's root is rank 3, with subtrees of 2 ranks (received first)
     * and 1 rank. TEXTBOOK one-port, root = 3: the 2-rank child is ready at 2.1e-6; the root
     * receives and reduces it (4.2e-6), then the other child (6.3e-6) */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 4, 1000);
    p.root = 3;
    ck_assert_time(predict("reduce", "in_order_binary", &p), 6.3e-6);
    /* COLLSIM, root = 3: the 1-rank child's message lands at 2e-6 while the root waits for
     * the 2-rank child, whose message leaves at 2.1e-6 and lands at 4.1e-6: 4.1e-6 + 1e-7,
     * then the waiting one: + 1e-7 = 4.3e-6 */
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("reduce", "in_order_binary", &p), 4.3e-6);
    /* root = 0: one more message of α + nβ = 2e-6: 6.3e-6 */
    p.root = 0;
    ck_assert_time(predict("reduce", "in_order_binary", &p), 6.3e-6);
    /* allreduce reduce_bcast = that reduce to 0 (6.3e-6), then a binomial bcast: rank 0 sends
     * to 2, then (one port) to 1: 1 has it at 2(α + nβ) = 4e-6, as has 3 from 2: 1.03e-5 */
    ck_assert_time(predict("allreduce", "reduce_bcast", &p), 1.03e-5);
}
END_TEST

/* ---------------------------------------------------------------- overheads */

START_TEST(test_model_predict_overheads_fold_into_alpha)
{
    /* p = 8, n = 1000, o_s = 0.3e-6, o_r = 0.7e-6: a binomial bcast's critical path is
     * 0 -> 4 -> 6 -> 7, three messages each paying o_s + α + nβ + o_r = 3e-6: 9e-6 (eager,
     * no fan-out on that path besides the root's first message) */
    struct model_predict_params p = params(MODEL_PREDICT_COLLSIM, 8, 1000);
    p.send_overhead = 0.3e-6;
    p.recv_overhead = 0.7e-6;
    ck_assert_time(predict("bcast", "binomial", &p), 9e-6);
    /* a rendezvous message pays each overhead once, the latency three times: p = 2,
     * threshold 500: o_s + 3α + (n+2)β + o_r = 0.3 + 3 + 1.002 + 0.7 = 5.002e-6 */
    struct model_predict_params two = p;
    two.ranks = 2;
    two.eager_threshold = 500;
    ck_assert_time(predict("bcast", "binomial", &two), 5.002e-6);
    /* the folding is an approximation: never claimed exact, with overheads or a gap */
    ck_assert(!model_predict_exact("bcast", "binomial", &p));
    p.send_overhead = p.recv_overhead = 0;
    ck_assert(model_predict_exact("bcast", "binomial", &p));
    p.gap = 1e-9;
    ck_assert(!model_predict_exact("bcast", "binomial", &p));
    /* TEXTBOOK ignores them */
    p = params(MODEL_PREDICT_TEXTBOOK, 8, 1000);
    p.send_overhead = 1;
    ck_assert_time(predict("bcast", "binomial", &p), 6e-6);
}
END_TEST

/* ---------------------------------------------------------------- bcast */

START_TEST(test_model_predict_bcast_binomial_modes)
{
    /* p = 8, n = 1000. TEXTBOOK: 3(α + nβ) = 6e-6 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 8, 1000);
    p.crosstraffic = 0; /* the NIC's spacing is then exactly nβ */
    ck_assert_time(predict("bcast", "binomial", &p), 6e-6);
    /* COLLSIM eager: the root's NIC sends to 4, 2, 1 back to back, landing at α + nβ,
     * α + 2nβ, α + 3nβ (2, 3, 4e-6); rank 4 sends to 6 and 5 (4, 5e-6), rank 6 to 7 (6e-6),
     * rank 2 to 3 (5e-6): 6e-6 */
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("bcast", "binomial", &p), 6e-6);
    /* rendezvous: blocking sends of 3α + (n+2)β = 4.002e-6 each: rank 1 gets the root's
     * third at 1.2006e-5, as rank 7 at the end of 0 -> 4 -> 6 -> 7 */
    p.eager_threshold = 500;
    ck_assert_time(predict("bcast", "binomial", &p), 1.2006e-5);
    /* p = 5, TEXTBOOK: ⌈lg 5⌉ = 3 sends from the root: 6e-6. COLLSIM eager: the root's NIC
     * sends to 4, 2, 1 (2, 3, 4e-6), rank 2 then to 3 (5e-6): 5e-6 */
    p = params(MODEL_PREDICT_TEXTBOOK, 5, 1000);
    p.crosstraffic = 0;
    ck_assert_time(predict("bcast", "binomial", &p), 6e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("bcast", "binomial", &p), 5e-6);
}
END_TEST

START_TEST(test_model_predict_bcast_knomial)
{
    /* p = 16, radix 4, n = 1000. TEXTBOOK: (k-1)·log_k p = 3·2 = 6 sends: 12e-6.
     * COLLSIM eager: the root's NIC sends to 4, 8, 12, 1, 2, 3 back to back, landing at
     * 2, 3, 4, 5, 6, 7e-6; rank 12 (4e-6) serves 13, 14, 15 by 8e-6, ranks 4 and 8 earlier:
     * 8e-6 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 16, 1000);
    p.crosstraffic = 0; /* the NIC's spacing is then exactly nβ */
    p.radix = 4;
    ck_assert_time(predict("bcast", "knomial", &p), 12e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("bcast", "knomial", &p), 8e-6);
    /* radix 2 is the binomial tree: the root lands 8, 4, 2, 1 at 2 … 5e-6, rank 8 lands 12,
     * 10, 9 at 4 … 6e-6, rank 12 lands 14 at 6e-6, rank 14 lands 15 at 8e-6: 8e-6 */
    p.radix = 2;
    ck_assert_time(predict("bcast", "knomial", &p), 8e-6);
    ck_assert_time(predict("bcast", "binomial", &p), 8e-6);
    /* rendezvous (threshold 500): every message 3α + (n+2)β = 4.002e-6, blocking; radix 4:
     * rank 3 is the root's 6th message, rank 15 the 3rd message of rank 12, itself the
     * root's 3rd: 6·4.002e-6 = 2.4012e-5 */
    p.radix = 4;
    p.eager_threshold = 500;
    ck_assert_time(predict("bcast", "knomial", &p), 2.4012e-5);
}
END_TEST

START_TEST(test_model_predict_bcast_linear_one_port)
{
    /* p = 5, n = 1000. TEXTBOOK 4(α + nβ) = 8e-6; COLLSIM eager: the NIC sends the 4 back to
     * back, the last landing at α + 4nβ = 5e-6; COLLSIM rendezvous: blocking sends of
     * 3α + (n+2)β each, 4·4.002e-6 = 1.6008e-5 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 5, 1000);
    p.crosstraffic = 0; /* the NIC's spacing is then exactly nβ */
    ck_assert_time(predict("bcast", "linear", &p), 8e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("bcast", "linear", &p), 5e-6);
    p.eager_threshold = 500;
    ck_assert_time(predict("bcast", "linear", &p), 1.6008e-5);
}
END_TEST

START_TEST(test_model_predict_pipeline_chain_matches_simulation)
{
    /* α = 2e-6, β = 8e-11, p = 4, n = 800000 in 10 segments of 80000 (rendezvous): every
     * hop of a segment is a blocking send of m = 3α + 80002β = 1.240016e-5, and a rank answers
     * the next segment's envelope while it forwards the previous one (the receive is posted):
     * a pipeline of (hops + S - 1) = 12 stages of m: 1.4880192e-4 */
    struct model_predict_params p = params(MODEL_PREDICT_COLLSIM, 4, 800000);
    p.crosstraffic = 0; /* the NIC's spacing is then exactly nβ */
    p.alpha = 2e-6;
    p.beta = 8e-11;
    p.segment_bytes = 80000;
    ck_assert_time(predict("bcast", "pipeline_chain", &p), 1.4880192e-4);
    /* eager segments of 8000 (sβ = 0.64e-6, α + sβ = 2.64e-6), p = 3, n = 16000: the root's
     * NIC lands segments 0 and 1 at rank 1 at 2.64 and 3.28e-6; rank 1 forwards 0 at 2.64
     * (lands 5.28e-6) and 1 at 3.28 (its NIC free then): 5.92e-6 */
    p.ranks = 3;
    p.bytes = 16000;
    p.segment_bytes = 8000;
    ck_assert_time(predict("bcast", "pipeline_chain", &p), 5.92e-6);
    /* n = 20000: a third segment of 4000 (0.32e-6) leaves the root at 1.28, lands at 3.6e-6;
     * rank 1's NIC is busy with segment 1 until 3.92e-6: it lands at 3.92 + 2 + 0.32 =
     * 6.24e-6 */
    p.bytes = 20000;
    ck_assert_time(predict("bcast", "pipeline_chain", &p), 6.24e-6);
    p.bytes = 16000;
    /* TEXTBOOK, same: (p + S - 2)(α + sβ) = 3·(2e-6 + 6.4e-7) = 7.92e-6 */
    p.mode = MODEL_PREDICT_TEXTBOOK;
    ck_assert_time(predict("bcast", "pipeline_chain", &p), 7.92e-6);
}
END_TEST

/* ---------------------------------------------------------------- exchanges */

START_TEST(test_model_predict_allreduce_ring_crosstraffic)
{
    /* p = 4, n = 4000 (blocks of 1000). TEXTBOOK: 2·3α + 2(3/4)nβ + (3/4)nγ
     * = 6e-6 + 6e-6 + 3e-7 = 1.23e-5 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 4, 4000);
    ck_assert_time(predict("allreduce", "ring", &p), 1.23e-5);
    /* COLLSIM: every shift carries cross traffic, β·1.05:
     * 3·(2(α + 1000·1.05e-9) + 1e-7) = 3·(4.1e-6 + 1e-7) = 1.26e-5 */
    p.mode = MODEL_PREDICT_COLLSIM;
    ck_assert_time(predict("allreduce", "ring", &p), 1.26e-5);
    /* without cross traffic COLLSIM equals TEXTBOOK here */
    p.crosstraffic = 0;
    ck_assert_time(predict("allreduce", "ring", &p), 1.23e-5);
}
END_TEST

START_TEST(test_model_predict_allreduce_recursive_doubling_non_pof2)
{
    /* TEXTBOOK, n = 1000. p = 8: 3(α + nβ + nγ) = 6.3e-6. p = 6: fold (α + nβ + nγ), ⌊lg 6⌋ = 2
     * exchanges, result back (α + nβ): 2.1e-6 + 4.2e-6 + 2e-6 = 8.3e-6 */
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 8, 1000);
    ck_assert_time(predict("allreduce", "recursive_doubling", &p), 6.3e-6);
    p.ranks = 6;
    ck_assert_time(predict("allreduce", "recursive_doubling", &p), 8.3e-6);
}
END_TEST

START_TEST(test_model_predict_barriers)
{
    struct model_predict_params p = params(MODEL_PREDICT_TEXTBOOK, 5, 0);
    /* dissemination p = 5: ⌈lg 5⌉ = 3 rounds: 3α; COLLSIM 3(α + 1.05β) = 3.00315e-6 */
    ck_assert_time(predict("barrier", "dissemination", &p), 3e-6);
    /* linear: 2(p-1)α = 8e-6; COLLSIM: the 4 one-byte messages arrive together at α + 4β,
     * the releases leave back to back through the NIC, the last landing α + 4β later:
     * 2α + 8β = 2.008e-6 */
    ck_assert_time(predict("barrier", "linear", &p), 8e-6);
    /* recursive doubling p = 6: ⌊lg 6⌋ = 2 exchanges + 2 messages = 4α; p = 8: 3α */
    p.ranks = 6;
    ck_assert_time(predict("barrier", "recursive_doubling", &p), 4e-6);
    p.ranks = 8;
    ck_assert_time(predict("barrier", "recursive_doubling", &p), 3e-6);
    /* binomial p = 8: 3 messages up, 3 down: 6α */
    ck_assert_time(predict("barrier", "binomial", &p), 6e-6);
    /* double ring p = 8: 16α */
    ck_assert_time(predict("barrier", "double_ring", &p), 16e-6);
    p.mode = MODEL_PREDICT_COLLSIM;
    p.ranks = 5;
    p.crosstraffic = MODEL_PREDICT_CROSSTRAFFIC;
    ck_assert_time(predict("barrier", "dissemination", &p), 3.00315e-6);
    p.crosstraffic = 0;
    ck_assert_time(predict("barrier", "linear", &p), 2.008e-6);
}
END_TEST

/* ---------------------------------------------------------------- Thakur et al. at pof2 */

START_TEST(test_model_predict_textbook_matches_thakur_at_pof2)
{
    /* p = 16 (lg p = 4), n = 1e5, every row of COST_MODELS.md that has an algorithm here */
    const double n = 1e5, p = 16, lg = 4, f = (p - 1) / p;
    struct model_predict_params q = params(MODEL_PREDICT_TEXTBOOK, 16, n);
    ck_assert_time(predict("bcast", "binomial", &q), lg * A + n * lg * B);
    ck_assert_time(predict("bcast", "scatter_recursive_doubling_allgather", &q),
                   2 * lg * A + 2 * n * f * B);
    ck_assert_time(predict("bcast", "scatter_ring_allgather", &q),
                   (lg + p - 1) * A + 2 * n * f * B);
    ck_assert_time(predict("reduce", "binomial", &q), lg * A + n * lg * B + n * lg * G);
    ck_assert_time(predict("allreduce", "recursive_doubling", &q),
                   lg * A + n * lg * B + n * lg * G);
    ck_assert_time(predict("allreduce", "ring", &q), 2 * (p - 1) * A + 2 * n * f * B + n * f * G);
    ck_assert_time(predict("reduce_scatter", "recursive_halving", &q), lg * A + n * f * (B + G));
    ck_assert_time(predict("reduce_scatter", "pairwise", &q), (p - 1) * A + n * f * (B + G));
    ck_assert_time(predict("reduce_scatter", "recursive_doubling", &q),
                   lg * A + n * (lg - f) * (B + G));
    ck_assert_time(predict("reduce_scatter_block", "recursive_halving", &q),
                   lg * A + n * f * (B + G));
    /* allgather, alltoall, gather, scatter: the table's n is the total p·m of blocks m */
    const double m = 1000;
    q.bytes = m;
    ck_assert_time(predict("allgather", "bruck", &q), lg * A + (p * m) * f * B);
    ck_assert_time(predict("allgather", "recursive_doubling", &q), lg * A + (p * m) * f * B);
    ck_assert_time(predict("allgather", "ring", &q), (p - 1) * A + (p * m) * f * B);
    ck_assert_time(predict("alltoall", "bruck", &q), lg * A + (p * m / 2) * lg * B);
    ck_assert_time(predict("gather", "binomial", &q), lg * A + (p * m) * f * B);
    ck_assert_time(predict("scatter", "binomial", &q), lg * A + (p * m) * f * B);
    /* pairwise alltoall moves the p-1 blocks that leave the rank: (p-1)α + (p-1)mβ */
    ck_assert_time(predict("alltoall", "pairwise", &q), (p - 1) * A + (p - 1) * m * B);
}
END_TEST

/* ---------------------------------------------------------------- coverage and errors */

/* Every registry row (what `collsim list algorithms` shows) has a formula, and every formula
 * belongs to a registry row: the model and the catalogue name the same algorithms. */
START_TEST(test_model_predict_covers_every_registry_row)
{
    size_t rows = 0;
    const struct coll_algorithm *row = coll_registry_rows(&rows);
    for (size_t i = 0; i < rows; i++) {
        const char *collective = coll_kind_name(row[i].kind);
        ck_assert_msg(model_predict_known(collective, row[i].name), "%s/%s has no formula",
                      collective, row[i].name);
        ck_assert_ptr_nonnull(model_predict_formula(collective, row[i].name));
    }
    gsize count = 0;
    const struct model_predict_entry *e = model_predict_entries(&count);
    ck_assert_ptr_nonnull(e);
    for (gsize i = 0; i < count; i++) {
        enum coll_kind kind;
        ck_assert_msg(coll_kind_from_name(e[i].collective, &kind), "%s: no such collective",
                      e[i].collective);
        ck_assert_msg(coll_registry_find(kind, e[i].algorithm) != NULL,
                      "formula for %s/%s, which the registry does not have", e[i].collective,
                      e[i].algorithm);
    }
    ck_assert_uint_eq(count, rows);
}
END_TEST

/* Registry rows that may have no formula, each with why: none today. The test fails on an
 * entry that does have one, so the list only ever names real gaps. */
static const struct {
    const char *collective;
    const char *algorithm;
    const char *why;
} registry_rows_without_formula[] = {
    {NULL, NULL, NULL}, /* end of the list */
};

static gboolean
allowed_without_formula(const char *collective, const char *algorithm)
{
    for (gsize i = 0; registry_rows_without_formula[i].collective != NULL; i++)
        if (g_strcmp0(registry_rows_without_formula[i].collective, collective) == 0 &&
            g_strcmp0(registry_rows_without_formula[i].algorithm, algorithm) == 0)
            return TRUE;
    return FALSE;
}

/* The formulas are found per collective (models/predict/, one table each): walk the registry
 * both ways. Every registry row has a formula (or is a listed exception); every formula row
 * names a registry algorithm of its own collective and is the row the lookup finds (so no
 * pair has two rows); and every registry name asked under every collective is known exactly
 * where the registry has it (a name of another collective is not). */
START_TEST(test_model_predict_formulas_match_registry_both_ways)
{
    size_t rows = 0;
    const struct coll_algorithm *row = coll_registry_rows(&rows);
    for (size_t i = 0; i < rows; i++) {
        const char *collective = coll_kind_name(row[i].kind);
        gboolean allowed = allowed_without_formula(collective, row[i].name);
        gboolean known = model_predict_known(collective, row[i].name);
        ck_assert_msg(known || allowed, "registry row %s/%s has no formula", collective,
                      row[i].name);
        ck_assert_msg(!(known && allowed), "%s/%s has a formula: drop it from the exceptions",
                      collective, row[i].name);
        ck_assert_msg((model_predict_formula(collective, row[i].name) != NULL) == known,
                      "%s/%s: formula text and known disagree", collective, row[i].name);
    }
    for (int kind = 0; kind < COLL_KIND_COUNT; kind++) {
        const char *collective = coll_kind_name((enum coll_kind)kind);
        for (size_t i = 0; i < rows; i++) {
            gboolean in_registry = coll_registry_find((enum coll_kind)kind, row[i].name) != NULL;
            if (allowed_without_formula(collective, row[i].name))
                continue;
            ck_assert_msg(model_predict_known(collective, row[i].name) == in_registry,
                          "%s/%s: known %d, in the registry %d", collective, row[i].name,
                          model_predict_known(collective, row[i].name), in_registry);
        }
    }
    gsize count = 0;
    const struct model_predict_entry *e = model_predict_entries(&count);
    for (gsize i = 0; i < count; i++) {
        enum coll_kind kind;
        ck_assert_msg(coll_kind_from_name(e[i].collective, &kind),
                      "formula row %s/%s: no such collective", e[i].collective, e[i].algorithm);
        ck_assert_msg(coll_registry_find(kind, e[i].algorithm) != NULL,
                      "formula row %s/%s names no registry algorithm", e[i].collective,
                      e[i].algorithm);
        ck_assert_msg(model_predict_formula(e[i].collective, e[i].algorithm) == e[i].formula,
                      "formula row %s/%s is not the one the lookup finds", e[i].collective,
                      e[i].algorithm);
        for (gsize j = 0; j < i; j++)
            ck_assert_msg(g_strcmp0(e[i].collective, e[j].collective) != 0 ||
                              g_strcmp0(e[i].algorithm, e[j].algorithm) != 0,
                          "formula row %s/%s listed twice", e[i].collective, e[i].algorithm);
    }
}
END_TEST

/* p = 1 costs nothing; every row gives a finite positive time at p = 2 … 37 in both modes,
 * growing with n except the barriers (ranks 2 … 37 cover pof2, odd, even non-pof2). */
START_TEST(test_model_predict_every_row_sane)
{
    gsize count = 0;
    const struct model_predict_entry *e = model_predict_entries(&count);
    for (gsize i = 0; i < count; i++) {
        for (int mode = 0; mode < 2; mode++) {
            struct model_predict_params p = params((enum model_predict_mode)mode, 1, 5000);
            double t = -1;
            ck_assert(model_predict_time(e[i].collective, e[i].algorithm, &p, &t));
            ck_assert_msg(t == 0.0, "%s/%s at p = 1: %g", e[i].collective, e[i].algorithm, t);
            for (int ranks = 2; ranks <= 37; ranks++) {
                p.ranks = ranks;
                p.root = ranks / 3;
                p.bytes = 5000;
                double small = predict(e[i].collective, e[i].algorithm, &p);
                p.bytes = 500000;
                double large = predict(e[i].collective, e[i].algorithm, &p);
                gboolean barrier = g_strcmp0(e[i].collective, "barrier") == 0;
                ck_assert_msg(isfinite(small) && small > 0 &&
                                  (barrier ? large == small : large > small),
                              "%s/%s p = %d mode %d: %g then %g", e[i].collective, e[i].algorithm,
                              ranks, mode, small, large);
            }
        }
    }
}
END_TEST

START_TEST(test_model_predict_unknown_and_invalid)
{
    struct model_predict_params p = params(MODEL_PREDICT_COLLSIM, 8, 1000);
    double t = 42.0;
    ck_assert(!model_predict_time("reduce", "no_such_algorithm", &p, &t));
    ck_assert(!model_predict_time("no_such_collective", "linear", &p, &t));
    ck_assert(!model_predict_time("allreduce", "chain", &p, &t)); /* a name of another kind */
    ck_assert(!model_predict_time(NULL, "linear", &p, &t));
    ck_assert(!model_predict_known("reduce", "Binomial")); /* names are exact */
    ck_assert_ptr_null(model_predict_formula("reduce", "nope"));
    p.ranks = 0;
    ck_assert(!model_predict_time("reduce", "binomial", &p, &t));
    p.ranks = 8;
    p.bytes = -1;
    ck_assert(!model_predict_time("reduce", "binomial", &p, &t));
    p.bytes = NAN;
    ck_assert(!model_predict_time("reduce", "binomial", &p, &t));
    p.bytes = 1000;
    p.root = 8;
    ck_assert(!model_predict_time("reduce", "binomial", &p, &t));
    ck_assert(model_predict_time("allreduce", "ring", &p, &t)); /* unrooted: root ignored */
    p.root = 0;
    p.radix = 1;
    ck_assert(!model_predict_time("reduce", "knomial", &p, &t));
    ck_assert(model_predict_time("reduce", "binomial", &p, &t)); /* radix unused */
    p.radix = 4;
    p.segment_bytes = 0;
    ck_assert(!model_predict_time("bcast", "pipeline_chain", &p, &t));
    ck_assert(model_predict_time("bcast", "binomial", &p, &t)); /* segment unused */
    p.segment_bytes = 8192;
    p.alpha = -1;
    ck_assert(!model_predict_time("bcast", "binomial", &p, &t));
    p.alpha = A;
    p.eager_threshold = NAN;
    ck_assert(!model_predict_time("bcast", "binomial", &p, &t));
}
END_TEST

START_TEST(test_model_predict_large_scale_is_fast)
{
    /* a million ranks, every row: the tree evaluators work on subtree sizes, not ranks */
    gsize count = 0;
    const struct model_predict_entry *e = model_predict_entries(&count);
    struct model_predict_params p = params(MODEL_PREDICT_COLLSIM, 1000000, 1 << 20);
    p.radix = 8;
    for (gsize i = 0; i < count; i++) {
        double t = predict(e[i].collective, e[i].algorithm, &p);
        ck_assert(isfinite(t) && t > 0);
    }
    /* reduce binomial at p = 2^20, n = 1 MiB, rendezvous: 20(3α + (n+2)β + nγ) */
    p.ranks = 1 << 20;
    double n = 1 << 20;
    ck_assert_time(predict("reduce", "binomial", &p), 20 * (3 * A + (n + 2) * B + n * G));
}
END_TEST

static Suite *
model_predict_suite(void)
{
    Suite *s = suite_create("model_predict");
    TCase *tc = tcase_create("formulas");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_model_predict_message_time_eager_and_rendezvous);
    tcase_add_test(tc, test_model_predict_route_cm02_lv08);
    tcase_add_test(tc, test_model_predict_gamma_from_compute_model);
    tcase_add_test(tc, test_model_predict_defaults_are_collsims);
    tcase_add_test(tc, test_model_predict_reduce_binomial_pof2);
    tcase_add_test(tc, test_model_predict_reduce_binomial_non_pof2);
    tcase_add_test(tc, test_model_predict_reduce_chain_root);
    tcase_add_test(tc, test_model_predict_reduce_linear_eager_fan_in);
    tcase_add_test(tc, test_model_predict_rabenseifner_table);
    tcase_add_test(tc, test_model_predict_reduce_in_order_binary);
    tcase_add_test(tc, test_model_predict_bcast_binomial_modes);
    tcase_add_test(tc, test_model_predict_overheads_fold_into_alpha);
    tcase_add_test(tc, test_model_predict_bcast_knomial);
    tcase_add_test(tc, test_model_predict_bcast_linear_one_port);
    tcase_add_test(tc, test_model_predict_pipeline_chain_matches_simulation);
    tcase_add_test(tc, test_model_predict_allreduce_ring_crosstraffic);
    tcase_add_test(tc, test_model_predict_allreduce_recursive_doubling_non_pof2);
    tcase_add_test(tc, test_model_predict_barriers);
    tcase_add_test(tc, test_model_predict_textbook_matches_thakur_at_pof2);
    tcase_add_test(tc, test_model_predict_covers_every_registry_row);
    tcase_add_test(tc, test_model_predict_formulas_match_registry_both_ways);
    tcase_add_test(tc, test_model_predict_every_row_sane);
    tcase_add_test(tc, test_model_predict_unknown_and_invalid);
    tcase_add_test(tc, test_model_predict_large_scale_is_fast);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(model_predict_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
