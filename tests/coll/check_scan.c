/*
 * check_scan.c — every registry row of MPI_Scan and MPI_Exscan, called directly (row->fn) on
 * MPI_COMM_WORLD inside one simulation per (row, P), P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}.
 *
 * What each simulation checks, for counts 0, 1 and 5, each both with a send buffer and
 * MPI_IN_PLACE:
 *  - MPI_SUM on ints against the closed form (every row);
 *  - the matrix and affine witnesses against witness_fold over ranks 0..i (Scan) or
 *    0..i-1 (Exscan) (rows without COLL_REQ_COMMUTATIVE: the order-preserving ones);
 *  - Exscan leaves rank 0's recvbuf alone (MPI leaves it undefined, so it must not be
 *    written), and Scan/Exscan never write past count items or into the send buffer;
 *  - MPI_SUM on doubles twice: identical bits.
 * A separate case proves each COLL_REQ_COMMUTATIVE flag honest (none today: every scan
 * row keeps rank order).
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
#define GUARD 3   /* items after count that must stay untouched */
#define SENTINEL (-7)
#define HONESTY_P 5

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
static const int counts[] = {0, 1, 5};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

/* The rows under test: Scan rows, then Exscan rows (table order). */
static const struct coll_algorithm *rows[64];
static int nrows;

/* What each rank saw. */
static char failure[MAXR][320];
static int differs[MAXR];
static int calls_done[MAXR];

struct scan_case {
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

static int
exclusive(const struct coll_algorithm *row)
{
    return row->kind == COLL_EXSCAN;
}

static int
call_row(const struct coll_algorithm *row, const void *sendbuf, void *recvbuf, int count,
         MPI_Datatype dt, MPI_Op op)
{
    if (row->kind == COLL_SCAN)
        return row->fn.scan(sendbuf, recvbuf, count, dt, op, MPI_COMM_WORLD, &row->defaults);
    return row->fn.exscan(sendbuf, recvbuf, count, dt, op, MPI_COMM_WORLD, &row->defaults);
}

/*
 * The recvbuf of `count` items of `item` ints (plus GUARD items of sentinel): in place it
 * holds the contribution, else sentinel everywhere.
 */
static int *
prepare_recv(const int *send, int count, int item, int in_place)
{
    int *recv = malloc(sizeof(int) * (size_t)(item * (count + GUARD)));
    for (int i = 0; i < item * (count + GUARD); i++)
        recv[i] = SENTINEL;
    if (in_place)
        memcpy(recv, send, sizeof(int) * (size_t)(item * count));
    return recv;
}

/* What rank 0 of Exscan must find after the call: recvbuf as it was. */
static void
check_untouched_exscan_rank0(int rank, const int *recv, const int *send, int count, int item,
                             int in_place, const char *what)
{
    for (int i = 0; i < item * count; i++) {
        int want = in_place ? send[i] : SENTINEL;
        if (recv[i] != want) {
            note_failure(rank, "%s (count %d%s): rank 0's recvbuf was written", what, count,
                         in_place ? ", in place" : "");
            return;
        }
    }
}

static void
check_guard(int rank, const int *recv, int count, int item, const char *what)
{
    for (int i = item * count; i < item * (count + GUARD); i++)
        if (recv[i] != SENTINEL) {
            note_failure(rank, "%s (count %d): recvbuf written past count", what, count);
            return;
        }
}

/* ---------------------------------------------------------------- the per-rank checks */

/* MPI_SUM on ints: rank q contributes q*1000 + i at item i. */
static void
check_int_sum(const struct coll_algorithm *row, int rank, int count, int in_place)
{
    int *send = malloc(sizeof(int) * (size_t)(count + 1));
    for (int i = 0; i < count; i++)
        send[i] = rank * 1000 + i;
    int *recv = prepare_recv(send, count, 1, in_place);
    int rc = call_row(row, in_place ? MPI_IN_PLACE : send, recv, count, MPI_INT, MPI_SUM);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "int sum (count %d%s): rc %d", count, in_place ? ", in place" : "", rc);
        goto out;
    }
    /* the fold covers ranks 0..last */
    int last = exclusive(row) ? rank - 1 : rank;
    if (last < 0) {
        check_untouched_exscan_rank0(rank, recv, send, count, 1, in_place, "int sum");
    } else {
        for (int i = 0; i < count; i++) {
            int want = 1000 * (last * (last + 1) / 2) + (last + 1) * i;
            if (recv[i] != want) {
                note_failure(rank, "int sum (count %d%s): item %d is %d, want %d", count,
                             in_place ? ", in place" : "", i, recv[i], want);
                goto out;
            }
        }
    }
    check_guard(rank, recv, count, 1, "int sum");
    for (int i = 0; i < count; i++)
        if (send[i] != rank * 1000 + i)
            note_failure(rank, "int sum (count %d): sendbuf item %d was modified", count, i);
