/*
 * check_reduce.c — every MPI_Reduce algorithm of the registry, row by row, against
 * sequential reference folds.
 *
 * One simulation per (row, P) with P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}; inside it, every
 * rank runs the same sequence of calls of row->fn.reduce on MPI_COMM_WORLD:
 *  - order-preserving rows (no COLL_REQ_COMMUTATIVE): the matrix and affine witnesses
 *    (non-commutative), counts 0, 1, 7, 1000, every root (P <= 16) or roots 0, 1, P/2, P-1,
 *    compared with witness_fold(0..P-1); MPI_IN_PLACE at the root for COLL_IN_PLACE rows;
 *    a non-contiguous item (MPI_Type_vector of two ints, stride 2) with an affine user op;
 *  - every row: MPI_SUM on MPI_INT (exact) and MPI_MAX on MPI_DOUBLE, the strided vector
 *    type with MPI_SUM, and the same MPI_SUM on doubles twice, bitwise identical;
 *  - COLL_REQ_COUNT_GE_SIZE rows only see counts >= P; COLL_SEGMENTED rows run with 256-byte
 *    segments (1000 items span many) and 1-byte ones (one item per segment, small counts);
 *    COLL_RADIX rows run with radix 2, 3, 4 and 8.
 * At every rank the send buffer must come back unchanged, and outside the root the receive
 * buffer must stay untouched (it is not significant there).
 * A second test proves each COLL_REQ_COMMUTATIVE flag honest: the row, run with a witness op
 * anyway, must differ from the rank-order fold at least once.
 *
 * The simulation shares one address space between ranks (the harness does not privatize
 * globals), so rank 0 alone creates the witness ops and types before the others start and
 * frees them after all have finished, synchronised by point-to-point tokens.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_registry.h"
#include "sim_harness.h"
#include "sim/bench/witness.h"

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const int counts[] = {0, 1, 7, 1000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))
static const int radices[] = {2, 3, 4, 8};
#define SENTINEL (-7)
#define TAG_TOKEN 9999

/* ---------------------------------------------------------------- shared test state */

struct run {
    const struct coll_algorithm *row;
    int size;
    int cases; /* cases checked at a root */
    int failures;
    int mismatches;  /* flag test: witness results that differ from the fold */
    char first[600]; /* the first failure, for the report */
};

/* The strided item: MPI_Type_vector(2, 1, 2, MPI_INT), ints at 0 and 2, extent 3 ints. */
static MPI_Datatype strided_type = MPI_DATATYPE_NULL;
static MPI_Op strided_affine_op = MPI_OP_NULL;

static void
record_failure(struct run *run, const char *fmt, ...)
{
    if (run->failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        int n = snprintf(run->first, sizeof run->first, "%s P=%d: ", run->row->name, run->size);
        vsnprintf(run->first + n, sizeof run->first - (size_t)n, fmt, ap);
        va_end(ap);
    }
}

/* Affine composition on the strided layout: a at int 0, b at int 2, 3 ints per item. */
static void
strided_affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const int *l = in;
    int *r = inout;
    for (int i = 0; i < *len; i++) {
        const int *x = l + 3 * i;
        int *y = r + 3 * i;
        long long a = (long long)y[0] * x[0] % WITNESS_PRIME;
        long long b = ((long long)y[0] * x[2] + y[2]) % WITNESS_PRIME;
        y[0] = (int)a;
        y[2] = (int)b;
    }
}

