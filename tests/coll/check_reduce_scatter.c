/*
 * check_reduce_scatter.c — every registry row of MPI_Reduce_scatter and
 * MPI_Reduce_scatter_block, called directly (row->fn) on MPI_COMM_WORLD inside one simulation
 * per (row, P), P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}.
 *
 * What each simulation checks, for three shapes of recvcounts (irregular with zeros and
 * blocks larger than others, a single non-empty block, all empty; for the block variant,
 * recvcount 3, 1 and 0), each both with a send buffer and MPI_IN_PLACE:
 *  - MPI_SUM on ints, against the closed form (every row);
 *  - the matrix and affine witnesses against witness_fold over all ranks, restricted to the
 *    rank's items (rows without COLL_REQ_COMMUTATIVE: the order-preserving ones);
 *  - MPI_SUM on doubles twice: identical bits;
 *  - the items after the rank's block and the send buffer are left alone.
 * A separate case proves each COLL_REQ_COMMUTATIVE flag honest: at P = 5 the row's result
 * with a witness op differs from the rank-order fold on some rank. A row declaring
 * COLL_REQ_POWER_OF_TWO runs only at the power-of-two P of the list, and another case proves
 * that flag needed: run directly at P = 3 and 5 it fails somewhere (an error, a wrong result
 * or an aborted simulation).
 *
 * The rank functions only record what they see; assertions run after the simulation.
 * The witness ops and types are created once per test process, before the simulation (the
 * harness does not privatize globals, so the ranks share them).
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "coll/coll_registry.h"
#include "sim/bench/witness.h"
#include "tests/unit/sim_harness.h"

#define MAXR 64
#define GUARD 3   /* items after the block that must stay untouched */
#define SENTINEL (-7)
#define HONESTY_P 5

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The rows under test: Reduce_scatter rows, then Reduce_scatter_block rows (table order). */
static const struct coll_algorithm *rows[64];
static int nrows;

/* What each rank saw. */
static char failure[MAXR][320];
static int differs[MAXR];
static int calls_done[MAXR];

struct rs_case {
    const struct coll_algorithm *row;
    int size;
};

static void
note_failure(int rank, const char *fmt, ...)
{
    if (failure[rank][0] != '\0')
        return;   /* the first failure is the informative one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure[rank], sizeof failure[rank], fmt, ap);
    va_end(ap);
}

static int
order_preserving(const struct coll_algorithm *row)
{
    return !(row->requires & COLL_REQ_COMMUTATIVE);
}

enum shape { SHAPE_IRREGULAR, SHAPE_ONE_BLOCK, SHAPE_EMPTY, SHAPE_COUNT };
static const char *const shape_names[SHAPE_COUNT] = {"irregular", "one block", "empty"};

/* recvcounts of a shape; the block variant gets equal counts. Returns the total. */
static int
make_counts(enum coll_kind kind, enum shape shape, int size, int *counts, int *displs)
{
    int total = 0;
    for (int i = 0; i < size; i++) {
        if (kind == COLL_REDUCE_SCATTER_BLOCK)
            counts[i] = shape == SHAPE_IRREGULAR ? 3 : shape == SHAPE_ONE_BLOCK ? 1 : 0;
        else if (shape == SHAPE_IRREGULAR)
            counts[i] = (7 * i + 3) % 5;   /* 3 0 2 4 1 3 0 ...: zeros and larger blocks */
        else if (shape == SHAPE_ONE_BLOCK)
            counts[i] = i == size / 2 ? 5 : 0;
        else
            counts[i] = 0;
        displs[i] = total;
        total += counts[i];
    }
    return total;
}

static int
call_row(const struct coll_algorithm *row, const void *sendbuf, void *recvbuf, const int *counts,
         MPI_Datatype dt, MPI_Op op)
{
    if (row->kind == COLL_REDUCE_SCATTER)
        return row->fn.reduce_scatter(sendbuf, recvbuf, counts, dt, op, MPI_COMM_WORLD,
                                      &row->defaults);
    return row->fn.reduce_scatter_block(sendbuf, recvbuf, counts[0], dt, op, MPI_COMM_WORLD,
                                        &row->defaults);
}

/* ---------------------------------------------------------------- the per-rank checks */

/* MPI_SUM on ints: rank q contributes q*1000 + i at item i. */
static void
check_int_sum(const struct coll_algorithm *row, int rank, int size, enum shape shape, int in_place)
{
    int counts[MAXR], displs[MAXR];
    int total = make_counts(row->kind, shape, size, counts, displs);
    int mine = counts[rank];
    int *send = malloc(sizeof(int) * (size_t)(total + 1));
    int *recv = malloc(sizeof(int) * (size_t)(total + mine + GUARD + 1));
    for (int i = 0; i < total; i++)
        send[i] = rank * 1000 + i;
    if (in_place) {
        memcpy(recv, send, sizeof(int) * (size_t)total);
    } else {
        for (int i = 0; i < mine + GUARD; i++)
            recv[i] = SENTINEL;
    }
    int rc = call_row(row, in_place ? MPI_IN_PLACE : send, recv, counts, MPI_INT, MPI_SUM);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "int sum (%s%s): rc %d", shape_names[shape],
                     in_place ? ", in place" : "", rc);
        goto out;
    }
    for (int j = 0; j < mine; j++) {
        int i = displs[rank] + j;
        int want = 1000 * (size * (size - 1) / 2) + size * i;
        if (recv[j] != want) {
            note_failure(rank, "int sum (%s%s): item %d is %d, want %d", shape_names[shape],
                         in_place ? ", in place" : "", i, recv[j], want);
            goto out;
        }
    }
    if (!in_place) {
        for (int j = mine; j < mine + GUARD; j++)
            if (recv[j] != SENTINEL)
                note_failure(rank, "int sum (%s): recvbuf item %d after the block was written",
                             shape_names[shape], j);
        for (int i = 0; i < total; i++)
            if (send[i] != rank * 1000 + i)
                note_failure(rank, "int sum (%s): sendbuf item %d was modified", shape_names[shape],
                             i);
    }
