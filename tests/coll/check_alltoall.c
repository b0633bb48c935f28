/*
 * check_alltoall.c — every registry row of MPI_Alltoall, MPI_Alltoallv and MPI_Alltoallw, one
 * simulation per (row, P), P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}, and the seed's Figure 5.1
 * ("complete exchange").
 *
 * Each simulation runs, on MPI_COMM_WORLD, calling the row's function directly:
 *  - Alltoall: MPI_INT blocks of 1 and 3 items, blocks of no items, blocks above the eager
 *    threshold (P <= 8), and different datatypes of one signature (odd ranks send pairs of
 *    ints through a vector type with a hole, ranks 0, 3, 6, … receive into it; the holes must
 *    stay untouched);
 *  - Alltoallv: irregular counts with zeros (the count from s to d is symmetric in s and d,
 *    so that MPI_IN_PLACE can use it too), blocks placed in reverse rank order with gaps on
 *    both sides (gaps and the ints after the buffer stay untouched), all counts zero, blocks
 *    above the eager threshold (P <= 8) and the datatype mix above;
 *  - Alltoallw: the irregular counts with a datatype per peer (int or the vector type, chosen
 *    differently on the two sides of every pair) and byte displacements with gaps;
 * and, with the row forced (coll_select_force), MPI_IN_PLACE through MPI_Alltoall(v,w), which
 * the dispatcher turns into an ordinary call for rows without COLL_IN_PLACE. A row that takes a
 * radix runs with its default, 2 and 3. A row whose requirements P does not meet is refused by
 * the entry point when forced; run directly at such a P it must fail (so that the flag is
 * needed).
 *
 * Figure 5.1 ("complete exchange", six processes): process r holds X0 … X5 (X = A + r);
 * afterwards process r holds Ar Br Cr Dr Er Fr, for every row, through MPI_Alltoall(v,w)
 * with the row forced; the number of messages of each Alltoall algorithm is checked too.
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
#define GAP 2   /* items (Alltoallw: ints) between two blocks of a buffer */
#define GUARD 3 /* ints after a buffer that must stay untouched */
#define SENTINEL (-7)
#define BIG_INTS 16400 /* 65600 bytes: above the 64 KiB eager threshold */
#define BIG_MAX_RANKS 8

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The rows under test: Alltoall, Alltoallv, Alltoallw rows (table order). */
static const struct coll_algorithm *rows[64];
static int nrows;

static char failure[MAXR][320];
static int calls_done[MAXR];

struct a2a_case {
    const struct coll_algorithm *row;
    int size;
    int violate; /* run directly although the requirements are not met */
};

/* What a direct call passes the row: its defaults, or another radix (see radices). */
static struct coll_params call_params;
static const int radices[] = {2, 3};

enum variant {
    V_ONE,            /* 1 int per block (v, w: the irregular counts) */
    V_INT,            /* 3 ints per block (v, w: the irregular counts) */
    V_TYPES,          /* the datatype mix */
    V_EMPTY,          /* no items */
    V_BIG,            /* above the eager threshold (P <= BIG_MAX_RANKS) */
    V_ENTRY_IN_PLACE, /* MPI_IN_PLACE through MPI_Alltoall(v,w), the row forced */
    VARIANT_COUNT
};
static const char *const variant_names[VARIANT_COUNT] = {"one int", "ints",       "int/vector mix",
                                                         "empty",   "rendezvous", "entry in place"};

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

/* Item j of the block that rank s sends rank d in variant v. */
static int
value(int v, int s, int d, int j)
{
    uint32_t h = (uint32_t)v * 2654435761u ^ (uint32_t)s * 40503u ^ (uint32_t)d * 362437u ^
                 (uint32_t)j * 2246822519u;
    h ^= h >> 15;
    h *= 2246822519u;
    return (int)((h ^ (h >> 13)) & 0x3fffffff);
}

/*
 * The vector type: items of 2 ints at ints 0 and 2, extent 3 ints (a hole at 1). A block that
 * starts at int `base` holds its int j at slot().
 */
static size_t
slot(int vec, size_t base, size_t j)
{
    return vec ? base + (j / 2) * 3 + (j % 2) * 2 : base + j;
}

/* Ints that `items` items of the type occupy. */
static size_t
span(int vec, size_t items)
{
    return vec ? items * 3 : items;
}

