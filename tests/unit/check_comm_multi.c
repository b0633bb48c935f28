/*
 * check_comm_multi.c — MPI_Comm_split / MPI_Comm_dup / MPI_Comm_create on many simulated
 * ranks, through the real transport.
 *
 * Runs inside simulations started by collsim_test_run_ranks() (tests/unit/sim_harness.h),
 * which runs fn(rank, arg) on every rank of a fresh world, as an MPI program between
 * MPI_Init and MPI_Finalize, and returns 0 when every rank returned. The rank functions
 * only record what they see in the arrays below; the assertions run afterwards, outside the
 * simulation, against values worked out by hand or by a naive reference (a plain stable
 * sort of (key, rank) per color).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "sim_harness.h"
#include "src/comm.h"

#define MAXR 1024   /* largest world these tests run */
#define MAXM 128    /* largest communicator whose member list is recorded */

/* What each world rank saw. */
static struct seen {
    int rc;
    MPI_Comm comm;       /* the new communicator's handle (compared, never printed) */
    unsigned context;
    int size;
    int rank;
    int members[MAXM];   /* world ranks of the new communicator, in its order */
    int received;        /* payload of the ring exchange */
    int compare_world;
    int rc2;
    int received2;
} seen[MAXR];

static void
reset_seen(void)
{
    memset(seen, 0, sizeof seen);
    for (int r = 0; r < MAXR; r++) {
        seen[r].comm = MPI_COMM_WORLD;   /* sentinel: "not written" */
        seen[r].received = -1;
    }
}

static void
teardown_world(void)
{
    collsim_comm_world_teardown();
}

/* Record size, rank, members, context and MPI_Comm_compare with the world. */
static void
record(int world_rank, MPI_Comm comm)
{
    struct seen *s = &seen[world_rank];
    s->comm = comm;
    if (comm == MPI_COMM_NULL)
        return;
    s->context = comm->context;
    MPI_Comm_size(comm, &s->size);
    MPI_Comm_rank(comm, &s->rank);
    MPI_Comm_compare(comm, MPI_COMM_WORLD, &s->compare_world);
    if (s->size > MAXM)
        return;
    MPI_Group g, w;
    MPI_Comm_group(comm, &g);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    for (int i = 0; i < s->size; i++)
        MPI_Group_translate_ranks(g, 1, &i, w, &s->members[i]);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
}

/* Each member sends its world rank to the next rank of comm and receives the previous's. */
static void
ring(int world_rank, MPI_Comm comm)
{
    int size, rank;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    MPI_Sendrecv(&world_rank, 1, MPI_INT, (rank + 1) % size, 7, &seen[world_rank].received, 1,
                 MPI_INT, (rank - 1 + size) % size, 7, comm, MPI_STATUS_IGNORE);
}

static void
assert_members(int world_rank, int n, const int *expected)
{
    ck_assert_int_eq(seen[world_rank].size, n);
    for (int i = 0; i < n; i++)
        ck_assert_msg(seen[world_rank].members[i] == expected[i],
                      "rank %d: member %d is %d, expected %d", world_rank, i,
                      seen[world_rank].members[i], expected[i]);
}

/* ---------------------------------------------------------------- split */

static void
split_parity_reversed(int rank, void *arg)
{
    (void)arg;
    MPI_Comm c;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &c);
    record(rank, c);
    ring(rank, c);
    MPI_Comm_free(&c);
    seen[rank].rc2 = c == MPI_COMM_NULL ? MPI_SUCCESS : -1;
}

static void
split_sizes_only(int rank, void *arg)
{
    (void)arg;
    MPI_Comm c;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &c);
    record(rank, c);
    MPI_Comm_free(&c);
}

/* In payload mode none user messages carry no bytes, but communicator construction must
 * still see the real addresses and colors: color = rank mod 3 on 7 ranks gives sizes 3,2,2. */