out:
    free(recv);
    free(send);
}

/* A witness op; returns 1 if the rank's block equals the rank-order fold (0 and a recorded
 * failure if the call failed). */
static int
witness_matches(const struct coll_algorithm *row, const struct witness *w, int rank, int size,
                enum shape shape, int in_place, int salt)
{
    int counts[MAXR], displs[MAXR];
    int total = make_counts(row->kind, shape, size, counts, displs);
    int mine = counts[rank], n = w->item_ints, match = 1;
    int *send = malloc(sizeof(int) * (size_t)(n * total + 1));
    int *recv = malloc(sizeof(int) * (size_t)(n * (total + mine + GUARD) + 1));
    int *ref = malloc(sizeof(int) * (size_t)(n * total + 1));
    witness_fill(w, rank, salt, send, total);
    witness_fold(w, 0, size - 1, salt, ref, total);
    if (in_place) {
        memcpy(recv, send, sizeof(int) * (size_t)(n * total));
    } else {
        for (int i = 0; i < n * (mine + GUARD); i++)
            recv[i] = SENTINEL;
    }
    int rc = call_row(row, in_place ? MPI_IN_PLACE : send, recv, counts, w->type, w->op);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "%s witness (%s%s): rc %d", w->name, shape_names[shape],
                     in_place ? ", in place" : "", rc);
        match = 0;
        goto out;
    }
    match = witness_equal(w, recv, ref + n * displs[rank], mine);
    if (!in_place)
        for (int i = n * mine; i < n * (mine + GUARD); i++)
            if (recv[i] != SENTINEL)
                note_failure(rank, "%s witness (%s): recvbuf after the block was written", w->name,
                             shape_names[shape]);
out:
    free(ref);
    free(recv);
    free(send);
    return match;
}

/* MPI_SUM on doubles, the same call twice: the same bits. */
static void
check_double_repeat(const struct coll_algorithm *row, int rank, int size, enum shape shape)
{
    int counts[MAXR], displs[MAXR];
    int total = make_counts(row->kind, shape, size, counts, displs);
    int mine = counts[rank];
    double *send = malloc(sizeof(double) * (size_t)(total + 1));
    double *first = calloc((size_t)mine + 1, sizeof(double));
    double *second = calloc((size_t)mine + 1, sizeof(double));
    for (int i = 0; i < total; i++)
        send[i] = 1.0 / (rank + 3) + 0.1 * i + 1e-9 * rank * rank;
    int rc = call_row(row, send, first, counts, MPI_DOUBLE, MPI_SUM);
    if (rc == MPI_SUCCESS)
        rc = call_row(row, send, second, counts, MPI_DOUBLE, MPI_SUM);
    calls_done[rank] += 2;
    if (rc != MPI_SUCCESS)
        note_failure(rank, "double sum (%s): rc %d", shape_names[shape], rc);
    else if (memcmp(first, second, sizeof(double) * (size_t)mine) != 0)
        note_failure(rank, "double sum (%s): two identical calls gave different bits",
                     shape_names[shape]);
    free(second);
    free(first);
    free(send);
}

