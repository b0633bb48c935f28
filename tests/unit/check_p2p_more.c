/*
 * check_p2p_more.c — the rest of point-to-point (sim/transport/p2p.c): buffered sends and
 * their buffer, MPI_Irsend, MPI_Testsome, MPI_Request_get_status, matched probes, MPI_Cancel
 * and the status setters, each case one simulation.
 *
 * Expected values come from MPI-3.1's rules (chapter 3) and from the test platform's numbers,
 * never from a previous run. Where a case depends on a message not having landed yet, it runs
 * on two hosts 10 us apart with no software overheads, so that "not yet" is certain.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>


#include "mpi.h"
#include "sim_harness.h"

#define LINK_LATENCY COLLSIM_TEST_LINK_LATENCY

#define EAGER_THRESHOLD 65536
#define BIG_INTS 100000     /* 400 000 bytes: a rendezvous message for a standard send */

/* Two ranks on two hosts, the network alone (no overheads), CM02 (latency + size/bandwidth). */
static int
run_two_hosts(collsim_test_rank_fn fn, void *arg)
{
    return collsim_test_two_hosts_run(collsim_test_two_hosts_begin(EAGER_THRESHOLD), fn, arg,
                                      NULL);
}

static int *
ints(int n, int first)
{
    int *v = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        v[i] = first + i;
    return v;
}

/* ---------------------------------------------------------------- buffered sends */

/*
 * A buffered send completes locally whatever its size: rank 0 Bsends a rendezvous-sized
 * message, then a standard one, which rank 1 receives first. With MPI_Send in place of the
 * Bsend this program deadlocks (the big send waits for a receive posted only after the second
 * message). Bsend returns before any byte could reach rank 1 (one latency); detach waits until
 * the message has left, and gives the buffer back.
 */
static void
bsend_local_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        int size = BIG_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc((size_t)size);
        int *big = ints(BIG_INTS, 0), small = 77;
        ck_assert_int_eq(MPI_Buffer_attach(buffer, size), MPI_SUCCESS);
        double t0 = MPI_Wtime();
        ck_assert_int_eq(MPI_Bsend(big, BIG_INTS, MPI_INT, 1, 1, MPI_COMM_WORLD), MPI_SUCCESS);
        ck_assert(MPI_Wtime() - t0 < LINK_LATENCY);
        memset(big, 0, sizeof(int) * BIG_INTS);   /* the copy was taken: reusable at once */
        MPI_Send(&small, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        void *back = NULL;
        int back_size = -1;
        ck_assert_int_eq(MPI_Buffer_detach(&back, &back_size), MPI_SUCCESS);
        ck_assert_ptr_eq(back, buffer);
        ck_assert_int_eq(back_size, size);
        ck_assert(MPI_Wtime() - t0 >= LINK_LATENCY);   /* it left: one latency at least */
        free(big);
        free(buffer);
    } else {
        int small = 0, *big = calloc(BIG_INTS, sizeof(int));
        MPI_Status status;
        MPI_Recv(&small, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(small, 77);
        MPI_Recv(big, BIG_INTS, MPI_INT, 0, 1, MPI_COMM_WORLD, &status);
        int count = 0;
        MPI_Get_count(&status, MPI_INT, &count);
        ck_assert_int_eq(count, BIG_INTS);
        for (int i = 0; i < BIG_INTS; i++)
            ck_assert_int_eq(big[i], i);
        free(big);
    }
}

START_TEST(test_bsend_completes_locally)
{
    ck_assert_int_eq(run_two_hosts(bsend_local_rank, NULL), 0);
}
END_TEST

/*
 * Buffer accounting: a message takes its size plus MPI_BSEND_OVERHEAD until it has left; one
 * that does not fit is MPI_ERR_BUFFER. Both Bsends come at the same instant, 10 us before the
 * first message could land, so the second finds the room taken.
 */