/* Logical ints (even where a vector type may carry them) from rank s to rank d. */
static int
block_ints(const struct coll_algorithm *row, enum variant v, int s, int d)
{
    int uniform = row->kind == COLL_ALLTOALL;
    switch (v) {
    case V_ONE:
        return uniform ? 1 : 2 * ((s * d + s + d) % 3);
    case V_EMPTY:
        return 0;
    case V_BIG:
        return uniform || (s + d) % 3 != 1 ? BIG_INTS : 0;
    default:
        return uniform ? (v == V_TYPES ? 4 : 3) : 2 * ((s * d + s + d) % 4);
    }
}

/*
 * Which side uses the vector type. Alltoall(v): per rank (odd ranks send with it, ranks 0, 3,
 * 6, … receive with it); Alltoallw: per pair, and differently on the two sides.
 */
static int
send_is_vector(const struct coll_algorithm *row, enum variant v, int me, int peer)
{
    if (row->kind == COLL_ALLTOALLW)
        return v != V_ENTRY_IN_PLACE && (me + 2 * peer) % 3 == 1;
    return v == V_TYPES && me % 2 == 1;
}

static int
recv_is_vector(const struct coll_algorithm *row, enum variant v, int me, int peer)
{
    if (row->kind == COLL_ALLTOALLW)
        return (2 * me + peer) % 2 == 1;
    return v == V_TYPES && me % 3 == 0;
}

/*
 * One side's buffer layout: for every peer i, the block's logical ints n[i], whether it uses
 * the vector type vec[i], its count in items and its start in ints (blocks in reverse peer
 * order, GAP items or ints apart; Alltoall: in peer order without gaps). Returns the ints.
 */
struct side {
    int n[MAXR], vec[MAXR], count[MAXR], displ[MAXR]; /* displ in the call's units */
    size_t base[MAXR];                                /* start of block i, in ints */
    MPI_Datatype type[MAXR];
    size_t ints;
};

static void
side_layout(struct side *sd, const struct coll_algorithm *row, int size, MPI_Datatype vectype)
{
    int bytes = row->kind == COLL_ALLTOALLW;
    size_t at = 0;
    for (int i = 0; i < size; i++) {
        sd->count[i] = sd->vec[i] ? sd->n[i] / 2 : sd->n[i];
        sd->type[i] = sd->vec[i] ? vectype : MPI_INT;
    }
    if (row->kind == COLL_ALLTOALL) {
        for (int i = 0; i < size; i++) {
            sd->displ[i] = i * sd->count[0]; /* (the call computes it from the count) */
            sd->base[i] = span(sd->vec[0], (size_t)i * (size_t)sd->count[0]);
        }
        sd->ints = span(sd->vec[0], (size_t)size * (size_t)sd->count[0]);
        return;
    }
    /* v: displacements in items of the one type; w: in bytes */
    at = GAP;
    for (int i = size - 1; i >= 0; i--) {
        if (bytes) {
            sd->base[i] = at;
            sd->displ[i] = (int)(at * sizeof(int));
            at += span(sd->vec[i], (size_t)sd->count[i]) + GAP;
        } else {
            sd->displ[i] = (int)at;
            sd->base[i] = span(sd->vec[i], at);
            at += (size_t)sd->count[i] + GAP;
        }
    }
    sd->ints = bytes ? at : span(sd->vec[0], at);
}

static int
call_row(const struct coll_algorithm *row, enum variant v, const void *sbuf, const struct side *snd,
         void *rbuf, const struct side *rcv)
{
    MPI_Comm comm = MPI_COMM_WORLD;
    int entry = v == V_ENTRY_IN_PLACE;
    switch (row->kind) {
    case COLL_ALLTOALL:
        if (entry)
            return MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, rcv->count[0],
                                rcv->type[0], comm);
        return row->fn.alltoall(sbuf, snd->count[0], snd->type[0], rbuf, rcv->count[0],
                                rcv->type[0], comm, &call_params);
    case COLL_ALLTOALLV:
        if (entry)
            return MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rbuf, rcv->count,
                                 rcv->displ, rcv->type[0], comm);
        return row->fn.alltoallv(sbuf, snd->count, snd->displ, snd->type[0], rbuf, rcv->count,
                                 rcv->displ, rcv->type[0], comm, &call_params);
    default:
        if (entry)
            return MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, rbuf, rcv->count, rcv->displ,
                                 rcv->type, comm);
        return row->fn.alltoallw(sbuf, snd->count, snd->displ, snd->type, rbuf, rcv->count,
                                 rcv->displ, rcv->type, comm, &call_params);
    }
}

