/*
 * check_gather_scatter.c — MPI_Gather and MPI_Scatter algorithms of the registry, and the
 * seed's Figure 5.1 for every algorithm of Bcast, Scatter(v) and Gather(v).
 *
 * Rows (direct row->fn calls on a duplicate of MPI_COMM_WORLD, one simulation per (row, P),
 * P in {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}; every root for P <= 16, else roots 0, 1, P/2 and
 * P-1; 0, 1 and 5 items per block):
 *  - plain: MPI_INT on both sides;
 *  - in place at the root (Gather: sendbuf, Scatter: recvbuf);
 *  - root vector: the root's side of the blocks is a vector type (2 ints 3 apart, holes at
 *    ints 1 and 2 of every 4) counting c items, the others' 2c MPI_INTs; the root's own block
 *    goes from one type to the other locally;
 *  - leaf vector: the other way round.
 * A row with segments (COLL_SEGMENTED: gather's linear_sync) runs with its default
 * segment_bytes at even roots and with 8 bytes (two ints, one vector) at odd roots.
 * Everything the root must not touch stays untouched (holes, the items after the buffer, the
 * send buffers); arguments significant only at the root are NULL / MPI_DATATYPE_NULL / -1
 * elsewhere, and the receive (Gather: send) arguments of an in-place root likewise.
 *
 * Figure 5.1 (six ranks, items A0 … A5 encoded as ints, root 0): broadcast, scatter and
 * gather, through the MPI entry points with the algorithm forced (coll_select_force), must
 * leave exactly the figure's final layout in every rank's row of six boxes. Scatterv and
 * Gatherv with one item per rank draw the same figure. The simulation's report must name the
 * forced algorithm.
 *
 * The entry points' argument rules: arguments significant only at the root are ignored
 * elsewhere, MPI_IN_PLACE only at the root, a root whose own block does not match itself is
 * refused.
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_registry.h"
#include "coll/coll_select.h"
#include "mpi.h"
#include "sim_harness.h"

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define N_SIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define MAX_RANKS 64
static const int counts[] = {0, 1, 5};
#define N_COUNTS ((int)(sizeof counts / sizeof counts[0]))
#define SENTINEL (-7)
#define VEC_SPAN 4   /* ints spanned by one vector item: data at 0 and 3 */
#define GUARD 3      /* ints after a buffer that must stay untouched */

enum variant { PLAIN, IN_PLACE, ROOT_VECTOR, LEAF_VECTOR, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = {"plain", "in place", "root vector",
                                                      "leaf vector"};

/* Rows under test: Gather then Scatter (table order). */
static const struct coll_algorithm *rows[32];
static int nrows;

static char failure[MAX_RANKS][320];
static int calls_done[MAX_RANKS];

struct gs_run {
    const struct coll_algorithm *row;
    int size;
};

static void
note_failure(int rank, const char *fmt, ...)
{
    if (failure[rank][0] != '\0')
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure[rank], sizeof failure[rank], fmt, ap);
    va_end(ap);
}

/* Item j (an int of the signature) of rank i's block when the root is `root`. */
static int
value(int root, int i, int j)
{
    return (root + 1) * 100000 + i * 100 + j;
}

/*
 * One side of a block: `items` items of `type`, each `span` ints long, of which `data` ints
 * (at offsets `at`) belong to the signature.
 */
struct side {
    MPI_Datatype type;
    int count;   /* items per block */
    int span;    /* ints per item in memory */
};

static const int vector_at[2] = {0, 3};

/* Int offset in memory of signature int k of a block on this side. */
static int
memory_offset(const struct side *s, int k)
{
    if (s->span == 1)
        return k;
    return (k / 2) * s->span + vector_at[k % 2];
}

