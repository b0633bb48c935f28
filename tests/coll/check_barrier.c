/*
 * check_barrier.c — every MPI_Barrier algorithm of the registry, called directly (row->fn) on
 * a duplicate of MPI_COMM_WORLD, one simulation per (row, P), P in
 * {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64}.
 *
 * The property: no rank leaves the barrier before the last one has arrived. The ranks arrive
 * at staggered simulated times: before each barrier a chain of 64 KiB messages runs through
 * them in a given order (a rank enters the barrier as soon as it has received the chain's
 * message and passed it on), so the last rank of the chain arrives some microseconds after
 * the others. Each rank records MPI_Wtime on entering and on leaving; after the simulation
 * every leaving time must be at least the latest entering time. The orders: ascending ranks,
 * descending ranks (rank 0, where tree barriers gather, arrives last), and a rotation whose
 * last rank is P/2. A control case runs the same check on a barrier that does nothing and
 * expects it to fail, which shows that the staggering is wide enough to notice.
 * A row whose rank-count requirement P does not meet (two_proc) is skipped at that P; a row
 * with a radix (COLL_RADIX) runs with its default and with radix 2, 3 and 8.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_registry.h"
#include "coll/coll_select.h"
#include "mpi.h"
#include "sim_harness.h"

static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))
/* COLL_RADIX rows: the default radix (0 here), then these; one simulation each */
static const int radices[] = {0, 2, 3, 8};
#define N_RADICES ((int)(sizeof radices / sizeof radices[0]))
#define MAX_RANKS 64
#define CHAIN_BYTES 65536
#define TAG_CHAIN 77

enum order { ASCENDING, DESCENDING, MIDDLE_LAST, N_ORDERS };
static const char *const order_names[N_ORDERS] = {"ascending", "descending", "P/2 last"};

struct barrier_run {
    coll_barrier_fn *fn;
    struct coll_params params;
    int size;
};

static double entered[N_ORDERS][MAX_RANKS], left[N_ORDERS][MAX_RANKS];
static int returned[N_ORDERS][MAX_RANKS];

/* The rank that arrives i-th in order o. */
static int
arrival(enum order o, int i, int p)
{
    switch (o) {
    case ASCENDING:
        return i;
    case DESCENDING:
        return p - 1 - i;
    default:
        return (i + p / 2 + 1) % p;
    }
}

static void
barrier_rank(int rank, void *arg)
{
    const struct barrier_run *run = arg;
    int p = run->size;
    char *chain = calloc(CHAIN_BYTES, 1);
    MPI_Comm work;
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    for (int o = 0; o < N_ORDERS; o++) {
        int position = 0;
        while (arrival(o, position, p) != rank)
            position++;
        if (position > 0)
            MPI_Recv(chain, CHAIN_BYTES, MPI_BYTE, arrival(o, position - 1, p), TAG_CHAIN,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (position < p - 1)
            MPI_Send(chain, CHAIN_BYTES, MPI_BYTE, arrival(o, position + 1, p), TAG_CHAIN,
                     MPI_COMM_WORLD);
        entered[o][rank] = MPI_Wtime();
        returned[o][rank] = run->fn(work, &run->params);
        left[o][rank] = MPI_Wtime();
    }
    MPI_Comm_free(&work);
    free(chain);
}

/* Run the barrier; 1 if every rank left after the last arrival each time, else 0 and why. */
static int
barrier_holds(struct barrier_run *run, char *why, size_t why_size)
{
    memset(entered, 0, sizeof entered);
    memset(left, 0, sizeof left);
    memset(returned, -1, sizeof returned);
    if (collsim_test_run_ranks(run->size, barrier_rank, run) != 0) {
        snprintf(why, why_size, "the simulation failed");
        return 0;
    }
    for (int o = 0; o < N_ORDERS; o++) {
        double last = 0;
        int last_rank = 0;
        for (int r = 0; r < run->size; r++) {
            if (returned[o][r] != MPI_SUCCESS) {
                snprintf(why, why_size, "%s arrival: rank %d returned %d", order_names[o], r,
                         returned[o][r]);
                return 0;
            }
            if (entered[o][r] > last) {
                last = entered[o][r];
                last_rank = r;
            }
        }
        for (int r = 0; r < run->size; r++) {
            if (left[o][r] < last) {
                snprintf(why, why_size,
                         "%s arrival: rank %d left at %.9f s, before rank %d arrived at %.9f s",
                         order_names[o], r, left[o][r], last_rank, last);
                return 0;
            }
        }
    }
    return 1;
}

START_TEST(test_barrier_nobody_leaves_before_the_last_arrives)
{
    const struct coll_algorithm *row =
        coll_registry_nth(COLL_BARRIER, (size_t)_i / (N_SIZES * N_RADICES));
    int radix = radices[_i % (N_SIZES * N_RADICES) / N_SIZES];
    ck_assert_ptr_nonnull(row);
    struct barrier_run run = {row->fn.barrier, row->defaults, sizes[_i % N_SIZES]};
    struct coll_call call = {COLL_BARRIER, run.size, 0, 0, 1, 1, 1, 0};
    if (coll_select_unmet(row, &call) != NULL)
        return; /* the dispatcher refuses it at this P */
    if (radix > 0 && !(row->caps & COLL_RADIX))
        return; /* no radix to vary */
    if (radix > 0)
        run.params.radix = radix;
    char why[256];
    ck_assert_msg(barrier_holds(&run, why, sizeof why), "barrier %s, radix %d, P = %d: %s",
                  row->name, run.params.radix, run.size, why);
}
END_TEST

static int
no_barrier(MPI_Comm comm, const struct coll_params *params)
{
    (void)comm;
    (void)params;
    return MPI_SUCCESS;
}

START_TEST(test_barrier_check_catches_a_missing_barrier)
{
    struct barrier_run run = {no_barrier, {0, 0}, 8};
    char why[256];
    ck_assert_msg(!barrier_holds(&run, why, sizeof why),
                  "a barrier that does nothing passed the check");
}
END_TEST

static Suite *
barrier_suite(void)
{
    Suite *s = suite_create("barrier");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_barrier_nobody_leaves_before_the_last_arrives, 0,
                        (int)coll_registry_count(COLL_BARRIER) * N_SIZES * N_RADICES);
    tcase_add_test(tc, test_barrier_check_catches_a_missing_barrier);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(barrier_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