static void
rs_rank(int rank, void *arg)
{
    const struct rs_case *c = arg;
    for (int shape = 0; shape < SHAPE_COUNT; shape++) {
        for (int in_place = 0; in_place < 2; in_place++) {
            check_int_sum(c->row, rank, c->size, shape, in_place);
            if (!order_preserving(c->row))
                continue;
            for (int k = 0; k < WITNESS_KIND_COUNT; k++) {
                const struct witness *w = witness_get(k);
                if (!witness_matches(c->row, w, rank, c->size, shape, in_place,
                                     10 * shape + 2 * k + in_place))
                    note_failure(rank, "%s witness (%s%s): block differs from the rank-order fold",
                                 w->name, shape_names[shape], in_place ? ", in place" : "");
            }
        }
        check_double_repeat(c->row, rank, c->size, shape);
    }
}

START_TEST(test_reduce_scatter_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / NSIZES];
    struct rs_case c = {row, sizes[_i % NSIZES]};
    if ((row->requires & COLL_REQ_POWER_OF_TWO) && (c.size & (c.size - 1)) != 0)
        return; /* refused at this P: test_reduce_scatter_power_of_two_flag_is_needed */
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    witness_setup();
    ck_assert_int_eq(collsim_test_run_ranks(c.size, rs_rank, &c), 0);
    for (int r = 0; r < c.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, P=%d, rank %d: %s", coll_kind_name(row->kind),
                      row->name, c.size, r, failure[r]);
        ck_assert_int_eq(calls_done[r], calls_done[0]);
    }
    ck_assert_int_gt(calls_done[0], 0);
    witness_teardown();
}
END_TEST

static void
honesty_rank(int rank, void *arg)
{
    const struct rs_case *c = arg;
    for (int k = 0; k < WITNESS_KIND_COUNT; k++)
        if (!witness_matches(c->row, witness_get(k), rank, c->size, SHAPE_IRREGULAR, 0, 40 + k))
            differs[rank] = 1;
}

/* A row that declares COLL_REQ_COMMUTATIVE really leaves rank order with a witness op. */
START_TEST(test_reduce_scatter_commutative_flag_is_honest)
{
    const struct coll_algorithm *row = rows[_i];
    if (order_preserving(row))
        return;   /* proven order-preserving by the case above */
    struct rs_case c = {row, HONESTY_P};
    memset(failure, 0, sizeof failure);
    memset(differs, 0, sizeof differs);
    witness_setup();
    ck_assert_int_eq(collsim_test_run_ranks(c.size, honesty_rank, &c), 0);
    int any = 0;
    for (int r = 0; r < c.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, rank %d: %s", coll_kind_name(row->kind),
                      row->name, r, failure[r]);
        any |= differs[r];
    }
    ck_assert_msg(any, "%s %s declares COLL_REQ_COMMUTATIVE but kept rank order at P=%d",
                  coll_kind_name(row->kind), row->name, HONESTY_P);
    witness_teardown();
}
END_TEST

static const int odd_sizes[] = {3, 5};
#define NODD ((int)(sizeof odd_sizes / sizeof odd_sizes[0]))

START_TEST(test_reduce_scatter_power_of_two_flag_is_needed)
{
    const struct coll_algorithm *row = rows[_i / NODD];
    if (!(row->requires & COLL_REQ_POWER_OF_TWO))
        return;
    struct rs_case c = {row, odd_sizes[_i % NODD]};
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    witness_setup();
    int exit_code = collsim_test_run_ranks(c.size, rs_rank, &c);
    int wrong = 0;
    for (int r = 0; r < c.size; r++)
        wrong |= failure[r][0] != '\0';
    witness_teardown();
    ck_assert_msg(exit_code != 0 || wrong,
                  "%s %s works at P=%d: COLL_REQ_POWER_OF_TWO is not needed",
                  coll_kind_name(row->kind), row->name, c.size);
}
END_TEST

static Suite *
reduce_scatter_suite(void)
{
    enum coll_kind kinds[] = {COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);

    Suite *s = suite_create("reduce_scatter");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_reduce_scatter_row_matches_reference, 0, nrows * NSIZES);
    suite_add_tcase(s, tc);
    TCase *flags = tcase_create("flags");
    tcase_set_timeout(flags, 60);
    tcase_add_loop_test(flags, test_reduce_scatter_commutative_flag_is_honest, 0, nrows);
    tcase_add_loop_test(flags, test_reduce_scatter_power_of_two_flag_is_needed, 0, nrows * NODD);
    suite_add_tcase(s, flags);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(reduce_scatter_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