static void
bsend_accounting_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v[2] = {5, 6};
    if (rank == 1) {
        int got[2] = {0, 0};
        MPI_Recv(got, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(got[0], 5);
        MPI_Recv(got, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(got[0], 5);
        ck_assert_int_eq(got[1], 6);
        return;
    }
    void *back;
    int back_size;
    ck_assert_int_eq(MPI_Bsend(v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Buffer_detach(&back, &back_size), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Buffer_attach(v, -1), MPI_ERR_ARG);
    int size = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *buffer = malloc((size_t)size);
    ck_assert_int_eq(MPI_Buffer_attach(buffer, size), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Buffer_attach(buffer, size), MPI_ERR_BUFFER);
    /* two ints never fit; one does, once */
    ck_assert_int_eq(MPI_Bsend(v, 2, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    ck_assert_int_eq(MPI_Bsend(v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    MPI_Request req;
    ck_assert_int_eq(MPI_Ibsend(v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req), MPI_ERR_BUFFER);
    /* to MPI_PROC_NULL nothing is buffered */
    ck_assert_int_eq(MPI_Bsend(v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Buffer_detach(NULL, &back_size), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Buffer_detach(&back, &back_size), MPI_SUCCESS);
    ck_assert_ptr_eq(back, buffer);
    /* a bigger buffer: the immediate form completes at once */
    free(buffer);
    size = 2 * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    buffer = malloc((size_t)size);
    ck_assert_int_eq(MPI_Buffer_attach(buffer, size), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Ibsend(v, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &req), MPI_SUCCESS);
    int flag = 0;
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(MPI_Bsend(v, 1, MPI_INT, 9, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Buffer_detach(&back, &back_size), MPI_SUCCESS);
    ck_assert_int_eq(back_size, size);
    free(buffer);
}

START_TEST(test_bsend_buffer_accounting)
{
    ck_assert_int_eq(run_two_hosts(bsend_accounting_rank, NULL), 0);
}
END_TEST

/* Messages that have landed give their room back: many Bsends through a one-message buffer,
 * each after the receiver acknowledged the previous one. */
static void
bsend_reuse_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int v = 0, ack = 0;
    if (rank == 0) {
        int size = (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc((size_t)size);
        MPI_Buffer_attach(buffer, size);
        for (v = 0; v < 5; v++) {
            ck_assert_int_eq(MPI_Bsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD), MPI_SUCCESS);
            MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        void *back;
        MPI_Buffer_detach(&back, &size);
        free(buffer);
    } else {
        for (int i = 0; i < 5; i++) {
            MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            ck_assert_int_eq(v, i);
            MPI_Send(&ack, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
    }
}

START_TEST(test_bsend_room_comes_back)
{
    ck_assert_int_eq(run_two_hosts(bsend_reuse_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- ready sends */

static void
irsend_rank(int rank, void *arg)
{
    (void)arg;
    int v = 0;
    if (rank == 1) {
        MPI_Request req;
        MPI_Irecv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);   /* the receive is posted before the ready send */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 31);
    } else {
        MPI_Request req;
        v = 31;
        MPI_Barrier(MPI_COMM_WORLD);
        ck_assert_int_eq(MPI_Irsend(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req), MPI_SUCCESS);
        ck_assert_int_eq(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
        ck_assert_ptr_eq(req, MPI_REQUEST_NULL);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        ck_assert_int_eq(MPI_Irsend(&v, 1, MPI_INT, 1, -7, MPI_COMM_WORLD, &req), MPI_ERR_TAG);
        ck_assert_int_eq(MPI_Irsend(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, NULL),
                         MPI_ERR_REQUEST);
    }
}

START_TEST(test_irsend)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, irsend_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- Testsome, get_status */

/*
 * Rank 1 waits on three receives (tags 0, 1, 2); rank 0 sends tag 1 alone and waits for an
 * acknowledgement before sending the others. Testsome must report exactly index 1 first
 * (failed polls meanwhile), then the other two.
 */
static void
testsome_rank(int rank, void *arg)
{
    (void)arg;
    int ack = 0;
    if (rank == 0) {
        int v[3] = {10, 11, 12};
        MPI_Send(&v[1], 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Recv(&ack, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&v[2], 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(&v[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        return;
    }
    int got[3] = {0, 0, 0}, indices[3], outcount = -1, polls = 0;
    MPI_Request reqs[3];
    MPI_Status statuses[3];
    for (int i = 0; i < 3; i++)
        MPI_Irecv(&got[i], 1, MPI_INT, 0, i, MPI_COMM_WORLD, &reqs[i]);
    double t0 = MPI_Wtime();
    do {
        ck_assert_int_eq(MPI_Testsome(3, reqs, &outcount, indices, statuses), MPI_SUCCESS);
        polls++;
    } while (outcount == 0);
    ck_assert(polls > 1);
    ck_assert(MPI_Wtime() > t0);   /* failed polls cost time */
    ck_assert_int_eq(outcount, 1);
    ck_assert_int_eq(indices[0], 1);
    ck_assert_int_eq(statuses[0].MPI_TAG, 1);
    ck_assert_int_eq(got[1], 11);
    ck_assert_ptr_eq(reqs[1], MPI_REQUEST_NULL);
    MPI_Send(&ack, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    int done = 0;
    while (done < 2) {
        MPI_Testsome(3, reqs, &outcount, indices, MPI_STATUSES_IGNORE);
        ck_assert_int_ne(outcount, MPI_UNDEFINED);
        for (int i = 0; i < outcount; i++)
            ck_assert(indices[i] == 0 || indices[i] == 2);
        done += outcount;
    }
    ck_assert_int_eq(got[0], 10);
    ck_assert_int_eq(got[2], 12);
    /* no active request left */
    ck_assert_int_eq(MPI_Testsome(3, reqs, &outcount, indices, statuses), MPI_SUCCESS);
    ck_assert_int_eq(outcount, MPI_UNDEFINED);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Testsome(-1, reqs, &outcount, indices, statuses), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Testsome(3, reqs, NULL, indices, statuses), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Testsome(3, reqs, &outcount, NULL, statuses), MPI_ERR_ARG);
}

START_TEST(test_testsome)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, testsome_rank, NULL), 0);
}
END_TEST

/* MPI_Request_get_status reads a request's completion without freeing it. */
static void
get_status_rank(int rank, void *arg)
{
    (void)arg;
    int v = 0;
    if (rank == 0) {
        v = 42;
        MPI_Send(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
        return;
    }
    MPI_Request req;
    MPI_Status status;
    int flag = 0;
    MPI_Irecv(&v, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    while (!flag)
        ck_assert_int_eq(MPI_Request_get_status(req, &flag, &status), MPI_SUCCESS);
    ck_assert_ptr_ne(req, MPI_REQUEST_NULL);
    ck_assert_int_eq(status.MPI_TAG, 5);
    ck_assert_int_eq(status.MPI_SOURCE, 0);
    ck_assert_int_eq(v, 42);
    /* asked again: still complete, still live; the wait then frees it */
    flag = 0;
    MPI_Request_get_status(req, &flag, MPI_STATUS_IGNORE);
    ck_assert_int_eq(flag, 1);
    MPI_Status waited;
    ck_assert_int_eq(MPI_Wait(&req, &waited), MPI_SUCCESS);
    ck_assert_int_eq(waited.MPI_TAG, 5);
    ck_assert_ptr_eq(req, MPI_REQUEST_NULL);
    /* the null request: complete, an empty status */
    flag = 0;
    status.MPI_TAG = 99;
    ck_assert_int_eq(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &status), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(status.MPI_TAG, MPI_ANY_TAG);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_ANY_SOURCE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Request_get_status(MPI_REQUEST_NULL, NULL, &status), MPI_ERR_ARG);
}

START_TEST(test_request_get_status)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, get_status_rank, NULL), 0);
}
END_TEST

/*
 * One MPI_Waitall over requests whose transfers end in an order unlike their slots': rank 0
 * waits for a rendezvous receive from rank 1 in slot 0, then for eager messages from each other
 * rank, SMALL_ROUNDS from each, received into slots by round 0, 2, 1 while they are sent in
 * rounds 0, 1, 2, then for a rendezvous send to rank 1, which rank 1 receives last. The small
 * messages fly together and land one after another, each receive's transfer leaving the wait's
 * set of transfers (sim/transport/wait_set.h) behind the receive of slot 0, whose transfers
 * stay in the set until rank 1 sends. Every request must complete with its own data and status;
 * make check's COLLSIM_CHECK_WAIT_SET checks the set against the requests after every pass.
 */
#define OUT_OF_ORDER_RANKS 34
#define SMALL_ROUNDS 3
#define SMALL_RECVS ((OUT_OF_ORDER_RANKS - 1) * SMALL_ROUNDS)
/* the round (and tag) of the small message received in slot 1 + i: rounds 0, 2, 1 */
#define SLOT_ROUND(i) ((int[]){0, 2, 1}[(i) / (OUT_OF_ORDER_RANKS - 1)])

static void
waitall_out_of_order_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        int *big_in = ints(BIG_INTS, 0), *big_out = ints(BIG_INTS, 1000);
        int small[SMALL_RECVS];
        MPI_Request reqs[SMALL_RECVS + 2];
        MPI_Status statuses[SMALL_RECVS + 2];
        memset(big_in, 0, sizeof(int) * BIG_INTS);
        MPI_Irecv(big_in, BIG_INTS, MPI_INT, 1, 10, MPI_COMM_WORLD, &reqs[0]);
        for (int i = 0; i < SMALL_RECVS; i++) {
            small[i] = -1;
            MPI_Irecv(&small[i], 1, MPI_INT, 1 + i % (OUT_OF_ORDER_RANKS - 1), SLOT_ROUND(i),
                      MPI_COMM_WORLD, &reqs[1 + i]);
        }
        MPI_Isend(big_out, BIG_INTS, MPI_INT, 1, 11, MPI_COMM_WORLD, &reqs[SMALL_RECVS + 1]);
        ck_assert_int_eq(MPI_Waitall(SMALL_RECVS + 2, reqs, statuses), MPI_SUCCESS);
        for (int i = 0; i < SMALL_RECVS + 2; i++)
            ck_assert_ptr_eq(reqs[i], MPI_REQUEST_NULL);
        ck_assert_int_eq(statuses[0].MPI_SOURCE, 1);
        ck_assert_int_eq(statuses[0].MPI_TAG, 10);
        for (int i = 0; i < BIG_INTS; i++)
            ck_assert_int_eq(big_in[i], 2000 + i);
        for (int i = 0; i < SMALL_RECVS; i++) {
            int source = 1 + i % (OUT_OF_ORDER_RANKS - 1);
            ck_assert_int_eq(small[i], 100 * source + SLOT_ROUND(i));
            ck_assert_int_eq(statuses[1 + i].MPI_SOURCE, source);
        }
        free(big_in);
        free(big_out);
        return;
    }
    for (int round = 0; round < SMALL_ROUNDS; round++) {
        int v = 100 * rank + round;
        MPI_Send(&v, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
    }
    if (rank != 1)
        return;
    int *mine = ints(BIG_INTS, 2000), *got = ints(BIG_INTS, 0);
    MPI_Send(mine, BIG_INTS, MPI_INT, 0, 10, MPI_COMM_WORLD);
    memset(got, 0, sizeof(int) * BIG_INTS);
    MPI_Recv(got, BIG_INTS, MPI_INT, 0, 11, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (int i = 0; i < BIG_INTS; i++)
        ck_assert_int_eq(got[i], 1000 + i);
    free(mine);
    free(got);
}

START_TEST(test_waitall_transfers_end_out_of_slot_order)
{
    ck_assert_int_eq(collsim_test_run_ranks(OUT_OF_ORDER_RANKS, waitall_out_of_order_rank, NULL),
                     0);
}
END_TEST

/* ---------------------------------------------------------------- matched probes */

/*
 * Rank 0 sends A (1 int, 100) then B (2 ints, 200 201), same tag. Mprobe takes A out of
 * matching: a later Probe and Recv see B, and only Mrecv receives A.
 */
static void
mprobe_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        int a = 100, b[2] = {200, 201};
        MPI_Send(&a, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
        MPI_Send(b, 2, MPI_INT, 1, 7, MPI_COMM_WORLD);
        return;
    }
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status status;
    int count = -1;
    ck_assert_int_eq(MPI_Mprobe(0, 7, MPI_COMM_WORLD, &msg, &status), MPI_SUCCESS);
    ck_assert_ptr_ne(msg, MPI_MESSAGE_NULL);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 1);
    ck_assert_int_eq(status.MPI_SOURCE, 0);
    ck_assert_int_eq(status.MPI_TAG, 7);
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 2);
    int b[2] = {0, 0}, a = 0;
    MPI_Recv(b, 2, MPI_INT, 0, 7, MPI_COMM_WORLD, &status);
    ck_assert_int_eq(b[0], 200);
    ck_assert_int_eq(b[1], 201);
    ck_assert_int_eq(MPI_Mrecv(&a, 1, MPI_INT, &msg, &status), MPI_SUCCESS);
    ck_assert_int_eq(a, 100);
    ck_assert_ptr_eq(msg, MPI_MESSAGE_NULL);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 1);
    ck_assert_int_eq(status.MPI_TAG, 7);
}

START_TEST(test_mprobe_takes_message_out_of_matching)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, mprobe_rank, NULL), 0);
}
END_TEST

/* Improbe polls (flag 0 until the envelope is here), Imrecv receives a rendezvous message. */
static void
improbe_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        int *big = ints(BIG_INTS, 3);
        MPI_Send(big, BIG_INTS, MPI_INT, 1, 8, MPI_COMM_WORLD);
        free(big);
        return;
    }
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status status;
    int flag = 0, polls = 0;
    while (!flag) {
        ck_assert_int_eq(MPI_Improbe(0, 8, MPI_COMM_WORLD, &flag, &msg, &status), MPI_SUCCESS);
        polls++;
    }
    ck_assert(polls > 1);
    /* no other probe sees it now */
    int other = 1;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &other, MPI_STATUS_IGNORE);
    ck_assert_int_eq(other, 0);
    int *big = calloc(BIG_INTS, sizeof(int));
    MPI_Request req;
    ck_assert_int_eq(MPI_Imrecv(big, BIG_INTS, MPI_INT, &msg, &req), MPI_SUCCESS);
    ck_assert_ptr_eq(msg, MPI_MESSAGE_NULL);
    ck_assert_int_eq(MPI_Wait(&req, &status), MPI_SUCCESS);
    int count = 0;
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, BIG_INTS);
    for (int i = 0; i < BIG_INTS; i++)
        ck_assert_int_eq(big[i], i + 3);
    free(big);
}

