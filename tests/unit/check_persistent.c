/*
 * check_persistent.c — persistent requests (sim/transport/p2p.c): point-to-point
 * (MPI_Send_init, MPI_Recv_init ...) and MPI-4's persistent collectives (MPI_Allreduce_init
 * ...), started with MPI_Start / MPI_Startall and completed like any request, again and again.
 * Each case is one simulation; expected values follow from MPI's rules.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "mpi.h"
#include "sim_harness.h"

/* ---------------------------------------------------------------- point-to-point */

/* A ring shift made persistent once and started three times: each start reads the send
 * buffer anew and fills the receive buffer anew. */
static void
ring_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int out = -1, in = -1;
    MPI_Request reqs[2];
    ck_assert_int_eq(MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 3, MPI_COMM_WORLD,
                                   &reqs[0]),
                     MPI_SUCCESS);
    ck_assert_int_eq(MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 3, MPI_COMM_WORLD,
                                   &reqs[1]),
                     MPI_SUCCESS);
    for (int round = 0; round < 3; round++) {
        out = 100 * round + rank;
        ck_assert_int_eq(MPI_Startall(2, reqs), MPI_SUCCESS);
        MPI_Status statuses[2];
        ck_assert_int_eq(MPI_Waitall(2, reqs, statuses), MPI_SUCCESS);
        ck_assert_int_eq(in, 100 * round + (rank + size - 1) % size);
        ck_assert_int_eq(statuses[1].MPI_SOURCE, (rank + size - 1) % size);
        ck_assert_int_eq(statuses[1].MPI_TAG, 3);
        /* completed, not freed: the handles stay */
        ck_assert_ptr_ne(reqs[0], MPI_REQUEST_NULL);
        ck_assert_ptr_ne(reqs[1], MPI_REQUEST_NULL);
    }
    /* an inactive persistent request: waits and tests return at once, with an empty status */
    MPI_Status status;
    int flag = 0;
    ck_assert_int_eq(MPI_Wait(&reqs[0], &status), MPI_SUCCESS);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_ANY_SOURCE);
    ck_assert_int_eq(MPI_Test(&reqs[1], &flag, &status), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_ne(reqs[1], MPI_REQUEST_NULL);
    int index = 7;
    ck_assert_int_eq(MPI_Waitany(2, reqs, &index, &status), MPI_SUCCESS);
    ck_assert_int_eq(index, MPI_UNDEFINED);
    ck_assert_int_eq(MPI_Request_free(&reqs[0]), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Request_free(&reqs[1]), MPI_SUCCESS);
    ck_assert_ptr_eq(reqs[0], MPI_REQUEST_NULL);
}

START_TEST(test_persistent_ring_started_three_times)
{
    ck_assert_int_eq(collsim_test_run_ranks(4, ring_rank, NULL), 0);
}
END_TEST

