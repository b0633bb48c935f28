/*
 * check_timing.c — timing sanity of every reduction algorithm: on a contention-free flat
 * cluster, the simulated time of one call must fall within TOLERANCE of the textbook cost
 * formula (models/model_predict.c, Thakur, Rabenseifner & Gropp 2005), with α and β derived
 * from the platform's link numbers and γ from the compute model.
 *
 * Conditions that make the formulas apply: the CM02 network model (latency + size/bandwidth,
 * no correction factors), no cross traffic, power-of-two rank counts, messages at most the
 * eager threshold (the formulas know one message cost, α + nβ; a rendezvous adds an envelope),
 * and all ranks starting the call at the same simulated instant.
 *
 * What is asserted:
 *  - the formula is an upper bound for every algorithm (collsim's ranks send one message at a
 *    time, like the formula's single port, and no algorithm may be slower than its count of
 *    rounds and bytes says);
 *  - it is exact (within EXACT, rounding only) for algorithms in which no rank receives two
 *    messages at once;
 *  - algorithms that fan in (a parent receiving from several children at once: linear, the
 *    binary and k-nomial trees) are faster than the formula, because the formula's receiver
 *    takes one message after another while collsim's incoming messages share the receiving
 *    link and overlap their latencies. For them the simulated time must stay above
 *    FAN_IN_FLOOR of the formula: the bandwidth part is always paid, only latencies overlap.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <simgrid/actor.h>
#include <simgrid/engine.h>

#include "coll/coll_registry.h"
#include "models/model_compute.h"
#include "models/model_predict.h"
#include "mpi.h"
#include "sim_harness.h"

#define EXACT 1e-6
#define FAN_IN_FLOOR 0.2

/* Algorithms in which a rank may receive from several ranks at once. */
static const struct {
    enum coll_kind kind;
    const char *name;
} fan_in[] = {
    {COLL_REDUCE, "linear"},           {COLL_REDUCE, "in_order_binary"},
    {COLL_REDUCE, "knomial"},          {COLL_REDUCE, "pipeline_binary"},
    {COLL_ALLREDUCE, "reduce_bcast"},  {COLL_REDUCE_SCATTER_BLOCK, "reduce_scatter"},
    {COLL_BCAST, "split_binary"},      /* a rank's swap partner sends while its parent does */
};

static gboolean
fans_in(const struct coll_algorithm *row)
{
    for (size_t i = 0; i < G_N_ELEMENTS(fan_in); i++)
        if (fan_in[i].kind == row->kind && strcmp(fan_in[i].name, row->name) == 0)
            return TRUE;
    return FALSE;
}
#define LINK_LATENCY 1e-6     /* the default cluster: SIM_DEFAULT_LAT per link, 2 links */
#define LINK_BANDWIDTH 12.5e9 /* SIM_DEFAULT_BW */
#define HOST_SPEED 10e9       /* SIM_DEFAULT_SPEED */

static const int rank_counts[] = {8, 16};
static const int item_counts[] = {512, 8192};   /* 4 KiB and 64 KiB of doubles: eager */
#define NCASES (G_N_ELEMENTS(rank_counts) * G_N_ELEMENTS(item_counts))

/* The kinds timed here and the registry rows they have. */
static const enum coll_kind kinds[] = {COLL_REDUCE, COLL_ALLREDUCE, COLL_REDUCE_SCATTER_BLOCK,
                                       COLL_SCAN, COLL_EXSCAN, COLL_BCAST};

struct timing_case {
    const struct coll_algorithm *row;
    int items;
    double start[64], end[64];
};

static double
buffer_items(const struct timing_case *c, int ranks)
{
    /* reduce_scatter_block takes recvcount per rank: the whole vector is items */
    return c->row->kind == COLL_REDUCE_SCATTER_BLOCK ? (double)c->items / ranks : c->items;
}