START_TEST(test_improbe_imrecv_rendezvous)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, improbe_rank, NULL), 0);
}
END_TEST

/* MPI_PROC_NULL gives MPI_MESSAGE_NO_PROC, whose receive is the empty one; and the errors. */
static void
mprobe_special_rank(int rank, void *arg)
{
    (void)arg;
    if (rank != 0)
        return;
    MPI_Message msg = MPI_MESSAGE_NULL;
    MPI_Status status;
    int v = 5, flag = 0, count = -1;
    ck_assert_int_eq(MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &msg, &status), MPI_SUCCESS);
    ck_assert_ptr_eq(msg, MPI_MESSAGE_NO_PROC);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_PROC_NULL);
    ck_assert_int_eq(MPI_Mrecv(&v, 1, MPI_INT, &msg, &status), MPI_SUCCESS);
    ck_assert_ptr_eq(msg, MPI_MESSAGE_NULL);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_PROC_NULL);
    ck_assert_int_eq(status.MPI_TAG, MPI_ANY_TAG);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(v, 5);
    ck_assert_int_eq(MPI_Improbe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &flag, &msg, &status),
                     MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_eq(msg, MPI_MESSAGE_NO_PROC);
    MPI_Request req;
    ck_assert_int_eq(MPI_Imrecv(&v, 1, MPI_INT, &msg, &req), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Wait(&req, &status), MPI_SUCCESS);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_PROC_NULL);
    /* nothing sent: Improbe finds nothing */
    flag = 1;
    ck_assert_int_eq(MPI_Improbe(1, 0, MPI_COMM_WORLD, &flag, &msg, &status), MPI_SUCCESS);
    ck_assert_int_eq(flag, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    msg = MPI_MESSAGE_NULL;
    ck_assert_int_eq(MPI_Mrecv(&v, 1, MPI_INT, &msg, &status), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Mrecv(&v, 1, MPI_INT, NULL, &status), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Imrecv(&v, 1, MPI_INT, &msg, &req), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Improbe(0, 0, MPI_COMM_WORLD, NULL, &msg, &status), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Mprobe(0, 0, MPI_COMM_WORLD, NULL, &status), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Mprobe(5, 0, MPI_COMM_WORLD, &msg, &status), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Mprobe(0, -5, MPI_COMM_WORLD, &msg, &status), MPI_ERR_TAG);
    ck_assert_int_eq(MPI_Improbe(0, 0, MPI_COMM_NULL, &flag, &msg, &status), MPI_ERR_COMM);
    msg = MPI_MESSAGE_NO_PROC;
    ck_assert_int_eq(MPI_Mrecv(&v, -1, MPI_INT, &msg, &status), MPI_ERR_COUNT);
}

