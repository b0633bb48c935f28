/*
 * check_allgather.c — every registry row of MPI_Allgather and MPI_Allgatherv, one simulation
 * per (row, P), P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}, and the seed's Figure 5.1.
 *
 * Each simulation runs, on MPI_COMM_WORLD, calling the row's function directly:
 *  - MPI_INT blocks of 1 and 3 items; blocks of no items; blocks above the eager threshold
 *    (P <= 16), so that every message of the algorithm goes by rendezvous;
 *  - different datatypes of one signature: odd ranks send pairs of ints through a vector type
 *    with a hole, even ranks plain ints; ranks 0, 3, 6, … receive into that vector type
 *    (whose holes must stay untouched), the others into ints;
 *  - MPI_IN_PLACE (the own block already in recvbuf; sendcount 0, sendtype
 *    MPI_DATATYPE_NULL, so an algorithm that reads them fails);
 *  - Allgatherv: irregular counts with zeros, blocks placed in reverse rank order with gaps
 *    between them (the gaps and the items after the buffer stay untouched), all counts zero,
 *    the datatype mix above and MPI_IN_PLACE;
 * and, with the row forced (coll_select_force), MPI_Allgather(v) with MPI_IN_PLACE through
 * the entry point. A row that uses a radix runs the direct calls with radix 2, 3, 4 or 7 (one
 * per variant). A row whose requirements P does not meet is refused by the entry point
 * instead (MPI_ERR_OTHER under MPI_ERRORS_RETURN) — and run directly where the requirement
 * is violated (neighbor_exchange, pair and two_proc at odd P) it does fail, which proves the
 * flag honest.
 *
 * Figure 5.1 ("allgather", six processes): rank r holds item X0 (X = A + r); afterwards every
 * rank holds A0 B0 C0 D0 E0 F0, for every row, through MPI_Allgather and MPI_Allgatherv with
 * the row forced; the number of messages of each algorithm is checked too.
 *
 * The decision table (coll_select without a forced row) is checked outside a simulation.
 * Rank functions only record their first failure; the assertions run after the simulation.
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "coll/coll_registry.h"
#include "coll/coll_select.h"
#include "sim/engine/engine.h"
#include "tests/unit/sim_harness.h"

#define MAXR 64
#define GAP 2   /* items between two blocks of an Allgatherv buffer */
#define GUARD 3 /* ints after a buffer that must stay untouched */
#define SENTINEL (-7)
#define BIG_INTS 16400 /* 65600 bytes: above the 64 KiB eager threshold */
#define BIG_MAX_RANKS 16

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The rows under test: Allgather rows, then Allgatherv rows (table order). */
static const struct coll_algorithm *rows[64];
static int nrows;

static char failure[MAXR][320];
static int calls_done[MAXR];

struct ag_case {
    const struct coll_algorithm *row;
    int size;
    int violate; /* run although the row's requirements are not met: expect a failure */
};

enum variant {
    V_ONE,            /* 1 int per block */
    V_INT,            /* 3 ints per block (Allgatherv: irregular counts with zeros, gaps) */
    V_TYPES,          /* the datatype mix */
    V_IN_PLACE,       /* MPI_IN_PLACE, direct call */
    V_EMPTY,          /* no items */
    V_BIG,            /* above the eager threshold (P <= BIG_MAX_RANKS) */
    V_ENTRY_IN_PLACE, /* MPI_IN_PLACE through MPI_Allgather(v), the row forced */
    VARIANT_COUNT
};
static const char *const variant_names[VARIANT_COUNT] = {
    "one int", "ints", "int/vector mix", "in place", "empty", "rendezvous", "entry in place"};

