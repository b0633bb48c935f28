/*
 * check_allreduce.c — every MPI_Allreduce algorithm of the registry, at every rank count of
 * `sizes`, one simulation per (algorithm, rank count).
 *
 * Each simulation runs a plan of cases worked out beforehand, outside the simulation: for
 * each count, the matrix and affine witnesses (non-commutative, against the rank-order fold),
 * an exact integer MPI_SUM, and a double MPI_SUM whose values (±1e16 among small numbers)
 * make the summation order visible in the bits — each with and without MPI_IN_PLACE. The
 * ranks only record: the first local failure, whether each witness result equals the fold,
 * a digest of every result, and the full double results. The assertions run afterwards:
 *  - no rank failed (rc, exact integer sum, double sum within the error bound of any order);
 *  - an order-preserving row matches the fold on every rank; a row declaring
 *    COLL_REQ_COMMUTATIVE misses it somewhere at p >= 3 (so the flag is needed);
 *  - every rank holds bitwise the same result for every case, floats included, and a second
 *    call (and the in-place call) with the same input gives the same bits.
 * Rows requiring count >= p run only counts >= p. Rows with a radix run the same checks again
 * at radices 2, 3 and 5 on a few rank counts.
 */
#include "config.h"

#include <check.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_registry.h"
#include "mpi.h"
#include "sim_harness.h"
#include "sim/bench/witness.h"

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAX_RANKS 64
static const int base_counts[] = {0, 1, 7, 1000};
#define N_BASE_COUNTS ((int)(sizeof base_counts / sizeof base_counts[0]))
#define SEGMENT_BYTES 256
#define MAX_CASES 64

enum case_kind { CASE_WITNESS, CASE_INT_SUM, CASE_DOUBLE_SUM };

struct test_case {
    enum case_kind kind;
    enum witness_kind witness; /* CASE_WITNESS */
    int count;
    int in_place;
    int salt;
    int repeat_of;      /* CASE_DOUBLE_SUM: earlier case with the same input, or -1 */
    int *expected_ints; /* witness fold or exact integer sums */
    double *reference;  /* CASE_DOUBLE_SUM: long-double sum per item */
    double *bound;      /* CASE_DOUBLE_SUM: error bound of any summation order */
    double *results;    /* CASE_DOUBLE_SUM: [rank][count] as each rank ended */
};

struct plan {
    const struct coll_algorithm *row;
    struct coll_params params;
    int size;
    int ncases;
    struct test_case cases[MAX_CASES];
};

/* What each rank saw. */
static struct seen {
    char failure[256];              /* first local failure, "" if none */
    int witness_matches[MAX_CASES]; /* 1 if the witness result equals the fold */
    uint64_t digest[MAX_CASES];     /* FNV-1a of the result bytes */
} seen[MAX_RANKS];

static uint64_t
digest_bytes(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ull;
    }
    return h;
}

static uint64_t
mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

/* Rank r's double at item i: mostly small numbers of both signs, one in four ±1e16-ish. */
static double
double_value(int rank, int item, int salt)
{
    uint64_t u = mix64(((uint64_t)salt << 40) ^ ((uint64_t)rank << 20) ^ (uint64_t)item);
    double frac = (double)(u >> 11) * 0x1p-53;
    if ((u & 3) == 0)
        return (u & 4 ? 1e16 : -1e16) * (1.0 + frac);
    return (frac - 0.5) * ((u & 8) ? 1000.0 : 0.001);
}

static int
int_value(int rank, int item, int salt)
{
    return (int)(mix64(((uint64_t)salt << 40) ^ ((uint64_t)rank << 20) ^ (uint64_t)item) % 2001u) -
           1000;
}

/* "case 3 (witness affine, count 7, in place)" */
static void
describe_case(const struct test_case *c, int index, char *buf, size_t size)
{
    const char *kind = c->kind == CASE_WITNESS   ? "witness "
                       : c->kind == CASE_INT_SUM ? "int sum"
                                                 : "double sum";
    const char *witness = c->kind != CASE_WITNESS        ? ""
                          : c->witness == WITNESS_MATRIX ? "matrix"
                                                         : "affine";
    snprintf(buf, size, "case %d (%s%s, count %d%s)", index, kind, witness, c->count,
             c->in_place ? ", in place" : "");
}

