/*
 * check_errhandler.c — unit tests of src/errhandler.c: error classes and strings, the two
 * predefined handlers, user handlers and their reference counts.
 *
 * The fatal path ends the process: tcase_add_exit_test asserts its exit status (3), and the
 * *_prints_one_line tests fork by hand to capture stderr and compare the whole line.
 * Expected strings are written out by hand.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpi.h"
#include "src/comm.h"
#include "src/errhandler.h"
#include "src/runtime.h"

/* Every error class that mpi.h defines. */
static const int all_classes[] = {
    MPI_SUCCESS,     MPI_ERR_BUFFER,   MPI_ERR_COUNT,    MPI_ERR_TYPE,      MPI_ERR_TAG,
    MPI_ERR_COMM,    MPI_ERR_RANK,     MPI_ERR_REQUEST,  MPI_ERR_ROOT,      MPI_ERR_GROUP,
    MPI_ERR_OP,      MPI_ERR_TOPOLOGY, MPI_ERR_DIMS,     MPI_ERR_ARG,       MPI_ERR_UNKNOWN,
    MPI_ERR_TRUNCATE, MPI_ERR_OTHER,   MPI_ERR_INTERN,   MPI_ERR_IN_STATUS, MPI_ERR_PENDING,
    MPI_ERR_INFO_KEY, MPI_ERR_INFO_NOKEY, MPI_ERR_INFO_VALUE, MPI_ERR_INFO, MPI_ERR_KEYVAL,
    MPI_ERR_NO_MEM,
    /* the classes of the parts collsim leaves out, whose functions refuse their call */
    MPI_ERR_ACCESS, MPI_ERR_AMODE, MPI_ERR_ASSERT, MPI_ERR_BAD_FILE, MPI_ERR_BASE,
    MPI_ERR_CONVERSION, MPI_ERR_DISP, MPI_ERR_DUP_DATAREP, MPI_ERR_FILE_EXISTS,
    MPI_ERR_FILE_IN_USE, MPI_ERR_FILE, MPI_ERR_IO, MPI_ERR_LOCKTYPE, MPI_ERR_NAME,
    MPI_ERR_NOT_SAME, MPI_ERR_NO_SPACE, MPI_ERR_NO_SUCH_FILE, MPI_ERR_PORT, MPI_ERR_QUOTA,
    MPI_ERR_READ_ONLY, MPI_ERR_RMA_CONFLICT, MPI_ERR_RMA_SYNC, MPI_ERR_SERVICE, MPI_ERR_SIZE,
    MPI_ERR_SPAWN, MPI_ERR_UNSUPPORTED_DATAREP, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_WIN,
    MPI_ERR_RMA_RANGE, MPI_ERR_RMA_ATTACH, MPI_ERR_RMA_FLAVOR, MPI_ERR_RMA_SHARED,
};
static const char *const all_names[] = {
    "MPI_SUCCESS",     "MPI_ERR_BUFFER",   "MPI_ERR_COUNT",    "MPI_ERR_TYPE",
    "MPI_ERR_TAG",     "MPI_ERR_COMM",     "MPI_ERR_RANK",     "MPI_ERR_REQUEST",
    "MPI_ERR_ROOT",    "MPI_ERR_GROUP",    "MPI_ERR_OP",       "MPI_ERR_TOPOLOGY",
    "MPI_ERR_DIMS",    "MPI_ERR_ARG",      "MPI_ERR_UNKNOWN",  "MPI_ERR_TRUNCATE",
    "MPI_ERR_OTHER",   "MPI_ERR_INTERN",   "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING",
    "MPI_ERR_INFO_KEY", "MPI_ERR_INFO_NOKEY", "MPI_ERR_INFO_VALUE", "MPI_ERR_INFO",
    "MPI_ERR_KEYVAL",  "MPI_ERR_NO_MEM",
    "MPI_ERR_ACCESS", "MPI_ERR_AMODE", "MPI_ERR_ASSERT", "MPI_ERR_BAD_FILE", "MPI_ERR_BASE",
    "MPI_ERR_CONVERSION", "MPI_ERR_DISP", "MPI_ERR_DUP_DATAREP", "MPI_ERR_FILE_EXISTS",
    "MPI_ERR_FILE_IN_USE", "MPI_ERR_FILE", "MPI_ERR_IO", "MPI_ERR_LOCKTYPE", "MPI_ERR_NAME",
    "MPI_ERR_NOT_SAME", "MPI_ERR_NO_SPACE", "MPI_ERR_NO_SUCH_FILE", "MPI_ERR_PORT",
    "MPI_ERR_QUOTA", "MPI_ERR_READ_ONLY", "MPI_ERR_RMA_CONFLICT", "MPI_ERR_RMA_SYNC",
    "MPI_ERR_SERVICE", "MPI_ERR_SIZE", "MPI_ERR_SPAWN", "MPI_ERR_UNSUPPORTED_DATAREP",
    "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_WIN", "MPI_ERR_RMA_RANGE", "MPI_ERR_RMA_ATTACH",
    "MPI_ERR_RMA_FLAVOR", "MPI_ERR_RMA_SHARED",
};
#define NCLASSES ((int)(sizeof all_classes / sizeof all_classes[0]))

