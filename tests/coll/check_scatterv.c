/*
 * check_scatterv.c — every registry row of MPI_Scatterv and MPI_Gatherv, called directly
 * (row->fn) on MPI_COMM_WORLD inside one simulation per (row, P), P in
 * {1, 2, 3, 5, 7, 8, 13, 16, 31, 64}.
 *
 * Each simulation runs, for every root:
 *  - irregular counts with zeros, blocks placed in reverse rank order with gaps between
 *    them: each block lands where displs says, the gaps and the items after a block stay
 *    untouched, the root's send buffer is not written;
 *  - the same with MPI_IN_PLACE at the root (Scatterv: recvbuf; Gatherv: sendbuf);
 *  - different datatypes of one signature on the two sides (MPI_INT against a pair of
 *    ints), which the root's own block must honour too;
 *  - all counts zero.
 * Arguments significant only at the root are NULL / MPI_DATATYPE_NULL elsewhere (and the
 * receive arguments of an in-place root likewise), so an algorithm that reads them fails.
 *
 * The rank functions only record what they see; assertions run after the simulation.
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "coll/coll_registry.h"
#include "tests/unit/sim_harness.h"

#define MAXR 64
#define GAP 2   /* items between two blocks of the root's buffer */
#define GUARD 3   /* items after a rank's block that must stay untouched */
#define SENTINEL (-7)

static const int sizes[] = {1, 2, 3, 5, 7, 8, 13, 16, 31, 64};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* The rows under test: Scatterv rows, then Gatherv rows (table order). */
static const struct coll_algorithm *rows[64];
static int nrows;

/* What each rank saw. */
static char failure[MAXR][320];
static int calls_done[MAXR];

struct v_case {
    const struct coll_algorithm *row;
    int size;
};

enum variant { PLAIN, IN_PLACE, PAIR_TYPE, EMPTY, VARIANT_COUNT };
static const char *const variant_names[VARIANT_COUNT] = {"plain", "in place",
                                                         "int against pair of ints", "empty"};

static void
note_failure(int rank, const char *fmt, ...)
{
    if (failure[rank][0] != '\0')
        return;   /* the first failure is the informative one */
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(failure[rank], sizeof failure[rank], fmt, ap);
    va_end(ap);
}

/*
 * Block sizes in items of the root-side MPI_INT (even, so that they are whole pairs too) and
 * their places, last rank's block first, GAP items apart. Returns the buffer length.
 */
static int
layout(enum variant v, int size, int *counts, int *displs)
{
    int at = GAP;
    for (int i = 0; i < size; i++)
        counts[i] = v == EMPTY ? 0 : 2 * ((3 * i + 1) % 4);   /* 2 0 6 4 2 0 ...: zeros too */
    for (int i = size - 1; i >= 0; i--) {
        displs[i] = at;
        at += counts[i] + GAP;
    }
    return at;
}

/* The value of item j of rank i's block when the root is `root`. */
static int
value(int root, int i, int j)
{
    return (root + 1) * 100000 + i * 100 + j;
}

/* ---------------------------------------------------------------- Scatterv */

static void
scatterv_once(const struct coll_algorithm *row, int rank, int size, int root, enum variant v,
              MPI_Datatype pair)
{
    int counts[MAXR], displs[MAXR];
    int len = layout(v, size, counts, displs);
    int *send = NULL, *recv = NULL;
    int mine = counts[rank];   /* in ints */

    /* root-only arguments exist at the root only */
    if (rank == root) {
        send = malloc(sizeof(int) * (size_t)len);
        for (int k = 0; k < len; k++)
            send[k] = SENTINEL;
        for (int i = 0; i < size; i++)
            for (int j = 0; j < counts[i]; j++)
                send[displs[i] + j] = value(root, i, j);
    }
    int in_place_root = v == IN_PLACE && rank == root;
    if (!in_place_root) {
        recv = malloc(sizeof(int) * (size_t)(mine + GUARD));
        for (int k = 0; k < mine + GUARD; k++)
            recv[k] = SENTINEL;
    }
    int recvcount = v == PAIR_TYPE ? mine / 2 : mine;
    MPI_Datatype recvtype = v == PAIR_TYPE ? pair : MPI_INT;
    int rc = row->fn.scatterv(
        rank == root ? send : NULL, rank == root ? counts : NULL, rank == root ? displs : NULL,
        rank == root ? MPI_INT : MPI_DATATYPE_NULL, in_place_root ? MPI_IN_PLACE : recv,
        in_place_root ? 0 : recvcount, in_place_root ? MPI_DATATYPE_NULL : recvtype, root,
        MPI_COMM_WORLD, &row->defaults);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "scatterv %s, root %d: rc %d", variant_names[v], root, rc);
        goto out;
    }
    for (int k = 0; recv != NULL && k < mine + GUARD; k++) {
        int want = k < mine ? value(root, rank, k) : SENTINEL;
        if (recv[k] != want) {
            note_failure(rank, "scatterv %s, root %d: recvbuf item %d is %d, want %d",
                         variant_names[v], root, k, recv[k], want);
            goto out;
        }
    }
    if (rank == root) {
        /* the send buffer, the root's own block included when in place, is as it was */
        for (int i = 0; i < size; i++)
            for (int j = 0; j < counts[i]; j++)
                if (send[displs[i] + j] != value(root, i, j)) {
                    note_failure(rank, "scatterv %s, root %d: sendbuf was written",
                                 variant_names[v], root);
                    goto out;
                }
    }
