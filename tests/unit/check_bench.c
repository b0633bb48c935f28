/*
 * check_bench.c — the built-in benchmark program (sim/bench/bench.c): every collective checks out
 * against the sequential reference at 1, 3 and 8 ranks; a requested algorithm that cannot
 * serve falls back with its reason; wrong results are caught; message counts, the analytic
 * prediction, program points and the static checks of a point; the accuracy measurement on
 * order-sensitive inputs and the reproducible selection mode.
 *
 * bench_run_point runs one simulation per process, and check forks each test (and each
 * iteration of a loop test) into its own child.
 */
#include "config.h"

#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "coll/coll_registry.h"
#include "sim/bench/bench_ops.h"
#include "models/model_predict.h"
#include "sim/bench/bench.h"
#include "src/coll/coll_select.h"

#define ITEMS 26 /* per rank: uneven reduce_scatter blocks at 3 and 8 ranks */

static struct run_point *
new_point(enum coll_kind kind, int nranks, const char *datatype, const char *op)
{
    struct run_point *point = g_new0(struct run_point, 1);
    point->nranks = nranks;
    point->placement = SIM_PLACEMENT_BLOCK;
    model_transport_defaults(&point->transport);
    point->kind = kind;
    point->datatype = g_strdup(datatype);
    point->op = g_strdup(op);
    point->commutative = TRUE;
    gsize size = 0;
    ck_assert(bench_datatype_size(datatype, &size));
    point->bytes = (guint64)ITEMS * size;
    point->count = ITEMS;
    point->root = nranks - 1;
    point->payload = SIM_PAYLOAD_DATA;
    point->iterations = 2;
    point->warmup = 1;
    point->check = TRUE;
    return point;
}

static gchar *
built_file(const char *env, const char *fallback, const char *name)
{
    const char *dir = g_getenv(env);
    return g_build_filename(dir != NULL ? dir : fallback, name, NULL);
}

static gchar *
plugin_op(const char *symbol)
{
    gchar *so = built_file("PROGRAMS_DIR", "tests/programs/.libs", "userops.so");
    gchar *op = g_strdup_printf("plugin:%s:%s", so, symbol);
    g_free(so);
    return op;
}

/* ---------------------------------------------------------------- every collective */

/* Inputs of the reductions: every op family, commutative or not. */
static const struct {
    const char *datatype, *op;
    gboolean commutative;
} reductions[] = {
    {"int", "sum", TRUE},
    {"witness_affine", "witness_affine", FALSE},
    {"double", "prod", TRUE},
    {"double_int", "maxloc", TRUE},
    {"witness_matrix", "witness_matrix", FALSE},
    {"unsigned", "bxor", TRUE},
    {"c_double_complex", "complex_prod", TRUE},
    {"int", "smod5", TRUE},
    {"c_bool", "lor", TRUE},
    {"float", "min", TRUE},
    {"unsigned_char", "prod", TRUE},
    {"short_int", "minloc", TRUE},
};

static const char *const movement_types[] = {"double",         "double_int",  "int",
                                             "witness_matrix", "long_double", "c_float_complex"};

static const int rank_counts[] = {1, 3, 8};

struct collective_case {
    enum coll_kind kind;
    const char *algorithm;
    int nranks;
};

static struct collective_case cases[COLL_KIND_COUNT * 2 * G_N_ELEMENTS(rank_counts)];
static int ncases;

static void
make_cases(void)
{
    for (int kind = 0; kind < COLL_KIND_COUNT; kind++) {
        size_t rows = MIN(coll_registry_count((enum coll_kind)kind), 2);
        for (size_t a = 0; a < rows; a++)
            for (size_t p = 0; p < G_N_ELEMENTS(rank_counts); p++)
                cases[ncases++] = (struct collective_case){
                    (enum coll_kind)kind, coll_registry_nth((enum coll_kind)kind, a)->name,
                    rank_counts[p]};
    }
}

