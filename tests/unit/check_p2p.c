/*
 * check_p2p.c — point-to-point semantics and timing (sim/transport/p2p.c), each case one
 * simulation.
 *
 * Expected values are derived here from MPI's rules and from the platform's numbers, never
 * read back from a previous run.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mpi.h"
#include "sim_harness.h"

/* The two hosts of sim_harness.h: one full-duplex link of latency L and bandwidth W. */
#define LINK_LATENCY COLLSIM_TEST_LINK_LATENCY
#define LINK_BANDWIDTH COLLSIM_TEST_LINK_BANDWIDTH

/* ---------------------------------------------------------------- ping-pong timing */

struct pingpong {
    int bytes;
    double elapsed;   /* measured by rank 0 with MPI_Wtime */
};

static void
pingpong_rank(int rank, void *arg)
{
    struct pingpong *pp = arg;
    char *buf = calloc((size_t)pp->bytes + 1, 1);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        MPI_Send(buf, pp->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, pp->bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        pp->elapsed = MPI_Wtime() - t0;
    } else {
        MPI_Recv(buf, pp->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(buf, pp->bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
    free(buf);
}

static double
run_pingpong(int bytes, const char *network_model)
{
    /* the network alone: no software overheads, SMPI's threshold */
    struct sim_config *config = collsim_test_two_hosts_begin(65536);
    g_free(config->simgrid_cfg[0]);
    config->simgrid_cfg[0] = g_strdup_printf("--cfg=network/model:%s", network_model);
    struct pingpong pp = {.bytes = bytes};
    struct sim_outcome outcome;
    ck_assert_int_eq(collsim_test_two_hosts_run(config, pingpong_rank, &pp, &outcome), 0);
    ck_assert_uint_eq(outcome.messages, 2);
    return pp.elapsed;
}

/*
 * CM02 is the plain Hockney model: a transfer of B bytes takes L + B/W. An eager message is
 * one transfer; a rendezvous message is an envelope (one byte: L + 1/W), the receiver's
 * clear-to-send back (one byte: L + 1/W), then the data (L + B/W).
 */
START_TEST(test_pingpong_eager_cm02)
{
    double b = 1000;
    double expected = 2 * (LINK_LATENCY + b / LINK_BANDWIDTH);
    ck_assert_double_eq_tol(run_pingpong((int)b, "CM02"), expected, 1e-12);
}
END_TEST

START_TEST(test_pingpong_rendezvous_cm02)
{
    double b = 1000000;
    double expected = 2 * (3 * LINK_LATENCY + (2 + b) / LINK_BANDWIDTH);
    ck_assert_double_eq_tol(run_pingpong((int)b, "CM02"), expected, 1e-12);
}
END_TEST

/*
 * LV08 (SimGrid's default) corrects latency by 13.01 and bandwidth by 0.97 (Velho & Legrand
 * 2009, the factors SimGrid documents for this model).
 */
START_TEST(test_pingpong_eager_lv08)
{
    double b = 4096;
    double expected = 2 * (13.01 * LINK_LATENCY + b / (0.97 * LINK_BANDWIDTH));
    ck_assert_double_eq_tol(run_pingpong((int)b, "LV08"), expected, 1e-11);
}
END_TEST


/* ---------------------------------------------------------------- NIC, overheads */

/*
 * A star of hosts behind a switch: each host has a private full-duplex link (latency L,
 * bandwidth W per direction), so a message between two hosts crosses two links: 2L + B/W
 * under CM02, and nothing shares a direction of a link unless two messages leave one host or
 * enter one host at once. `cores` ranks fit on each host.
 */
static char *
star_platform(int hosts, int cores)
{
    gchar *xml = g_strdup_printf(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"h\" suffix=\"\" radical=\"0-%d\" speed=\"1Gf\" core=\"%d\"\n"
        "           bw=\"1GBps\" lat=\"10us\" sharing_policy=\"SPLITDUPLEX\"\n"
        "           loopback_bw=\"10GBps\" loopback_lat=\"1us\"/>\n"
        "</platform>\n",
        hosts - 1, cores);
    char *path = collsim_test_platform(xml);
    g_free(xml);
    return path;
}

#define NIC_MAX_RANKS 16

struct fan {
    int bytes;
    int root;                  /* sends to (fan out) or receives from (fan in) every other */
    gboolean fan_in;
    double arrival[NIC_MAX_RANKS]; /* fan out: when rank r had its message; fan in: root's end */
};

static void
fan_rank(int rank, void *arg)
{
    struct fan *f = arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    char *buf = calloc((size_t)f->bytes + 1, 1);
    if (!f->fan_in && rank == f->root) {
        for (int r = 0; r < size; r++)
            if (r != rank)
                MPI_Send(buf, f->bytes, MPI_BYTE, r, 0, MPI_COMM_WORLD);
    } else if (!f->fan_in) {
        MPI_Recv(buf, f->bytes, MPI_BYTE, f->root, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        f->arrival[rank] = MPI_Wtime();
    } else if (rank == f->root) {
        for (int r = 0; r < size; r++)
            if (r != rank)
                MPI_Recv(buf, f->bytes, MPI_BYTE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        f->arrival[rank] = MPI_Wtime();
    } else {
        MPI_Send(buf, f->bytes, MPI_BYTE, f->root, 0, MPI_COMM_WORLD);
    }
    free(buf);
}

static void
run_fan(struct fan *f, int nranks, int hosts, int cores, double send_overhead,
        double recv_overhead, double gap)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    char *platform = star_platform(hosts, cores);
    gchar *cfg[] = {g_strdup("--cfg=network/model:CM02"), g_strdup("--cfg=network/crosstraffic:0"),
                    NULL};
    config.nranks = nranks;
    config.platform_file = platform;
    config.simgrid_cfg = cfg;
    config.transport.send_overhead = send_overhead;
    config.transport.recv_overhead = recv_overhead;
    config.transport.gap = gap;
    config.transport.eager_threshold = 1 << 20; /* every message here is eager */
    ck_assert_int_eq(collsim_test_run_config(&config, fan_rank, f, &outcome), 0);
    g_unlink(platform);
    g_free(platform);
    g_free(cfg[0]);
    g_free(cfg[1]);
}

/* One rank's NIC sends its messages one after the other: the i-th of k back-to-back eager
 * sends starts when the bytes of the i-1 before it have left (B/W each), and their latencies
 * overlap: it lands at 2L + (i+1)B/W, not (i+1)(2L + B/W) as a one-port model would have it. */
START_TEST(test_nic_serialises_bytes_overlaps_latency)
{
    struct fan f = {.bytes = 50000, .root = 0};
    run_fan(&f, 5, 5, 1, 0, 0, 0);
    double wire = f.bytes / LINK_BANDWIDTH;
    for (int r = 1; r < 5; r++)
        ck_assert_double_eq_tol(f.arrival[r], 2 * LINK_LATENCY + r * wire, 1e-12);
}
END_TEST

/* With a gap g larger than B/W, consecutive starts are g apart. */
START_TEST(test_nic_gap_spaces_messages)
{
    struct fan f = {.bytes = 8, .root = 0};
    double gap = 3e-6;
    run_fan(&f, 5, 5, 1, 0, 0, gap);
    for (int r = 1; r < 5; r++)
        ck_assert_double_eq_tol(f.arrival[r], (r - 1) * gap + 2 * LINK_LATENCY + 8 / LINK_BANDWIDTH,
                                1e-12);
}
END_TEST

/* The sender's CPU is busy o_s per message before the NIC sees it. */
START_TEST(test_send_overhead_per_message)
{
    struct fan f = {.bytes = 8, .root = 0};
    double os = 2e-6;
    run_fan(&f, 5, 5, 1, os, 0, 0);
    for (int r = 1; r < 5; r++)
        ck_assert_double_eq_tol(f.arrival[r], r * os + 2 * LINK_LATENCY + 8 / LINK_BANDWIDTH, 1e-12);
}
END_TEST

/* A fan-in pays the receive overhead once per message: P-1 messages sent at once share the
 * root's incoming link (all land at 2L + (P-1)B/W), then the root spends o_r on each. */
START_TEST(test_fan_in_pays_receive_overhead_per_message)
{
    struct fan f = {.bytes = 8, .root = 0, .fan_in = TRUE};
    double orecv = 1e-6;
    int p = 16;
    run_fan(&f, p, p, 1, 0, orecv, 0);
    double expected = 2 * LINK_LATENCY + (p - 1) * 8 / LINK_BANDWIDTH + (p - 1) * orecv;
    ck_assert_double_eq_tol(f.arrival[0], expected, 1e-12);
    ck_assert(f.arrival[0] >= (p - 1) * orecv);
}
END_TEST

/* The ranks of one host share its NIC: two ranks of host 0 sending at the same instant to
 * host 1 leave one after the other, B/W apart. Messages inside a host do not use the NIC. */
START_TEST(test_ranks_of_a_host_share_its_nic)
{
    struct fan f = {.bytes = 40000, .root = 0};
    /* rank 0 (host 0) sends to rank 1 (host 0, through memory) and ranks 2, 3 (host 1) */
    run_fan(&f, 4, 2, 2, 0, 0, 0);
    double wire = f.bytes / LINK_BANDWIDTH;
    /* rank 1 first, inside the node: loopback 1 us + B / 10 GB/s */
    ck_assert_double_eq_tol(f.arrival[1], 1e-6 + f.bytes / 10e9, 1e-12);
    ck_assert_double_eq_tol(f.arrival[2], 2 * LINK_LATENCY + wire, 1e-12);
    ck_assert_double_eq_tol(f.arrival[3], 2 * LINK_LATENCY + 2 * wire, 1e-12);
}
END_TEST

/* Two ranks of one node talk through its memory bus, one message at a time: rank 0 sends
 * to ranks 1, 2, 3 of its own 4-core host at once; the loopback carries each in 1 us +
 * B / 10 GB/s, and the bus starts them B / 10 GB/s apart. */
START_TEST(test_memory_bus_is_shared_inside_a_node)
{
    struct fan f = {.bytes = 40000, .root = 0};
    run_fan(&f, 4, 1, 4, 0, 0, 0);
    double copy = f.bytes / 10e9;
    for (int r = 1; r < 4; r++)
        ck_assert_double_eq_tol(f.arrival[r], 1e-6 + r * copy, 1e-12);
}
END_TEST

/* ---------------------------------------------------------------- matching */

static void
wildcard_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank != 0) {
        int payload[3] = {rank, rank * 10, rank * 100};
        MPI_Send(payload, rank % 3 + 1, MPI_INT, 0, 40 + rank, MPI_COMM_WORLD);
        return;
    }
    int seen = 0;
    for (int i = 1; i < size; i++) {
        int got[3] = {0, 0, 0};
        MPI_Status status;
        MPI_Recv(got, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        int count;
        MPI_Get_count(&status, MPI_INT, &count);
        int src = status.MPI_SOURCE;
        ck_assert_int_ge(src, 1);
        ck_assert_int_lt(src, size);
        ck_assert_int_eq(status.MPI_TAG, 40 + src);
        ck_assert_int_eq(count, src % 3 + 1);
        ck_assert_int_eq(got[0], src);
        seen |= 1 << src;
    }
    ck_assert_int_eq(seen, ((1 << size) - 1) & ~1);
}

START_TEST(test_any_source_any_tag)
{
    ck_assert_int_eq(collsim_test_run_ranks(5, wildcard_rank, NULL), 0);
}
END_TEST

/* Messages between one pair arrive in sending order, whatever their sizes and protocols. */
static void
non_overtaking_rank(int rank, void *arg)
{
    (void)arg;
    const int sizes[] = {4, 200000, 16, 100000, 8};
    const int n = G_N_ELEMENTS(sizes);
    if (rank == 0) {
        for (int i = 0; i < n; i++) {
            int *buf = calloc((size_t)sizes[i], sizeof(int));
            buf[0] = i;
            MPI_Send(buf, sizes[i], MPI_INT, 1, 7, MPI_COMM_WORLD);
            free(buf);
        }
    } else if (rank == 1) {
        for (int i = 0; i < n; i++) {
            int *buf = calloc(200000, sizeof(int));
            MPI_Status status;
            MPI_Recv(buf, 200000, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            int count;
            MPI_Get_count(&status, MPI_INT, &count);
            ck_assert_int_eq(buf[0], i);
            ck_assert_int_eq(count, sizes[i]);
            free(buf);
        }
    }
}

START_TEST(test_non_overtaking)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, non_overtaking_rank, NULL), 0);
}
END_TEST

/* Unexpected messages from several sources wait in one queue per source (the first source's
 * kept apart, the others in a table, an emptied one kept for reuse: p2p.c): receives by
 * source and tag in a scrambled order, by wildcard, and from a source whose queue emptied and
 * fills again, each get the right message, a source's messages in sending order. */
static void
many_sources_rank(int rank, void *arg)
{
    (void)arg;
    if (rank != 0) {
        for (int tag = 0; tag < 3; tag++) {
            int v = rank * 10 + tag;
            MPI_Send(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
        }
        if (rank == 4) {
            int go = 0, v = 99;
            MPI_Send(&v, 1, MPI_INT, 0, 99, MPI_COMM_WORLD); /* all of the above are queued */
            MPI_Recv(&go, 1, MPI_INT, 0, 98, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int tag = 3; tag < 5; tag++) {
                v = rank * 10 + tag;
                MPI_Send(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
            }
        }
        return;
    }
    int v = -1, left[5] = {0, 3, 3, 3, 3}, next_tag[5] = {0, 0, 0, 0, 0};
    MPI_Status st;
    MPI_Recv(&v, 1, MPI_INT, 4, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    /* by source and tag, out of sending order: the source's earlier messages stay queued */
    const int picks[][2] = {{2, 1}, {3, 2}, {1, 2}, {2, 0}, {3, 0}};
    for (gsize i = 0; i < G_N_ELEMENTS(picks); i++) {
        MPI_Recv(&v, 1, MPI_INT, picks[i][0], picks[i][1], MPI_COMM_WORLD, &st);
        ck_assert_int_eq(v, picks[i][0] * 10 + picks[i][1]);
        left[picks[i][0]]--;
    }
    /* rank 1 is down to tags 0 and 1, rank 2 to tag 2, rank 3 to tag 1, rank 4 has all three */
    next_tag[2] = 2;
    next_tag[3] = 1;
    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    ck_assert_int_eq(v, st.MPI_SOURCE * 10 + st.MPI_TAG);
    ck_assert_int_eq(st.MPI_TAG, next_tag[st.MPI_SOURCE]); /* a source's oldest first */
    next_tag[st.MPI_SOURCE] = st.MPI_SOURCE == 1 && st.MPI_TAG == 0 ? 1 : st.MPI_TAG + 1;
    left[st.MPI_SOURCE]--;
    for (int src = 1; src <= 3; src++)
        while (left[src] > 0) {
            MPI_Recv(&v, 1, MPI_INT, src, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
            ck_assert_int_eq(st.MPI_TAG, next_tag[src]);
            ck_assert_int_eq(v, src * 10 + st.MPI_TAG);
            next_tag[src] = src == 1 && st.MPI_TAG == 0 ? 1 : st.MPI_TAG + 1;
            left[src]--;
        }
    /* rank 4's queue empties, then takes two more messages */
    for (int tag = next_tag[4]; tag < 3; tag++) {
        MPI_Recv(&v, 1, MPI_INT, 4, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        ck_assert_int_eq(st.MPI_TAG, tag);
        ck_assert_int_eq(v, 40 + tag);
    }
    int go = 1;
    MPI_Send(&go, 1, MPI_INT, 4, 98, MPI_COMM_WORLD);
    for (int tag = 4; tag >= 3; tag--) {
        MPI_Recv(&v, 1, MPI_INT, 4, tag, MPI_COMM_WORLD, &st);
        ck_assert_int_eq(v, 40 + tag);
    }
}

START_TEST(test_unexpected_from_many_sources)
{
    ck_assert_int_eq(collsim_test_run_ranks(5, many_sources_rank, NULL), 0);
}
END_TEST

/* A receive by tag may take a later message first; the earlier one waits unexpected. */
static void
tag_selection_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        int a = 1, b = 2;
        MPI_Send(&a, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(&b, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        int x = 0, y = 0;
        MPI_Recv(&y, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(x, 1);
        ck_assert_int_eq(y, 2);
    }
}

START_TEST(test_tag_selection)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, tag_selection_rank, NULL), 0);
}
END_TEST

static void
truncate_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        int big[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        MPI_Send(big, 10, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        int small[5] = {0};
        MPI_Status status;
        status.MPI_ERROR = MPI_ERR_DIMS;
        int rc = MPI_Recv(small, 5, MPI_INT, 0, 0, MPI_COMM_WORLD, &status);
        ck_assert_int_eq(rc, MPI_ERR_TRUNCATE);
        /* the code is the call's; a single status's MPI_ERROR is the program's (3.2.5) */
        ck_assert_int_eq(status.MPI_ERROR, MPI_ERR_DIMS);
        ck_assert_int_eq(status.MPI_SOURCE, 0);
        ck_assert_int_eq(small[4], 4);
    }
}

START_TEST(test_truncation_is_reported)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, truncate_rank, NULL), 0);
}
END_TEST

static void
longer_receive_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 0) {
        double v[3] = {1.5, 2.5, 3.5};
        MPI_Send(v, 3, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else {
        double v[8] = {0};
        MPI_Status status;
        int count;
        MPI_Recv(v, 8, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_DOUBLE, &count);
        ck_assert_int_eq(count, 3);
        ck_assert(v[2] == 3.5 && v[3] == 0.0);
    }
}

START_TEST(test_receive_longer_than_message)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, longer_receive_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- non-blocking */

static void
ring_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int out[2] = {rank, -rank}, in[2] = {-1, -1};
    MPI_Request reqs[2];
    MPI_Status statuses[2];
    MPI_Irecv(in, 2, MPI_INT, left, 3, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(out, 2, MPI_INT, right, 3, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, statuses);
    ck_assert(reqs[0] == MPI_REQUEST_NULL && reqs[1] == MPI_REQUEST_NULL);
    ck_assert_int_eq(in[0], left);
    ck_assert_int_eq(in[1], -left);
    ck_assert_int_eq(statuses[0].MPI_SOURCE, left);

    /* Sendrecv_replace passes a token around the other way */
    int token = rank * 3;
    MPI_Sendrecv_replace(&token, 1, MPI_INT, left, 4, right, 4, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    ck_assert_int_eq(token, right * 3);
}

START_TEST(test_ring_nonblocking_and_replace)
{
    ck_assert_int_eq(collsim_test_run_ranks(7, ring_rank, NULL), 0);
}
END_TEST

static void
waitany_test_rank(int rank, void *arg)
{
    (void)arg;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        int vals[8];
        MPI_Request reqs[8];
        for (int i = 1; i < size; i++)
            MPI_Irecv(&vals[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &reqs[i - 1]);
        int got = 0;
        for (int k = 1; k < size; k++) {
            int index;
            MPI_Status status;
            MPI_Waitany(size - 1, reqs, &index, &status);
            ck_assert_int_eq(status.MPI_SOURCE, index + 1);
            ck_assert_int_eq(vals[index + 1], (index + 1) * 11);
            got++;
        }
        ck_assert_int_eq(got, size - 1);
        int index;
        MPI_Waitany(size - 1, reqs, &index, MPI_STATUS_IGNORE);
        ck_assert_int_eq(index, MPI_UNDEFINED);
    } else {
        int v = rank * 11;
        MPI_Request req;
        int flag = 0;
        MPI_Isend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        ck_assert(req == MPI_REQUEST_NULL);
    }
}

START_TEST(test_waitany_and_test)
{
    ck_assert_int_eq(collsim_test_run_ranks(6, waitany_test_rank, NULL), 0);
}
END_TEST

/* A receiver polling with MPI_Test must see simulated time advance until the data lands. */
static void
polling_rank(int rank, void *arg)
{
    (void)arg;
    enum { BIG = 100000 };
    char *big = malloc(BIG);
    if (rank == 0) {
        memset(big, 'x', BIG);
        MPI_Send(big, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Request req;
        int flag = 0;
        MPI_Irecv(big, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        ck_assert(big[BIG - 1] == 'x');
        ck_assert(MPI_Wtime() > 0);
    }
    free(big);
}

START_TEST(test_polling_advances_time)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, polling_rank, NULL), 0);
}
END_TEST

static void
probe_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 1) {
        long v[17];
        for (int i = 0; i < 17; i++)
            v[i] = i;
        MPI_Send(v, 17, MPI_LONG, 0, 9, MPI_COMM_WORLD);
    } else if (rank == 0) {
        MPI_Status status;
        int flag = 1;
        MPI_Iprobe(1, 8, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        ck_assert_int_eq(flag, 0);
        MPI_Probe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &status);
        int count;
        MPI_Get_count(&status, MPI_LONG, &count);
        ck_assert_int_eq(count, 17);
        ck_assert_int_eq(status.MPI_SOURCE, 1);
        MPI_Iprobe(1, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        ck_assert_int_eq(flag, 1);
        long *v = malloc(sizeof(long) * (size_t)count);
        MPI_Recv(v, count, MPI_LONG, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
        ck_assert_int_eq(v[16], 16);
        free(v);
    }
}

START_TEST(test_probe_then_receive)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, probe_rank, NULL), 0);
}
END_TEST