out:
    free(recv);
    free(send);
}

/* ---------------------------------------------------------------- Gatherv */

static void
gatherv_once(const struct coll_algorithm *row, int rank, int size, int root, enum variant v,
             MPI_Datatype pair)
{
    int counts[MAXR], displs[MAXR];
    int len = layout(v, size, counts, displs);
    int *send = NULL, *recv = NULL;
    int mine = counts[rank];

    if (rank == root) {
        recv = malloc(sizeof(int) * (size_t)len);
        for (int k = 0; k < len; k++)
            recv[k] = SENTINEL;
    }
    int in_place_root = v == IN_PLACE && rank == root;
    if (in_place_root) {
        for (int j = 0; j < mine; j++)
            recv[displs[rank] + j] = value(root, rank, j);
    } else {
        send = malloc(sizeof(int) * (size_t)(mine + 1));
        for (int j = 0; j < mine; j++)
            send[j] = value(root, rank, j);
    }
    /* the pair variant: senders send pairs, the root receives ints */
    int sendcount = v == PAIR_TYPE ? mine / 2 : mine;
    MPI_Datatype sendtype = v == PAIR_TYPE ? pair : MPI_INT;
    int rc = row->fn.gatherv(in_place_root ? MPI_IN_PLACE : send, in_place_root ? 0 : sendcount,
                             in_place_root ? MPI_DATATYPE_NULL : sendtype, recv,
                             rank == root ? counts : NULL, rank == root ? displs : NULL,
                             rank == root ? MPI_INT : MPI_DATATYPE_NULL, root, MPI_COMM_WORLD,
                             &row->defaults);
    calls_done[rank]++;
    if (rc != MPI_SUCCESS) {
        note_failure(rank, "gatherv %s, root %d: rc %d", variant_names[v], root, rc);
        goto out;
    }
    if (rank == root) {
        int *want = malloc(sizeof(int) * (size_t)len);
        for (int k = 0; k < len; k++)
            want[k] = SENTINEL;
        for (int i = 0; i < size; i++)
            for (int j = 0; j < counts[i]; j++)
                want[displs[i] + j] = value(root, i, j);
        for (int k = 0; k < len; k++) {
            if (recv[k] != want[k]) {
                note_failure(rank, "gatherv %s, root %d: recvbuf item %d is %d, want %d",
                             variant_names[v], root, k, recv[k], want[k]);
                break;
            }
        }
        free(want);
    }
    for (int j = 0; send != NULL && j < mine; j++)
        if (send[j] != value(root, rank, j)) {
            note_failure(rank, "gatherv %s, root %d: sendbuf was written", variant_names[v], root);
            break;
        }
out:
    free(recv);
    free(send);
}

static void
v_rank(int rank, void *arg)
{
    const struct v_case *c = arg;
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    for (int root = 0; root < c->size; root++)
        for (int v = 0; v < VARIANT_COUNT; v++) {
            if (c->row->kind == COLL_SCATTERV)
                scatterv_once(c->row, rank, c->size, root, v, pair);
            else
                gatherv_once(c->row, rank, c->size, root, v, pair);
        }
    MPI_Type_free(&pair);
}

START_TEST(test_scatterv_row_matches_reference)
{
    const struct coll_algorithm *row = rows[_i / NSIZES];
    struct v_case c = {row, sizes[_i % NSIZES]};
    memset(failure, 0, sizeof failure);
    memset(calls_done, 0, sizeof calls_done);
    ck_assert_int_eq(collsim_test_run_ranks(c.size, v_rank, &c), 0);
    for (int r = 0; r < c.size; r++) {
        ck_assert_msg(failure[r][0] == '\0', "%s %s, P=%d, rank %d: %s", coll_kind_name(row->kind),
                      row->name, c.size, r, failure[r]);
        ck_assert_int_eq(calls_done[r], c.size * VARIANT_COUNT);
    }
}
END_TEST

static Suite *
scatterv_suite(void)
{
    enum coll_kind kinds[] = {COLL_SCATTERV, COLL_GATHERV};
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < coll_registry_count(kinds[k]); i++)
            rows[nrows++] = coll_registry_nth(kinds[k], i);

    Suite *s = suite_create("scatterv");
    TCase *tc = tcase_create("rows");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_scatterv_row_matches_reference, 0, nrows * NSIZES);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(scatterv_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