/* One call of variant v, checked. */
static void
alltoall_once(const struct coll_algorithm *row, int rank, int size, enum variant v,
              MPI_Datatype vectype)
{
    /* per call, not static: the ranks' calls interleave */
    struct side *snd = malloc(sizeof *snd), *rcv = malloc(sizeof *rcv);
    int in_place = v == V_ENTRY_IN_PLACE;

    for (int i = 0; i < size; i++) {
        snd->n[i] = block_ints(row, v, rank, i);
        rcv->n[i] = block_ints(row, v, i, rank);
        snd->vec[i] = send_is_vector(row, v, rank, i);
        rcv->vec[i] = recv_is_vector(row, v, rank, i);
    }
    side_layout(snd, row, size, vectype);
    side_layout(rcv, row, size, vectype);

    size_t rlen = rcv->ints + GUARD, slen = snd->ints + GUARD;
    int *recv = malloc(sizeof(int) * rlen);
    int *want = malloc(sizeof(int) * rlen);
    int *send = malloc(sizeof(int) * slen);
    for (size_t k = 0; k < rlen; k++)
        recv[k] = want[k] = SENTINEL;
    for (size_t k = 0; k < slen; k++)
        send[k] = SENTINEL;
    for (int i = 0; i < size; i++) {
        for (int j = 0; j < rcv->n[i]; j++)
            want[slot(rcv->vec[i], rcv->base[i], (size_t)j)] = value(v, i, rank, j);
        for (int j = 0; j < snd->n[i]; j++)
            send[slot(snd->vec[i], snd->base[i], (size_t)j)] = value(v, rank, i, j);
        /* in place: recvbuf holds what goes out (the counts are symmetric) */
        for (int j = 0; in_place && j < rcv->n[i]; j++)
            recv[slot(rcv->vec[i], rcv->base[i], (size_t)j)] = value(v, rank, i, j);
    }

    int rc = call_row(row, v, send, snd, recv, rcv);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "%s: rc %d", variant_names[v], rc);
        goto out;
    }
    for (size_t k = 0; k < rlen; k++) {
        if (recv[k] != want[k]) {
            note_failure(rank, "%s: recvbuf int %zu is %d, want %d", variant_names[v], k, recv[k],
                         want[k]);
            goto out;
        }
    }
    for (int i = 0; !in_place && i < size; i++)
        for (int j = 0; j < snd->n[i]; j++)
            if (send[slot(snd->vec[i], snd->base[i], (size_t)j)] != value(v, rank, i, j)) {
                note_failure(rank, "%s: sendbuf was written", variant_names[v]);
                goto out;
            }
out:
    free(rcv);
    free(snd);
    free(send);
    free(want);
    free(recv);
}

static int
variant_runs(const struct coll_algorithm *row, enum variant v, int size)
{
    if (v == V_BIG)
        return size <= BIG_MAX_RANKS;
    if (v == V_TYPES)
        return row->kind != COLL_ALLTOALLW; /* Alltoallw mixes types in every variant */
    return 1;
}

static void
rows_rank(int rank, void *arg)
{
    const struct a2a_case *c = arg;
    MPI_Datatype vec;
    MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    if (c->violate) /* an error is a result to record, not the end of the test */
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int v = 0; v < VARIANT_COUNT; v++) {
        if (c->violate && v == V_ENTRY_IN_PLACE)
            continue; /* the entry point refuses it: see refusal_rank */
        if (variant_runs(c->row, (enum variant)v, c->size))
            alltoall_once(c->row, rank, c->size, (enum variant)v, vec);
    }
    MPI_Type_free(&vec);
}