START_TEST(test_bench_every_collective_matches_reference)
{
    const struct collective_case *c = &cases[_i];
    struct run_point *point;
    if (coll_kind_reduces((int)c->kind)) {
        size_t k = (size_t)_i % G_N_ELEMENTS(reductions);
        point = new_point(c->kind, c->nranks, reductions[k].datatype, reductions[k].op);
        point->commutative = reductions[k].commutative;
    } else {
        point = new_point(c->kind, c->nranks,
                          movement_types[(size_t)_i % G_N_ELEMENTS(movement_types)], NULL);
    }
    point->algorithm = g_strdup(c->algorithm);
    /* every third case passes MPI_IN_PLACE where the collective takes it */
    point->in_place = _i % 3 == 2 && c->kind != COLL_BCAST && c->kind != COLL_BARRIER;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_msg(result.exit_code == 0 && result.check == POINT_CHECK_OK,
                  "%s %s P=%d %s/%s%s: exit %d check %d (%s)", coll_kind_name(c->kind),
                  c->algorithm, c->nranks, point->datatype, point->op ? point->op : "-",
                  point->in_place ? " in place" : "", result.exit_code, result.check,
                  result.check_detail ? result.check_detail : "");
    if (result.fallback_reason == NULL)
        ck_assert_str_eq(result.served, c->algorithm);
    else
        ck_assert_str_ne(result.served, c->algorithm);
    /* the mean of equal times may round a last bit above them */
    ck_assert(result.time_min >= 0 && result.time_min <= result.time_mean * (1 + 1e-12) &&
              result.time_mean <= result.time_max * (1 + 1e-12));
    if (c->nranks > 1)
        ck_assert_uint_gt(result.messages, 0);
    else
        ck_assert_uint_eq(result.messages, 0);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* ---------------------------------------------------------------- fallback and wrong results */

START_TEST(test_bench_noncommutative_op_falls_back_from_commutative_only_algorithm)
{
    struct run_point *point = new_point(COLL_ALLREDUCE, 4, "witness_matrix", "witness_matrix");
    point->commutative = FALSE;
    point->algorithm = g_strdup("ring");
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.fallback_reason, "requires commutative op");
    ck_assert_str_ne(result.served, "ring");
    ck_assert_str_ne(result.served, "");
    ck_assert_int_eq(result.check, POINT_CHECK_OK);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* A witness falsely declared commutative lets the ring reorder the ranks: the check sees it. */
START_TEST(test_bench_false_commutativity_claim_fails_check)
{
    struct run_point *point = new_point(COLL_ALLREDUCE, 4, "witness_matrix", "witness_matrix");
    point->commutative = TRUE;
    point->algorithm = g_strdup("ring");
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_ptr_null(result.fallback_reason);
    ck_assert_str_eq(result.served, "ring");
    ck_assert_int_eq(result.check, POINT_CHECK_FAIL);
    ck_assert_msg(g_str_has_prefix(result.check_detail, "rank 0 element "), "%s",
                  result.check_detail);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* Subtraction is not associative: a binomial tree brackets it differently from the fold. */
START_TEST(test_bench_nonassociative_plugin_op_fails_check)
{
    gchar *op = plugin_op("int_subtract");
    struct run_point *point = new_point(COLL_REDUCE, 8, "int", op);
    point->commutative = FALSE;
    point->root = 0;
    point->algorithm = g_strdup("binomial");
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.served, "binomial");
    ck_assert_int_eq(result.check, POINT_CHECK_FAIL);
    ck_assert_msg(g_regex_match_simple("^rank 0 element [0-9]+: got -?[0-9]+, expected -?[0-9]+$",
                                       result.check_detail, 0, 0),
                  "%s", result.check_detail);
    point_result_clear(&result);
    run_point_free(point);
    g_free(op);
}
END_TEST

START_TEST(test_bench_associative_plugin_op_checks_ok)
{
    gchar *op = plugin_op("int_sum");
    struct run_point *point = new_point(COLL_ALLREDUCE, 8, "int", op);
    point->algorithm = g_strdup("ring");
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.served, "ring");
    ck_assert_msg(result.check == POINT_CHECK_OK, "%s", result.check_detail);
    point_result_clear(&result);
    run_point_free(point);
    g_free(op);
}
END_TEST

/* ---------------------------------------------------------------- counts and predictions */