static void
sides(enum variant v, int c, MPI_Datatype vec, struct side *root_side, struct side *leaf_side)
{
    struct side ints = {MPI_INT, 2 * c, 1}, vectors = {vec, c, VEC_SPAN};
    *root_side = v == ROOT_VECTOR ? vectors : ints;
    *leaf_side = v == LEAF_VECTOR ? vectors : ints;
}

/* Signature ints per block. */
static int
signature_ints(const struct side *s)
{
    return s->span == 1 ? s->count : 2 * s->count;
}

/* A buffer of `blocks` blocks on side s (ranks first_rank …) and GUARD ints, all SENTINEL;
 * if `fill`, each block's signature ints hold its rank's values. */
static int *
block_buffer(const struct side *s, int blocks, int first_rank, int root, int fill)
{
    int len = blocks * s->count * s->span + GUARD;
    int *buf = malloc(sizeof(int) * (size_t)len);
    for (int k = 0; k < len; k++)
        buf[k] = SENTINEL;
    if (fill)
        for (int b = 0; b < blocks; b++)
            for (int k = 0; k < signature_ints(s); k++)
                buf[b * s->count * s->span + memory_offset(s, k)] = value(root, first_rank + b, k);
    return buf;
}

/* Check `blocks` blocks of a buffer on side s: data where it belongs, SENTINEL elsewhere. */
static int
check_buffer(const int *buf, const struct side *s, int blocks, int first_rank, int root,
             int filled, int *bad)
{
    int len = blocks * s->count * s->span + GUARD;
    int *want = malloc(sizeof(int) * (size_t)len);
    for (int k = 0; k < len; k++)
        want[k] = SENTINEL;
    if (filled)
        for (int b = 0; b < blocks; b++)
            for (int k = 0; k < signature_ints(s); k++)
                want[b * s->count * s->span + memory_offset(s, k)] =
                    value(root, first_rank + b, k);
    int ok = 1;
    for (int k = 0; k < len && ok; k++)
        if (buf[k] != want[k]) {
            *bad = k;
            ok = 0;
        }
    free(want);
    return ok;
}

static void
gather_once(const struct coll_algorithm *row, const struct coll_params *params, int rank,
            int size, int root, int c, enum variant v, MPI_Datatype vec, MPI_Comm comm)
{
    struct side rs, ls;
    sides(v, c, vec, &rs, &ls);
    int in_place = v == IN_PLACE && rank == root;
    /* the root sends its own block as the others do (leaf side) unless in place */
    const struct side *mine = &ls;
    int *recv = NULL, *send = NULL, bad;
    if (rank == root) {
        recv = block_buffer(&rs, size, 0, root, 0);
        if (in_place)
            for (int k = 0; k < signature_ints(&rs); k++)
                recv[root * rs.count * rs.span + memory_offset(&rs, k)] = value(root, root, k);
    }
    if (!in_place)
        send = block_buffer(mine, 1, rank, root, 1);
    int rc = row->fn.gather(in_place ? MPI_IN_PLACE : send, in_place ? -1 : mine->count,
                            in_place ? MPI_DATATYPE_NULL : mine->type, recv,
                            rank == root ? rs.count : -1,
                            rank == root ? rs.type : MPI_DATATYPE_NULL, root, comm, params);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS)
        note_failure(rank, "gather %s, root %d, count %d: rc %d", variant_names[v], root, c, rc);
    else if (rank == root && !check_buffer(recv, &rs, size, 0, root, 1, &bad))
        note_failure(rank, "gather %s, root %d, count %d: recvbuf int %d is %d", variant_names[v],
                     root, c, bad, recv[bad]);
    else if (send != NULL && !check_buffer(send, mine, 1, rank, root, 1, &bad))
        note_failure(rank, "gather %s, root %d, count %d: sendbuf int %d was written",
                     variant_names[v], root, c, bad);
    free(recv);
    free(send);
}