/* ---------------------------------------------------------------- fixtures and hooks */

static int fake_rank;

static int
fake_world_rank(void)
{
    return fake_rank;
}

static int
fake_world_size(void)
{
    return 4;
}

static void
fake_charge_op(MPI_Op op, MPI_Datatype dt, int count)
{
    (void)op;
    (void)dt;
    (void)count;
}

static void __attribute__((noreturn))
fake_abort(int code)
{
    exit(code);
}

/* The default runtime hooks with this test's replacements. */
static const struct collsim_runtime_hooks *
fake_hooks(void)
{
    static struct collsim_runtime_hooks hooks;
    hooks = *collsim_runtime_defaults();
    hooks.world_rank = fake_world_rank;
    hooks.world_size = fake_world_size;
    hooks.charge_op = fake_charge_op;
    hooks.abort = fake_abort;
    return &hooks;
}

static void
setup_world4(void)
{
    collsim_comm_world_setup(4);
}

static void
teardown_world(void)
{
    collsim_runtime_install(NULL);
    collsim_comm_world_teardown();
}

static void
set_world_return(void)
{
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
}

/* ---------------------------------------------------------------- classes and strings */

START_TEST(test_errhandler_every_class_has_a_string)
{
    for (int i = 0; i < NCLASSES; i++) {
        char text[MPI_MAX_ERROR_STRING];
        int len = -1;
        ck_assert_int_eq(MPI_Error_string(all_classes[i], text, &len), MPI_SUCCESS);
        ck_assert_int_eq(len, (int)strlen(text));
        ck_assert_int_lt(len, MPI_MAX_ERROR_STRING);
        /* "NAME: description" with a non-empty description */
        size_t n = strlen(all_names[i]);
        ck_assert_msg(strncmp(text, all_names[i], n) == 0 && text[n] == ':' && len > (int)n + 2,
                      "string of %s is \"%s\"", all_names[i], text);
        for (int j = 0; j < i; j++) {
            char other[MPI_MAX_ERROR_STRING];
            int other_len;
            MPI_Error_string(all_classes[j], other, &other_len);
            ck_assert_str_ne(text, other);
        }
    }
}
END_TEST

START_TEST(test_errhandler_some_strings_word_for_word)
{
    char text[MPI_MAX_ERROR_STRING];
    int len;
    MPI_Error_string(MPI_SUCCESS, text, &len);
    ck_assert_str_eq(text, "MPI_SUCCESS: no errors");
    MPI_Error_string(MPI_ERR_RANK, text, &len);
    ck_assert_str_eq(text, "MPI_ERR_RANK: invalid rank");
    ck_assert_int_eq(len, 26);
    MPI_Error_string(MPI_ERR_TRUNCATE, text, &len);
    ck_assert_str_eq(text, "MPI_ERR_TRUNCATE: message truncated");
    MPI_Error_string(MPI_ERR_COMM, text, &len);
    ck_assert_str_eq(text, "MPI_ERR_COMM: invalid communicator");
    /* as Open MPI 4.1 prints them (its typo "alreay" in MPI_ERR_FILE_EXISTS aside) */
    MPI_Error_string(MPI_ERR_UNSUPPORTED_OPERATION, text, &len);
    ck_assert_str_eq(text, "MPI_ERR_UNSUPPORTED_OPERATION: operation not supported");
    MPI_Error_string(MPI_ERR_RMA_ATTACH, text, &len);
    ck_assert_str_eq(text, "MPI_ERR_RMA_ATTACH: Could not attach RMA segment");
}
END_TEST

