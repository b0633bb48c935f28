/*
 * check_grequest.c — generalized requests (MPI-3.1 §12.2) on simulated ranks
 * (tests/unit/sim_harness.h): when query_fn, free_fn and cancel_fn run and with what, the
 * errors they return, every wait and test on a request the program completes itself, and the
 * deadlock report of a rank that waits for one it never completes.
 *
 * The callbacks append to one log ("q1 f1": query_fn then free_fn of request 1), which each
 * test compares with the sequence MPI prescribes, worked out by hand from the standard.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "mpi.h"
#include "sim_harness.h"

/* One request's callbacks: its number, and what its query_fn and free_fn return. */
struct greq {
    int id;
    int query_rc;
    int free_rc;
    int cancelled;   /* cancel_fn was called: query_fn reports the request cancelled */
};

static char log_text[512];

static void
log_event(const char *fmt, int a, int b)
{
    char event[32];
    snprintf(event, sizeof event, fmt, a, b);
    if (log_text[0] != '\0')
        g_strlcat(log_text, " ", sizeof log_text);
    g_strlcat(log_text, event, sizeof log_text);
}

/* The status query_fn gives: source 10 * id, tag 20 * id, id ints. */
static int
query_fn(void *extra_state, MPI_Status *status)
{
    struct greq *g = extra_state;
    log_event("q%d", g->id, 0);
    status->MPI_SOURCE = 10 * g->id;
    status->MPI_TAG = 20 * g->id;
    MPI_Status_set_elements(status, MPI_INT, g->id);
    MPI_Status_set_cancelled(status, g->cancelled);
    return g->query_rc;
}

static int
free_fn(void *extra_state)
{
    struct greq *g = extra_state;
    log_event("f%d", g->id, 0);
    return g->free_rc;
}

static int
cancel_fn(void *extra_state, int complete)
{
    struct greq *g = extra_state;
    log_event("c%d:%d", g->id, complete);
    g->cancelled = 1;
    return MPI_SUCCESS;
}

/* What the rank functions saw, asserted after the simulation. */
static struct {
    int rc[8];
    int flag[8];
    int count;
    int source, tag, cancelled;
    int error[2];
    int index;
    int null_after;
    char log_at[4][512];   /* the log at chosen points */
} seen;

static void
reset(void)
{
    memset(&seen, 0, sizeof seen);
    log_text[0] = '\0';
}

static void
start(struct greq *g, int id, MPI_Request *request)
{
    *g = (struct greq){id, MPI_SUCCESS, MPI_SUCCESS, 0};
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, g, request);
}

/* ---------------------------------------------------------------- completion */

static void
complete_then_wait_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    struct greq g;
    MPI_Request r;
    MPI_Status st;
    start(&g, 1, &r);
    seen.rc[0] = MPI_Grequest_complete(r);
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]); /* nothing yet */
    seen.rc[1] = MPI_Wait(&r, &st);
    seen.null_after = r == MPI_REQUEST_NULL;
    seen.source = st.MPI_SOURCE;
    seen.tag = st.MPI_TAG;
    MPI_Get_count(&st, MPI_INT, &seen.count);
}

START_TEST(test_complete_then_wait_queries_then_frees)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, complete_then_wait_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_SUCCESS);
    ck_assert_str_eq(seen.log_at[0], "");
    ck_assert_int_eq(seen.rc[1], MPI_SUCCESS);
    ck_assert_str_eq(log_text, "q1 f1");
    ck_assert(seen.null_after);
    ck_assert_int_eq(seen.source, 10);
    ck_assert_int_eq(seen.tag, 20);
    ck_assert_int_eq(seen.count, 1);
}
END_TEST

static void
test_incomplete_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    struct greq g;
    MPI_Request r;
    MPI_Status st;
    start(&g, 2, &r);
    seen.rc[0] = MPI_Test(&r, &seen.flag[0], &st);
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.rc[1] = MPI_Request_get_status(r, &seen.flag[1], &st);
    g_strlcpy(seen.log_at[1], log_text, sizeof seen.log_at[1]);
    MPI_Grequest_complete(r);
    /* get_status asks query_fn but keeps the request: a second one asks again */
    seen.rc[2] = MPI_Request_get_status(r, &seen.flag[2], &st);
    seen.rc[3] = MPI_Request_get_status(r, &seen.flag[3], MPI_STATUS_IGNORE);
    g_strlcpy(seen.log_at[2], log_text, sizeof seen.log_at[2]);
    seen.source = st.MPI_SOURCE;
    seen.rc[4] = MPI_Test(&r, &seen.flag[4], MPI_STATUS_IGNORE);
    seen.null_after = r == MPI_REQUEST_NULL;
}