START_TEST(test_comm_multi_split_in_payload_none_mode)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.nranks = 7;
    config.payload = SIM_PAYLOAD_NONE;
    reset_seen();
    ck_assert_int_eq(collsim_test_run_config(&config, split_sizes_only, NULL, &outcome), 0);
    const int size[7] = {3, 2, 2, 3, 2, 2, 3};
    const int new_rank[7] = {0, 0, 0, 1, 1, 1, 2};
    for (int r = 0; r < 7; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].size, size[r]);
        ck_assert_int_eq(seen[r].rank, new_rank[r]);
    }
}
END_TEST

/* World of 6, color = parity, key = -rank: evens {4,2,0}, odds {5,3,1}. */
START_TEST(test_comm_multi_split_by_parity_with_reversed_keys)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(6, split_parity_reversed, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    const int new_rank[6] = {2, 2, 1, 1, 0, 0};
    const int received[6] = {2, 3, 4, 5, 0, 1};   /* world rank of the ring predecessor */
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].rank, new_rank[r]);
        ck_assert_int_eq(seen[r].received, received[r]);
        ck_assert_int_eq(seen[r].compare_world, MPI_UNEQUAL);
        ck_assert_int_eq(seen[r].rc2, MPI_SUCCESS);   /* freed handle is MPI_COMM_NULL */
        assert_members(r, 3, r % 2 == 0 ? (int[]){4, 2, 0} : (int[]){5, 3, 1});
        /* one shared object per color; contexts in color order: 4 for 0, 6 for 1 */
        ck_assert_ptr_eq(seen[r].comm, seen[r % 2].comm);
        ck_assert_uint_eq(seen[r].context, r % 2 == 0 ? 4 : 6);
    }
    ck_assert_ptr_ne(seen[0].comm, seen[1].comm);
}
END_TEST

static void
split_undefined_ties(int rank, void *arg)
{
    (void)arg;
    MPI_Comm c;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 3 == 0 ? MPI_UNDEFINED : 1, 0, &c);
    record(rank, c);
    if (c != MPI_COMM_NULL) {
        ring(rank, c);
        MPI_Comm_free(&c);
    }
}

/* World of 7: ranks 0, 3, 6 opt out; equal keys keep the parent order {1,2,4,5}. */
START_TEST(test_comm_multi_split_undefined_color_and_equal_keys)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(7, split_undefined_ties, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    const int new_rank[7] = {-1, 0, 1, -1, 2, 3, -1};
    const int received[7] = {-1, 5, 1, -1, 2, 4, -1};
    for (int r = 0; r < 7; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        if (r % 3 == 0) {
            ck_assert_ptr_eq(seen[r].comm, MPI_COMM_NULL);
            continue;
        }
        ck_assert_int_eq(seen[r].rank, new_rank[r]);
        ck_assert_int_eq(seen[r].received, received[r]);
        ck_assert_uint_eq(seen[r].context, 4);
        assert_members(r, 4, (int[]){1, 2, 4, 5});
    }
}
END_TEST

/* ---------------------------------------------------------------- dup */

static void
dup_then_traffic(int rank, void *arg)
{
    (void)arg;
    MPI_Comm d;
    seen[rank].rc = MPI_Comm_dup(MPI_COMM_WORLD, &d);
    record(rank, d);
    /* same tag, same peers: only the context tells the two messages apart */
    int a = 111, b = 222;
    if (rank == 0) {
        MPI_Send(&a, 1, MPI_INT, 1, 0, d);
        MPI_Send(&b, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&seen[rank].received, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&seen[rank].received2, 1, MPI_INT, 0, 0, d, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&d);
}

START_TEST(test_comm_multi_dup_isolates_traffic)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(4, dup_then_traffic, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].rank, r);
        ck_assert_int_eq(seen[r].compare_world, MPI_CONGRUENT);
        ck_assert_uint_eq(seen[r].context, 4);
        ck_assert_ptr_eq(seen[r].comm, seen[0].comm);
        assert_members(r, 4, (int[]){0, 1, 2, 3});
    }
    ck_assert_int_eq(seen[1].received, 222);    /* the world's message, though sent second */
    ck_assert_int_eq(seen[1].received2, 111);   /* the dup's */
}
END_TEST

/* ---------------------------------------------------------------- create */