static void
proc_null_rank(int rank, void *arg)
{
    (void)arg;
    (void)rank;
    int v = 5;
    MPI_Status status;
    MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &status);
    int count = -1;
    MPI_Get_count(&status, MPI_INT, &count);
    ck_assert_int_eq(status.MPI_SOURCE, MPI_PROC_NULL);
    ck_assert_int_eq(status.MPI_TAG, MPI_ANY_TAG);
    ck_assert_int_eq(count, 0);
    ck_assert_int_eq(v, 5);
}

START_TEST(test_proc_null)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, proc_null_rank, NULL), 0);
}
END_TEST

/* A strided column travels packed and lands contiguous. */
static void
derived_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 3, MPI_INT, &column);
    MPI_Type_commit(&column);
    if (rank == 0) {
        int matrix[4][3];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                matrix[i][j] = 10 * i + j;
        MPI_Send(&matrix[0][1], 1, column, 1, 0, MPI_COMM_WORLD);
    } else {
        int col[4] = {0};
        MPI_Recv(col, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(col[0], 1);
        ck_assert_int_eq(col[1], 11);
        ck_assert_int_eq(col[2], 21);
        ck_assert_int_eq(col[3], 31);
    }
    MPI_Type_free(&column);
}

START_TEST(test_derived_datatype_packing)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, derived_rank, NULL), 0);
}
END_TEST