START_TEST(test_test_and_get_status_before_and_after_completion)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, test_incomplete_rank, NULL), 0);
    for (int i = 0; i < 5; i++)
        ck_assert_int_eq(seen.rc[i], MPI_SUCCESS);
    ck_assert_int_eq(seen.flag[0], 0);
    ck_assert_str_eq(seen.log_at[0], "");
    ck_assert_int_eq(seen.flag[1], 0);
    ck_assert_str_eq(seen.log_at[1], "");
    ck_assert_int_eq(seen.flag[2], 1);
    ck_assert_int_eq(seen.flag[3], 1);
    ck_assert_str_eq(seen.log_at[2], "q2 q2");
    ck_assert_int_eq(seen.source, 20);
    ck_assert_int_eq(seen.flag[4], 1);
    ck_assert_str_eq(log_text, "q2 q2 q2 f2");
    ck_assert(seen.null_after);
}
END_TEST

/*
 * A wait on several requests returns with a generalized request still incomplete: rank 0
 * waits for a message and a generalized request in MPI_Waitany, gets the message, completes
 * the generalized request afterwards and waits for it alone.
 */
static void
waitany_rank(int rank, void *arg)
{
    (void)arg;
    int v = 5;
    if (rank == 1) {
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        return;
    }
    struct greq g;
    MPI_Request r[2];
    start(&g, 3, &r[0]);
    MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[1]);
    seen.rc[0] = MPI_Waitany(2, r, &seen.index, MPI_STATUS_IGNORE);
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.rc[1] = MPI_Testany(2, r, &seen.flag[1], &seen.flag[2], MPI_STATUS_IGNORE);
    MPI_Grequest_complete(r[0]);
    int outcount, indices[2];
    seen.rc[2] = MPI_Waitsome(2, r, &outcount, indices, MPI_STATUSES_IGNORE);
    seen.count = outcount;
    seen.flag[3] = indices[0];
    seen.null_after = r[0] == MPI_REQUEST_NULL;
}

START_TEST(test_waitany_returns_the_other_request_first)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, waitany_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_SUCCESS);
    ck_assert_int_eq(seen.index, 1);
    ck_assert_str_eq(seen.log_at[0], "");
    ck_assert_int_eq(seen.rc[1], MPI_SUCCESS);
    ck_assert_int_eq(seen.flag[1], MPI_UNDEFINED); /* index: nothing complete */
    ck_assert_int_eq(seen.flag[2], 0);             /* flag */
    ck_assert_int_eq(seen.rc[2], MPI_SUCCESS);
    ck_assert_int_eq(seen.count, 1);
    ck_assert_int_eq(seen.flag[3], 0);
    ck_assert(seen.null_after);
    ck_assert_str_eq(log_text, "q3 f3");
}
END_TEST

/* ---------------------------------------------------------------- errors of the callbacks */

static void
query_error_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    struct greq g[3];
    MPI_Request r[2];
    MPI_Status st[2];
    /* MPI_Wait returns query_fn's error itself; free_fn still runs */
    start(&g[0], 1, &r[0]);
    g[0].query_rc = MPI_ERR_OTHER;
    MPI_Grequest_complete(r[0]);
    seen.rc[0] = MPI_Wait(&r[0], &st[0]);
    seen.null_after = r[0] == MPI_REQUEST_NULL;
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    log_text[0] = '\0';
    /* MPI_Waitall: MPI_ERR_IN_STATUS, the error in the failing request's status only */
    start(&g[1], 2, &r[0]);
    start(&g[2], 3, &r[1]);
    g[2].query_rc = MPI_ERR_ARG;
    MPI_Grequest_complete(r[1]);
    MPI_Grequest_complete(r[0]);
    seen.rc[1] = MPI_Waitall(2, r, st);
    seen.error[0] = st[0].MPI_ERROR;
    seen.error[1] = st[1].MPI_ERROR;
    seen.flag[0] = r[0] == MPI_REQUEST_NULL && r[1] == MPI_REQUEST_NULL;
    g_strlcpy(seen.log_at[1], log_text, sizeof seen.log_at[1]);
    log_text[0] = '\0';
    /* free_fn's error, when query_fn succeeds */
    start(&g[0], 4, &r[0]);
    g[0].free_rc = MPI_ERR_INTERN;
    MPI_Grequest_complete(r[0]);
    seen.rc[2] = MPI_Test(&r[0], &seen.flag[1], MPI_STATUS_IGNORE);
    g_strlcpy(seen.log_at[2], log_text, sizeof seen.log_at[2]);
}

START_TEST(test_query_and_free_errors_propagate)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, query_error_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_ERR_OTHER);
    ck_assert(seen.null_after);
    ck_assert_str_eq(seen.log_at[0], "q1 f1");
    ck_assert_int_eq(seen.rc[1], MPI_ERR_IN_STATUS);
    ck_assert_int_eq(seen.error[0], MPI_SUCCESS);
    ck_assert_int_eq(seen.error[1], MPI_ERR_ARG);
    ck_assert(seen.flag[0]);
    ck_assert_str_eq(seen.log_at[1], "q2 f2 q3 f3");
    ck_assert_int_eq(seen.rc[2], MPI_ERR_INTERN);
    ck_assert_int_eq(seen.flag[1], 1);
    ck_assert_str_eq(seen.log_at[2], "q4 f4");
}
END_TEST

/* ---------------------------------------------------------------- cancel and free */