static void
scatter_once(const struct coll_algorithm *row, const struct coll_params *params, int rank,
             int size, int root, int c, enum variant v, MPI_Datatype vec, MPI_Comm comm)
{
    struct side rs, ls;
    sides(v, c, vec, &rs, &ls);
    int in_place = v == IN_PLACE && rank == root;
    int *recv = NULL, *send = NULL, bad;
    if (rank == root)
        send = block_buffer(&rs, size, 0, root, 1);
    if (!in_place)
        recv = block_buffer(&ls, 1, rank, root, 0);
    int rc = row->fn.scatter(send, rank == root ? rs.count : -1,
                             rank == root ? rs.type : MPI_DATATYPE_NULL,
                             in_place ? MPI_IN_PLACE : recv, in_place ? -1 : ls.count,
                             in_place ? MPI_DATATYPE_NULL : ls.type, root, comm, params);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS)
        note_failure(rank, "scatter %s, root %d, count %d: rc %d", variant_names[v], root, c,
                     rc);
    else if (recv != NULL && !check_buffer(recv, &ls, 1, rank, root, 1, &bad))
        note_failure(rank, "scatter %s, root %d, count %d: recvbuf int %d is %d",
                     variant_names[v], root, c, bad, recv[bad]);
    else if (send != NULL && !check_buffer(send, &rs, size, 0, root, 1, &bad))
        note_failure(rank, "scatter %s, root %d, count %d: sendbuf int %d was written",
                     variant_names[v], root, c, bad);
    free(recv);
    free(send);
}

static int
root_tested(int root, int size)
{
    return size <= 16 || root == 0 || root == 1 || root == size / 2 || root == size - 1;
}

static void
gs_rank(int rank, void *arg)
{
    const struct gs_run *run = arg;
    MPI_Datatype vec;
    MPI_Comm comm;
    MPI_Type_vector(2, 1, 3, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    for (int root = 0; root < run->size; root++) {
        if (!root_tested(root, run->size))
            continue;
        struct coll_params params = run->row->defaults;
        if ((run->row->caps & COLL_SEGMENTED) && root % 2 == 1)
            params.segment_bytes = 8;
        for (int k = 0; k < N_COUNTS; k++)
            for (int v = 0; v < N_VARIANTS; v++) {
                if (run->row->kind == COLL_GATHER)
                    gather_once(run->row, &params, rank, run->size, root, counts[k], v, vec,
                                comm);
                else
                    scatter_once(run->row, &params, rank, run->size, root, counts[k], v, vec,
                                 comm);
            }
    }
    MPI_Comm_free(&comm);
    MPI_Type_free(&vec);
}

START_TEST(test_gather_scatter_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / N_SIZES];
    struct gs_run run = {row, sizes[_i % N_SIZES]};
    int roots = 0;
    for (int root = 0; root < run.size; root++)
        roots += root_tested(root, run.size);
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    ck_assert_msg(collsim_test_run_ranks(run.size, gs_rank, &run) == 0,
                  "%s %s, P = %d: the simulation failed", coll_kind_name(row->kind), row->name,
                  run.size);
    for (int r = 0; r < run.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, P = %d, rank %d: %s",
                      coll_kind_name(row->kind), row->name, run.size, r, failure[r]);
        ck_assert_int_eq(calls_done[r], roots * N_COUNTS * N_VARIANTS);
    }
}
END_TEST

/* ---------------------------------------------------------------- Figure 5.1 */

#define FIG_RANKS 6
#define EMPTY 0
/* Item "<letter><index>" of the figure, e.g. ITEM('A', 3) for A3. */
#define ITEM(letter, index) (((letter) - 'A' + 1) * 10 + (index))

/* The rows of the figure under test, in order: Bcast, Scatter, Gather, Scatterv, Gatherv. */
static const enum coll_kind figure_kinds[] = {COLL_BCAST, COLL_SCATTER, COLL_GATHER,
                                              COLL_SCATTERV, COLL_GATHERV};
#define N_FIGURE_KINDS ((int)(sizeof figure_kinds / sizeof figure_kinds[0]))
static const struct coll_algorithm *figure_rows[64];
static int n_figure_rows;