static void
note_failure(int rank, const char *fmt, ...)
{
    if (failure[rank][0] != '\0')
        return; /* the first failure is the informative one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure[rank], sizeof failure[rank], fmt, ap);
    va_end(ap);
}

/* Item j of rank i's block in variant v. */
static int
value(int v, int i, int j)
{
    uint32_t h = (uint32_t)v * 2654435761u ^ (uint32_t)i * 40503u ^ (uint32_t)j * 2246822519u;
    return (int)((h ^ (h >> 15)) & 0x3fffffff);
}

/*
 * The vector type: items of 2 ints at ints 0 and 2, extent 3 ints (a hole at 1). In a buffer
 * of `vec` items whose block starts at item `base`, int j of the block sits at slot().
 */
static size_t
slot(int vec, size_t base, size_t j)
{
    return vec ? (base + j / 2) * 3 + (j % 2) * 2 : base + j;
}

/* Ints of a buffer of `items` items. */
static size_t
span(int vec, size_t items)
{
    return vec ? items * 3 : items;
}

/* Logical ints per block of rank i in variant v (Allgather: the same for all). */
static int
block_ints(const struct coll_algorithm *row, enum variant v, int i)
{
    switch (v) {
    case V_ONE:
        return 1;
    case V_EMPTY:
        return 0;
    case V_BIG:
        if (row->kind == COLL_ALLGATHER)
            return BIG_INTS;
        return i % 3 != 1 ? BIG_INTS - 2 * (i % 3) : 0;
    default:
        if (row->kind == COLL_ALLGATHER)
            return v == V_TYPES ? 4 : 3;
        return 2 * ((3 * i + 1) % 4); /* 2 0 6 4 2 0 …: even (whole vector items), zeros */
    }
}

static int
send_is_vector(enum variant v, int rank)
{
    return v == V_TYPES && rank % 2 == 1;
}

static int
recv_is_vector(enum variant v, int rank)
{
    return v == V_TYPES && rank % 3 == 0;
}

/* A row that uses a radix runs each direct call with one of these, by variant, so that every
 * radix meets several shapes of block without more calls (the entry point uses the default). */
static const int radices[] = {2, 3, 4, 7};

/* One Allgather or Allgatherv call of variant v, checked. */
static void
allgather_once(const struct coll_algorithm *row, int rank, int size, enum variant v,
               MPI_Datatype vec)
{
    int counts[MAXR + 1], displs[MAXR + 1], ints[MAXR + 1];
    int allgatherv = row->kind == COLL_ALLGATHERV;
    int svec = send_is_vector(v, rank), rvec = recv_is_vector(v, rank);
    int in_place = v == V_IN_PLACE || v == V_ENTRY_IN_PLACE;
    struct coll_params params = row->defaults;
    if (row->caps & COLL_RADIX)
        params.radix = radices[v % (int)(sizeof radices / sizeof radices[0])];
    MPI_Datatype sendtype = svec ? vec : MPI_INT, recvtype = rvec ? vec : MPI_INT;
    size_t items = 0; /* of recvtype in recvbuf */

    /* the receive layout, in recvtype items; Allgatherv: reverse rank order, gaps */
    for (int i = 0; i < size; i++) {
        ints[i] = block_ints(row, v, i);
        counts[i] = rvec ? ints[i] / 2 : ints[i];
    }
    /* (one more entry for a run with an odd P that the row does not support) */
    counts[size] = displs[size] = ints[size] = 0;
    if (allgatherv) {
        size_t at = GAP;
        for (int i = size - 1; i >= 0; i--) {
            displs[i] = (int)at;
            at += (size_t)counts[i] + GAP;
        }
        items = at;
    } else {
        for (int i = 0; i <= size; i++)
            displs[i] = i * counts[0];
        items = (size_t)counts[0] * (size_t)(size + 1); /* one spare block */
    }

    size_t rlen = span(rvec, items) + GUARD;
    int *recv = malloc(sizeof(int) * rlen);
    int *want = malloc(sizeof(int) * rlen);
    for (size_t k = 0; k < rlen; k++)
        recv[k] = want[k] = SENTINEL;
    for (int i = 0; i < size; i++)
        for (int j = 0; j < ints[i]; j++)
            want[slot(rvec, (size_t)displs[i], (size_t)j)] = value(v, i, j);

    int mine = ints[rank];
    int sendcount = svec ? mine / 2 : mine;
    size_t slen = span(svec, (size_t)sendcount) + 1;
    int *send = malloc(sizeof(int) * slen);
    for (size_t k = 0; k < slen; k++)
        send[k] = SENTINEL;
    for (int j = 0; j < mine; j++)
        send[slot(svec, 0, (size_t)j)] = value(v, rank, j);
    if (in_place)
        for (int j = 0; j < mine; j++)
            recv[slot(rvec, (size_t)displs[rank], (size_t)j)] = value(v, rank, j);

    const void *sbuf = in_place ? MPI_IN_PLACE : send;
    int scount = in_place ? 0 : sendcount;
    MPI_Datatype stype = in_place ? MPI_DATATYPE_NULL : sendtype;
    int rc;
    if (v == V_ENTRY_IN_PLACE && allgatherv)
        rc = MPI_Allgatherv(sbuf, scount, stype, recv, counts, displs, recvtype, MPI_COMM_WORLD);
    else if (v == V_ENTRY_IN_PLACE)
        rc = MPI_Allgather(sbuf, scount, stype, recv, counts[0], recvtype, MPI_COMM_WORLD);
    else if (allgatherv)
        rc = row->fn.allgatherv(sbuf, scount, stype, recv, counts, displs, recvtype, MPI_COMM_WORLD,
                                &params);
    else
        rc = row->fn.allgather(sbuf, scount, stype, recv, counts[0], recvtype, MPI_COMM_WORLD,
                               &params);
    calls_done[rank]++;

    if (rc != MPI_SUCCESS) {
        note_failure(rank, "%s (radix %d): rc %d", variant_names[v], params.radix, rc);
        goto out;
    }
    for (size_t k = 0; k < rlen; k++) {
        if (recv[k] != want[k]) {
            note_failure(rank, "%s (radix %d): recvbuf int %zu is %d, want %d", variant_names[v],
                         params.radix, k, recv[k], want[k]);
            goto out;
        }
    }
    for (int j = 0; j < mine; j++) {
        if (send[slot(svec, 0, (size_t)j)] != value(v, rank, j)) {
            note_failure(rank, "%s: sendbuf was written", variant_names[v]);
            goto out;
        }
    }
out:
    free(send);
    free(want);
    free(recv);
}

static int
variant_runs(const struct coll_algorithm *row, enum variant v, int size)
{
    if (v == V_BIG)
        return size <= BIG_MAX_RANKS;
    if (v == V_IN_PLACE)
        return (row->caps & COLL_IN_PLACE) != 0;
    return 1;
}

static void
rows_rank(int rank, void *arg)
{
    const struct ag_case *c = arg;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (c->violate) /* an error is a result to record, not the end of the test */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int v = 0; v < VARIANT_COUNT; v++) {
        if (c->violate && v == V_ENTRY_IN_PLACE)
            continue; /* the entry point refuses it: see refusal_rank */
        if (variant_runs(c->row, (enum variant)v, c->size))
            allgather_once(c->row, rank, c->size, (enum variant)v, vec);
    }
    MPI_Type_free(&vec);
}