START_TEST(test_errhandler_error_class_is_identity_on_classes)
{
    for (int i = 0; i < NCLASSES; i++) {
        int cls = -1;
        ck_assert_int_eq(MPI_Error_class(all_classes[i], &cls), MPI_SUCCESS);
        ck_assert_int_eq(cls, all_classes[i]);
        ck_assert_str_eq(collsim_error_class_name(all_classes[i]), all_names[i]);
    }
    ck_assert_ptr_null(collsim_error_class_name(12345));
    ck_assert_ptr_null(collsim_error_class_name(-1));
}
END_TEST

START_TEST(test_errhandler_unknown_codes_are_err_arg)
{
    set_world_return();
    int unknown[] = {-1, 54, 67, 72, MPI_ERR_LASTCODE, 12345};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        char text[MPI_MAX_ERROR_STRING];
        int len, cls = -7;
        ck_assert_int_eq(MPI_Error_string(unknown[i], text, &len), MPI_ERR_ARG);
        ck_assert_int_eq(MPI_Error_class(unknown[i], &cls), MPI_ERR_ARG);
        ck_assert_int_eq(cls, -7);
    }
    int len;
    ck_assert_int_eq(MPI_Error_string(MPI_ERR_RANK, NULL, &len), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Error_class(MPI_ERR_RANK, NULL), MPI_ERR_ARG);
}
END_TEST

/* ---------------------------------------------------------------- MPI_ERRORS_RETURN */

START_TEST(test_errhandler_errors_return_returns_the_code)
{
    set_world_return();
    ck_assert_int_eq(collsim_error(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Send",
                                   "invalid destination rank %d", 7),
                     MPI_ERR_RANK);
    /* no usable communicator: MPI_COMM_WORLD's handler */
    ck_assert_int_eq(collsim_error(MPI_COMM_NULL, MPI_ERR_TAG, "MPI_Recv", "x"), MPI_ERR_TAG);
    /* a twin reports through its owner */
    ck_assert_int_eq(collsim_error(MPI_COMM_WORLD->coll, MPI_ERR_COUNT, "MPI_Bcast", "x"),
                     MPI_ERR_COUNT);
    /* through the API */
    int size;
    ck_assert_int_eq(MPI_Comm_size(MPI_COMM_NULL, &size), MPI_ERR_COMM);
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    MPI_Group bad;
    ck_assert_int_eq(MPI_Group_incl(g, 1, (int[]){9}, &bad), MPI_ERR_RANK);
    MPI_Group_free(&g);
    /* MPI_COMM_SELF keeps its own (fatal) handler: set RETURN there too to test it */
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    ck_assert_int_eq(collsim_error(MPI_COMM_SELF, MPI_ERR_ROOT, "MPI_Bcast", "x"), MPI_ERR_ROOT);
}
END_TEST

START_TEST(test_errhandler_get_set_and_free)
{
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    ck_assert_int_eq(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh), MPI_SUCCESS);
    ck_assert_ptr_eq(eh, MPI_ERRORS_ARE_FATAL);   /* the default */
    ck_assert_int_eq(MPI_Errhandler_free(&eh), MPI_SUCCESS);   /* predefined: a no-op */
    ck_assert_ptr_eq(eh, MPI_ERRHANDLER_NULL);
    ck_assert_int_eq(MPI_Errhandler_set(MPI_COMM_WORLD, MPI_ERRORS_RETURN), MPI_SUCCESS);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    ck_assert_ptr_eq(eh, MPI_ERRORS_RETURN);
    MPI_Errhandler_free(&eh);
    ck_assert_int_eq(MPI_Errhandler_free(&eh), MPI_ERR_ARG);   /* MPI_ERRHANDLER_NULL */
    ck_assert_int_eq(MPI_Errhandler_free(NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRHANDLER_NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Comm_get_errhandler(MPI_COMM_NULL, &eh), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_create_errhandler(NULL, &eh), MPI_ERR_ARG);
    /* setup resets the world's handler to the default */
    collsim_comm_world_setup(4);
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    ck_assert_ptr_eq(eh, MPI_ERRORS_ARE_FATAL);
}
END_TEST