START_TEST(test_mprobe_proc_null_and_errors)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, mprobe_special_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- cancel */

/* A receive that has not matched is cancelled: its wait returns at once, and the message
 * that comes later goes to the next receive. */
static void
cancel_recv_rank(int rank, void *arg)
{
    (void)arg;
    int v = 0;
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        v = 64;
        MPI_Send(&v, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        return;
    }
    MPI_Request req;
    MPI_Status status;
    int flag = -1, dummy = -1;
    MPI_Irecv(&dummy, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req);
    ck_assert_int_eq(MPI_Cancel(&req), MPI_SUCCESS);
    ck_assert_ptr_ne(req, MPI_REQUEST_NULL);   /* still to be completed */
    double t0 = MPI_Wtime();
    ck_assert_int_eq(MPI_Wait(&req, &status), MPI_SUCCESS);
    ck_assert(MPI_Wtime() == t0);
    ck_assert_int_eq(MPI_Test_cancelled(&status, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    /* a wildcard receive too */
    MPI_Irecv(&dummy, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &status);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &status);
    ck_assert_int_eq(v, 64);
    ck_assert_int_eq(dummy, -1);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 0);
}

START_TEST(test_cancel_unmatched_receive)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, cancel_recv_rank, NULL), 0);
}
END_TEST