START_TEST(test_bench_linear_bcast_counts_messages_and_bytes)
{
    struct run_point *point = new_point(COLL_BCAST, 8, "double", NULL);
    point->root = 0;
    point->algorithm = g_strdup("linear");
    point->iterations = 3;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.served, "linear");
    ck_assert_uint_eq(result.messages, 7);
    ck_assert_uint_eq(result.bytes_moved, 7 * point->bytes);
    ck_assert_int_eq(result.check, POINT_CHECK_OK);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/*
 * Binomial bcast at 8 ranks on the cluster generated for the `cm02` preset (α = 2 x 1 us,
 * β = 1 / 12.5 GB/s, no overheads, no gap). The root sends to the subtrees of 4, 2 and 1
 * ranks in that order, back to back: its NIC starts them nβ apart, so they land at α + nβ,
 * α + 2nβ, α + 3nβ. The subtree of 4 forwards at α + nβ to its subtrees of 2 and 1, and so
 * on: the deepest path, three hops of α + nβ, lands at 3(α + nβ), after every other rank
 * (the root's last message: α + 3nβ; the second subtree's forward: 2α + 3nβ). The point's
 * prediction is model_predict's COLLSIM formula with exactly these α, β (the route between
 * ranks 0 and 1) and the bcast's n; when that formula equals the hand-derived time, the
 * simulation must equal both.
 */
START_TEST(test_bench_binomial_bcast_time_equals_prediction_under_cm02)
{
    struct run_point *point = new_point(COLL_BCAST, 8, "double", NULL);
    point->bytes = 8192;
    point->root = 0;
    point->algorithm = g_strdup("binomial");
    point->network = model_network_find("cm02");
    model_network_apply(point->network, &point->transport);
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.served, "binomial");
    ck_assert_int_eq(result.check, POINT_CHECK_OK);

    double alpha = 2e-6, beta = 1 / 12.5e9, n = 8192;
    double one_port = 3 * (alpha + n * beta);
    ck_assert_msg(fabs(result.time_max - one_port) <= 1e-9 * one_port,
                  "simulated %.12g s, three hops %.12g s", result.time_max, one_port);

    struct model_predict_params mp;
    model_predict_params_init(&mp);
    mp.ranks = 8;
    mp.bytes = n;
    mp.alpha = alpha;
    mp.beta = beta;
    double formula = NAN;
    ck_assert(model_predict_time("bcast", "binomial", &mp, &formula));
    ck_assert_msg(fabs(result.predicted - formula) <= 1e-9 * formula,
                  "predicted %.12g s, model_predict with the route's alpha/beta %.12g s",
                  result.predicted, formula);
    if (fabs(formula - one_port) <= 1e-9 * one_port)
        ck_assert_msg(fabs(result.time_max - result.predicted) <= 1e-9 * result.predicted,
                      "simulated %.12g s, predicted %.12g s", result.time_max, result.predicted);
    else
        fprintf(stderr,
                "check_bench: model_predict COLLSIM bcast/binomial gives %.12g s where collsim's "
                "one-port transport takes %.12g s: simulated == predicted not asserted\n",
                formula, one_port);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