/* A forced row whose requirements are not met is refused, not replaced. */
static void
refusal_rank(int rank, void *arg)
{
    const struct ag_case *c = arg;
    int one = rank, all[MAXR], counts[MAXR], displs[MAXR];
    for (int i = 0; i < c->size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = c->row->kind == COLL_ALLGATHER
                 ? MPI_Allgather(&one, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD)
                 : MPI_Allgatherv(&one, 1, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    calls_done[rank]++;
    if (rc != MPI_ERR_OTHER)
        note_failure(rank, "the forced row was not refused: rc %d", rc);
}

static const char *
unmet_at(const struct coll_algorithm *row, int size)
{
    struct coll_call call = {row->kind, size, 4, 1, 1, 1, 1, 0};
    return coll_select_unmet(row, &call);
}

static void
force(const struct coll_algorithm *row)
{
    char why[256];
    coll_select_reset();
    ck_assert_msg(coll_select_force(row->kind, row->name, NULL, why, sizeof why), "%s", why);
}

START_TEST(test_allgather_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / NSIZES];
    struct ag_case c = {row, sizes[_i % NSIZES], 0};
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    force(row);
    if (unmet_at(row, c.size) != NULL) {
        ck_assert_int_eq(collsim_test_run_ranks(c.size, refusal_rank, &c), 0);
        for (int r = 0; r < c.size; r++)
            ck_assert_msg(failure[r][0] == '\0' && calls_done[r] == 1, "%s %s, P=%d, rank %d: %s",
                          coll_kind_name(row->kind), row->name, c.size, r, failure[r]);
        return;
    }
    int expected_calls = 0;
    for (int v = 0; v < VARIANT_COUNT; v++)
        expected_calls += variant_runs(row, (enum variant)v, c.size);
    ck_assert_int_eq(collsim_test_run_ranks(c.size, rows_rank, &c), 0);
    for (int r = 0; r < c.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, P=%d, rank %d: %s", coll_kind_name(row->kind),
                      row->name, c.size, r, failure[r]);
        ck_assert_int_eq(calls_done[r], expected_calls);
    }
}
END_TEST