static void
create_from_subgroup(int rank, void *arg)
{
    (void)arg;
    MPI_Group w, g;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_incl(w, 3, (int[]){5, 0, 3}, &g);
    seen[rank].rc = MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    record(rank, c);
    if (c != MPI_COMM_NULL) {
        ring(rank, c);
        MPI_Comm_free(&c);
    }
    MPI_Group_free(&g);
    MPI_Group_free(&w);
}

/* World of 6, group {5,0,3}: its members get ranks 0,1,2 in that order; others MPI_COMM_NULL. */
START_TEST(test_comm_multi_create_from_subgroup)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(6, create_from_subgroup, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    const int new_rank[6] = {1, -1, -1, 2, -1, 0};
    const int received[6] = {5, -1, -1, 0, -1, 3};
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        if (new_rank[r] < 0) {
            ck_assert_ptr_eq(seen[r].comm, MPI_COMM_NULL);
            continue;
        }
        ck_assert_int_eq(seen[r].rank, new_rank[r]);
        ck_assert_int_eq(seen[r].received, received[r]);
        ck_assert_int_eq(seen[r].compare_world, MPI_UNEQUAL);
        ck_assert_uint_eq(seen[r].context, 4);
        assert_members(r, 3, (int[]){5, 0, 3});
    }
}
END_TEST

static void
create_disjoint(int rank, void *arg)
{
    (void)arg;
    MPI_Group w, g;
    MPI_Comm c;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    MPI_Group_incl(w, 3, rank % 2 == 0 ? (int[]){0, 2, 4} : (int[]){5, 3, 1}, &g);
    seen[rank].rc = MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    record(rank, c);
    ring(rank, c);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Group_free(&w);
}

/* MPI-2.2: evens pass {0,2,4}, odds pass {5,3,1}; one communicator each. */
START_TEST(test_comm_multi_create_disjoint_groups)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(6, create_disjoint, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    const int new_rank[6] = {0, 2, 1, 1, 2, 0};
    const int received[6] = {4, 3, 0, 5, 2, 1};
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].rank, new_rank[r]);
        ck_assert_int_eq(seen[r].received, received[r]);
        /* colors are the parent rank of each group's rank 0: 0 (evens) before 5 (odds) */
        ck_assert_uint_eq(seen[r].context, r % 2 == 0 ? 4 : 6);
        assert_members(r, 3, r % 2 == 0 ? (int[]){0, 2, 4} : (int[]){5, 3, 1});
    }
}
END_TEST

static void
create_mismatch(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group w, g;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    if (rank < 2)
        MPI_Group_incl(w, 2, (int[]){0, 1}, &g);
    else
        MPI_Group_incl(w, 4, (int[]){0, 1, 2, 3}, &g);
    MPI_Comm c = MPI_COMM_WORLD;
    seen[rank].rc = MPI_Comm_create(MPI_COMM_WORLD, g, &c);
    seen[rank].comm = c;
    MPI_Group_free(&g);
    MPI_Group_free(&w);
}

/* Ranks 0-1 pass {0,1}, ranks 2-3 pass {0,1,2,3}: every rank gets MPI_ERR_GROUP. */
START_TEST(test_comm_multi_create_with_disagreeing_groups_fails_everywhere)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(4, create_mismatch, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_ERR_GROUP);
        ck_assert_ptr_eq(seen[r].comm, MPI_COMM_WORLD);   /* untouched */
    }
}
END_TEST

static void
split_bad_color(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm c = MPI_COMM_WORLD;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, rank == 3 ? -7 : 0, 0, &c);
    seen[rank].comm = c;
}

/* One rank's invalid color fails the call on every rank, and nobody waits forever. */
START_TEST(test_comm_multi_split_bad_color_fails_everywhere)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(5, split_bad_color, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    for (int r = 0; r < 5; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_ERR_ARG);
        ck_assert_ptr_eq(seen[r].comm, MPI_COMM_WORLD);
    }
}
END_TEST

static void
free_twice(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm dup, copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    copy = dup;
    if (rank == 0) {
        seen[rank].rc = MPI_Comm_free(&dup);
        seen[rank].rc2 = MPI_Comm_free(&copy);
        /* the others still hold it, but rank 0 let go: the copy is no communicator of its own */
        int size = -1;
        seen[rank].size = MPI_Comm_size(copy, &size);
    }
    MPI_Barrier(MPI_COMM_WORLD);   /* the others free theirs only now */
    if (rank != 0)
        seen[rank].rc = MPI_Comm_free(&dup);
    seen[rank].comm = dup;
}

