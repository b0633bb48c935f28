/*
 * check_type_attr.c — attribute caching on datatypes (MPI-3.1 §6.7.4) on simulated ranks
 * (tests/unit/sim_harness.h): set/get/delete, the copy callbacks of MPI_Type_dup (the
 * predefined MPI_TYPE_DUP_FN and MPI_TYPE_NULL_COPY_FN, and a program's own that keeps or
 * drops), the delete callbacks of MPI_Type_free, deletion and replacement, and the keyval
 * errors (a communicator keyval on a datatype, a datatype keyval on a communicator).
 *
 * The callbacks append to one log ("d17=1": keyval 17's delete callback got the value 1);
 * each test compares it with the sequence the standard prescribes, worked out by hand.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "mpi.h"
#include "sim_harness.h"

static char log_text[512];

static void
log_event(const char *what, int keyval, int value)
{
    char event[32];
    snprintf(event, sizeof event, "%s%d=%d", what, keyval, value);
    if (log_text[0] != '\0')
        g_strlcat(log_text, " ", sizeof log_text);
    g_strlcat(log_text, event, sizeof log_text);
}

/* Keyval numbers are the simulator's business: tests log them relative to the first. */
static int key_base;

static int
record_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)extra;
    log_event("d", keyval - key_base, *(int *)value);
    return MPI_SUCCESS;
}

/* A copy callback that keeps odd values (sharing them) and drops even ones. */
static int
copy_odd(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldtype, (void)extra;
    log_event("c", keyval - key_base, *(int *)in);
    *flag = *(int *)in % 2;
    if (*flag)
        *(void **)out = in;
    return MPI_SUCCESS;
}

static int
failing_delete(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)keyval, (void)value, (void)extra;
    return MPI_ERR_OTHER;
}

static struct {
    int rc[16];
    int flag[8];
    int value[8];
    char log_at[4][512];
} seen;

static void
reset(void)
{
    memset(&seen, 0, sizeof seen);
    log_text[0] = '\0';
}

static int values[4] = {1, 2, 3, 4};

static int
get(MPI_Datatype type, int keyval, int *flag)
{
    int *v = NULL;
    MPI_Type_get_attr(type, keyval, &v, flag);
    return *flag ? *v : -1;
}

/* ---------------------------------------------------------------- set, get, delete */

static void
set_get_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    int k;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &k, NULL);
    key_base = k;
    MPI_Datatype t;
    MPI_Type_contiguous(2, MPI_INT, &t);
    seen.value[0] = get(t, k, &seen.flag[0]);                 /* not set: flag 0 */
    seen.rc[0] = MPI_Type_set_attr(t, k, &values[0]);
    seen.value[1] = get(t, k, &seen.flag[1]);
    seen.rc[1] = MPI_Type_set_attr(t, k, &values[1]);         /* replaces: deletes 1 */
    seen.value[2] = get(t, k, &seen.flag[2]);
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.rc[2] = MPI_Type_delete_attr(t, k);                  /* deletes 2 */
    seen.value[3] = get(t, k, &seen.flag[3]);
    /* predefined types hold attributes too */
    seen.rc[3] = MPI_Type_set_attr(MPI_DOUBLE, k, &values[2]);
    seen.value[4] = get(MPI_DOUBLE, k, &seen.flag[4]);
    seen.rc[4] = MPI_Type_delete_attr(MPI_DOUBLE, k);         /* deletes 3 */
    MPI_Type_set_attr(t, k, &values[3]);
    seen.rc[5] = MPI_Type_free(&t);                           /* deletes 4 */
    seen.rc[6] = MPI_Type_free_keyval(&k);
    seen.value[5] = k == MPI_KEYVAL_INVALID;
}

START_TEST(test_set_get_delete_and_free)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, set_get_rank, NULL), 0);
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(seen.rc[i], MPI_SUCCESS);
    ck_assert_int_eq(seen.flag[0], 0);
    ck_assert_int_eq(seen.flag[1], 1);
    ck_assert_int_eq(seen.value[1], 1);
    ck_assert_int_eq(seen.flag[2], 1);
    ck_assert_int_eq(seen.value[2], 2);
    ck_assert_str_eq(seen.log_at[0], "d0=1");
    ck_assert_int_eq(seen.flag[3], 0);
    ck_assert_int_eq(seen.flag[4], 1);
    ck_assert_int_eq(seen.value[4], 3);
    ck_assert(seen.value[5]);
    ck_assert_str_eq(log_text, "d0=1 d0=2 d0=3 d0=4");
}
END_TEST