/* ---------------------------------------------------------------- user handlers */

static int calls;
static MPI_Comm seen_comm;
static int seen_code;

static void
recording_handler(MPI_Comm *comm, int *code, ...)
{
    calls++;
    seen_comm = *comm;
    seen_code = *code;
}

START_TEST(test_errhandler_user_handler_gets_comm_and_code)
{
    MPI_Errhandler eh;
    ck_assert_int_eq(MPI_Comm_create_errhandler(recording_handler, &eh), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_SUCCESS);
    /* the program's handle may go: the communicator holds a reference */
    ck_assert_int_eq(MPI_Errhandler_free(&eh), MPI_SUCCESS);
    ck_assert_ptr_eq(eh, MPI_ERRHANDLER_NULL);

    calls = 0;
    ck_assert_int_eq(collsim_error(MPI_COMM_WORLD, MPI_ERR_TAG, "MPI_Send", "invalid tag %d", -5),
                     MPI_ERR_TAG);
    ck_assert_int_eq(calls, 1);
    ck_assert_ptr_eq(seen_comm, MPI_COMM_WORLD);
    ck_assert_int_eq(seen_code, MPI_ERR_TAG);

    /* an error on the hidden twin is reported on the communicator the program knows */
    collsim_error(MPI_COMM_WORLD->coll, MPI_ERR_OP, "MPI_Reduce", "invalid op");
    ck_assert_int_eq(calls, 2);
    ck_assert_ptr_eq(seen_comm, MPI_COMM_WORLD);
    ck_assert_int_eq(seen_code, MPI_ERR_OP);

    /* MPI_Comm_call_errhandler: the handler runs, the call succeeds */
    ck_assert_int_eq(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_OTHER), MPI_SUCCESS);
    ck_assert_int_eq(calls, 3);
    ck_assert_int_eq(seen_code, MPI_ERR_OTHER);

    /* get hands out a new reference to the same handler */
    MPI_Errhandler got;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_ne(got, MPI_ERRORS_RETURN);
    ck_assert_ptr_ne(got, MPI_ERRORS_ARE_FATAL);
    /* replacing drops the communicator's reference; `got` keeps it alive */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    ck_assert_ptr_eq(got->function, recording_handler);
    MPI_Errhandler_free(&got);   /* last reference: freed (ASan checks) */
}
END_TEST

START_TEST(test_errhandler_call_errhandler_under_errors_return)
{
    set_world_return();
    ck_assert_int_eq(MPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_RANK), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_call_errhandler(MPI_COMM_NULL, MPI_ERR_RANK), MPI_ERR_COMM);
}
END_TEST

/* ---------------------------------------------------------------- MPI_ERRORS_ARE_FATAL */

/* Exit status checked by tcase_add_exit_test. */
START_TEST(test_errhandler_fatal_exits_with_3)
{
    collsim_error(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Send",
                  "invalid destination rank %d (communicator size %d)", 7, 4);
    ck_abort_msg("collsim_error returned under MPI_ERRORS_ARE_FATAL");
}
END_TEST

START_TEST(test_errhandler_fatal_api_error_exits_with_3)
{
    int size;
    MPI_Comm_size(MPI_COMM_NULL, &size);
    ck_abort_msg("MPI_Comm_size returned under MPI_ERRORS_ARE_FATAL");
}
END_TEST