/*
 * The requirement flags are honest: a row that declares COLL_REQ_EVEN_RANKS,
 * COLL_REQ_POWER_OF_TWO or COLL_REQ_TWO_RANKS, run directly at an odd P (which breaks each of
 * them), deadlocks, fails or gives a wrong result (buffers have a spare block, so that it
 * cannot write out of bounds). One simulation per (row, odd P); rows without a rank-count
 * flag pass at once.
 */
#define RANK_COUNT_FLAGS (COLL_REQ_EVEN_RANKS | COLL_REQ_POWER_OF_TWO | COLL_REQ_TWO_RANKS)
static const int odd_sizes[] = {3, 5};
#define NODD ((int)(sizeof odd_sizes / sizeof odd_sizes[0]))

START_TEST(test_allgather_even_ranks_flag_is_needed)
{
    const struct coll_algorithm *row = rows[_i / NODD];
    struct ag_case c = {row, odd_sizes[_i % NODD], 1};
    if (!(row->requires & RANK_COUNT_FLAGS))
        return;
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    ck_assert_ptr_nonnull(unmet_at(row, c.size));
    int exit_code = collsim_test_run_ranks(c.size, rows_rank, &c);
    int wrong = 0;
    for (int r = 0; r < c.size; r++)
        wrong |= failure[r][0] != '\0';
    ck_assert_msg(exit_code != 0 || wrong,
                  "%s %s works at P=%d: its rank-count requirement is not needed",
                  coll_kind_name(row->kind), row->name, c.size);
}
END_TEST

/* Both neighbor-exchange rows carry the flag (so the test above is not vacuous). */
START_TEST(test_allgather_neighbor_exchange_declares_even_ranks)
{
    ck_assert(coll_registry_find(COLL_ALLGATHER, "neighbor_exchange")->requires &
              COLL_REQ_EVEN_RANKS);
    ck_assert(coll_registry_find(COLL_ALLGATHERV, "neighbor_exchange")->requires &
              COLL_REQ_EVEN_RANKS);
}
END_TEST

/* The same for the pair rows (power of two) and the two_proc rows (two ranks). */
START_TEST(test_allgather_pair_and_two_proc_declare_rank_counts)
{
    enum coll_kind kinds[] = {COLL_ALLGATHER, COLL_ALLGATHERV};
    for (size_t k = 0; k < 2; k++) {
        ck_assert(coll_registry_find(kinds[k], "pair")->requires & COLL_REQ_POWER_OF_TWO);
        ck_assert(coll_registry_find(kinds[k], "two_proc")->requires & COLL_REQ_TWO_RANKS);
    }
}
END_TEST

/* ---------------------------------------------------------------- Figure 5.1 */

/* Item "X<d>" of the figure: X = A … F names the process that contributes it. */
static int
figure_item(const char *s)
{
    return (s[0] - 'A' + 1) * 100 + (s[1] - '0');
}

/* The figure's data locations after the allgather: every process holds A0 … F0. */
static const char *const figure_allgather_after[6] = {
    "A0 B0 C0 D0 E0 F0", "A0 B0 C0 D0 E0 F0", "A0 B0 C0 D0 E0 F0",
    "A0 B0 C0 D0 E0 F0", "A0 B0 C0 D0 E0 F0", "A0 B0 C0 D0 E0 F0",
};