/*
 * Sends that no receive has matched are withdrawn (an eager one and a rendezvous one): the
 * receiver never sees them, only the send that follows. A send whose receive was posted first
 * has matched: cancelling it has no effect.
 */
static void
cancel_send_rank(int rank, void *arg)
{
    (void)arg;
    int flag = -1;
    MPI_Status status;
    MPI_Request req;
    if (rank == 0) {
        int v = 1, *big = ints(BIG_INTS, 0);
        MPI_Isend(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD, &req);
        ck_assert_int_eq(MPI_Cancel(&req), MPI_SUCCESS);
        MPI_Wait(&req, &status);
        MPI_Test_cancelled(&status, &flag);
        ck_assert_int_eq(flag, 1);
        MPI_Isend(big, BIG_INTS, MPI_INT, 1, 4, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Wait(&req, &status);
        MPI_Test_cancelled(&status, &flag);
        ck_assert_int_eq(flag, 1);
        MPI_Barrier(MPI_COMM_WORLD);
        v = 2;
        MPI_Send(&v, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);   /* rank 1 has posted its receive */
        v = 3;
        MPI_Isend(&v, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Wait(&req, &status);
        MPI_Test_cancelled(&status, &flag);
        ck_assert_int_eq(flag, 0);
        free(big);
        return;
    }
    int v = 0, count = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &status);
    ck_assert_int_eq(v, 2);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 1);
    flag = 1;
    MPI_Iprobe(0, 4, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    ck_assert_int_eq(flag, 0);
    MPI_Irecv(&v, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&req, &status);
    ck_assert_int_eq(v, 3);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 0);
}

