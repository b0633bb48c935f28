/*
 * check_nonblocking.c — nonblocking collectives (the flows of sim/engine/flow.c, driven by
 * sim/transport/p2p.c): MPI's progress rule, the progress model's timing, several operations
 * in flight, errors. Each case is one simulation.
 *
 * Expected times are derived from the platform's numbers and the progress model (HACKING.md,
 * "Nonblocking collectives"), never read back from a previous run.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>


#include "coll/coll_select.h"
#include "mpi.h"
#include "sim_harness.h"

/* The two hosts of sim_harness.h: one full-duplex link of latency L and bandwidth W. */
#define LINK_LATENCY COLLSIM_TEST_LINK_LATENCY
#define LINK_BANDWIDTH COLLSIM_TEST_LINK_BANDWIDTH

/* Run fn on the two hosts with CM02 (a transfer of B bytes takes L + B/W), no software
 * overheads, reductions free, an eager threshold of 64 KiB, and Allreduce as recursive
 * doubling: on two ranks, one exchange of the whole vector. */
static void
run_two_hosts_progress(collsim_test_rank_fn fn, void *arg, enum model_progress progress)
{
    struct sim_config *config = collsim_test_two_hosts_begin(65536);
    config->compute_scale = 0;
    config->transport.progress = progress;
    char why[256];
    ck_assert_int_eq(coll_select_force(COLL_ALLREDUCE, "recursive_doubling", NULL, why, sizeof why),
                     1);
    ck_assert_int_eq(collsim_test_two_hosts_run(config, fn, arg, NULL), 0);
}

/* The default progress model: inside MPI calls only. */
static void
run_two_hosts(collsim_test_rank_fn fn, void *arg)
{
    run_two_hosts_progress(fn, arg, MODEL_PROGRESS_CALLS);
}

/* ---------------------------------------------------------------- progress */

/*
 * MPI's progress rule: rank 0 is blocked in MPI_Recv for a message rank 1 sends only after
 * its MPI_Ibarrier has completed; rank 0's barrier must move while it waits in MPI_Recv.
 */
static void
progress_in_recv_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Request req;
    int v = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    if (rank == 0) {
        MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 77);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        v = 77;
        MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
    }
    ck_assert_ptr_eq(req, MPI_REQUEST_NULL);
}

START_TEST(test_blocked_recv_progresses_a_barrier)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, progress_in_recv_rank, NULL), 0);
}
END_TEST

/*
 * The same rule for the probes: rank 0 waits in MPI_Probe, then polls with MPI_Iprobe, for
 * messages rank 1 sends only once each of two barriers has completed.
 */
static void
progress_in_probe_rank(int rank, void *arg)
{
    (void)arg;
    int v = 0, flag = 0;
    MPI_Request r[2];
    MPI_Ibarrier(MPI_COMM_WORLD, &r[0]);
    MPI_Ibarrier(MPI_COMM_WORLD, &r[1]);
    if (rank == 0) {
        MPI_Probe(1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 7);
        while (!flag)
            MPI_Iprobe(1, 6, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 8);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (rank == 1) {
        MPI_Wait(&r[0], MPI_STATUS_IGNORE);
        v = 7;
        MPI_Send(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Wait(&r[1], MPI_STATUS_IGNORE);
        v = 8;
        MPI_Send(&v, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else {
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    }
}

START_TEST(test_probes_progress_collectives)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, progress_in_probe_rank, NULL), 0);
}
END_TEST

/* Polling with MPI_Test completes an operation (simulated time moves with failed polls). */
static void
polling_rank(int rank, void *arg)
{
    (void)arg;
    int x = rank + 1, sum = 0, flag = 0, polls = 0;
    MPI_Request req;
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    while (!flag) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        polls++;
    }
    ck_assert_int_eq(sum, 1 + 2 + 3);
    ck_assert_int_gt(polls, 1);
    ck_assert_ptr_eq(req, MPI_REQUEST_NULL);
}

START_TEST(test_polling_completes)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, polling_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- timing */

struct overlap {
    int count;         /* ints reduced */
    double compute;    /* seconds of collsim_compute between the call and MPI_Wait */
    double nonblocking; /* rank 0's Iallreduce .. Wait */
    double blocking;    /* rank 0's Allreduce */
};