/* A forced row whose requirements are not met is refused, not replaced. */
static void
refusal_rank(int rank, void *arg)
{
    const struct a2a_case *c = arg;
    int out[MAXR], in[MAXR], counts[MAXR], displs[MAXR], bytes[MAXR], rc;
    MPI_Datatype types[MAXR];
    for (int i = 0; i < c->size; i++) {
        out[i] = rank;
        counts[i] = 1;
        displs[i] = i;
        bytes[i] = i * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    switch (c->row->kind) {
    case COLL_ALLTOALL:
        rc = MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
        break;
    case COLL_ALLTOALLV:
        rc = MPI_Alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT,
                           MPI_COMM_WORLD);
        break;
    default:
        rc = MPI_Alltoallw(out, counts, bytes, types, in, counts, bytes, types, MPI_COMM_WORLD);
        break;
    }
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

/* Loop index: (row, P, k), k = 0 the row's defaults, k > 0 radices[k-1] (radix rows only). */
#define NPARAMS (1 + (int)(sizeof radices / sizeof radices[0]))

START_TEST(test_alltoall_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / (NSIZES * NPARAMS)];
    struct a2a_case c = {row, sizes[_i / NPARAMS % NSIZES], 0};
    int k = _i % NPARAMS;
    if (k > 0 && !(row->caps & COLL_RADIX))
        return;
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    force(row);
    if (unmet_at(row, c.size) != NULL) {
        if (k > 0)
            return;
        ck_assert_int_eq(collsim_test_run_ranks(c.size, refusal_rank, &c), 0);
        for (int r = 0; r < c.size; r++)
            ck_assert_msg(failure[r][0] == '\0' && calls_done[r] == 1, "%s %s, P=%d, rank %d: %s",
                          coll_kind_name(row->kind), row->name, c.size, r, failure[r]);
        return;
    }
    /* one simulation per process: each radix is a loop index of its own (the entry-point
     * variant keeps the row's defaults) */
    call_params = row->defaults;
    if (k > 0)
        call_params.radix = radices[k - 1];
    int expected_calls = 0;
    for (int v = 0; v < VARIANT_COUNT; v++)
        expected_calls += variant_runs(row, (enum variant)v, c.size);
    ck_assert_int_eq(collsim_test_run_ranks(c.size, rows_rank, &c), 0);
    for (int r = 0; r < c.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, P=%d, radix %d, rank %d: %s",
                      coll_kind_name(row->kind), row->name, c.size, call_params.radix, r,
                      failure[r]);
        ck_assert_int_eq(calls_done[r], expected_calls);
    }
}
END_TEST

/*
 * The requirement flags are honest: a row that declares COLL_REQ_POWER_OF_TWO or
 * COLL_REQ_TWO_RANKS, run directly at a P that violates it, fails or gives a wrong result.
 * One simulation per (row, P); rows without a requirement pass at once.
 */
static const int violating_sizes[] = {3, 6};
#define NVIOLATING ((int)(sizeof violating_sizes / sizeof violating_sizes[0]))

START_TEST(test_alltoall_requirement_flags_are_needed)
{
    const struct coll_algorithm *row = rows[_i / NVIOLATING];
    struct a2a_case c = {row, violating_sizes[_i % NVIOLATING], 1};
    /* bytes x ranks < 2 GiB (COLL_REQ_TOTAL_FITS_INT) is the mesh algorithms' own MPI_ERR_COUNT
     * guard made a selection rule: breaking it takes 2 GiB of data, beyond a unit test
     * (check_gather_scatter shows the selection side) */
    unsigned requires = row->requires & ~(unsigned)COLL_REQ_TOTAL_FITS_INT;
    if (requires == 0)
        return;
    ck_assert_msg((requires & ~(unsigned)(COLL_REQ_POWER_OF_TWO | COLL_REQ_TWO_RANKS)) == 0,
                  "%s %s: a requirement without a violating case here", coll_kind_name(row->kind),
                  row->name);
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    call_params = row->defaults;
    ck_assert_ptr_nonnull(unmet_at(row, c.size));
    int exit_code = collsim_test_run_ranks(c.size, rows_rank, &c);
    int wrong = 0;
    for (int r = 0; r < c.size; r++)
        wrong |= failure[r][0] != '\0';
    ck_assert_msg(exit_code != 0 || wrong, "%s %s works at P=%d: its requirement is not needed",
                  coll_kind_name(row->kind), row->name, c.size);
}
END_TEST

/* ---------------------------------------------------------------- Figure 5.1 */

/* Item "X<d>" of the figure: X = A … F names the process that holds it first. */
static int
figure_item(char x, char d)
{
    return (x - 'A' + 1) * 100 + (d - '0');
}