/*
 * Eager messages to receives already posted when they are sent: the payload goes straight
 * into the receive buffer (p2p.c, eager_place). Rank 1 posts its receives, then lets rank 0
 * send; each must land as an unexpected message would: truncated at the buffer's end with
 * MPI_ERR_TRUNCATE, into a strided receive type, and from a strided send type.
 */
static void
preposted_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Datatype column;
    MPI_Type_vector(4, 1, 3, MPI_INT, &column);
    MPI_Type_commit(&column);
    if (rank == 0) {
        int go = 0;
        MPI_Recv(&go, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        int big[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        MPI_Send(big, 10, MPI_INT, 1, 0, MPI_COMM_WORLD);
        int four[4] = {100, 101, 102, 103};
        MPI_Send(four, 4, MPI_INT, 1, 1, MPI_COMM_WORLD);
        int matrix[4][3];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                matrix[i][j] = 10 * i + j;
        MPI_Send(&matrix[0][2], 1, column, 1, 2, MPI_COMM_WORLD);
    } else {
        int small[6] = {-1, -1, -1, -1, -1, -7};   /* receives 5; the sixth must stay */
        int grid[4][3];
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 3; j++)
                grid[i][j] = -1;
        int col[4] = {0};
        MPI_Request reqs[3];
        MPI_Status statuses[3];
        MPI_Irecv(small, 5, MPI_INT, 0, 0, MPI_COMM_WORLD, &reqs[0]);
        MPI_Irecv(&grid[0][1], 1, column, 0, 1, MPI_COMM_WORLD, &reqs[1]);
        MPI_Irecv(col, 4, MPI_INT, 0, 2, MPI_COMM_WORLD, &reqs[2]);
        int go = 1;
        MPI_Send(&go, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
        ck_assert_int_eq(MPI_Waitall(3, reqs, statuses), MPI_ERR_IN_STATUS);
        ck_assert_int_eq(statuses[0].MPI_ERROR, MPI_ERR_TRUNCATE);
        for (int i = 0; i < 5; i++)
            ck_assert_int_eq(small[i], i);
        ck_assert_int_eq(small[5], -7);
        ck_assert_int_eq(statuses[1].MPI_ERROR, MPI_SUCCESS);
        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(grid[i][0], -1);
            ck_assert_int_eq(grid[i][1], 100 + i);
            ck_assert_int_eq(grid[i][2], -1);
        }
        ck_assert_int_eq(statuses[2].MPI_ERROR, MPI_SUCCESS);
        for (int i = 0; i < 4; i++)
            ck_assert_int_eq(col[i], 10 * i + 2);
        int got = 0;
        MPI_Get_count(&statuses[1], MPI_INT, &got);
        ck_assert_int_eq(got, 4);
    }
    MPI_Type_free(&column);
}