static void
record_failure(int rank, const struct test_case *c, int index, const char *what)
{
    char where[96];
    if (seen[rank].failure[0] != '\0')
        return;
    describe_case(c, index, where, sizeof where);
    snprintf(seen[rank].failure, sizeof seen[rank].failure, "rank %d, %s: %s", rank, where, what);
}

/* ---------------------------------------------------------------- the plan */

static struct test_case *
add_case(struct plan *plan, enum case_kind kind, int count, int in_place)
{
    ck_assert_int_lt(plan->ncases, MAX_CASES);
    struct test_case *c = &plan->cases[plan->ncases];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->count = count;
    c->in_place = in_place;
    c->salt = 1000 + plan->ncases;
    c->repeat_of = -1;
    plan->ncases++;
    return c;
}

static void
plan_double_case(struct plan *plan, struct test_case *c)
{
    int p = plan->size, n = c->count;
    c->reference = calloc((size_t)n + 1, sizeof(double));
    c->bound = calloc((size_t)n + 1, sizeof(double));
    c->results = calloc((size_t)p * (size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++) {
        long double sum = 0, magnitude = 0;
        for (int r = 0; r < p; r++) {
            double v = double_value(r, i, c->salt);
            sum += v;
            magnitude += fabs(v);
        }
        c->reference[i] = (double)sum;
        /* |fl(any order) - exact| <= (p-1) u sum|x| (+ the rounding of the reference) */
        c->bound[i] = (double)((long double)p * DBL_EPSILON * magnitude) + DBL_MIN;
    }
}

/* radix 0: the row's default */
static void
plan_build(struct plan *plan, const struct coll_algorithm *row, int size, int radix)
{
    int counts[N_BASE_COUNTS + 1], ncounts = 0;
    memset(plan, 0, sizeof *plan);
    plan->row = row;
    plan->size = size;
    plan->params = row->defaults;
    if (radix > 0)
        plan->params.radix = radix;
    if (row->caps & COLL_SEGMENTED)
        plan->params.segment_bytes = SEGMENT_BYTES;

    for (int i = 0; i < N_BASE_COUNTS; i++)
        if (!(row->requires & COLL_REQ_COUNT_GE_SIZE) || base_counts[i] >= size)
            counts[ncounts++] = base_counts[i];
    /* count == p: one item per block for the block-splitting algorithms */
    if (row->requires & COLL_REQ_COUNT_GE_SIZE) {
        int known = 0;
        for (int i = 0; i < ncounts; i++)
            known |= counts[i] == size;
        if (!known)
            counts[ncounts++] = size;
    }

    for (int k = 0; k < ncounts; k++) {
        int n = counts[k];
        for (int in_place = 0; in_place <= 1; in_place++) {
            for (int w = 0; w < WITNESS_KIND_COUNT; w++) {
                struct test_case *c = add_case(plan, CASE_WITNESS, n, in_place);
                /* outside the simulation: the witness's shape, without its MPI handles */
                struct witness shape = {.kind = (enum witness_kind)w,
                                        .item_ints = w == WITNESS_MATRIX ? 4 : 2};
                c->witness = shape.kind;
                c->expected_ints = calloc((size_t)n * (size_t)shape.item_ints + 1, sizeof(int));
                witness_fold(&shape, 0, size - 1, c->salt, c->expected_ints, n);
            }
            struct test_case *c = add_case(plan, CASE_INT_SUM, n, in_place);
            c->expected_ints = calloc((size_t)n + 1, sizeof(int));
            for (int i = 0; i < n; i++)
                for (int r = 0; r < size; r++)
                    c->expected_ints[i] += int_value(r, i, c->salt);
        }
        /* double sum: once, again with the same input, and in place with the same input */
        struct test_case *first = add_case(plan, CASE_DOUBLE_SUM, n, 0);
        int first_index = plan->ncases - 1;
        plan_double_case(plan, first);
        for (int again = 0; again < 2; again++) {
            struct test_case *c = add_case(plan, CASE_DOUBLE_SUM, n, again);
            c->salt = first->salt;
            c->repeat_of = first_index;
            plan_double_case(plan, c);
        }
    }
}

static void
plan_free(struct plan *plan)
{
    for (int i = 0; i < plan->ncases; i++) {
        free(plan->cases[i].expected_ints);
        free(plan->cases[i].reference);
        free(plan->cases[i].bound);
        free(plan->cases[i].results);
    }
}

/* ---------------------------------------------------------------- inside the simulation */

static void
run_case(const struct plan *plan, int index, int rank)
{
    const struct test_case *c = &plan->cases[index];
    int n = c->count, rc;
    size_t ints = 0, bytes;
    MPI_Datatype type;
    MPI_Op op;
    void *send, *recv;

    switch (c->kind) {
    case CASE_WITNESS: {
        const struct witness *w = witness_get(c->witness);
        ints = (size_t)n * (size_t)w->item_ints;
        type = w->type;
        op = w->op;
        bytes = ints * sizeof(int);
        break;
    }
    case CASE_INT_SUM:
        ints = (size_t)n;
        type = MPI_INT;
        op = MPI_SUM;
        bytes = ints * sizeof(int);
        break;
    default:
        type = MPI_DOUBLE;
        op = MPI_SUM;
        bytes = (size_t)n * sizeof(double);
        break;
    }
    send = malloc(bytes + 8);
    recv = malloc(bytes + 8);
    if (c->kind == CASE_WITNESS)
        witness_fill(witness_get(c->witness), rank, c->salt, send, n);
    else if (c->kind == CASE_INT_SUM)
        for (int i = 0; i < n; i++)
            ((int *)send)[i] = int_value(rank, i, c->salt);
    else
        for (int i = 0; i < n; i++)
            ((double *)send)[i] = double_value(rank, i, c->salt);
    memset(recv, 0xA5, bytes + 8);
    if (c->in_place)
        memcpy(recv, send, bytes);

    rc = plan->row->fn.allreduce(c->in_place ? MPI_IN_PLACE : send, recv, n, type, op,
                                 MPI_COMM_WORLD, &plan->params);
    if (rc != MPI_SUCCESS)
        record_failure(rank, c, index, "returned an error");
    for (int i = 0; i < 8; i++)
        if (((unsigned char *)recv)[bytes + i] != 0xA5)
            record_failure(rank, c, index, "wrote past the end of recvbuf");

    seen[rank].digest[index] = digest_bytes(recv, bytes);
    switch (c->kind) {
    case CASE_WITNESS:
        seen[rank].witness_matches[index] = memcmp(recv, c->expected_ints, bytes) == 0;
        break;
    case CASE_INT_SUM:
        if (memcmp(recv, c->expected_ints, bytes) != 0)
            record_failure(rank, c, index, "integer sum differs from the exact sum");
        break;
    default:
        for (int i = 0; i < n; i++) {
            double v = ((double *)recv)[i];
            if (!(fabs(v - c->reference[i]) <= c->bound[i])) {
                record_failure(rank, c, index, "double sum outside the error bound of any order");
                break;
            }
        }
        memcpy(c->results + (size_t)rank * (size_t)n, recv, bytes);
        break;
    }
    free(send);
    free(recv);
}

/*
 * The simulated ranks share the test's address space, and with it witness.c's one table of
 * types and ops: rank 0 creates them before anyone uses them and frees them after everyone
 * is done, the other ranks waiting for its token and answering with theirs.
 */
#define TAG_TOKEN 7777

static void
allreduce_rank(int rank, void *arg)
{
    const struct plan *plan = arg;
    int token = 0;
    if (rank == 0) {
        witness_setup();
        for (int r = 1; r < plan->size; r++)
            MPI_Send(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int i = 0; i < plan->ncases; i++)
        run_case(plan, i, rank);
    if (rank == 0) {
        for (int r = 1; r < plan->size; r++)
            MPI_Recv(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        witness_teardown();
    } else {
        MPI_Send(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD);
    }
}

/* ---------------------------------------------------------------- the test */

/* Every case of `row` at p ranks with `radix` (0: the row's default) against the fold. */
static void
check_row(const struct coll_algorithm *row, int p, int radix)
{
    int commutative_only = (row->requires & COLL_REQ_COMMUTATIVE) != 0;
    static struct plan plan;
    ck_assert_ptr_nonnull(row);
    ck_assert_msg(row->caps & COLL_IN_PLACE, "%s: every allreduce row handles MPI_IN_PLACE",
                  row->name);

    memset(seen, 0, sizeof seen);
    plan_build(&plan, row, p, radix);
    ck_assert_msg(collsim_test_run_ranks(p, allreduce_rank, &plan) == 0,
                  "allreduce %s, p = %d: the simulation failed", row->name, p);

    int witness_misses = 0;
    for (int r = 0; r < p; r++)
        ck_assert_msg(seen[r].failure[0] == '\0', "allreduce %s, p = %d: %s", row->name, p,
                      seen[r].failure);
    for (int i = 0; i < plan.ncases; i++) {
        const struct test_case *c = &plan.cases[i];
        char where[96];
        describe_case(c, i, where, sizeof where);
        for (int r = 0; r < p; r++) {
            if (c->kind == CASE_WITNESS && !seen[r].witness_matches[i]) {
                witness_misses++;
                ck_assert_msg(commutative_only,
                              "allreduce %s, p = %d, rank %d, %s: not the rank-order fold, yet the "
                              "row does not require a commutative op",
                              row->name, p, r, where);
            }
            /* identical bits on every rank */
            ck_assert_msg(seen[r].digest[i] == seen[0].digest[i],
                          "allreduce %s, p = %d, %s: rank %d's result differs from rank 0's",
                          row->name, p, where, r);
            if (c->kind == CASE_DOUBLE_SUM)
                ck_assert_msg(memcmp(c->results + (size_t)r * (size_t)c->count, c->results,
                                     sizeof(double) * (size_t)c->count) == 0,
                              "allreduce %s, p = %d, %s: rank %d's bits differ from rank 0's",
                              row->name, p, where, r);
        }
        if (c->kind == CASE_DOUBLE_SUM && c->repeat_of >= 0)
            ck_assert_msg(memcmp(c->results, plan.cases[c->repeat_of].results,
                                 sizeof(double) * (size_t)p * (size_t)c->count) == 0,
                          "allreduce %s, p = %d, %s: not the bits of case %d (same input)",
                          row->name, p, where, c->repeat_of);
    }
    /* The commutative flag is needed: somewhere the witness result is not the fold. */
    if (commutative_only && p >= 3)
        ck_assert_msg(witness_misses > 0,
                      "allreduce %s, p = %d: declares COLL_REQ_COMMUTATIVE but always matched the "
                      "rank-order fold",
                      row->name, p);
    plan_free(&plan);
}

START_TEST(test_allreduce_matches_rank_order_fold)
{
    ck_assert_uint_gt(coll_registry_count(COLL_ALLREDUCE), 0);
    check_row(coll_registry_nth(COLL_ALLREDUCE, (size_t)_i / N_SIZES), sizes[_i % N_SIZES], 0);
}
END_TEST

/* The rows with a radix at radices other than their default: sets of k ranks folded into one,
 * k larger than p, non-powers of k. */
static const int radices[] = {2, 3, 5};
static const int radix_sizes[] = {2, 5, 7, 9, 13, 16};
#define N_RADICES ((int)(sizeof radices / sizeof radices[0]))
#define N_RADIX_SIZES ((int)(sizeof radix_sizes / sizeof radix_sizes[0]))
#define N_RADIX_CASES (N_RADICES * N_RADIX_SIZES)

START_TEST(test_allreduce_other_radices)
{
    const struct coll_algorithm *row =
        coll_registry_nth(COLL_ALLREDUCE, (size_t)_i / N_RADIX_CASES);
    int at = _i % N_RADIX_CASES;
    ck_assert_ptr_nonnull(row);
    if (!(row->caps & COLL_RADIX))
        return;
    check_row(row, radix_sizes[at % N_RADIX_SIZES], radices[at / N_RADIX_SIZES]);
}
END_TEST

static Suite *
allreduce_suite(void)
{
    Suite *s = suite_create("allreduce");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_allreduce_matches_rank_order_fold, 0,
                        (int)coll_registry_count(COLL_ALLREDUCE) * N_SIZES);
    tcase_add_loop_test(tc, test_allreduce_other_radices, 0,
                        (int)coll_registry_count(COLL_ALLREDUCE) * N_RADIX_CASES);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(allreduce_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