/* Synchronous and ready forms, Waitany on started requests, Testall polling. */
static void
forms_rank(int rank, void *arg)
{
    (void)arg;
    int v[3] = {rank, rank, rank}, got[3] = {-1, -1, -1};
    MPI_Request reqs[3];
    if (rank == 0) {
        /* the receives are posted before rank 1 sends (a barrier orders them), as Rsend needs */
        for (int i = 0; i < 3; i++)
            MPI_Recv_init(&got[i], 1, MPI_INT, 1, i, MPI_COMM_WORLD, &reqs[i]);
        MPI_Startall(3, reqs);
        MPI_Barrier(MPI_COMM_WORLD);
        int done = 0, flag = 0;
        while (!flag) {
            MPI_Testall(3, reqs, &flag, MPI_STATUSES_IGNORE);
            done++;
        }
        ck_assert_int_eq(got[0], 1);
        ck_assert_int_eq(got[1], 1);
        ck_assert_int_eq(got[2], 1);
        for (int i = 0; i < 3; i++)
            MPI_Request_free(&reqs[i]);
    } else if (rank == 1) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Ssend_init(&v[0], 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Rsend_init(&v[1], 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Send_init(&v[2], 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &reqs[2]);
        MPI_Startall(3, reqs);
        for (int n = 0; n < 3; n++) {
            int index = -1;
            MPI_Waitany(3, reqs, &index, MPI_STATUS_IGNORE);
            ck_assert(index >= 0 && index < 3);
        }
        for (int i = 0; i < 3; i++)
            MPI_Request_free(&reqs[i]);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
    }
}

START_TEST(test_synchronous_and_ready_forms)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, forms_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- collectives */

/* An Allreduce and a Bcast made persistent once, started four times with new inputs, once
 * with a nonblocking collective in flight between them. */
static void
collective_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int x = 0, sum = -1, b = -1, y = rank, max = -1;
    MPI_Request reqs[2], other;
    ck_assert_int_eq(MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &reqs[0]),
                     MPI_SUCCESS);
    ck_assert_int_eq(MPI_Bcast_init(&b, 1, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[1]),
                     MPI_SUCCESS);
    for (int round = 1; round <= 4; round++) {
        x = round * (rank + 1);
        if (rank == 1)
            b = 1000 + round;
        MPI_Start(&reqs[0]);
        if (round == 3)
            MPI_Iallreduce(&y, &max, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &other);
        MPI_Start(&reqs[1]);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        if (round == 3) {
            MPI_Wait(&other, MPI_STATUS_IGNORE);
            ck_assert_int_eq(max, size - 1);
        }
        ck_assert_int_eq(sum, round * size * (size + 1) / 2);
        ck_assert_int_eq(b, 1000 + round);
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
}

START_TEST(test_persistent_collectives_restart)
{
    ck_assert_int_eq(collsim_test_run_ranks(5, collective_rank, NULL), 0);
}
END_TEST

/* A started persistent Allreduce followed at once by MPI_Wait takes the blocking time. */
struct timing {
    double blocking, persistent;
};

static void
timing_rank(int rank, void *arg)
{
    struct timing *t = arg;
    double in[64] = {0}, out[64];
    MPI_Request req;
    MPI_Allreduce_init(in, out, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Allreduce(in, out, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double blocking = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0) {
        t->blocking = blocking;
        t->persistent = MPI_Wtime() - t0;
    }
    MPI_Request_free(&req);
}

START_TEST(test_started_and_waited_costs_the_blocking_time)
{
    struct timing t = {0, 0};
    ck_assert_int_eq(collsim_test_run_ranks(8, timing_rank, &t), 0);
    ck_assert(t.blocking > 0);
    ck_assert_double_eq_tol(t.persistent, t.blocking, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static void
errors_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = rank, y = 0;
    MPI_Request req, plain;
    /* MPI_Start wants a persistent request that is not active */
    MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &plain);
    ck_assert_int_eq(MPI_Start(&plain), MPI_ERR_REQUEST);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Wait(&plain, MPI_STATUS_IGNORE);
    ck_assert_int_eq(MPI_Allreduce_init(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &req),
                     MPI_SUCCESS);
    ck_assert_int_eq(MPI_Start(&req), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Start(&req), MPI_ERR_REQUEST); /* already active */
    ck_assert_int_eq(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
    ck_assert_int_eq(y, 1);
    ck_assert_int_eq(MPI_Start(NULL), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Allreduce_init(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                                        MPI_INFO_NULL, &plain),
                     MPI_ERR_COUNT);
    ck_assert_ptr_eq(plain, MPI_REQUEST_NULL);
    MPI_Request_free(&req);
}

START_TEST(test_errors_return)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, errors_rank, NULL), 0);
}
END_TEST

static Suite *
persistent_suite(void)
{
    Suite *s = suite_create("persistent");
    TCase *p2p = tcase_create("point-to-point");
    tcase_add_test(p2p, test_persistent_ring_started_three_times);
    tcase_add_test(p2p, test_synchronous_and_ready_forms);
    suite_add_tcase(s, p2p);
    TCase *coll = tcase_create("collectives");
    tcase_add_test(coll, test_persistent_collectives_restart);
    tcase_add_test(coll, test_started_and_waited_costs_the_blocking_time);
    suite_add_tcase(s, coll);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_errors_return);
    suite_add_tcase(s, errors);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(persistent_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