/* Messages one call sends in all at P = 6 (blocks of one int, all eager). */
static const struct {
    const char *name;
    int messages;
} figure_messages[] = {
    {"ring", 30},               /* P(P-1) */
    {"recursive_doubling", 16}, /* 6 + 4 + 4 exchanges' halves, 2 fix-up */
    {"bruck", 18},              /* P·⌈lg P⌉ */
    {"neighbor_exchange", 18},  /* P·P/2 */
    {"gather_bcast", 10},       /* 2(P-1) */
    {"linear", 10},             /* 2(P-1) */
    {"k_bruck", 24},            /* radix 4: P·(3 + 1) */
    {"recexch", 16},            /* radix 4: 2 folded in, 4·3 exchanges' halves, 2 back */
    {"direct", 30},             /* P(P-1) */
    {"sparbit", 30},            /* P(P-1): one message per block */
    {"2dmesh", 18},             /* 2 x 3: P·2 in rows, P·1 in columns */
    {"3dmesh", 30},             /* 1 x 1 x 6: P·5 along z */
};

static int figure_got[6][6];
static int figure_rc[6][2];

static void
figure_rank(int rank, void *arg)
{
    const struct coll_algorithm *row = arg;
    int mine = figure_item((char[]){(char)('A' + rank), '0', 0});
    int counts[6] = {1, 1, 1, 1, 1, 1}, displs[6] = {0, 1, 2, 3, 4, 5};
    for (int i = 0; i < 6; i++)
        figure_got[rank][i] = SENTINEL;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (row->kind == COLL_ALLGATHER)
        figure_rc[rank][0] =
            MPI_Allgather(&mine, 1, MPI_INT, figure_got[rank], 1, MPI_INT, MPI_COMM_WORLD);
    else
        figure_rc[rank][0] = MPI_Allgatherv(&mine, 1, MPI_INT, figure_got[rank], counts, displs,
                                            MPI_INT, MPI_COMM_WORLD);
}

START_TEST(test_allgather_figure_5_1)
{
    const struct coll_algorithm *row = rows[_i];
    struct sim_config config;
    struct sim_outcome outcome;
    if (unmet_at(row, 6) != NULL)
        return; /* two_proc, pair: P = 6 is refused (the rows test checks the refusal) */
    force(row);
    sim_config_defaults(&config);
    config.nranks = 6;
    memset(figure_rc, 0, sizeof figure_rc);
    ck_assert_int_eq(collsim_test_run_config(&config, figure_rank, (void *)row, &outcome), 0);
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(figure_rc[r][0], MPI_SUCCESS);
        const char *s = figure_allgather_after[r];
        for (int i = 0; i < 6; i++, s += 3)
            ck_assert_msg(figure_got[r][i] == figure_item(s),
                          "%s %s: process %d, location %d holds %d, the figure says %.2s",
                          coll_kind_name(row->kind), row->name, r, i, figure_got[r][i], s);
    }
    /* the forced row served the call, and sent the messages its structure says */
    ck_assert_uint_eq(outcome.served->len, 1);
    ck_assert_str_eq(g_array_index(outcome.served, struct sim_served, 0).algorithm, row->name);
    for (size_t k = 0; k < sizeof figure_messages / sizeof figure_messages[0]; k++)
        if (strcmp(figure_messages[k].name, row->name) == 0)
            ck_assert_msg(outcome.messages == (guint64)figure_messages[k].messages,
                          "%s %s: %d messages, want %d", coll_kind_name(row->kind), row->name,
                          (int)outcome.messages, figure_messages[k].messages);
    g_array_free(outcome.served, TRUE);
}
END_TEST

/* ---------------------------------------------------------------- argument checks */

static int bad_rc[2][12];