/* Run fn in a child with stderr captured; return what it printed and its exit status. */
static char *
run_capturing_stderr(void (*fn)(void), int *status)
{
    int pipefd[2];
    ck_assert_int_eq(pipe(pipefd), 0);
    fflush(stderr);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(pipefd[0]);
        dup2(pipefd[1], STDERR_FILENO);
        fn();
        _exit(99);   /* fn should not return */
    }
    close(pipefd[1]);
    static char out[4096];
    size_t have = 0;
    ssize_t got;
    while (have < sizeof out - 1 && (got = read(pipefd[0], out + have, sizeof out - 1 - have)) > 0)
        have += (size_t)got;
    out[have] = '\0';
    close(pipefd[0]);
    ck_assert_int_eq(waitpid(pid, status, 0), pid);
    return out;
}

static void
raise_send_error_as_rank_2(void)
{
    fake_rank = 2;
    collsim_runtime_install(fake_hooks());
    collsim_error(MPI_COMM_WORLD, MPI_ERR_RANK, "MPI_Send",
                  "invalid destination rank %d (communicator size %d)", 7, 4);
}

static void
raise_comm_size_error(void)
{
    int size;
    MPI_Comm_size(MPI_COMM_NULL, &size);
}

static void
raise_multiline_unknown_code(void)
{
    collsim_error(MPI_COMM_NULL, 12345, "MPI_Foo", "two\nlines");
}

static void
raise_through_call_errhandler(void)
{
    MPI_Comm_call_errhandler(MPI_COMM_SELF, MPI_ERR_ARG);
}

static void
assert_exit_3(int status)
{
    ck_assert_msg(WIFEXITED(status), "child did not exit normally");
    ck_assert_int_eq(WEXITSTATUS(status), COLLSIM_EXIT_MPI_ERROR);
    ck_assert_int_eq(COLLSIM_EXIT_MPI_ERROR, 3);
}

START_TEST(test_errhandler_fatal_prints_one_line)
{
    int status;
    const char *out = run_capturing_stderr(raise_send_error_as_rank_2, &status);
    assert_exit_3(status);
    ck_assert_str_eq(out, "collsim: rank 2: MPI_Send: invalid destination rank 7 "
                          "(communicator size 4) [MPI_ERR_RANK]\n");

    out = run_capturing_stderr(raise_comm_size_error, &status);
    assert_exit_3(status);
    ck_assert_str_eq(out, "collsim: rank 0: MPI_Comm_size: invalid communicator "
                          "(MPI_COMM_NULL) [MPI_ERR_COMM]\n");

    out = run_capturing_stderr(raise_multiline_unknown_code, &status);
    assert_exit_3(status);
    ck_assert_str_eq(out, "collsim: rank 0: MPI_Foo: two lines [error code 12345]\n");

    out = run_capturing_stderr(raise_through_call_errhandler, &status);
    assert_exit_3(status);
    ck_assert_str_eq(out, "collsim: rank 0: MPI_Comm_call_errhandler: error code 13 raised by "
                          "the program [MPI_ERR_ARG]\n");
}
END_TEST

static Suite *
errhandler_suite(void)
{
    Suite *s = suite_create("errhandler");
    TCase *tc = tcase_create("api");
    tcase_add_checked_fixture(tc, setup_world4, teardown_world);
    tcase_add_test(tc, test_errhandler_every_class_has_a_string);
    tcase_add_test(tc, test_errhandler_some_strings_word_for_word);
    tcase_add_test(tc, test_errhandler_error_class_is_identity_on_classes);
    tcase_add_test(tc, test_errhandler_unknown_codes_are_err_arg);
    tcase_add_test(tc, test_errhandler_errors_return_returns_the_code);
    tcase_add_test(tc, test_errhandler_get_set_and_free);
    tcase_add_test(tc, test_errhandler_user_handler_gets_comm_and_code);
    tcase_add_test(tc, test_errhandler_call_errhandler_under_errors_return);
    tcase_add_test(tc, test_errhandler_fatal_prints_one_line);
    tcase_add_exit_test(tc, test_errhandler_fatal_exits_with_3, COLLSIM_EXIT_MPI_ERROR);
    tcase_add_exit_test(tc, test_errhandler_fatal_api_error_exits_with_3, COLLSIM_EXIT_MPI_ERROR);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(errhandler_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