/* ---------------------------------------------------------------- MPI_Type_dup */

static void
dup_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    int k_dup, k_null, k_odd_a, k_odd_b;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, record_delete, &k_dup, NULL);
    key_base = k_dup;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &k_null, NULL);
    MPI_Type_create_keyval(copy_odd, record_delete, &k_odd_a, NULL);
    MPI_Type_create_keyval(copy_odd, record_delete, &k_odd_b, NULL);
    MPI_Datatype t, d;
    MPI_Type_vector(2, 1, 3, MPI_INT, &t);
    MPI_Type_set_attr(t, k_dup, &values[0]);
    MPI_Type_set_attr(t, k_null, &values[1]);
    MPI_Type_set_attr(t, k_odd_a, &values[2]);   /* odd: kept */
    MPI_Type_set_attr(t, k_odd_b, &values[3]);   /* even: dropped */
    seen.rc[0] = MPI_Type_dup(t, &d);
    g_strlcpy(seen.log_at[0], log_text, sizeof seen.log_at[0]);
    seen.value[0] = get(d, k_dup, &seen.flag[0]);
    seen.value[1] = get(d, k_null, &seen.flag[1]);
    seen.value[2] = get(d, k_odd_a, &seen.flag[2]);
    seen.value[3] = get(d, k_odd_b, &seen.flag[3]);
    log_text[0] = '\0';
    /* freeing the copy deletes its two attributes, last set first; the original keeps its own */
    seen.rc[1] = MPI_Type_free(&d);
    g_strlcpy(seen.log_at[1], log_text, sizeof seen.log_at[1]);
    seen.value[4] = get(t, k_null, &seen.flag[4]);
    log_text[0] = '\0';
    seen.rc[2] = MPI_Type_free(&t);
}

START_TEST(test_dup_runs_copy_callbacks)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, dup_rank, NULL), 0);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(seen.rc[i], MPI_SUCCESS);
    /* MPI_TYPE_DUP_FN and MPI_TYPE_NULL_COPY_FN log nothing; copy_odd logs both calls */
    ck_assert_str_eq(seen.log_at[0], "c2=3 c3=4");
    ck_assert_int_eq(seen.flag[0], 1);
    ck_assert_int_eq(seen.value[0], 1);
    ck_assert_int_eq(seen.flag[1], 0);
    ck_assert_int_eq(seen.flag[2], 1);
    ck_assert_int_eq(seen.value[2], 3);
    ck_assert_int_eq(seen.flag[3], 0);
    ck_assert_str_eq(seen.log_at[1], "d2=3 d0=1");
    ck_assert_int_eq(seen.flag[4], 1);
    ck_assert_int_eq(seen.value[4], 2);
    ck_assert_str_eq(log_text, "d3=4 d2=3 d1=2 d0=1");
}
END_TEST

/* ---------------------------------------------------------------- errors */