START_TEST(test_preposted_receives_take_eager_data)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, preposted_rank, NULL), 0);
}
END_TEST

/* ---------------------------------------------------------------- errors */

static void
argument_errors_rank(int rank, void *arg)
{
    (void)arg;
    (void)rank;
    int v = 0;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 2, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, -5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 0, -3, MPI_COMM_WORLD), MPI_ERR_TAG);
    ck_assert_int_eq(MPI_Send(&v, -1, MPI_INT, 0, 0, MPI_COMM_WORLD), MPI_ERR_COUNT);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
    ck_assert_int_eq(MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_NULL), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Recv(&v, 1, MPI_INT, 0, MPI_ANY_TAG - 1, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE),
                     MPI_ERR_TAG);
    ck_assert_int_eq(MPI_Wait(NULL, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
}

START_TEST(test_argument_errors_return_classes)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, argument_errors_rank, NULL), 0);
}
END_TEST

static void
fatal_error_rank(int rank, void *arg)
{
    (void)arg;
    int v = 0;
    if (rank == 1)
        MPI_Send(&v, 1, MPI_INT, 9, 0, MPI_COMM_WORLD);
}

START_TEST(test_fatal_error_ends_simulation)
{
    collsim_test_run_ranks(2, fatal_error_rank, NULL);
    ck_abort_msg("a fatal MPI error must end the process");
}
END_TEST