static void
timed_rank(int rank, void *arg)
{
    struct timing_case *c = arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = c->items;
    double *in = malloc(sizeof(double) * (size_t)n), *out = calloc((size_t)n, sizeof(double));
    for (int i = 0; i < n; i++)
        in[i] = rank + 0.25 * i;
    struct coll_params params = c->row->defaults;
    /* everybody starts at the same instant: 1 ms after the start of the run */
    sg_actor_sleep_until(1e-3);
    c->start[rank] = MPI_Wtime();
    int rc = MPI_SUCCESS;
    switch (c->row->kind) {
    case COLL_REDUCE:
        rc = c->row->fn.reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &params);
        break;
    case COLL_ALLREDUCE:
        rc = c->row->fn.allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &params);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        rc = c->row->fn.reduce_scatter_block(in, out, n / size, MPI_DOUBLE, MPI_SUM,
                                             MPI_COMM_WORLD, &params);
        break;
    case COLL_SCAN:
        rc = c->row->fn.scan(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &params);
        break;
    case COLL_EXSCAN:
        rc = c->row->fn.exscan(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &params);
        break;
    case COLL_BCAST:
        rc = c->row->fn.bcast(in, n, MPI_DOUBLE, 0, MPI_COMM_WORLD, &params);
        break;
    default:
        break;
    }
    c->end[rank] = MPI_Wtime();
    ck_assert_int_eq(rc, MPI_SUCCESS);
    free(in);
    free(out);
}

/* γ: seconds per byte of MPI_SUM on doubles in the default compute model. */
static double
sum_gamma(void)
{
    struct model_compute model;
    model_compute_defaults(&model);
    double flops = model_compute_flops_per_element(&model, MODEL_COMPUTE_OP_SUM,
                                                   MODEL_COMPUTE_ELEM_FLOATING);
    return model_predict_gamma(flops / sizeof(double), HOST_SPEED);
}

static size_t
timed_row_count(void)
{
    size_t n = 0;
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++)
        n += coll_registry_count(kinds[k]);
    return n;
}

static const struct coll_algorithm *
timed_row(size_t index)
{
    for (size_t k = 0; k < G_N_ELEMENTS(kinds); k++) {
        size_t n = coll_registry_count(kinds[k]);
        if (index < n)
            return coll_registry_nth(kinds[k], index);
        index -= n;
    }
    return NULL;
}

START_TEST(test_simulated_time_matches_textbook_formula)
{
    const struct coll_algorithm *row = timed_row((size_t)_i / NCASES);
    int p = rank_counts[(_i % NCASES) / G_N_ELEMENTS(item_counts)];
    int items = item_counts[_i % G_N_ELEMENTS(item_counts)];
    double predicted;
    struct model_predict_params mp;
    model_predict_params_init(&mp);
    mp.mode = MODEL_PREDICT_TEXTBOOK;
    mp.ranks = p;
    mp.root = 0;
    mp.radix = row->defaults.radix > 0 ? row->defaults.radix : mp.radix;
    mp.segment_bytes = row->defaults.segment_bytes > 0 ? row->defaults.segment_bytes : 1;
    ck_assert(model_predict_route("CM02", LINK_LATENCY, LINK_BANDWIDTH, 2, &mp.alpha, &mp.beta));
    mp.gamma = sum_gamma();
    struct timing_case c = {.row = row, .items = items};
    mp.bytes = buffer_items(&c, 1) * sizeof(double);
    if (!model_predict_time(coll_kind_name(row->kind), row->name, &mp, &predicted)) {
        printf("%-20s %-20s no formula\n", coll_kind_name(row->kind), row->name);
        return;
    }

    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.nranks = p;
    gchar *cfg[] = {"--cfg=network/model:CM02", "--cfg=network/crosstraffic:0", NULL};
    config.simgrid_cfg = cfg;
    ck_assert_int_eq(collsim_test_run_config(&config, timed_rank, &c, &outcome), 0);
    double simulated = 0;
    for (int r = 0; r < p; r++)
        simulated = fmax(simulated, c.end[r] - c.start[0]);
    double ratio = simulated / predicted;
    printf("%-20s %-20s P=%-3d n=%-7zu simulated %.3e s  formula %.3e s  ratio %.3f\n",
           coll_kind_name(row->kind), row->name, p, (size_t)mp.bytes, simulated, predicted,
           ratio);
    ck_assert_msg(ratio <= 1 + EXACT,
                  "%s %s P=%d n=%.0f: simulated %.6e s is slower than the formula's %.6e s",
                  coll_kind_name(row->kind), row->name, p, mp.bytes, simulated, predicted);
    double floor = fans_in(row) ? FAN_IN_FLOOR : 1 - EXACT;
    ck_assert_msg(ratio >= floor,
                  "%s %s P=%d n=%.0f: simulated %.6e s is %.0f%% below the formula's %.6e s",
                  coll_kind_name(row->kind), row->name, p, mp.bytes, simulated,
                  100 * (1 - ratio), predicted);
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("timing");
    TCase *tc = tcase_create("formulas");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_simulated_time_matches_textbook_formula, 0,
                        (int)(timed_row_count() * NCASES));
    suite_add_tcase(s, tc);
    SRunner *runner = srunner_create(s);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