START_TEST(test_bench_unchecked_points_are_skipped)
{
    struct run_point *point = new_point(COLL_ALLREDUCE, 3, "double", "sum");
    point->payload = _i == 0 ? SIM_PAYLOAD_NONE : SIM_PAYLOAD_DATA;
    point->check = _i != 1;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_int_eq(result.check, POINT_CHECK_SKIPPED);
    ck_assert_ptr_null(result.check_detail);
    ck_assert(result.time_max > 0);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* ---------------------------------------------------------------- accuracy */

/* The cancellation inputs written out again from their definition (sim/bench/bench_inputs.h). */
static double
cancellation_input(int rank, int nranks, int element)
{
    double sign = element % 2 == 0 ? 1.0 : -1.0;
    if (rank == 0)
        return sign * 1e16;
    if (rank == nranks - 1)
        return -sign * 1e16;
    return 2.0 * (1 + (3 * rank + element) % 8) / 8.0;
}

/*
 * The chain reduce folds left in rank order, so its result is the sequential fold in double.
 * The reference needs no exact summation here: the small inputs are multiples of 1/4 below
 * 2 and the huge ones cancel, so the exact sum is the sum of the small ones, exact in double.
 * The expected errors are computed from those values alone (ulp by frexp).
 */
START_TEST(test_bench_cancellation_error_of_the_left_fold)
{
    const int p = 7;
    struct run_point *point = new_point(COLL_REDUCE, p, "double", "sum");
    point->algorithm = g_strdup("chain");
    point->inputs = POINT_INPUTS_CANCELLATION;
    point->root = 2;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_int_eq(result.check, POINT_CHECK_OK);
    ck_assert_str_eq(result.served, "chain");

    double max_ulps = 0, max_rel = 0;
    for (int i = 0; i < ITEMS; i++) {
        double fold = cancellation_input(0, p, i), exact = 0;
        for (int r = 1; r < p; r++)
            fold += cancellation_input(r, p, i);
        for (int r = 1; r < p - 1; r++)
            exact += cancellation_input(r, p, i);
        int e;
        frexp(exact, &e); /* exact = m 2^e, 1/2 <= m < 1: ulp = 2^(e - 53) */
        max_ulps = MAX(max_ulps, fabs(fold - exact) / ldexp(1.0, e - 53));
        max_rel = MAX(max_rel, fabs(fold - exact) / exact);
    }
    /* the fold really lost something */
    ck_assert(max_rel > 0.01);
    ck_assert_msg(result.max_ulps == max_ulps, "%.17g != %.17g", result.max_ulps, max_ulps);
    ck_assert_msg(result.max_rel_error == max_rel, "%.17g != %.17g", result.max_rel_error, max_rel);
    /* not an allreduce: nothing to compare between ranks */
    ck_assert_int_eq(result.identical, POINT_IDENTITY_NOT_MEASURED);
    ck_assert_uint_eq(strlen(result.results_sha256), 64);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* Random inputs under every Allreduce algorithm: sane, identical on every rank, a few ulps. */
START_TEST(test_bench_random_inputs_measured_for_every_allreduce_algorithm)
{
    const struct coll_algorithm *row = coll_registry_nth(COLL_ALLREDUCE, (size_t)_i);
    struct run_point *point = new_point(COLL_ALLREDUCE, 6, _i % 2 ? "float" : "double", "sum");
    point->algorithm = g_strdup(row->name);
    point->inputs = POINT_INPUTS_RANDOM;
    point->inputs_seed = 12345;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_msg(result.check == POINT_CHECK_OK, "%s: %s", row->name, result.check_detail);
    ck_assert_int_eq(result.identical, POINT_IDENTITY_IDENTICAL);
    ck_assert(isfinite(result.max_ulps) && result.max_ulps >= 0);
    ck_assert(isfinite(result.max_rel_error) && result.max_rel_error >= 0);
    ck_assert_uint_eq(strlen(result.results_sha256), 64);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* Exact inputs measure nothing: the accuracy fields stay "not measured". */
START_TEST(test_bench_exact_inputs_measure_nothing)
{
    struct run_point *point = new_point(COLL_ALLREDUCE, 3, "double", "sum");
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.check, POINT_CHECK_OK);
    ck_assert(isnan(result.max_ulps) && isnan(result.max_rel_error));
    ck_assert_int_eq(result.identical, POINT_IDENTITY_NOT_MEASURED);
    ck_assert_ptr_null(result.results_sha256);
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* The reproducible mode serves each reduction with its pinned algorithm, whatever the root
 * and the size (rabenseifner would take 26 doubles by default); data movement keeps the
 * decision table. */
START_TEST(test_bench_reproducible_mode_serves_the_pinned_algorithm)
{
    static const enum coll_kind kinds[] = {
        COLL_REDUCE, COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK,
        COLL_SCAN,   COLL_EXSCAN,    COLL_BCAST};
    enum coll_kind kind = kinds[_i];
    gboolean reduces = coll_kind_reduces(kind);
    struct run_point *point = new_point(kind, 5, "double", reduces ? "sum" : NULL);
    point->bytes = 8 * 512;
    point->count = 512;
    point->algorithm = g_strdup(COLL_SELECT_REPRODUCIBLE);
    if (reduces)
        point->inputs = POINT_INPUTS_RANDOM;
    struct point_result result = {0};
    bench_run_point(point, &result);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_msg(result.check == POINT_CHECK_OK, "%s", result.check_detail);
    ck_assert_ptr_null(result.fallback_reason);
    const char *pinned = coll_select_reproducible_choice(kind);
    ck_assert_str_eq(result.served, pinned != NULL ? pinned : "binomial");
    point_result_clear(&result);
    run_point_free(point);
}
END_TEST

/* ---------------------------------------------------------------- static checks */

struct invalid_case {
    const char *what;
    const char *key; /* NULL: the point is fine */
};

static struct run_point *
invalid_point(int which, const struct invalid_case **expect)
{
    static const struct invalid_case table[] = {
        {"valid", NULL},
        {"unknown datatype", "datatype"},
        {"sum on c_bool", "op"},
        {"smod5 on double", "op"},
        {"complex_prod on float", "op"},
        {"witness op on int", "op"},
        {"reduction without op", "op"},
        {"unknown op", "op"},
        {"plugin without symbol", "op"},
        {"plugin file missing", "op"},
        {"unknown algorithm", "algorithms"},
        {"root out of range", "root"},
        {"in-place bcast", "in_place"},
        {"bytes not whole items", "sizes"},
        {"count over INT_MAX", "sizes"},
        {"missing program", "program"},
        {"valid in-place exscan", NULL},
        {"no ranks", "ranks"},
        {"no timed call", "iterations"},
        {"random inputs on int", "inputs"},
        {"cancellation with max", "inputs"},
        {"random inputs on bcast", "inputs"},
        {"valid random float sum on scan", NULL},
        {"valid reproducible mode", NULL},
    };
    struct run_point *point = new_point(COLL_ALLREDUCE, 4, "int", "sum");
    *expect = &table[which];
    switch (which) {
    case 1:
        g_free(point->datatype);
        point->datatype = g_strdup("quaternion");
        break;
    case 2:
        g_free(point->datatype);
        point->datatype = g_strdup("c_bool");
        break;
    case 3:
        g_free(point->op);
        point->op = g_strdup("smod5");
        g_free(point->datatype);
        point->datatype = g_strdup("double");
        point->bytes = 80;
        break;
    case 4:
        g_free(point->op);
        point->op = g_strdup("complex_prod");
        g_free(point->datatype);
        point->datatype = g_strdup("float");
        break;
    case 5:
        g_free(point->op);
        point->op = g_strdup("witness_matrix");
        break;
    case 6:
        g_free(point->op);
        point->op = NULL;
        break;
    case 7:
        g_free(point->op);
        point->op = g_strdup("median");
        break;
    case 8:
        g_free(point->op);
        point->op = plugin_op("no_such_function");
        break;
    case 9:
        g_free(point->op);
        point->op = g_strdup("plugin:/nonexistent/ops.so:int_sum");
        break;
    case 10:
        point->algorithm = g_strdup("quantum");
        break;
    case 11:
        point->kind = COLL_REDUCE;
        point->root = 4;
        break;
    case 12:
        point->kind = COLL_BCAST;
        point->in_place = TRUE;
        break;
    case 13:
        point->bytes = 10;
        break;
    case 14:
        point->bytes = (guint64)4 * ((guint64)INT_MAX + 1);
        break;
    case 15:
        point->program = g_strdup("/nonexistent/program.so");
        break;
    case 16:
        point->kind = COLL_EXSCAN;
        point->in_place = TRUE;
        break;
    case 17:
        point->nranks = 0;
        break;
    case 18:
        point->iterations = 0;
        break;
    case 19:
        point->inputs = POINT_INPUTS_RANDOM;
        break;
    case 20:
        point->inputs = POINT_INPUTS_CANCELLATION;
        g_free(point->op);
        point->op = g_strdup("max");
        g_free(point->datatype);
        point->datatype = g_strdup("double");
        point->bytes = 8 * ITEMS;
        break;
    case 21:
        point->inputs = POINT_INPUTS_RANDOM;
        point->kind = COLL_BCAST;
        g_free(point->op);
        point->op = NULL;
        break;
    case 22:
        point->inputs = POINT_INPUTS_RANDOM;
        point->kind = COLL_SCAN;
        g_free(point->datatype);
        point->datatype = g_strdup("float");
        break;
    case 23:
        point->algorithm = g_strdup(COLL_SELECT_REPRODUCIBLE);
        break;
    }
    return point;
}

#define N_INVALID_CASES 24

START_TEST(test_bench_point_invalid_names_the_key)
{
    const struct invalid_case *expect;
    struct run_point *point = invalid_point(_i, &expect);
    const char *key = "untouched";
    gchar *why = bench_point_invalid(point, &key);
    if (expect->key == NULL) {
        ck_assert_msg(why == NULL, "%s: %s", expect->what, why);
    } else {
        ck_assert_msg(why != NULL, "%s: accepted", expect->what);
        ck_assert_msg(strcmp(key, expect->key) == 0, "%s: key %s, expected %s (%s)", expect->what,
                      key, expect->key, why);
        /* running it anyway ends in an error result, never in a crash */
        struct point_result result = {0};
        bench_run_point(point, &result);
        ck_assert_int_eq(result.exit_code, 2);
        ck_assert_int_eq(result.check, POINT_CHECK_ERROR);
        ck_assert_str_eq(result.check_detail, why);
        point_result_clear(&result);
    }
    g_free(why);
    run_point_free(point);
}
END_TEST

START_TEST(test_bench_datatype_sizes_and_lists)
{
    gsize size = 0;
    ck_assert(bench_datatype_size("double", &size));
    ck_assert_uint_eq(size, 8);
    ck_assert(bench_datatype_size("double_int", &size));
    ck_assert_uint_eq(size, 12); /* packed: no padding */
    ck_assert(bench_datatype_size("witness_matrix", &size));
    ck_assert_uint_eq(size, 16);
    ck_assert(!bench_datatype_size("quaternion", &size));
    gsize n;
    const struct bench_name *types = bench_datatypes(&n);
    ck_assert_uint_ge(n, 30);
    for (gsize i = 0; i < n; i++) {
        ck_assert(bench_datatype_size(types[i].name, &size));
        ck_assert(types[i].summary != NULL && *types[i].summary != '\0');
    }
    const struct bench_name *ops = bench_ops(&n);
    ck_assert_str_eq(ops[0].name, "max");
    ck_assert_str_eq(ops[n - 1].name, "plugin:FILE.so:SYMBOL");
}
END_TEST

/* bench_fill's per-type loops write the sum pattern's values, (rank + 3 index) mod 5 - 2
 * (unsigned types without the - 2), from any first item on. */
START_TEST(test_bench_fill_writes_the_sum_pattern_per_type)
{
    enum { N = 23, FIRST = 7, RANK = 3 };
    int ints[N];
    double doubles[N];
    unsigned short ushorts[N];
    bench_fill(bench_datatype_find("int"), BENCH_PATTERN_SUM, RANK, 8, FIRST, N, ints);
    bench_fill(bench_datatype_find("double"), BENCH_PATTERN_SUM, RANK, 8, FIRST, N, doubles);
    bench_fill(bench_datatype_find("unsigned_short"), BENCH_PATTERN_SUM, RANK, 8, FIRST, N,
               ushorts);
    for (int k = 0; k < N; k++) {
        int want = (RANK + 3 * (FIRST + k)) % 5;
        ck_assert_int_eq(ints[k], want - 2);
        ck_assert(doubles[k] == (double)(want - 2));
        ck_assert_uint_eq(ushorts[k], (unsigned)want);
    }
}
END_TEST

/* The check's memcmp shortcut is taken only where equal items are equal bytes. */
START_TEST(test_bench_bitwise_equal_only_for_integer_items)
{
    ck_assert(bench_type_bitwise_equal(bench_datatype_find("int")));
    ck_assert(bench_type_bitwise_equal(bench_datatype_find("byte")));
    ck_assert(bench_type_bitwise_equal(bench_datatype_find("unsigned_long")));
    ck_assert(!bench_type_bitwise_equal(bench_datatype_find("double")));
    ck_assert(!bench_type_bitwise_equal(bench_datatype_find("float")));
    ck_assert(!bench_type_bitwise_equal(bench_datatype_find("double_int")));
    double zero = 0.0, minus_zero = -0.0;
    ck_assert(bench_item_equal(bench_datatype_find("double"), &zero, &minus_zero));
    ck_assert(memcmp(&zero, &minus_zero, sizeof zero) != 0);
}
END_TEST

/* ---------------------------------------------------------------- program points */

static const char smod5_output[] = "process 0 a(1) = 1\n"
                                   "process 1 a(1) = 2\n"
                                   "process 2 a(1) = 3\n"
                                   "b(1) = 1\n"
                                   "b(2) = 4\n"
                                   "b(3) = 2\n"
                                   "b(1000) = 3\n"
                                   "sum of b = 2000\n"
                                   "op == MPI_OP_NULL after MPI_Op_free: yes\n";

START_TEST(test_bench_program_point_captures_and_compares_output)
{
    /* _i == 0: the right expected output; 1: one line differs */
    struct run_point *point = g_new0(struct run_point, 1);
    point->nranks = 3;
    model_transport_defaults(&point->transport);
    point->program = built_file("top_builddir", ".", "scenarios/seeds/smod5.so");
    gchar *expected = g_strdup(smod5_output);
    if (_i == 1)
        memcpy(strstr(expected, "b(2) = 4"), "b(2) = 0", 8);
    int fd = g_file_open_tmp("collsim-expected-XXXXXX", &point->expected_output, NULL);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert(g_file_set_contents(point->expected_output, expected, -1, NULL));
    struct point_result result = {0};
    bench_run_point(point, &result);
    g_unlink(point->expected_output);
    ck_assert_int_eq(result.exit_code, 0);
    ck_assert_str_eq(result.served, "");
    ck_assert_str_eq(result.output, smod5_output);
    ck_assert(result.time_max > 0 && result.time_max == result.time_min);
    ck_assert_uint_gt(result.messages, 0);
    if (_i == 0) {
        ck_assert_int_eq(result.check, POINT_CHECK_OK);
    } else {
        ck_assert_int_eq(result.check, POINT_CHECK_FAIL);
        ck_assert_str_eq(result.check_detail, "line 5: got 'b(2) = 4', expected 'b(2) = 0'");
    }
    point_result_clear(&result);
    run_point_free(point);
    g_free(expected);
}
END_TEST

static Suite *
bench_suite(void)
{
    Suite *s = suite_create("bench");
    TCase *tc = tcase_create("collectives");
    tcase_set_timeout(tc, 60);
    make_cases();
    tcase_add_loop_test(tc, test_bench_every_collective_matches_reference, 0, ncases);
    suite_add_tcase(s, tc);

    tc = tcase_create("results");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bench_noncommutative_op_falls_back_from_commutative_only_algorithm);
    tcase_add_test(tc, test_bench_false_commutativity_claim_fails_check);
    tcase_add_test(tc, test_bench_nonassociative_plugin_op_fails_check);
    tcase_add_test(tc, test_bench_associative_plugin_op_checks_ok);
    tcase_add_test(tc, test_bench_linear_bcast_counts_messages_and_bytes);
    tcase_add_test(tc, test_bench_binomial_bcast_time_equals_prediction_under_cm02);
    tcase_add_loop_test(tc, test_bench_unchecked_points_are_skipped, 0, 2);
    tcase_add_loop_test(tc, test_bench_program_point_captures_and_compares_output, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("accuracy");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_bench_cancellation_error_of_the_left_fold);
    tcase_add_loop_test(tc, test_bench_random_inputs_measured_for_every_allreduce_algorithm, 0,
                        (int)coll_registry_count(COLL_ALLREDUCE));
    tcase_add_test(tc, test_bench_exact_inputs_measure_nothing);
    tcase_add_loop_test(tc, test_bench_reproducible_mode_serves_the_pinned_algorithm, 0, 7);
    suite_add_tcase(s, tc);

    tc = tcase_create("static");
    tcase_add_loop_test(tc, test_bench_point_invalid_names_the_key, 0, N_INVALID_CASES);
    tcase_add_test(tc, test_bench_datatype_sizes_and_lists);
    tcase_add_test(tc, test_bench_fill_writes_the_sum_pattern_per_type);
    tcase_add_test(tc, test_bench_bitwise_equal_only_for_integer_items);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(bench_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