/* Every rank's row of six boxes after the call, and what the call returned. */
static int boxes[FIG_RANKS][FIG_RANKS];
static int untouched[FIG_RANKS];   /* 1 if the root's send row was left as it was */
static int figure_rc[FIG_RANKS];

static void
figure_rank(int rank, void *arg)
{
    const struct coll_algorithm *row = arg;
    int box[FIG_RANKS] = {EMPTY}, send[FIG_RANKS] = {EMPTY}, kept[FIG_RANKS];
    int ones[FIG_RANKS], displs[FIG_RANKS];
    int rc = MPI_SUCCESS;
    for (int i = 0; i < FIG_RANKS; i++) {
        ones[i] = 1;
        displs[i] = i;
    }
    switch (row->kind) {
    case COLL_BCAST:
        /* before: A0 at the first process only; after: A0 everywhere */
        if (rank == 0)
            box[0] = ITEM('A', 0);
        rc = MPI_Bcast(box, 1, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    case COLL_SCATTER:
    case COLL_SCATTERV:
        /* before: A0 … A5 at the first process; after: Ai at process i */
        if (rank == 0)
            for (int i = 0; i < FIG_RANKS; i++)
                send[i] = ITEM('A', i);
        if (row->kind == COLL_SCATTER)
            rc = MPI_Scatter(send, 1, MPI_INT, box, 1, MPI_INT, 0, MPI_COMM_WORLD);
        else
            rc = MPI_Scatterv(send, ones, displs, MPI_INT, box, 1, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    default:
        /* before: Ai at process i; after: A0 … A5 at the first process */
        send[0] = ITEM('A', rank);
        if (row->kind == COLL_GATHER)
            rc = MPI_Gather(send, 1, MPI_INT, box, 1, MPI_INT, 0, MPI_COMM_WORLD);
        else
            rc = MPI_Gatherv(send, 1, MPI_INT, box, ones, displs, MPI_INT, 0, MPI_COMM_WORLD);
        break;
    }
    memcpy(boxes[rank], box, sizeof box);
    figure_rc[rank] = rc;
    /* the send row of the scatter's root, of the gather's processes, is as it was */
    memset(kept, EMPTY, sizeof kept);
    if (row->kind == COLL_SCATTER || row->kind == COLL_SCATTERV) {
        if (rank == 0)
            for (int i = 0; i < FIG_RANKS; i++)
                kept[i] = ITEM('A', i);
    } else if (row->kind != COLL_BCAST) {
        kept[0] = ITEM('A', rank);
    }
    untouched[rank] = memcmp(send, kept, sizeof kept) == 0;
}

/* The figure's final layout: the row of process `rank` after the call. */
static void
figure_after(enum coll_kind kind, int rank, int *row)
{
    for (int i = 0; i < FIG_RANKS; i++)
        row[i] = EMPTY;
    switch (kind) {
    case COLL_BCAST:
        row[0] = ITEM('A', 0);
        break;
    case COLL_SCATTER:
    case COLL_SCATTERV:
        row[0] = ITEM('A', rank);
        break;
    default:
        if (rank == 0)
            for (int i = 0; i < FIG_RANKS; i++)
                row[i] = ITEM('A', i);
        break;
    }
}

START_TEST(test_figure_5_1_data_movement)
{
    const struct coll_algorithm *row = figure_rows[_i];
    char why[256];
    struct sim_config config;
    struct sim_outcome outcome;

    coll_select_reset();
    ck_assert_msg(coll_select_force(row->kind, row->name, NULL, why, sizeof why), "%s", why);
    memset(boxes, -1, sizeof boxes);
    sim_config_defaults(&config);
    config.nranks = FIG_RANKS;
    ck_assert_msg(collsim_test_run_config(&config, figure_rank, (void *)row, &outcome) == 0,
                  "%s %s: the simulation failed", coll_kind_mpi_name(row->kind), row->name);
    for (int r = 0; r < FIG_RANKS; r++) {
        int want[FIG_RANKS];
        figure_after(row->kind, r, want);
        ck_assert_msg(figure_rc[r] == MPI_SUCCESS, "%s %s: rank %d returned %d",
                      coll_kind_mpi_name(row->kind), row->name, r, figure_rc[r]);
        for (int i = 0; i < FIG_RANKS; i++)
            ck_assert_msg(boxes[r][i] == want[i], "%s %s: process %d, box %d holds %d, want %d",
                          coll_kind_mpi_name(row->kind), row->name, r, i, boxes[r][i], want[i]);
        ck_assert_msg(untouched[r], "%s %s: process %d's send row was written",
                      coll_kind_mpi_name(row->kind), row->name, r);
    }
    /* the report names the forced algorithm, once */
    ck_assert_ptr_nonnull(outcome.served);
    ck_assert_uint_eq(outcome.served->len, 1);
    struct sim_served *s = &g_array_index(outcome.served, struct sim_served, 0);
    ck_assert_int_eq(s->kind, (int)row->kind);
    ck_assert_str_eq(s->algorithm, row->name);
    ck_assert_uint_eq(s->calls, 1);
    g_array_free(outcome.served, TRUE);
}
END_TEST

/* ---------------------------------------------------------------- entry-point arguments */

static int argument_rc[4][8];

static void
arguments_rank(int rank, void *arg)
{
    (void)arg;
    int a[8] = {0}, b[8] = {0};
    int root = 1;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* 0, 1: root-only arguments are ignored elsewhere (garbage there is fine), and so are the
     * receive arguments of an in-place scatter root */
    a[0] = rank == root ? 5 : rank;
    if (rank == root)
        argument_rc[0][rank] = MPI_Gather(a, 1, MPI_INT, b, 1, MPI_INT, root, MPI_COMM_WORLD);
    else
        argument_rc[0][rank] =
            MPI_Gather(a, 1, MPI_INT, NULL, -1, MPI_DATATYPE_NULL, root, MPI_COMM_WORLD);
    if (rank == root && (b[0] != 0 || b[1] != 5 || b[2] != 2))
        argument_rc[0][rank] = -1;   /* gathered {0, 5, 2} */
    if (rank == root)
        argument_rc[1][rank] = MPI_Scatter(b, 1, MPI_INT, MPI_IN_PLACE, -1, MPI_DATATYPE_NULL,
                                           root, MPI_COMM_WORLD);
    else
        argument_rc[1][rank] =
            MPI_Scatter(NULL, -1, MPI_DATATYPE_NULL, a, 1, MPI_INT, root, MPI_COMM_WORLD);
    if (rank != root && a[0] != rank)
        argument_rc[1][rank] = -1;   /* scattered back */
    /* 2: MPI_IN_PLACE where it is not allowed: everyone refuses, nobody communicates */
    argument_rc[2][rank] = MPI_Gather(MPI_IN_PLACE, 1, MPI_INT, rank == root ? MPI_IN_PLACE : b,
                                      1, MPI_INT, root, MPI_COMM_WORLD);
    /* 3: the root's own block does not match itself; the others give a negative count */
    argument_rc[3][rank] = MPI_Scatter(a, 1, MPI_INT, b, rank == root ? 2 : -1, MPI_INT, root,
                                       MPI_COMM_WORLD);
}

START_TEST(test_gather_scatter_argument_rules)
{
    memset(argument_rc, -2, sizeof argument_rc);
    ck_assert_int_eq(collsim_test_run_ranks(3, arguments_rank, NULL), 0);
    for (int r = 0; r < 3; r++) {
        ck_assert_msg(argument_rc[0][r] == MPI_SUCCESS, "gather, rank %d: %d", r,
                      argument_rc[0][r]);
        ck_assert_msg(argument_rc[1][r] == MPI_SUCCESS, "scatter, rank %d: %d", r,
                      argument_rc[1][r]);
        ck_assert_int_eq(argument_rc[2][r], MPI_ERR_BUFFER);
        ck_assert_int_eq(argument_rc[3][r], r == 1 ? MPI_ERR_TRUNCATE : MPI_ERR_COUNT);
    }
}
END_TEST

/* The default table: binomial Gather and Scatter, linear Gatherv and Scatterv. */
START_TEST(test_gather_scatter_default_choice)
{
    static const struct {
        enum coll_kind kind;
        const char *name;
    } cases[] = {{COLL_GATHER, "binomial"}, {COLL_SCATTER, "binomial"},
                 {COLL_GATHERV, "linear"}, {COLL_SCATTERV, "linear"}};
    coll_select_reset();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int ranks = 1; ranks <= 64; ranks *= 4) {
            struct coll_call call = {cases[i].kind, ranks, 4000, 1000, 1, 1, 1, 0};
            struct coll_params params;
            const char *refusal;
            const struct coll_algorithm *row = coll_select(&call, &params, &refusal);
            ck_assert_ptr_nonnull(row);
            ck_assert_str_eq(row->name, cases[i].name);
        }
}
END_TEST

/* Binomial Gather and Scatter move a subtree's blocks in one message of int count: a call
 * whose blocks add up to 2 GiB or more goes to the first row that can serve it (linear), and
 * binomial forced is refused with the reason, not run to fail with MPI_ERR_COUNT (MPICH's
 * gather_big: 8 ranks of 1 GiB each). */
START_TEST(test_gather_scatter_total_over_int)
{
    static const enum coll_kind kinds[] = {COLL_GATHER, COLL_SCATTER};
    for (size_t i = 0; i < 2; i++) {
        coll_select_reset();
        struct coll_params params;
        const char *refusal;
        struct coll_call fits = {kinds[i], 8, 268435455, 268435455, 1, 1, 1, 0}; /* 8 x < 2^31 */
        struct coll_call over = {kinds[i], 8, 268435456, 268435456, 1, 1, 1, 0};
        const struct coll_algorithm *row = coll_select(&fits, &params, &refusal);
        ck_assert_str_eq(row->name, "binomial");
        row = coll_select(&over, &params, &refusal);
        ck_assert_ptr_nonnull(row);
        ck_assert_str_eq(row->name, "linear");
        char why[128];
        ck_assert(coll_select_force(kinds[i], "binomial", NULL, why, sizeof why));
        ck_assert_ptr_null(coll_select(&over, &params, &refusal));
        ck_assert_ptr_nonnull(strstr(refusal, "bytes x ranks < 2 GiB"));
        ck_assert_ptr_nonnull(coll_select(&fits, &params, &refusal));
    }
    coll_select_reset();
}
END_TEST

static Suite *
gather_scatter_suite(void)
{
    enum coll_kind kinds[] = {COLL_GATHER, COLL_SCATTER};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);
    for (int k = 0; k < N_FIGURE_KINDS; k++)
        for (size_t i = 0; i < coll_registry_count(figure_kinds[k]); i++)
            figure_rows[n_figure_rows++] = coll_registry_nth(figure_kinds[k], i);

    Suite *s = suite_create("gather_scatter");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_gather_scatter_row_matches_reference, 0, nrows * N_SIZES);
    tcase_add_test(tc, test_gather_scatter_total_over_int);
    suite_add_tcase(s, tc);
    TCase *fig = tcase_create("figure_5_1");
    tcase_add_loop_test(fig, test_figure_5_1_data_movement, 0, n_figure_rows);
    tcase_add_test(fig, test_gather_scatter_argument_rules);
    suite_add_tcase(s, fig);
    TCase *choice = tcase_create("selection");
    tcase_add_test(choice, test_gather_scatter_default_choice);
    suite_add_tcase(s, choice);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(gather_scatter_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