/* Rank 0 creates the shared ops and types, then releases the others. */
static void
start_all(int rank, int size)
{
    int token = 0;
    if (rank == 0) {
        witness_setup();
        MPI_Type_vector(2, 1, 2, MPI_INT, &strided_type);
        MPI_Type_commit(&strided_type);
        MPI_Op_create(strided_affine, 0, &strided_affine_op);
        for (int r = 1; r < size; r++)
            MPI_Send(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

/* Everyone reports to rank 0, which frees the shared ops and types last. */
static void
finish_all(int rank, int size)
{
    int token = 0;
    if (rank != 0) {
        MPI_Send(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD);
        return;
    }
    for (int r = 1; r < size; r++)
        MPI_Recv(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Op_free(&strided_affine_op);
    MPI_Type_free(&strided_type);
    witness_teardown();
}

/*
 * All ranks meet here after each case, through rank 0 (point-to-point, tag TAG_TOKEN). Without
 * it a rank with nothing to wait for (rank 0 of a chain) runs many calls ahead, and the
 * thousands of eager messages it piles up make the simulation slow (SimGrid then solves for
 * that many concurrent flows), not more thorough. Back-to-back calls without a meeting are
 * still covered: the two calls of double_sum_twice_case.
 */
static void
meet(int rank, int size)
{
    int token = 0;
    if (rank != 0) {
        MPI_Send(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, 0, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        return;
    }
    for (int r = 1; r < size; r++)
        MPI_Recv(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int r = 1; r < size; r++)
        MPI_Send(&token, 1, MPI_INT, r, TAG_TOKEN, MPI_COMM_WORLD);
}

/* ---------------------------------------------------------------- one call, checked */

/*
 * A call of the row with `send` (nbytes) as this rank's contribution; at the root the result
 * lands in `result` (nbytes). Checks rc, that send is unchanged and, outside the root, that
 * the receive buffer stays SENTINEL-filled. With in_place, the root passes MPI_IN_PLACE and
 * its contribution through the receive buffer. Returns 1 if the call went through.
 */
static int
call_row(struct run *run, int rank, const char *what, const void *send, void *result, size_t nbytes,
         int count, MPI_Datatype dt, MPI_Op op, int root, int in_place,
         const struct coll_params *params)
{
    unsigned char *sbuf = malloc(nbytes + 1), *rbuf = malloc(nbytes + 1);
    int ok = 1;
    memcpy(sbuf, send, nbytes);
    if (in_place && rank == root) {
        memcpy(rbuf, send, nbytes);
    } else {
        for (size_t i = 0; i < nbytes / sizeof(int); i++)
            ((int *)rbuf)[i] = SENTINEL;
    }
    const void *sendarg = in_place && rank == root ? MPI_IN_PLACE : (const void *)sbuf;
    int rc = run->row->fn.reduce(sendarg, rbuf, count, dt, op, root, MPI_COMM_WORLD, params);
    if (rc != MPI_SUCCESS) {
        record_failure(run, "%s root=%d: rank %d returned error %d", what, root, rank, rc);
        ok = 0;
    } else if (!(in_place && rank == root) && memcmp(sbuf, send, nbytes) != 0) {
        record_failure(run, "%s root=%d: rank %d's send buffer was modified", what, root, rank);
        ok = 0;
    } else if (rank != root) {
        for (size_t i = 0; i < nbytes / sizeof(int); i++) {
            if (((int *)rbuf)[i] != SENTINEL) {
                record_failure(run, "%s root=%d: non-root rank %d's receive buffer was written",
                               what, root, rank);
                ok = 0;
                break;
            }
        }
    } else {
        memcpy(result, rbuf, nbytes);
    }
    free(sbuf);
    free(rbuf);
    return ok;
}

/* "matrix count=7 in-place segment_bytes=256 radix=4" (parameters only where the row has them) */
static void
describe(char *buf, size_t size, const char *kind, int count, int in_place,
         const struct coll_params *params, const struct run *run)
{
    int n = snprintf(buf, size, "%s count=%d%s", kind, count, in_place ? " in-place" : "");
    if (run->row->caps & COLL_SEGMENTED)
        n += snprintf(buf + n, size - (size_t)n, " segment_bytes=%d", params->segment_bytes);
    if (run->row->caps & COLL_RADIX)
        snprintf(buf + n, size - (size_t)n, " radix=%d", params->radix);
}

/* A witness (non-commutative) case; counts a mismatch instead of failing when `probe`. */
static void
witness_case(struct run *run, int rank, const struct witness *w, int count, int root, int salt,
             int in_place, const struct coll_params *params, int probe)
{
    size_t nbytes = sizeof(int) * (size_t)(w->item_ints * count);
    int *mine = malloc(nbytes + 1), *got = malloc(nbytes + 1), *expect = malloc(nbytes + 1);
    char what[160];
    describe(what, sizeof what, w->name, count, in_place, params, run);
    witness_fill(w, rank, salt, mine, count);
    if (call_row(run, rank, what, mine, got, nbytes, count, w->type, w->op, root, in_place,
                 params) &&
        rank == root) {
        witness_fold(w, 0, run->size - 1, salt, expect, count);
        run->cases++;
        if (!witness_equal(w, got, expect, count)) {
            if (probe)
                run->mismatches++;
            else
                record_failure(run, "%s root=%d: result differs from the rank-order fold", what,
                               root);
        }
    }
    free(mine);
    free(got);
    free(expect);
    meet(rank, run->size);
}

/* The strided type with the affine op: the result's gaps must stay as they were. */
static void
strided_witness_case(struct run *run, int rank, int count, int root, int salt,
                     const struct coll_params *params)
{
    const struct witness *w = witness_get(WITNESS_AFFINE);
    size_t nbytes = sizeof(int) * (size_t)(3 * count);
    int *packed = malloc(sizeof(int) * (size_t)(2 * count) + 1);
    int *mine = malloc(nbytes + 1), *got = malloc(nbytes + 1);
    char what[160];
    describe(what, sizeof what, "strided affine", count, 0, params, run);
    witness_fill(w, rank, salt, packed, count);
    for (int i = 0; i < count; i++) {
        mine[3 * i] = packed[2 * i];
        mine[3 * i + 1] = -1000 - rank; /* gap: never read, never written */
        mine[3 * i + 2] = packed[2 * i + 1];
    }
    if (call_row(run, rank, what, mine, got, nbytes, count, strided_type, strided_affine_op, root,
                 0, params) &&
        rank == root) {
        witness_fold(w, 0, run->size - 1, salt, packed, count);
        run->cases++;
        for (int i = 0; i < count; i++) {
            if (got[3 * i] != packed[2 * i] || got[3 * i + 2] != packed[2 * i + 1]) {
                record_failure(run, "%s root=%d: item %d differs from the rank-order fold", what,
                               root, i);
                break;
            }
            if (got[3 * i + 1] != SENTINEL) {
                record_failure(run, "%s root=%d: the gap of item %d was written", what, root, i);
                break;
            }
        }
    }
    free(packed);
    free(mine);
    free(got);
    meet(rank, run->size);
}

static int
int_value(int rank, int i, int salt)
{
    return ((rank + 1) * 7919 + i * 104729 + salt * 31) % 100003 - 50000;
}

/* MPI_SUM over MPI_INT (exact), contiguous or strided (gaps untouched). */
static void
int_sum_case(struct run *run, int rank, int count, int root, int salt, int strided,
             const struct coll_params *params)
{
    int stride = strided ? 3 : 1; /* ints per item in the buffer */
    size_t nbytes = sizeof(int) * (size_t)(stride * count);
    int *mine = malloc(nbytes + 1), *got = malloc(nbytes + 1);
    char what[160];
    describe(what, sizeof what, strided ? "strided MPI_SUM" : "MPI_SUM int", count, 0, params, run);
    for (int i = 0; i < count * stride; i++)
        mine[i] = strided && i % 3 == 1 ? -1 : int_value(rank, i, salt);
    if (call_row(run, rank, what, mine, got, nbytes, count, strided ? strided_type : MPI_INT,
                 MPI_SUM, root, 0, params) &&
        rank == root) {
        run->cases++;
        for (int i = 0; i < count * stride; i++) {
            int expect = SENTINEL;
            if (!(strided && i % 3 == 1)) {
                expect = 0;
                for (int r = 0; r < run->size; r++)
                    expect += int_value(r, i, salt);
            }
            if (got[i] != expect) {
                record_failure(run, "%s root=%d: int %d is %d, expected %d", what, root, i, got[i],
                               expect);
                break;
            }
        }
    }
    free(mine);
    free(got);
    meet(rank, run->size);
}

static double
double_value(int rank, int i, int salt)
{
    unsigned h = (unsigned)(rank * 2654435761u) ^ (unsigned)(i * 40503u) ^ (unsigned)salt;
    h ^= h >> 13;
    h *= 2246822519u;
    h ^= h >> 16;
    /* mixed magnitudes and signs, so that the summation order shows in the last bits */
    return ((double)(h % 20001) - 10000.0) * pow(10.0, (double)(h % 7) - 3.0) / 3.0;
}

/* MPI_MAX over MPI_DOUBLE: exact whatever the order. */
static void
double_max_case(struct run *run, int rank, int count, int root, int salt,
                const struct coll_params *params)
{
    size_t nbytes = sizeof(double) * (size_t)count;
    double *mine = malloc(nbytes + 1), *got = malloc(nbytes + 1);
    char what[160];
    describe(what, sizeof what, "MPI_MAX double", count, 0, params, run);
    for (int i = 0; i < count; i++)
        mine[i] = double_value(rank, i, salt);
    if (call_row(run, rank, what, mine, got, nbytes, count, MPI_DOUBLE, MPI_MAX, root, 0, params) &&
        rank == root) {
        run->cases++;
        for (int i = 0; i < count; i++) {
            double expect = double_value(0, i, salt);
            for (int r = 1; r < run->size; r++)
                expect = fmax(expect, double_value(r, i, salt));
            if (got[i] != expect) {
                record_failure(run, "%s root=%d: item %d is %.17g, expected %.17g", what, root, i,
                               got[i], expect);
                break;
            }
        }
    }
    free(mine);
    free(got);
    meet(rank, run->size);
}

/* MPI_SUM over doubles, twice: bitwise identical, and close to the exact sum. */
static void
double_sum_twice_case(struct run *run, int rank, int count, int root, int salt,
                      const struct coll_params *params)
{
    size_t nbytes = sizeof(double) * (size_t)count;
    double *mine = malloc(nbytes + 1), *first = malloc(nbytes + 1), *second = malloc(nbytes + 1);
    char what[160];
    describe(what, sizeof what, "MPI_SUM double twice", count, 0, params, run);
    for (int i = 0; i < count; i++)
        mine[i] = double_value(rank, i, salt);
    int ok1 =
        call_row(run, rank, what, mine, first, nbytes, count, MPI_DOUBLE, MPI_SUM, root, 0, params);
    int ok2 = call_row(run, rank, what, mine, second, nbytes, count, MPI_DOUBLE, MPI_SUM, root, 0,
                       params);
    if (ok1 && ok2 && rank == root) {
        run->cases++;
        if (memcmp(first, second, nbytes) != 0)
            record_failure(run, "%s root=%d: two identical calls differ bitwise", what, root);
        for (int i = 0; i < count; i++) {
            long double exact = 0, magnitude = 0;
            for (int r = 0; r < run->size; r++) {
                exact += double_value(r, i, salt);
                magnitude += fabs(double_value(r, i, salt));
            }
            if (fabsl(first[i] - exact) > magnitude * 1e-13L) {
                record_failure(run, "%s root=%d: item %d is %.17g, expected about %.17Lg", what,
                               root, i, first[i], exact);
                break;
            }
        }
    }
    free(mine);
    free(first);
    free(second);
    meet(rank, run->size);
}

/* ---------------------------------------------------------------- the row at P ranks */

static int
roots_of(int size, int *roots)
{
    if (size <= 16) {
        for (int r = 0; r < size; r++)
            roots[r] = r;
        return size;
    }
    roots[0] = 0;
    roots[1] = 1;
    roots[2] = size / 2;
    roots[3] = size - 1;
    return 4;
}

static void
row_rank(int rank, void *arg)
{
    struct run *run = arg;
    const struct coll_algorithm *row = run->row;
    int size = run->size, salt = 0;
    int roots[16];
    int nroots = roots_of(size, roots);
    int order_preserving = !(row->requires & COLL_REQ_COMMUTATIVE);
    int nradices = row->caps & COLL_RADIX ? (int)(sizeof radices / sizeof radices[0]) : 1;
    int segments[] = {256, 1};
    int nsegments = row->caps & COLL_SEGMENTED ? 2 : 1;

    start_all(rank, size);
    for (int k = 0; k < nradices; k++) {
        for (int g = 0; g < nsegments; g++) {
            struct coll_params params = row->defaults;
            if (row->caps & COLL_RADIX)
                params.radix = radices[k];
            if (row->caps & COLL_SEGMENTED)
                params.segment_bytes = segments[g];
            for (int c = 0; c < NCOUNTS; c++) {
                int count = counts[c];
                if ((row->requires & COLL_REQ_COUNT_GE_SIZE) && count < size)
                    continue;
                if (g == 1 && count > 7)
                    continue; /* one item per segment: small counts only */
                for (int t = 0; t < nroots; t++) {
                    int root = roots[t];
                    if (order_preserving) {
                        for (int w = 0; w < WITNESS_KIND_COUNT; w++) {
                            witness_case(run, rank, witness_get(w), count, root, ++salt, 0, &params,
                                         0);
                            if (row->caps & COLL_IN_PLACE)
                                witness_case(run, rank, witness_get(w), count, root, ++salt, 1,
                                             &params, 0);
                        }
                        if (count > 0)
                            strided_witness_case(run, rank, count, root, ++salt, &params);
                    }
                    int_sum_case(run, rank, count, root, ++salt, 0, &params);
                    double_max_case(run, rank, count, root, ++salt, &params);
                    if (count > 0)
                        int_sum_case(run, rank, count, root, ++salt, 1, &params);
                }
            }
            if (g == 0)
                double_sum_twice_case(run, rank, 1000, size / 2, ++salt, &params);
        }
    }
    finish_all(rank, size);
}

static size_t
nrows(void)
{
    return coll_registry_count(COLL_REDUCE);
}

START_TEST(test_reduce_matches_rank_order_fold)
{
    const struct coll_algorithm *row = coll_registry_nth(COLL_REDUCE, (size_t)_i / NSIZES);
    struct run run = {.row = row, .size = sizes[_i % NSIZES]};
    ck_assert_ptr_nonnull(row);
    ck_assert_ptr_nonnull(row->fn.reduce);
    ck_assert_int_eq(collsim_test_run_ranks(run.size, row_rank, &run), 0);
    ck_assert_msg(run.failures == 0, "%d failure(s), first: %s", run.failures, run.first);
    ck_assert_int_gt(run.cases, 0);
}
END_TEST

/* ---------------------------------------------------------------- flags are honest */

#define FLAG_PROBE_SIZE 7

static void
probe_rank(int rank, void *arg)
{
    struct run *run = arg;
    int salt = 0;
    start_all(rank, run->size);
    for (int w = 0; w < WITNESS_KIND_COUNT; w++)
        for (int root = 0; root < run->size; root++)
            witness_case(run, rank, witness_get(w), 7, root, ++salt, 0, &run->row->defaults, 1);
    finish_all(rank, run->size);
}

/* A row that requires a commutative op must give a non-rank-order result somewhere. */
START_TEST(test_reduce_commutative_flag_is_needed)
{
    const struct coll_algorithm *row = coll_registry_nth(COLL_REDUCE, (size_t)_i);
    ck_assert_ptr_nonnull(row);
    if (!(row->requires & COLL_REQ_COMMUTATIVE))
        return; /* order-preserving: proven by test_reduce_matches_rank_order_fold */
    struct run run = {.row = row, .size = FLAG_PROBE_SIZE};
    ck_assert_int_eq(collsim_test_run_ranks(run.size, probe_rank, &run), 0);
    ck_assert_msg(run.failures == 0, "%d failure(s), first: %s", run.failures, run.first);
    ck_assert_msg(run.mismatches > 0,
                  "%s requires a commutative op, yet all %d witness cases at P=%d matched the "
                  "rank-order fold: the flag is not needed",
                  row->name, run.cases, run.size);
}
END_TEST

static Suite *
reduce_suite(void)
{
    Suite *s = suite_create("reduce");
    TCase *rows = tcase_create("rows");
    tcase_set_timeout(rows, 300);
    tcase_add_loop_test(rows, test_reduce_matches_rank_order_fold, 0, (int)nrows() * NSIZES);
    suite_add_tcase(s, rows);
    TCase *flags = tcase_create("flags");
    tcase_set_timeout(flags, 60);
    tcase_add_loop_test(flags, test_reduce_commutative_flag_is_needed, 0, (int)nrows());
    suite_add_tcase(s, flags);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(reduce_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