/* A member freeing its communicator twice (through a copy of the handle) is an error, not
 * another member's free: the communicator outlives neither more nor fewer frees. Nor may the
 * member use the copy while the others keep the communicator alive. */
START_TEST(test_comm_multi_free_twice_by_one_member)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(3, free_twice, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    for (int r = 0; r < 3; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_ptr_eq(seen[r].comm, MPI_COMM_NULL);
    }
    ck_assert_int_eq(seen[0].rc2, MPI_ERR_COMM);
    ck_assert_int_eq(seen[0].size, MPI_ERR_COMM);
}
END_TEST

/* MPI_Comm_disconnect: a member leaves only once every member has come (rank 0 computes for
 * 1 ms first), with the communicator freed as by MPI_Comm_free; the predefined ones are
 * refused, and an inter-communicator is disconnected the same way. */
static void
disconnect_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm dup, half, inter;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    if (rank == 0)
        collsim_compute(1e-3);
    seen[rank].rc = MPI_Comm_disconnect(&dup);
    seen[rank].comm = dup;
    seen[rank].received2 = MPI_Wtime() >= 1e-3;
    MPI_Comm world = MPI_COMM_WORLD;
    seen[rank].rc2 = MPI_Comm_disconnect(&world);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank % 2 == 0 ? 1 : 0, 9, &inter);
    MPI_Comm_free(&half);
    seen[rank].size = MPI_Comm_disconnect(&inter);
    seen[rank].received = inter == MPI_COMM_NULL;
}

START_TEST(test_comm_multi_disconnect)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(4, disconnect_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
    for (int r = 0; r < 4; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_ptr_eq(seen[r].comm, MPI_COMM_NULL);
        ck_assert_int_eq(seen[r].received2, 1);
        ck_assert_int_eq(seen[r].rc2, MPI_ERR_COMM);
        ck_assert_int_eq(seen[r].size, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].received, 1);
    }
}
END_TEST

/* ---------------------------------------------------------------- against a naive oracle */

static int
oracle_color(int r)
{
    return r % 11 == 10 ? MPI_UNDEFINED : (r * 7) % 5;
}

static int
oracle_key(int r)
{
    return (r * 37) % 17 - 8;   /* many ties */
}

/* Members of r's color in (key, rank) order, by insertion sort; returns the count. */
static int
oracle_members(int p, int r, int *out)
{
    int n = 0;
    for (int j = 0; j < p; j++) {
        if (oracle_color(j) != oracle_color(r))
            continue;
        int k = n++;
        while (k > 0 && oracle_key(out[k - 1]) > oracle_key(j)) {
            out[k] = out[k - 1];
            k--;
        }
        out[k] = j;
    }
    return n;
}

static void
split_oracle_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm c, half;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, oracle_color(rank), oracle_key(rank), &c);
    record(rank, c);
    if (c == MPI_COMM_NULL)
        return;
    ring(rank, c);
    /* split the new communicator again: its upper half, reversed */
    int size, me;
    MPI_Comm_size(c, &size);
    MPI_Comm_rank(c, &me);
    seen[rank].rc2 = MPI_Comm_split(c, me >= size / 2 ? 0 : MPI_UNDEFINED, -me, &half);
    if (half != MPI_COMM_NULL) {
        MPI_Comm_rank(half, &seen[rank].received2);
        MPI_Comm_free(&half);
    } else {
        seen[rank].received2 = -1;
    }
    MPI_Comm_free(&c);
}