static void
errors_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int k_type, k_comm, k_freed, k_fail, flag;
    void *v;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k_type, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_comm, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k_freed, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, failing_delete, &k_fail, NULL);
    int freed_copy = k_freed;
    MPI_Type_free_keyval(&k_freed);
    /* a communicator keyval on a type, a type keyval on a communicator */
    seen.rc[0] = MPI_Type_set_attr(MPI_INT, k_comm, &values[0]);
    seen.rc[1] = MPI_Type_get_attr(MPI_INT, k_comm, &v, &flag);
    seen.rc[2] = MPI_Comm_set_attr(MPI_COMM_WORLD, k_type, &values[0]);
    seen.rc[3] = MPI_Type_free_keyval(&k_comm);
    seen.rc[4] = MPI_Comm_free_keyval(&k_type);
    /* keyvals that are no keyval: never made, freed, invalid, a predefined attribute */
    seen.rc[5] = MPI_Type_set_attr(MPI_INT, 12345, &values[0]);
    seen.rc[6] = MPI_Type_get_attr(MPI_INT, freed_copy, &v, &flag);
    seen.rc[7] = MPI_Type_set_attr(MPI_INT, MPI_KEYVAL_INVALID, &values[0]);
    seen.rc[8] = MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag);
    /* deleting what is not set; a datatype that is not one */
    seen.rc[9] = MPI_Type_delete_attr(MPI_INT, k_type);
    seen.rc[10] = MPI_Type_set_attr(MPI_DATATYPE_NULL, k_type, &values[0]);
    seen.rc[11] = MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, NULL,
                                         NULL);
    /* a failing delete callback fails the call */
    MPI_Type_set_attr(MPI_INT, k_fail, &values[0]);
    seen.rc[12] = MPI_Type_delete_attr(MPI_INT, k_fail);
    MPI_Datatype t;
    MPI_Type_contiguous(1, MPI_INT, &t);
    MPI_Type_set_attr(t, k_fail, &values[0]);
    seen.rc[13] = MPI_Type_free(&t);
    seen.flag[0] = t == MPI_DATATYPE_NULL;
    seen.rc[14] = MPI_Type_get_attr(MPI_INT, k_type, NULL, &flag);
}

START_TEST(test_keyval_errors)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, errors_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[1], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[2], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[3], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[4], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[5], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[6], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[7], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[8], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[9], MPI_ERR_KEYVAL);
    ck_assert_int_eq(seen.rc[10], MPI_ERR_TYPE);
    ck_assert_int_eq(seen.rc[11], MPI_ERR_ARG);
    ck_assert_int_eq(seen.rc[12], MPI_ERR_OTHER);
    ck_assert_int_eq(seen.rc[13], MPI_ERR_OTHER);
    ck_assert(seen.flag[0]);
    ck_assert_int_eq(seen.rc[14], MPI_ERR_ARG);
}
END_TEST

/* A freed keyval lives on for the attributes that use it: they are still deleted with it. */
static void
freed_keyval_rank(int rank, void *arg)
{
    (void)rank, (void)arg;
    int k;
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, record_delete, &k, NULL);
    key_base = k;
    int copy = k;
    MPI_Datatype t;
    MPI_Type_contiguous(3, MPI_CHAR, &t);
    MPI_Type_set_attr(t, k, &values[1]);
    seen.rc[0] = MPI_Type_free_keyval(&k);
    seen.rc[1] = MPI_Type_delete_attr(t, copy);
    MPI_Type_free(&t);
}

START_TEST(test_freed_keyval_still_deletes)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(1, freed_keyval_rank, NULL), 0);
    ck_assert_int_eq(seen.rc[0], MPI_SUCCESS);
    ck_assert_int_eq(seen.rc[1], MPI_SUCCESS);
    ck_assert_str_eq(log_text, "d0=2");
}
END_TEST

/* Attributes belong to each rank's handle: a predefined type shared by all ranks of the
 * simulation holds one value per rank. */
static int rank_values[2] = {10, 11};

static void
per_rank_rank(int rank, void *arg)
{
    (void)arg;
    static int k; /* one keyval, made by rank 0 (a library's static, shared by the ranks) */
    if (rank == 0)
        MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &k, NULL);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Type_set_attr(MPI_FLOAT, k, &rank_values[rank]);
    MPI_Barrier(MPI_COMM_WORLD);
    seen.value[rank] = get(MPI_FLOAT, k, &seen.flag[rank]);
}

START_TEST(test_attributes_are_per_rank)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, per_rank_rank, NULL), 0);
    ck_assert_int_eq(seen.flag[0], 1);
    ck_assert_int_eq(seen.value[0], 10);
    ck_assert_int_eq(seen.flag[1], 1);
    ck_assert_int_eq(seen.value[1], 11);
}
END_TEST

static Suite *
type_attr_suite(void)
{
    Suite *s = suite_create("type_attr");
    TCase *tc = tcase_create("type_attr");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_set_get_delete_and_free);
    tcase_add_test(tc, test_dup_runs_copy_callbacks);
    tcase_add_test(tc, test_keyval_errors);
    tcase_add_test(tc, test_freed_keyval_still_deletes);
    tcase_add_test(tc, test_attributes_are_per_rank);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(type_attr_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