START_TEST(test_cancel_send)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, cancel_send_rank, NULL), 0);
}
END_TEST

/* A cancelled rendezvous send, its receiver blocked meanwhile on another message: the
 * withdrawn envelope lands and is ignored. */
static void
cancel_rendezvous_blocked_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Request req;
    MPI_Status status;
    int v = 0;
    if (rank == 0) {
        int *big = ints(BIG_INTS, 0);
        MPI_Isend(big, BIG_INTS, MPI_INT, 1, 1, MPI_COMM_WORLD, &req);
        MPI_Cancel(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        v = 9;
        MPI_Send(&v, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        free(big);
        return;
    }
    MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &status);
    ck_assert_int_eq(v, 9);
    int flag = 1;
    MPI_Iprobe(0, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    ck_assert_int_eq(flag, 0);
}

START_TEST(test_cancel_rendezvous_while_receiver_waits)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, cancel_rendezvous_blocked_rank, NULL), 0);
}
END_TEST

static void
cancel_errors_rank(int rank, void *arg)
{
    (void)arg;
    if (rank != 0)
        return;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Request req = MPI_REQUEST_NULL;
    int flag;
    ck_assert_int_eq(MPI_Cancel(&req), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Cancel(NULL), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Test_cancelled(NULL, &flag), MPI_ERR_ARG);
    MPI_Status status;
    ck_assert_int_eq(MPI_Test_cancelled(&status, NULL), MPI_ERR_ARG);
    /* a receive from MPI_PROC_NULL is complete: cancelling it has no effect */
    int v;
    MPI_Irecv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &req);
    ck_assert_int_eq(MPI_Cancel(&req), MPI_SUCCESS);
    MPI_Wait(&req, &status);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 0);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_PROC_NULL);
    /* a nonblocking collective's request may not be cancelled (MPI-3.1 section 5.12) */
    MPI_Ibarrier(MPI_COMM_SELF, &req);
    ck_assert_int_eq(MPI_Cancel(&req), MPI_ERR_REQUEST);
    ck_assert_int_eq(MPI_Wait(&req, MPI_STATUS_IGNORE), MPI_SUCCESS);
}