START_TEST(test_comm_multi_split_matches_naive_reference)
{
    static const int sizes[] = {1, 2, 3, 5, 8, 13, 64, 100};
    int p = sizes[_i];
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(p, split_oracle_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    int expected[MAXM];
    for (int r = 0; r < p; r++) {
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        if (oracle_color(r) == MPI_UNDEFINED) {
            ck_assert_ptr_eq(seen[r].comm, MPI_COMM_NULL);
            continue;
        }
        int n = oracle_members(p, r, expected);
        assert_members(r, n, expected);
        int pos = 0;
        while (expected[pos] != r)
            pos++;
        ck_assert_int_eq(seen[r].rank, pos);
        ck_assert_int_eq(seen[r].received, expected[(pos - 1 + n) % n]);
        ck_assert_int_eq(seen[r].rc2, MPI_SUCCESS);
        /* the upper half n/2 .. n-1 reversed: position pos gets rank n-1-pos */
        ck_assert_int_eq(seen[r].received2, pos >= n / 2 ? n - 1 - pos : -1);
    }
}
END_TEST

/* ---------------------------------------------------------------- a larger world */

#define BIGP 1024

static void
big_world_rank(int rank, void *arg)
{
    (void)arg;
    MPI_Comm s, d, c;
    MPI_Group w, evens;
    seen[rank].rc = MPI_Comm_split(MPI_COMM_WORLD, rank % 3, -rank, &s);
    MPI_Comm_size(s, &seen[rank].size);
    MPI_Comm_rank(s, &seen[rank].rank);
    ring(rank, s);
    seen[rank].rc2 = MPI_Comm_dup(s, &d);
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    int range[1][3] = {{0, BIGP - 2, 2}};
    MPI_Group_range_incl(w, 1, range, &evens);
    if (MPI_Comm_create(MPI_COMM_WORLD, evens, &c) != MPI_SUCCESS)
        seen[rank].rc2 = -1;
    if (c != MPI_COMM_NULL) {
        MPI_Comm_rank(c, &seen[rank].received2);
        MPI_Comm_free(&c);
    } else {
        seen[rank].received2 = -1;
    }
    MPI_Group_free(&evens);
    MPI_Group_free(&w);
    MPI_Comm_free(&d);
    MPI_Comm_free(&s);
}

START_TEST(test_comm_multi_constructors_on_1024_ranks)
{
    reset_seen();
    ck_assert_int_eq(collsim_test_run_ranks(BIGP, big_world_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);   /* the last member's free destroyed it */
    for (int r = 0; r < BIGP; r++) {
        int c = r % 3;
        int last = BIGP - 1 - ((BIGP - 1 - c) % 3);   /* largest rank of color c */
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].rc2, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].size, (BIGP - 1 - c) / 3 + 1);
        ck_assert_int_eq(seen[r].rank, (last - r) / 3);
        /* ring predecessor: the next larger rank of the color, or the smallest one */
        ck_assert_int_eq(seen[r].received, r == last ? c : r + 3);
        ck_assert_int_eq(seen[r].received2, r % 2 == 0 ? r / 2 : -1);
    }
}
END_TEST

static Suite *
comm_multi_suite(void)
{
    Suite *s = suite_create("comm_multi");
    TCase *tc = tcase_create("constructors");
    tcase_add_checked_fixture(tc, NULL, teardown_world);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_comm_multi_split_by_parity_with_reversed_keys);
    tcase_add_test(tc, test_comm_multi_split_in_payload_none_mode);
    tcase_add_test(tc, test_comm_multi_split_undefined_color_and_equal_keys);
    tcase_add_test(tc, test_comm_multi_dup_isolates_traffic);
    tcase_add_test(tc, test_comm_multi_create_from_subgroup);
    tcase_add_test(tc, test_comm_multi_create_disjoint_groups);
    tcase_add_test(tc, test_comm_multi_create_with_disagreeing_groups_fails_everywhere);
    tcase_add_test(tc, test_comm_multi_split_bad_color_fails_everywhere);
    tcase_add_test(tc, test_comm_multi_free_twice_by_one_member);
    tcase_add_test(tc, test_comm_multi_disconnect);
    tcase_add_loop_test(tc, test_comm_multi_split_matches_naive_reference, 0, 8);
    suite_add_tcase(s, tc);

    TCase *big = tcase_create("scale");
    tcase_add_checked_fixture(big, NULL, teardown_world);
    tcase_set_timeout(big, 300);
    tcase_add_test(big, test_comm_multi_constructors_on_1024_ranks);
    suite_add_tcase(s, big);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(comm_multi_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