static void
overlap_rank(int rank, void *arg)
{
    struct overlap *o = arg;
    int *in = calloc((size_t)o->count, sizeof *in), *out = calloc((size_t)o->count, sizeof *out);
    MPI_Request req;
    double t = MPI_Wtime();
    MPI_Allreduce(in, out, o->count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    double blocking = MPI_Wtime() - t;
    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Iallreduce(in, out, o->count, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    collsim_compute(o->compute);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0) {
        o->nonblocking = MPI_Wtime() - t;
        o->blocking = blocking;
    }
    free(in);
    free(out);
}

/*
 * Two ranks: the allreduce is one exchange. An eager message leaves at the call and lands
 * during the computation, so the wait finds it there: the whole operation is hidden when the
 * computation is longer than its flight, L + 4n/W.
 */
START_TEST(test_eager_exchange_hides_behind_computation)
{
    struct overlap o = {.count = 250, .compute = 50e-6};
    run_two_hosts(overlap_rank, &o);
    double flight = LINK_LATENCY + 4.0 * o.count / LINK_BANDWIDTH;
    ck_assert_double_eq_tol(o.blocking, flight, 1e-12);
    ck_assert_double_eq_tol(o.nonblocking, o.compute, 1e-12);
}
END_TEST

/* A computation shorter than the flight: the wait waits for the rest of it. */
START_TEST(test_short_computation_waits_for_the_flight)
{
    struct overlap o = {.count = 250, .compute = 4e-6};
    run_two_hosts(overlap_rank, &o);
    double flight = LINK_LATENCY + 4.0 * o.count / LINK_BANDWIDTH;
    ck_assert_double_eq_tol(o.nonblocking, flight, 1e-12);
}
END_TEST

/*
 * A rendezvous exchange (100 000 ints > 64 KiB): only the envelope (one byte) travels during
 * the computation; the clear-to-send and the data wait until the rank calls MPI_Wait. So the
 * computation hides the envelope's flight and nothing else: S + (L + 1/W) + (L + B/W).
 */
START_TEST(test_rendezvous_exchange_waits_for_the_wait)
{
    struct overlap o = {.count = 100000, .compute = 50e-6};
    run_two_hosts(overlap_rank, &o);
    double bytes = 4.0 * o.count;
    double envelope = LINK_LATENCY + 1 / LINK_BANDWIDTH;
    ck_assert_double_eq_tol(o.blocking, 2 * envelope + LINK_LATENCY + bytes / LINK_BANDWIDTH,
                            1e-12);
    ck_assert_double_eq_tol(o.nonblocking, o.compute + envelope + LINK_LATENCY +
                                               bytes / LINK_BANDWIDTH, 1e-12);
}
END_TEST

/* With no computation in between, the nonblocking form takes what the blocking one takes. */
START_TEST(test_wait_at_once_costs_the_blocking_time)
{
    struct overlap o = {.count = 100000, .compute = 0};
    run_two_hosts(overlap_rank, &o);
    ck_assert_double_eq_tol(o.nonblocking, o.blocking, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- asynchronous progress */

/*
 * Under the asynchronous model the rendezvous goes on during the computation: envelope
 * (L + 1/W), clear-to-send (L + 1/W), data (L + B/W), all before the computation ends, so the
 * operation costs the computation's time and nothing more.
 */
START_TEST(test_async_rendezvous_hides_behind_computation)
{
    struct overlap o = {.count = 100000, .compute = 1e-3};
    run_two_hosts_progress(overlap_rank, &o, MODEL_PROGRESS_ASYNC);
    double bytes = 4.0 * o.count;
    double envelope = LINK_LATENCY + 1 / LINK_BANDWIDTH;
    ck_assert_double_eq_tol(o.blocking, 2 * envelope + LINK_LATENCY + bytes / LINK_BANDWIDTH,
                            1e-12);
    ck_assert_double_eq_tol(o.nonblocking, o.compute, 1e-12);
}
END_TEST

/*
 * A computation that ends while the data is on the wire: the transfer goes on (the wait that
 * the end of the computation interrupted keeps it) and MPI_Wait finds it where it is, so the
 * operation ends when the blocking one would have: max(S, t_b) = t_b.
 */
START_TEST(test_async_computation_ends_mid_transfer)
{
    struct overlap o = {.count = 100000, .compute = 100e-6};
    run_two_hosts_progress(overlap_rank, &o, MODEL_PROGRESS_ASYNC);
    ck_assert_double_eq_tol(o.nonblocking, o.blocking, 1e-12);
    double bytes = 4.0 * o.count;
    ck_assert(o.compute < bytes / LINK_BANDWIDTH); /* the data was in flight at its end */
}
END_TEST

/* The eager exchange is hidden under both models alike. */
START_TEST(test_async_eager_exchange_as_in_calls)
{
    struct overlap o = {.count = 250, .compute = 50e-6};
    run_two_hosts_progress(overlap_rank, &o, MODEL_PROGRESS_ASYNC);
    ck_assert_double_eq_tol(o.nonblocking, o.compute, 1e-12);
}
END_TEST

/*
 * Two rendezvous broadcasts in flight (roots 0 and 1) and one computation in several pieces:
 * both complete during the computation under the asynchronous model, with their own data, and
 * the pieces add up to the whole time; under the default model the second cannot start its
 * data until the wait.
 */
struct two_bcasts {
    enum model_progress progress;
    double elapsed; /* rank 0: calls .. both waits */
};

static void
two_bcasts_rank(int rank, void *arg)
{
    struct two_bcasts *t = arg;
    enum { N = 100000 };
    int *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    for (int i = 0; i < N; i++) {
        a[i] = rank == 0 ? i : -1;
        b[i] = rank == 1 ? -i : -1;
    }
    MPI_Request reqs[2];
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Ibcast(a, N, MPI_INT, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(b, N, MPI_INT, 1, MPI_COMM_WORLD, &reqs[1]);
    for (int piece = 0; piece < 10; piece++)
        collsim_compute(100e-6);
    double computed = MPI_Wtime() - t0;
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    for (int i = 0; i < N; i += 997) {
        ck_assert_int_eq(a[i], i);
        ck_assert_int_eq(b[i], -i);
    }
    if (t->progress == MODEL_PROGRESS_ASYNC)
        ck_assert_double_eq_tol(computed, 1e-3, 1e-12);
    if (rank == 0)
        t->elapsed = MPI_Wtime() - t0;
    free(a);
    free(b);
}

START_TEST(test_async_two_collectives_complete_while_computing)
{
    struct two_bcasts async = {.progress = MODEL_PROGRESS_ASYNC};
    run_two_hosts_progress(two_bcasts_rank, &async, MODEL_PROGRESS_ASYNC);
    ck_assert_double_eq_tol(async.elapsed, 1e-3, 1e-12);
}
END_TEST

/* The same program under the default model: the data of each broadcast leaves only once
 * MPI_Waitall runs, after the computation (a clear-to-send, then the 400 000 bytes). */
START_TEST(test_calls_two_collectives_wait_for_the_wait)
{
    struct two_bcasts calls = {.progress = MODEL_PROGRESS_CALLS};
    run_two_hosts_progress(two_bcasts_rank, &calls, MODEL_PROGRESS_CALLS);
    ck_assert(calls.elapsed > 1e-3 + 4e5 / LINK_BANDWIDTH);
}
END_TEST

/* ---------------------------------------------------------------- several in flight */

/*
 * Four operations in flight on one communicator, of different kinds and roots, completed in
 * the reverse order: each gets its own data (MPI matches collectives by call order).
 */
static void
several_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int a = rank == 0 ? 11 : -1, b = rank == size - 1 ? 22 : -1;
    int x = rank, sum = -1, prefix = -1;
    MPI_Request reqs[4];
    MPI_Ibcast(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ibcast(&b, 1, MPI_INT, size - 1, MPI_COMM_WORLD, &reqs[1]);
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[2]);
    MPI_Iscan(&x, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[3]);
    for (int i = 3; i >= 0; i--)
        MPI_Wait(&reqs[i], MPI_STATUS_IGNORE);
    ck_assert_int_eq(a, 11);
    ck_assert_int_eq(b, 22);
    ck_assert_int_eq(sum, size * (size - 1) / 2);
    ck_assert_int_eq(prefix, rank * (rank + 1) / 2);
}

START_TEST(test_several_in_flight_keep_call_order)
{
    ck_assert_int_eq(collsim_test_run_ranks(5, several_rank, NULL), 0);
}
END_TEST

/* On MPI_COMM_SELF (one object for every rank) and on a communicator freed once done. */
static void
self_and_dup_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int mine = rank + 100, got = -1, max = -1;
    MPI_Request reqs[3];
    MPI_Ibcast(&mine, 1, MPI_INT, 0, MPI_COMM_SELF, &reqs[0]);
    MPI_Iallreduce(&mine, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF, &reqs[1]);
    MPI_Iallreduce(&rank, &max, 1, MPI_INT, MPI_MAX, dup, &reqs[2]);
    MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE);
    MPI_Comm_free(&dup);
    ck_assert_int_eq(got, rank + 100);
    ck_assert_int_eq(max, 3);
}

START_TEST(test_self_and_freed_communicator)
{
    ck_assert_int_eq(collsim_test_run_ranks(4, self_and_dup_rank, NULL), 0);
}
END_TEST

/*
 * Reductions in flight together into one receive buffer (MPICH's comm_idup_iallreduce): each
 * makes its result aside and writes only that, so every one leaves the right sum, and the
 * buffer watch does not take another's final write for the program's. Also what a result made
 * aside must keep: MPI_IN_PLACE's input, rank 0's untouched MPI_Iexscan buffer, the block of
 * an in-place MPI_Ireduce_scatter_block.
 */
static void
shared_result_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int x = rank + 1, sum = -1, prefix = -1;
    MPI_Request reqs[6];
    for (int i = 0; i < 4; i++)
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[i]);
    MPI_Iscan(&x, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[4]);
    MPI_Iscan(&x, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[5]);
    ck_assert_int_eq(MPI_Waitall(6, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    ck_assert_int_eq(sum, size * (size + 1) / 2);
    ck_assert_int_eq(prefix, (rank + 1) * (rank + 2) / 2);

    int before = -5;
    MPI_Iexscan(&x, &before, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[0]);
    int in_place = rank + 1;
    MPI_Iallreduce(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &reqs[1]);
    int blocks[8];
    for (int i = 0; i < size; i++)
        blocks[i] = i + rank;
    MPI_Ireduce_scatter_block(MPI_IN_PLACE, blocks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD,
                              &reqs[2]);
    ck_assert_int_eq(MPI_Waitall(3, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    ck_assert_int_eq(before, rank == 0 ? -5 : rank * (rank + 1) / 2);
    ck_assert_int_eq(in_place, size);
    ck_assert_int_eq(blocks[0], size * rank + size * (size - 1) / 2);
}

START_TEST(test_reductions_into_one_buffer)
{
    ck_assert_int_eq(collsim_test_run_ranks(5, shared_result_rank, NULL), 0);
}
END_TEST

/*
 * A collective started inside another's flow has never run when the outer flow parks to wait
 * for it: the rank's waits must still run it, and the outer one after it, with an MPI_Ibcast
 * in flight beside them. An MPI_Comm_idup runs its work on a flow, attribute copy callbacks
 * included; this one's callback starts an MPI_Ibarrier on another communicator and waits for
 * it. The rank used to block for good there (a deadlock report): it waited for messages while
 * the inner barrier waited for its first step.
 */
#define NESTED_RANKS 4
static MPI_Comm nested_comm[NESTED_RANKS];
static int nested_barriers[NESTED_RANKS];

static int
copy_after_a_barrier(MPI_Comm comm, int keyval, void *extra, void *value_in, void *value_out,
                     int *flag)
{
    (void)comm;
    (void)keyval;
    (void)extra;
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Request barrier;
    ck_assert_int_eq(MPI_Ibarrier(nested_comm[rank], &barrier), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Wait(&barrier, MPI_STATUS_IGNORE), MPI_SUCCESS);
    nested_barriers[rank]++;
    *(void **)value_out = value_in;
    *flag = 1;
    return MPI_SUCCESS;
}

static void
nested_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_dup(MPI_COMM_WORLD, &nested_comm[rank]);
    nested_barriers[rank] = 0;
    int keyval;
    MPI_Comm_create_keyval(copy_after_a_barrier, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    static int value = 7;
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    int root_value = rank == 2 ? 33 : 0;
    MPI_Comm dup;
    MPI_Request reqs[2];
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &reqs[0]);
    MPI_Ibcast(&root_value, 1, MPI_INT, 2, MPI_COMM_WORLD, &reqs[1]);
    ck_assert_int_eq(MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE), MPI_SUCCESS);
    ck_assert_int_eq(root_value, 33);
    ck_assert_int_eq(nested_barriers[rank], 1);
    int *got = NULL, found = 0;
    MPI_Comm_get_attr(dup, keyval, &got, &found);
    ck_assert_int_eq(found, 1);
    ck_assert_ptr_eq(got, &value);
    MPI_Comm_free(&dup);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    MPI_Comm_free_keyval(&keyval);
    MPI_Comm_free(&nested_comm[rank]);
}

START_TEST(test_collective_started_inside_a_collective)
{
    ck_assert_int_eq(collsim_test_run_ranks(NESTED_RANKS, nested_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static void
errors_rank(int rank, void *arg)
{
    (void)arg;
    (void)rank;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int x = 1, y = 0;
    MPI_Request req = (MPI_Request)&x; /* garbage the call must overwrite */
    /* an argument error: nothing starts, the request is null */
    ck_assert_int_eq(MPI_Iallreduce(&x, &y, -1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
                     MPI_ERR_COUNT);
    ck_assert_ptr_eq(req, MPI_REQUEST_NULL);
    ck_assert_int_eq(MPI_Ibarrier(MPI_COMM_WORLD, NULL), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Ibcast(&x, 1, MPI_INT, 9, MPI_COMM_WORLD, &req), MPI_ERR_ROOT);
    /* a nonblocking collective's request cannot be freed; it stays valid */
    ck_assert_int_eq(MPI_Iallreduce(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req),
                     MPI_SUCCESS);
    ck_assert_int_eq(MPI_Request_free(&req), MPI_ERR_REQUEST);
    ck_assert_ptr_ne(req, MPI_REQUEST_NULL);
    MPI_Status status;
    status.MPI_ERROR = MPI_ERR_DIMS; /* MPI_Wait leaves it (MPI-3.1 3.2.5) */
    ck_assert_int_eq(MPI_Wait(&req, &status), MPI_SUCCESS);
    ck_assert_int_eq(status.MPI_ERROR, MPI_ERR_DIMS);
    ck_assert_int_eq(y, 2);
}

START_TEST(test_errors_return_and_leave_nothing_started)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, errors_rank, NULL), 0);
}
END_TEST

static Suite *
nonblocking_suite(void)
{
    Suite *s = suite_create("nonblocking");
    TCase *progress = tcase_create("progress");
    tcase_add_test(progress, test_blocked_recv_progresses_a_barrier);
    tcase_add_test(progress, test_polling_completes);
    tcase_add_test(progress, test_probes_progress_collectives);
    suite_add_tcase(s, progress);
    TCase *timing = tcase_create("timing");
    tcase_add_test(timing, test_eager_exchange_hides_behind_computation);
    tcase_add_test(timing, test_short_computation_waits_for_the_flight);
    tcase_add_test(timing, test_rendezvous_exchange_waits_for_the_wait);
    tcase_add_test(timing, test_wait_at_once_costs_the_blocking_time);
    tcase_add_test(timing, test_async_rendezvous_hides_behind_computation);
    tcase_add_test(timing, test_async_computation_ends_mid_transfer);
    tcase_add_test(timing, test_async_eager_exchange_as_in_calls);
    tcase_add_test(timing, test_async_two_collectives_complete_while_computing);
    tcase_add_test(timing, test_calls_two_collectives_wait_for_the_wait);
    suite_add_tcase(s, timing);
    TCase *flight = tcase_create("in flight");
    tcase_add_test(flight, test_several_in_flight_keep_call_order);
    tcase_add_test(flight, test_self_and_freed_communicator);
    tcase_add_test(flight, test_reductions_into_one_buffer);
    tcase_add_test(flight, test_collective_started_inside_a_collective);
    suite_add_tcase(s, flight);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_errors_return_and_leave_nothing_started);
    suite_add_tcase(s, errors);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(nonblocking_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
