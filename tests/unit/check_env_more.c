/*
 * check_env_more.c — unit tests of the environment functions of MPI 3.1 that run on
 * simulated ranks: MPI_Get_library_version, MPI_Query_thread, MPI_Is_thread_main,
 * MPI_Alloc_mem/MPI_Free_mem, user error classes, codes and strings (each rank has its own,
 * numbered from MPI_ERR_LASTCODE + 1 as MPI-3.1 §8.5 lets a library do), MPI_Pcontrol, and
 * the communicator info calls (collsim defines no hint, so the info in use is empty), and
 * the deprecated MPI-1 attribute calls (MPI_Keyval_create, MPI_Attr_put/get/delete,
 * MPI_Keyval_free).
 *
 * Errors are returned (MPI_ERRORS_RETURN on MPI_COMM_WORLD); expected values by hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "sim_harness.h"

static void
environment_rank(int rank, void *arg)
{
    (void)rank;
    (void)arg;
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = -1, provided = -1, flag = -1;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Get_library_version(version, &len), MPI_SUCCESS);
    ck_assert(strncmp(version, "collsim ", 8) == 0);
    ck_assert_int_eq(len, (int)strlen(version));
    ck_assert_int_lt(len, MPI_MAX_LIBRARY_VERSION_STRING);
    ck_assert_int_eq(MPI_Get_library_version(NULL, &len), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Query_thread(&provided), MPI_SUCCESS);
    ck_assert_int_eq(provided, MPI_THREAD_SINGLE);
    ck_assert_int_eq(MPI_Is_thread_main(&flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(MPI_Query_thread(NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Pcontrol(0), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Pcontrol(2, "ignored"), MPI_SUCCESS);
}

START_TEST(test_environment)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, environment_rank, NULL), 0);
}
END_TEST

static void
alloc_mem_rank(int rank, void *arg)
{
    (void)arg;
    double *mem = NULL;
    MPI_Info info;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_int_eq(MPI_Alloc_mem(100 * sizeof(double), MPI_INFO_NULL, &mem), MPI_SUCCESS);
    ck_assert_ptr_nonnull(mem);
    for (int i = 0; i < 100; i++)
        mem[i] = rank + i;
    ck_assert(mem[99] == rank + 99);
    ck_assert_int_eq(MPI_Free_mem(mem), MPI_SUCCESS);
    MPI_Info_create(&info);
    ck_assert_int_eq(MPI_Alloc_mem(0, info, &mem), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Free_mem(mem), MPI_SUCCESS);
    MPI_Info stale = info;
    MPI_Info_free(&info);
    ck_assert_int_eq(MPI_Alloc_mem(-1, MPI_INFO_NULL, &mem), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Alloc_mem(8, stale, &mem), MPI_ERR_INFO); /* freed: not an info */
}

START_TEST(test_alloc_mem)
{
    ck_assert_int_eq(collsim_test_run_ranks(2, alloc_mem_rank, NULL), 0);
}
END_TEST

/* Rank r adds r + 1 classes, then one code of its last class, with a string. */
static void
error_class_rank(int rank, void *arg)
{
    (void)arg;
    int cls = -1, code = -1, back = -1, len = -1, flag = 0, *last;
    char text[MPI_MAX_ERROR_STRING];

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i <= rank; i++) {
        ck_assert_int_eq(MPI_Add_error_class(&cls), MPI_SUCCESS);
        ck_assert_int_eq(cls, MPI_ERR_LASTCODE + 1 + i);
    }
    ck_assert_int_eq(MPI_Add_error_code(cls, &code), MPI_SUCCESS);
    ck_assert_int_eq(code, MPI_ERR_LASTCODE + rank + 2);
    ck_assert_int_eq(MPI_Error_class(code, &back), MPI_SUCCESS);
    ck_assert_int_eq(back, cls);
    ck_assert_int_eq(MPI_Error_class(cls, &back), MPI_SUCCESS);
    ck_assert_int_eq(back, cls);
    /* a code of a predefined class */
    int arg_code;
    ck_assert_int_eq(MPI_Add_error_code(MPI_ERR_ARG, &arg_code), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Error_class(arg_code, &back), MPI_SUCCESS);
    ck_assert_int_eq(back, MPI_ERR_ARG);

    /* no string yet: the empty one */
    ck_assert_int_eq(MPI_Error_string(code, text, &len), MPI_SUCCESS);
    ck_assert_str_eq(text, "");
    ck_assert_int_eq(len, 0);
    ck_assert_int_eq(MPI_Add_error_string(code, rank == 0 ? "solver diverged" : "bad mesh"),
                     MPI_SUCCESS);
    ck_assert_int_eq(MPI_Error_string(code, text, &len), MPI_SUCCESS);
    ck_assert_str_eq(text, rank == 0 ? "solver diverged" : "bad mesh");
    ck_assert_int_eq(len, rank == 0 ? 15 : 8);

    /* the attribute follows the rank's own codes */
    ck_assert_int_eq(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &last, &flag),
                     MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(*last, arg_code);

    /* errors: predefined codes take no string, unknown codes no class */
    ck_assert_int_eq(MPI_Add_error_string(MPI_ERR_ARG, "x"), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Add_error_code(MPI_ERR_LASTCODE + 50, &code), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Add_error_code(arg_code, &code), MPI_ERR_ARG); /* a code, no class */
    ck_assert_int_eq(MPI_Add_error_class(NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Error_class(MPI_ERR_LASTCODE + 50, &back), MPI_ERR_ARG);
}