out:
    free(recv);
    free(send);
}

/* A witness op; returns 1 if the result equals the rank-order fold (rank 0 of Exscan: if its
 * recvbuf was left alone). */
static int
witness_matches(const struct coll_algorithm *row, const struct witness *w, int rank, int count,
                int in_place, int salt)
{
    int n = w->item_ints, match = 1;
    int *send = malloc(sizeof(int) * (size_t)(n * count + 1));
    int *ref = malloc(sizeof(int) * (size_t)(n * count + 1));
    witness_fill(w, rank, salt, send, count);
    int *recv = prepare_recv(send, count, n, in_place);
    int rc = call_row(row, in_place ? MPI_IN_PLACE : send, recv, count, w->type, w->op);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "%s witness (count %d%s): rc %d", w->name, count,
                     in_place ? ", in place" : "", rc);
        match = 0;
        goto out;
    }
    int last = exclusive(row) ? rank - 1 : rank;
    if (last < 0) {
        check_untouched_exscan_rank0(rank, recv, send, count, n, in_place, w->name);
    } else {
        witness_fold(w, 0, last, salt, ref, count);
        match = witness_equal(w, recv, ref, count);
    }
    check_guard(rank, recv, count, n, w->name);
out:
    free(recv);
    free(ref);
    free(send);
    return match;
}

/* MPI_SUM on doubles, the same call twice: the same bits. */
static void
check_double_repeat(const struct coll_algorithm *row, int rank, int count)
{
    double *send = malloc(sizeof(double) * (size_t)(count + 1));
    double *first = calloc((size_t)count + 1, sizeof(double));
    double *second = calloc((size_t)count + 1, sizeof(double));
    for (int i = 0; i < count; i++)
        send[i] = 1.0 / (rank + 3) + 0.1 * i + 1e-9 * rank * rank;
    int rc = call_row(row, send, first, count, MPI_DOUBLE, MPI_SUM);
    if (rc == MPI_SUCCESS)
        rc = call_row(row, send, second, count, MPI_DOUBLE, MPI_SUM);
    calls_done[rank] += 2;
    if (rc != MPI_SUCCESS)
        note_failure(rank, "double sum (count %d): rc %d", count, rc);
    else if (memcmp(first, second, sizeof(double) * (size_t)count) != 0)
        note_failure(rank, "double sum (count %d): two identical calls gave different bits", count);
    free(second);
    free(first);
    free(send);
}

static void
scan_rank(int rank, void *arg)
{
    const struct scan_case *c = arg;
    for (int k = 0; k < NCOUNTS; k++) {
        for (int in_place = 0; in_place < 2; in_place++) {
            check_int_sum(c->row, rank, counts[k], in_place);
            if (!order_preserving(c->row))
                continue;
            for (int wk = 0; wk < WITNESS_KIND_COUNT; wk++) {
                const struct witness *w = witness_get(wk);
                if (!witness_matches(c->row, w, rank, counts[k], in_place,
                                     10 * k + 2 * wk + in_place))
                    note_failure(rank, "%s witness (count %d%s): not the rank-order fold",
                                 w->name, counts[k], in_place ? ", in place" : "");
            }
        }
        check_double_repeat(c->row, rank, counts[k]);
    }
}

START_TEST(test_scan_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / NSIZES];
    struct scan_case c = {row, sizes[_i % NSIZES]};
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    witness_setup();
    ck_assert_int_eq(collsim_test_run_ranks(c.size, scan_rank, &c), 0);
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
    const struct scan_case *c = arg;
    for (int k = 0; k < WITNESS_KIND_COUNT; k++)
        if (!witness_matches(c->row, witness_get(k), rank, 5, 0, 40 + k))
            differs[rank] = 1;
}

/* A row that declares COLL_REQ_COMMUTATIVE really leaves rank order with a witness op. */
START_TEST(test_scan_commutative_flag_is_honest)
{
    const struct coll_algorithm *row = rows[_i];
    if (order_preserving(row))
        return;   /* proven order-preserving by the case above */
    struct scan_case c = {row, HONESTY_P};
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

static Suite *
scan_suite(void)
{
    enum coll_kind kinds[] = {COLL_SCAN, COLL_EXSCAN};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);

    Suite *s = suite_create("scan");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_scan_row_matches_reference, 0, nrows * NSIZES);
    suite_add_tcase(s, tc);
    TCase *flags = tcase_create("flags");
    tcase_set_timeout(flags, 60);
    tcase_add_loop_test(flags, test_scan_commutative_flag_is_honest, 0, nrows);
    suite_add_tcase(s, flags);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(scan_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