/* The figure's data locations before and after the complete exchange. */
static const char *const figure_before[6] = {
    "A0 A1 A2 A3 A4 A5", "B0 B1 B2 B3 B4 B5", "C0 C1 C2 C3 C4 C5",
    "D0 D1 D2 D3 D4 D5", "E0 E1 E2 E3 E4 E5", "F0 F1 F2 F3 F4 F5",
};
static const char *const figure_after[6] = {
    "A0 B0 C0 D0 E0 F0", "A1 B1 C1 D1 E1 F1", "A2 B2 C2 D2 E2 F2",
    "A3 B3 C3 D3 E3 F3", "A4 B4 C4 D4 E4 F4", "A5 B5 C5 D5 E5 F5",
};

/* Messages one MPI_Alltoall sends in all at P = 6 (blocks of one int, all eager). */
static const struct {
    const char *name;
    int messages;
} figure_messages[] = {
    {"pairwise", 30}, /* P(P-1) */
    {"bruck", 18},    /* P·⌈lg P⌉ */
    {"linear", 30},   /* P(P-1) */
    {"ring", 30},     /* P(P-1) */
    {"linear_sync", 30},
    {"scattered", 30},
    {"k_bruck", 24},                   /* radix 4: 6·(3 + 1), slots 1, 2, 3 then 4, 5 */
    {"pairwise_sendrecv_replace", 30}, /* P(P-1) */
    {"2dmesh", 18},                    /* 2 × 3: 6·(2 + 1) */
    {"3dmesh", 30},                    /* x = 1: six planes of one rank, 6·5 */
    {"ring_mpi_barrier", 6 * 3 * 6 + 30}, /* P barriers of P·⌈lg P⌉ messages, then P(P-1) */
};

static int figure_got[6][6];
static int figure_rc[6];