START_TEST(test_cancel_errors)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, cancel_errors_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- status setters */

static void
status_setters_rank(int rank, void *arg)
{
    (void)arg;
    if (rank != 0)
        return;
    MPI_Status status;
    int count = -1, flag = -1;
    MPI_Count big = -1;
    memset(&status, 0, sizeof status);
    ck_assert_int_eq(MPI_Status_set_elements(&status, MPI_INT, 3), MPI_SUCCESS);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 3);
    MPI_Get_elements(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 3);
    MPI_Get_elements_x(&status, MPI_INT, &big);
    ck_assert_int_eq(big, 3);
    MPI_Get_count(&status, MPI_BYTE, &count);
    ck_assert_int_eq(count, 12);
    /* a pair type holds two elements per item: three elements are one item and a half */
    MPI_Status_set_elements(&status, MPI_2INT, 3);
    MPI_Get_elements(&status, MPI_2INT, &count);
    ck_assert_int_eq(count, 3);
    MPI_Get_count(&status, MPI_2INT, &count);
    ck_assert_int_eq(count, MPI_UNDEFINED);
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(count, 3);
    /* a struct {int, double}: 1 item (12 packed bytes) and its int (4) */
    int lens[2] = {1, 1};
    MPI_Aint disps[2] = {0, 8};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, mixed;
    MPI_Type_create_struct(2, lens, disps, types, &mixed);
    MPI_Type_commit(&mixed);
    MPI_Status_set_elements(&status, mixed, 3);
    MPI_Get_elements(&status, mixed, &count);
    ck_assert_int_eq(count, 3);
    MPI_Get_count(&status, MPI_BYTE, &count);
    ck_assert_int_eq(count, 16);
    MPI_Type_free(&mixed);
    /* more elements than an int holds */
    ck_assert_int_eq(MPI_Status_set_elements_x(&status, MPI_BYTE, 3000000000LL), MPI_SUCCESS);
    MPI_Get_elements_x(&status, MPI_BYTE, &big);
    ck_assert(big == 3000000000LL);
    MPI_Get_elements(&status, MPI_BYTE, &count);
    ck_assert_int_eq(count, MPI_UNDEFINED);
    MPI_Get_elements_x(&status, MPI_INT, &big);
    ck_assert(big == 750000000LL);
    MPI_Status_set_elements(&status, MPI_BYTE, 3);
    MPI_Get_elements_x(&status, MPI_INT, &big);
    ck_assert(big == MPI_UNDEFINED);
    /* cancelled flag */
    ck_assert_int_eq(MPI_Status_set_cancelled(&status, 1), MPI_SUCCESS);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 1);
    MPI_Status_set_cancelled(&status, 0);
    MPI_Test_cancelled(&status, &flag);
    ck_assert_int_eq(flag, 0);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Status_set_elements(NULL, MPI_INT, 1), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Status_set_elements(&status, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Status_set_elements(&status, MPI_INT, -1), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Status_set_elements_x(&status, MPI_INT, -1), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Status_set_cancelled(NULL, 1), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Get_elements_x(NULL, MPI_INT, &big), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Get_elements_x(&status, MPI_DATATYPE_NULL, &big), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Get_elements_x(&status, MPI_INT, NULL), MPI_ERR_ARG);
}