START_TEST(test_user_error_classes)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, error_class_rank, NULL), 0);
}
END_TEST

static void
comm_info_rank(int rank, void *arg)
{
    (void)rank;
    (void)arg;
    MPI_Info info, used;
    MPI_Comm dup;
    int result = -1, nkeys = -1;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Info_create(&info);
    MPI_Info_set(info, "no_such_hint", "true");
    ck_assert_int_eq(MPI_Comm_dup_with_info(MPI_COMM_WORLD, info, &dup), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    ck_assert_int_eq(MPI_Comm_set_info(dup, info), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_get_info(dup, &used), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Info_get_nkeys(used, &nkeys), MPI_SUCCESS);
    ck_assert_int_eq(nkeys, 0);
    MPI_Info_free(&used);
    ck_assert_int_eq(MPI_Comm_set_info(dup, MPI_INFO_NULL), MPI_ERR_INFO);
    ck_assert_int_eq(MPI_Comm_get_info(dup, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Comm_get_info(MPI_COMM_NULL, &used), MPI_ERR_COMM);
    /* the duplicate works: a sum over it */
    int one = 1, sum = 0;
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, dup);
    ck_assert_int_eq(sum, 3);
    MPI_Comm_free(&dup);
    ck_assert_int_eq(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dup), MPI_SUCCESS);
    MPI_Comm_free(&dup);
    MPI_Info_free(&info);
}

START_TEST(test_comm_info)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, comm_info_rank, NULL), 0);
}
END_TEST

static int copies, deletes;

static int
count_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra;
    copies++;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

static int
count_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    deletes++;
    return MPI_SUCCESS;
}

/* The MPI-1 names behave as the MPI-2 calls: put, get, copy on dup, delete, free. */
static void
mpi1_attr_rank(int rank, void *arg)
{
    (void)arg;
    int keyval = MPI_KEYVAL_INVALID, flag = 0, value = 100 + rank, *got = NULL, *tag_ub;
    MPI_Comm dup;

    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    copies = deletes = 0;
    ck_assert_int_eq(MPI_Keyval_create(count_copy, count_delete, &keyval, NULL), MPI_SUCCESS);
    ck_assert_int_ne(keyval, MPI_KEYVAL_INVALID);
    ck_assert_int_eq(MPI_Attr_put(MPI_COMM_WORLD, keyval, &value), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Attr_get(MPI_COMM_WORLD, keyval, &got, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_eq(got, &value);
    ck_assert_int_eq(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(*tag_ub, MPI_TAG_UB_VALUE);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    ck_assert_int_eq(MPI_Attr_get(dup, keyval, &got, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_ptr_eq(got, &value);
    MPI_Comm_free(&dup);
    ck_assert_int_eq(MPI_Attr_delete(MPI_COMM_WORLD, keyval), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Attr_get(MPI_COMM_WORLD, keyval, &got, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 0);
    ck_assert_int_eq(MPI_Attr_delete(MPI_COMM_WORLD, keyval), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Attr_put(MPI_COMM_WORLD, MPI_TAG_UB, &value), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Keyval_free(&keyval), MPI_SUCCESS);
    ck_assert_int_eq(keyval, MPI_KEYVAL_INVALID);
    ck_assert_int_eq(MPI_Keyval_free(&keyval), MPI_ERR_KEYVAL);
    /* one copy (the dup), two deletes (the dup's free, then MPI_Attr_delete) */
    ck_assert_int_eq(copies, 1);
    ck_assert_int_eq(deletes, 2);
}

START_TEST(test_mpi1_attributes)
{
    ck_assert_int_eq(collsim_test_run_ranks(1, mpi1_attr_rank, NULL), 0);
}
END_TEST

static Suite *
env_more_suite(void)
{
    Suite *s = suite_create("env_more");
    TCase *tc = tcase_create("core");

    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_environment);
    tcase_add_test(tc, test_alloc_mem);
    tcase_add_test(tc, test_user_error_classes);
    tcase_add_test(tc, test_comm_info);
    tcase_add_test(tc, test_mpi1_attributes);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(env_more_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