static void
deadlock_rank(int rank, void *arg)
{
    (void)arg;
    int v;
    MPI_Recv(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

START_TEST(test_deadlock_is_reported)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, deadlock_rank, NULL), SIM_EXIT_DEADLOCK);
}
END_TEST

/* ---------------------------------------------------------------- payload mode */

/* Sizes only: a message sent from the run's payload scratch (what MPI_Alloc_mem gives with
 * MPI_COMM_SELF's info there) carries its size alone; one sent from the rank's own memory
 * arrives, eager or rendezvous. */
enum { PAYLOAD_BIG = 1 << 16 }; /* ints: above the eager threshold */

static void
payload_none_rank(int rank, void *arg)
{
    double *elapsed = arg;
    MPI_Info info;
    int *scratch = NULL;
    int *own = calloc(PAYLOAD_BIG, sizeof(int));
    ck_assert_ptr_nonnull(own);
    ck_assert_int_eq(MPI_Comm_get_info(MPI_COMM_SELF, &info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Alloc_mem(PAYLOAD_BIG * (MPI_Aint)sizeof(int), info, &scratch),
                     MPI_SUCCESS);
    MPI_Info_free(&info);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        int v = 42;
        for (int i = 0; i < PAYLOAD_BIG; i++)
            own[i] = scratch[i] = i + 1;
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(own, PAYLOAD_BIG, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Send(scratch, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
        MPI_Send(scratch, PAYLOAD_BIG, MPI_INT, 1, 3, MPI_COMM_WORLD);
    } else {
        int v = 0;
        MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 42);
        MPI_Recv(own, PAYLOAD_BIG, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(own[0], 1);
        ck_assert_int_eq(own[PAYLOAD_BIG - 1], PAYLOAD_BIG);
        memset(own, 0, PAYLOAD_BIG * sizeof(int));
        v = 0;
        MPI_Recv(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(v, 0);
        MPI_Recv(own, PAYLOAD_BIG, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        ck_assert_int_eq(own[0], 0);
        ck_assert_int_eq(own[PAYLOAD_BIG - 1], 0);
        *elapsed = MPI_Wtime() - t0;
    }
    MPI_Free_mem(scratch);
    free(own);
}

START_TEST(test_payload_none_moves_no_scratch_bytes)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.nranks = 2;
    config.payload = SIM_PAYLOAD_NONE;
    double elapsed = 0;
    ck_assert_int_eq(collsim_test_run_config(&config, payload_none_rank, &elapsed, &outcome),
                     0);
    ck_assert_uint_eq(outcome.bytes, 2 * (4 + 4 * PAYLOAD_BIG));
    ck_assert(elapsed > 0);
}
END_TEST

static Suite *
p2p_suite(void)
{
    Suite *s = suite_create("p2p");
    TCase *timing = tcase_create("timing");
    tcase_add_test(timing, test_pingpong_eager_cm02);
    tcase_add_test(timing, test_pingpong_rendezvous_cm02);
    tcase_add_test(timing, test_pingpong_eager_lv08);
    tcase_add_test(timing, test_nic_serialises_bytes_overlaps_latency);
    tcase_add_test(timing, test_nic_gap_spaces_messages);
    tcase_add_test(timing, test_send_overhead_per_message);
    tcase_add_test(timing, test_fan_in_pays_receive_overhead_per_message);
    tcase_add_test(timing, test_ranks_of_a_host_share_its_nic);
    tcase_add_test(timing, test_memory_bus_is_shared_inside_a_node);
    suite_add_tcase(s, timing);
    TCase *matching = tcase_create("matching");
    tcase_add_test(matching, test_any_source_any_tag);
    tcase_add_test(matching, test_non_overtaking);
    tcase_add_test(matching, test_tag_selection);
    tcase_add_test(matching, test_unexpected_from_many_sources);
    tcase_add_test(matching, test_truncation_is_reported);
    tcase_add_test(matching, test_receive_longer_than_message);
    tcase_add_test(matching, test_proc_null);
    tcase_add_test(matching, test_derived_datatype_packing);
    tcase_add_test(matching, test_preposted_receives_take_eager_data);
    suite_add_tcase(s, matching);
    TCase *nonblocking = tcase_create("nonblocking");
    tcase_add_test(nonblocking, test_ring_nonblocking_and_replace);
    tcase_add_test(nonblocking, test_waitany_and_test);
    tcase_add_test(nonblocking, test_polling_advances_time);
    tcase_add_test(nonblocking, test_probe_then_receive);
    suite_add_tcase(s, nonblocking);
    TCase *errors = tcase_create("errors");
    tcase_add_test(errors, test_argument_errors_return_classes);
    tcase_add_exit_test(errors, test_fatal_error_ends_simulation, 3);
    tcase_add_test(errors, test_deadlock_is_reported);
    tcase_add_test(errors, test_payload_none_moves_no_scratch_bytes);
    suite_add_tcase(s, errors);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(p2p_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