/* Each call breaks one rule of the standard; the entry point refuses it before any message. */
static void
bad_arguments_rank(int rank, void *arg)
{
    int one[2] = {rank, rank}, all[8], counts[2] = {1, 1}, displs[2] = {0, 1};
    int negative[2] = {1, -1};
    int *rc = bad_rc[rank], n = 0;
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc[n++] = MPI_Allgather(one, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgather(one, 1, MPI_INT, all, -1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgather(one, -1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgather(one, 1, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgather(one, 1, MPI_INT, all, 1, MPI_DATATYPE_NULL, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgather(one, 2, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] =
        MPI_Allgatherv(one, 1, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgatherv(one, 1, MPI_INT, all, NULL, displs, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgatherv(one, 1, MPI_INT, all, negative, displs, MPI_INT, MPI_COMM_WORLD);
    rc[n++] =
        MPI_Allgatherv(one, 1, MPI_INT, all, counts, displs, MPI_DATATYPE_NULL, MPI_COMM_WORLD);
    rc[n++] = MPI_Allgatherv(one, 2, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    /* MPI_IN_PLACE as sendbuf: sendcount and sendtype are ignored, so this one is fine */
    all[rank] = rank;
    rc[n++] = MPI_Allgather(MPI_IN_PLACE, -5, MPI_DATATYPE_NULL, all, 1, MPI_INT, MPI_COMM_WORLD);
    if (rc[n - 1] == MPI_SUCCESS && (all[0] != 0 || all[1] != 1))
        rc[n - 1] = -1;
}

START_TEST(test_allgather_bad_arguments_are_refused)
{
    static const int want[12] = {
        MPI_ERR_BUFFER, MPI_ERR_COUNT,    MPI_ERR_COUNT,    MPI_ERR_TYPE,
        MPI_ERR_TYPE,   MPI_ERR_TRUNCATE, MPI_ERR_BUFFER,   MPI_ERR_ARG,
        MPI_ERR_COUNT,  MPI_ERR_TYPE,     MPI_ERR_TRUNCATE, MPI_SUCCESS,
    };
    coll_select_reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, bad_arguments_rank, NULL), 0);
    for (int r = 0; r < 2; r++)
        for (int k = 0; k < 12; k++)
            ck_assert_msg(bad_rc[r][k] == want[k], "rank %d, call %d: rc %d, want %d", r, k,
                          bad_rc[r][k], want[k]);
}
END_TEST

/* ---------------------------------------------------------------- decision table */

static const char *
table_pick(enum coll_kind kind, int size, size_t bytes)
{
    struct coll_call call = {kind, size, bytes, (int)bytes / 4, 1, 1, 1, 0};
    struct coll_params params;
    const char *refusal;
    const struct coll_algorithm *row = coll_select(&call, &params, &refusal);
    ck_assert_ptr_nonnull(row);
    return row->name;
}

START_TEST(test_allgather_decision_table)
{
    coll_select_reset();
    enum coll_kind kinds[] = {COLL_ALLGATHER, COLL_ALLGATHERV};
    for (int k = 0; k < 2; k++) {
        /* MPICH: T = P·n < 512 KiB and P a power of two: recursive doubling */
        ck_assert_str_eq(table_pick(kinds[k], 1, 4), "recursive_doubling");
        ck_assert_str_eq(table_pick(kinds[k], 8, 4), "recursive_doubling");
        ck_assert_str_eq(table_pick(kinds[k], 8, 65535), "recursive_doubling");
        ck_assert_str_eq(table_pick(kinds[k], 8, 65536), "ring");
        /* T < 80 KiB otherwise: Bruck */
        ck_assert_str_eq(table_pick(kinds[k], 6, 4), "bruck");
        ck_assert_str_eq(table_pick(kinds[k], 5, 16383), "bruck");
        ck_assert_str_eq(table_pick(kinds[k], 5, 16384), "ring");
        ck_assert_str_eq(table_pick(kinds[k], 64 + 1, 1260), "bruck");
        ck_assert_str_eq(table_pick(kinds[k], 64 + 1, 1261), "ring");
    }
}
END_TEST

static Suite *
allgather_suite(void)
{
    enum coll_kind kinds[] = {COLL_ALLGATHER, COLL_ALLGATHERV};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);

    Suite *s = suite_create("allgather");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_allgather_row_matches_reference, 0, nrows * NSIZES);
    suite_add_tcase(s, tc);

    tc = tcase_create("requirements");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_allgather_even_ranks_flag_is_needed, 0, nrows * NODD);
    tcase_add_test(tc, test_allgather_neighbor_exchange_declares_even_ranks);
    tcase_add_test(tc, test_allgather_pair_and_two_proc_declare_rank_counts);
    suite_add_tcase(s, tc);

    tc = tcase_create("figure 5.1");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_allgather_figure_5_1, 0, nrows);
    suite_add_tcase(s, tc);

    tc = tcase_create("arguments");
    tcase_add_test(tc, test_allgather_bad_arguments_are_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("decision table");
    tcase_add_test(tc, test_allgather_decision_table);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(allgather_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