static void
cancel_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    struct greq g[2];
    MPI_Request r[2];
    MPI_Status st;
    start(&g[0], 1, &r[0]);
    start(&g[1], 2, &r[1]);
    seen.rc[0] = MPI_Cancel(&r[0]);          /* before completion: complete = 0 */
    MPI_Grequest_complete(r[0]);
    MPI_Grequest_complete(r[1]);
    seen.rc[1] = MPI_Cancel(&r[1]);          /* after: complete = 1 */
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.rc[2] = MPI_Wait(&r[0], &st);
    MPI_Test_cancelled(&st, &seen.cancelled);
    seen.rc[3] = MPI_Wait(&r[1], MPI_STATUS_IGNORE);
}

START_TEST(test_cancel_calls_cancel_fn_with_completion)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, cancel_rank, NULL), 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(seen.rc[i], MPI_SUCCESS);
    ck_assert_str_eq(seen.log_at[0], "c1:0 c2:1");
    ck_assert_int_eq(seen.cancelled, 1);
    ck_assert_str_eq(log_text, "c1:0 c2:1 q1 f1 q2 f2");
}
END_TEST

static void
free_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    struct greq g[2];
    MPI_Request r[2];
    start(&g[0], 1, &r[0]);
    start(&g[1], 2, &r[1]);
    MPI_Request kept = r[0];
    seen.rc[0] = MPI_Request_free(&r[0]);    /* before completion: free_fn waits for it */
    seen.null_after = r[0] == MPI_REQUEST_NULL;
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.rc[1] = MPI_Grequest_complete(kept);
    g_strlcpy(seen.log_at[1], log_text, sizeof seen.log_at[1]);
    MPI_Grequest_complete(r[1]);
    seen.rc[2] = MPI_Request_free(&r[1]);    /* after: free_fn now, no query_fn */
}

START_TEST(test_request_free_runs_free_fn_at_the_later_of_free_and_complete)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, free_rank, NULL), 0);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(seen.rc[i], MPI_SUCCESS);
    ck_assert(seen.null_after);
    ck_assert_str_eq(seen.log_at[0], "");
    ck_assert_str_eq(seen.log_at[1], "f1");
    ck_assert_str_eq(log_text, "f1 f2");
}
END_TEST

/* ---------------------------------------------------------------- misuse */

static void
misuse_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    struct greq g;
    MPI_Request r, ordinary;
    seen.rc[0] = MPI_Grequest_start(NULL, free_fn, cancel_fn, &g, &r);
    seen.rc[1] = MPI_Grequest_start(query_fn, free_fn, cancel_fn, &g, NULL);
    start(&g, 1, &r);
    MPI_Grequest_complete(r);
    seen.rc[2] = MPI_Grequest_complete(r);   /* twice */
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Isend(NULL, 0, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &ordinary);
    seen.rc[3] = MPI_Grequest_complete(ordinary);
    MPI_Wait(&ordinary, MPI_STATUS_IGNORE);
    seen.rc[4] = MPI_Grequest_complete(MPI_REQUEST_NULL);
}

START_TEST(test_misuse_is_refused)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, misuse_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_ERR_ARG);
    ck_assert_int_eq(seen.rc[1], MPI_ERR_ARG);
    ck_assert_int_eq(seen.rc[2], MPI_ERR_REQUEST);
    ck_assert_int_eq(seen.rc[3], MPI_ERR_REQUEST);
    ck_assert_int_eq(seen.rc[4], MPI_ERR_REQUEST);
    ck_assert_str_eq(log_text, "q1 f1");
}
END_TEST

/* ---------------------------------------------------------------- a wait nobody ends */

static void
blocked_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 1)
        return;
    struct greq g;
    MPI_Request r;
    start(&g, 1, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);   /* nothing will ever complete it */
}

START_TEST(test_wait_on_uncompleted_greq_is_a_reported_deadlock)
{
    reset();
    char path[] = "/tmp/check_grequest_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    int code = collsim_test_run_ranks(2, blocked_rank, NULL);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    close(fd);
    gchar *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    unlink(path);
    ck_assert_int_eq(code, SIM_EXIT_DEADLOCK);
    ck_assert_msg(strstr(text, "rank 0 is blocked in MPI_Wait waiting for a generalized request "
                               "(MPI_Grequest_start) that is not complete") != NULL,
                  "report was: %s", text);
    ck_assert_msg(strstr(text, "MPI_Grequest_complete") != NULL, "report was: %s", text);
    g_free(text);
}
END_TEST

static Suite *
grequest_suite(void)
{
    Suite *s = suite_create("grequest");
    TCase *tc = tcase_create("grequest");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_complete_then_wait_queries_then_frees);
    tcase_add_test(tc, test_test_and_get_status_before_and_after_completion);
    tcase_add_test(tc, test_waitany_returns_the_other_request_first);
    tcase_add_test(tc, test_query_and_free_errors_propagate);
    tcase_add_test(tc, test_cancel_calls_cancel_fn_with_completion);
    tcase_add_test(tc, test_request_free_runs_free_fn_at_the_later_of_free_and_complete);
    tcase_add_test(tc, test_misuse_is_refused);
    tcase_add_test(tc, test_wait_on_uncompleted_greq_is_a_reported_deadlock);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(grequest_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