static void
figure_rank(int rank, void *arg)
{
    const struct coll_algorithm *row = arg;
    int mine[6], counts[6], displs[6], bytes[6];
    MPI_Datatype types[6];
    for (int i = 0; i < 6; i++) {
        mine[i] = figure_item(figure_before[rank][3 * i], figure_before[rank][3 * i + 1]);
        figure_got[rank][i] = SENTINEL;
        counts[i] = 1;
        displs[i] = i;
        bytes[i] = i * (int)sizeof(int);
        types[i] = MPI_INT;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    switch (row->kind) {
    case COLL_ALLTOALL:
        figure_rc[rank] =
            MPI_Alltoall(mine, 1, MPI_INT, figure_got[rank], 1, MPI_INT, MPI_COMM_WORLD);
        break;
    case COLL_ALLTOALLV:
        figure_rc[rank] = MPI_Alltoallv(mine, counts, displs, MPI_INT, figure_got[rank], counts,
                                        displs, MPI_INT, MPI_COMM_WORLD);
        break;
    default:
        figure_rc[rank] = MPI_Alltoallw(mine, counts, bytes, types, figure_got[rank], counts, bytes,
                                        types, MPI_COMM_WORLD);
        break;
    }
}

START_TEST(test_alltoall_figure_5_1)
{
    const struct coll_algorithm *row = rows[_i];
    struct sim_config config;
    struct sim_outcome outcome;
    if (unmet_at(row, 6) != NULL)
        return; /* two ranks or a power of two only: refused at P = 6 (see the rows test) */
    force(row);
    sim_config_defaults(&config);
    config.nranks = 6;
    memset(figure_rc, 0, sizeof figure_rc);
    ck_assert_int_eq(collsim_test_run_config(&config, figure_rank, (void *)row, &outcome), 0);
    for (int r = 0; r < 6; r++) {
        ck_assert_int_eq(figure_rc[r], MPI_SUCCESS);
        for (int i = 0; i < 6; i++) {
            const char *s = figure_after[r] + 3 * i;
            ck_assert_msg(figure_got[r][i] == figure_item(s[0], s[1]),
                          "%s %s: process %d, location %d holds %d, the figure says %.2s",
                          coll_kind_name(row->kind), row->name, r, i, figure_got[r][i], s);
        }
    }
    ck_assert_uint_eq(outcome.served->len, 1);
    ck_assert_str_eq(g_array_index(outcome.served, struct sim_served, 0).algorithm, row->name);
    for (size_t k = 0; k < sizeof figure_messages / sizeof figure_messages[0]; k++)
        if (row->kind == COLL_ALLTOALL && strcmp(figure_messages[k].name, row->name) == 0)
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
    int out[4] = {rank, rank, rank, rank}, in[8], counts[2] = {1, 1}, displs[2] = {0, 1};
    int negative[2] = {1, -1}, bytes[2] = {0, 4};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, bad_types[2] = {MPI_INT, MPI_DATATYPE_NULL};
    int *rc = bad_rc[rank], n = 0;
    (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    rc[n++] = MPI_Alltoall(out, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoall(out, 1, MPI_INT, in, -1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoall(out, 1, MPI_DATATYPE_NULL, in, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoall(out, 2, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoallv(out, counts, displs, MPI_INT, MPI_IN_PLACE, counts, displs, MPI_INT,
                            MPI_COMM_WORLD);
    rc[n++] =
        MPI_Alltoallv(out, negative, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
    rc[n++] =
        MPI_Alltoallv(out, counts, NULL, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
    rc[n++] =
        MPI_Alltoallw(out, counts, bytes, types, in, counts, bytes, bad_types, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoallw(out, counts, bytes, NULL, in, counts, bytes, types, MPI_COMM_WORLD);
    rc[n++] = MPI_Alltoallw(out, negative, bytes, types, in, counts, bytes, types, MPI_COMM_WORLD);
    /* MPI_IN_PLACE as sendbuf: the send arguments are ignored, so these are fine */
    in[0] = 10 * rank;
    in[1] = 10 * rank + 1;
    rc[n++] = MPI_Alltoall(MPI_IN_PLACE, -5, MPI_DATATYPE_NULL, in, 1, MPI_INT, MPI_COMM_WORLD);
    if (rc[n - 1] == MPI_SUCCESS && (in[0] != rank || in[1] != 10 + rank))
        rc[n - 1] = -1;
    rc[n++] =
        MPI_Alltoallw(MPI_IN_PLACE, NULL, NULL, NULL, in, counts, bytes, types, MPI_COMM_WORLD);
    /* (exchanging again restores what each rank had) */
    if (rc[n - 1] == MPI_SUCCESS && (in[0] != 10 * rank || in[1] != 10 * rank + 1))
        rc[n - 1] = -1;
}

START_TEST(test_alltoall_bad_arguments_are_refused)
{
    static const int want[12] = {
        MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_TYPE, MPI_ERR_TRUNCATE,
        MPI_ERR_BUFFER, MPI_ERR_COUNT, MPI_ERR_ARG,  MPI_ERR_TYPE,
        MPI_ERR_ARG,    MPI_ERR_COUNT, MPI_SUCCESS,  MPI_SUCCESS,
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

START_TEST(test_alltoall_decision_table)
{
    coll_select_reset();
    /* MPICH: block <= 256 B and P >= 8: Bruck; <= 32 KiB: linear; else pairwise */
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 8, 256), "bruck");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 64, 4), "bruck");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 7, 4), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 8, 257), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 8, 32768), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 8, 32769), "pairwise");
    ck_assert_str_eq(table_pick(COLL_ALLTOALL, 1, 1 << 20), "pairwise");
    ck_assert_str_eq(table_pick(COLL_ALLTOALLV, 8, 4), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALLV, 8, 1 << 20), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALLW, 8, 4), "linear");
    ck_assert_str_eq(table_pick(COLL_ALLTOALLW, 8, 1 << 20), "linear");
}
END_TEST

static Suite *
alltoall_suite(void)
{
    enum coll_kind kinds[] = {COLL_ALLTOALL, COLL_ALLTOALLV, COLL_ALLTOALLW};
    for (size_t k = 0; k < 3; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);

    Suite *s = suite_create("alltoall");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_alltoall_row_matches_reference, 0, nrows * NSIZES * NPARAMS);
    tcase_add_loop_test(tc, test_alltoall_requirement_flags_are_needed, 0, nrows * NVIOLATING);
    suite_add_tcase(s, tc);

    tc = tcase_create("figure 5.1");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_alltoall_figure_5_1, 0, nrows);
    suite_add_tcase(s, tc);

    tc = tcase_create("arguments");
    tcase_add_test(tc, test_alltoall_bad_arguments_are_refused);
    suite_add_tcase(s, tc);

    tc = tcase_create("decision table");
    tcase_add_test(tc, test_alltoall_decision_table);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(alltoall_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