START_TEST(test_status_setters)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, status_setters_rank, NULL), 0);
}
END_TEST

static Suite *
p2p_more_suite(void)
{
    Suite *s = suite_create("p2p_more");
    TCase *buffered = tcase_create("buffered");
    tcase_add_test(buffered, test_bsend_completes_locally);
    tcase_add_test(buffered, test_bsend_buffer_accounting);
    tcase_add_test(buffered, test_bsend_room_comes_back);
    tcase_add_test(buffered, test_irsend);
    suite_add_tcase(s, buffered);
    TCase *completion = tcase_create("completion");
    tcase_add_test(completion, test_testsome);
    tcase_add_test(completion, test_request_get_status);
    tcase_add_test(completion, test_waitall_transfers_end_out_of_slot_order);
    suite_add_tcase(s, completion);
    TCase *matched = tcase_create("matched_probes");
    tcase_add_test(matched, test_mprobe_takes_message_out_of_matching);
    tcase_add_test(matched, test_improbe_imrecv_rendezvous);
    tcase_add_test(matched, test_mprobe_proc_null_and_errors);
    suite_add_tcase(s, matched);
    TCase *cancel = tcase_create("cancel");
    tcase_add_test(cancel, test_cancel_unmatched_receive);
    tcase_add_test(cancel, test_cancel_send);
    tcase_add_test(cancel, test_cancel_rendezvous_while_receiver_waits);
    tcase_add_test(cancel, test_cancel_errors);
    tcase_add_test(cancel, test_status_setters);
    suite_add_tcase(s, cancel);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(p2p_more_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
