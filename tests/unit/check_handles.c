/* check_handles.c — the registry of live MPI objects (src/handles.c) and the errors it
 * turns invalid handles into. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "mpi.h"
#include "src/comm.h"
#include "src/datatype.h"
#include "src/handles.h"
#include "src/op.h"

static void
setup(void)
{
    collsim_comm_world_setup(1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

static void
teardown(void)
{
    collsim_comm_world_teardown();
}

START_TEST(test_predefined_objects_are_live)
{
    ck_assert(collsim_handle_readable(MPI_COMM_WORLD));
    ck_assert(collsim_handle_readable(MPI_COMM_SELF));
    ck_assert(collsim_handle_readable(MPI_COMM_WORLD->coll));
    ck_assert(collsim_handle_readable(MPI_INT));
    ck_assert(collsim_handle_readable(MPI_DOUBLE_INT));
    ck_assert(collsim_handle_readable(MPI_UB));
    ck_assert(collsim_handle_readable(MPI_SUM));
    ck_assert(collsim_handle_readable(MPI_MAXLOC));
    ck_assert(!collsim_handle_readable(NULL));
}
END_TEST

static void
keep(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in;
    (void)inout;
    (void)len;
    (void)type;
}

START_TEST(test_created_objects_live_until_freed)
{
    MPI_Comm dup;
    MPI_Datatype pair;
    MPI_Op op;
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Type_contiguous(2, MPI_INT, &pair), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Op_create(keep, 1, &op), MPI_SUCCESS);
    MPI_Comm dup_copy = dup;
    MPI_Datatype pair_copy = pair;
    MPI_Op op_copy = op;
    ck_assert(collsim_handle_readable(dup) && collsim_handle_readable(dup->coll));
    ck_assert(collsim_handle_readable(pair));
    ck_assert(collsim_handle_readable(op));
    MPI_Comm twin = dup->coll;
    MPI_Comm_free(&dup);
    MPI_Type_free(&pair);
    MPI_Op_free(&op);
    ck_assert(!collsim_handle_readable(dup_copy));
    ck_assert(!collsim_handle_readable(twin));
    ck_assert(!collsim_handle_readable(pair_copy));
    ck_assert(!collsim_handle_readable(op_copy));
}
END_TEST

/* A handle that was never set, or was freed, is an MPI error, not a read of stray memory. */
START_TEST(test_invalid_handles_are_errors)
{
    union {
        uintptr_t junk;
        MPI_Comm comm;
        MPI_Datatype type;
        MPI_Op op;
    } never_set = {.junk = 0x12345678};
    int size = -1, type_size = -1;
    ck_assert_int_eq(MPI_Comm_size(never_set.comm, &size), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Type_size(never_set.type, &type_size), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_op_check_handle(never_set.op), MPI_ERR_OP);
    ck_assert_int_eq(size, -1);

    MPI_Datatype pair, copy;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    copy = pair;
    MPI_Type_free(&pair);
    int values[2] = {0, 0};
    ck_assert_int_eq(MPI_Bcast(values, 1, copy, 0, MPI_COMM_WORLD), MPI_ERR_TYPE);
}
END_TEST

/* What the rank created and has not freed, by kind then creation order; a free lets go. */
START_TEST(test_holds_follow_creation_and_free)
{
    MPI_Datatype first, second;
    MPI_Comm dup;
    MPI_Op op;
    MPI_Type_contiguous(2, MPI_INT, &first);
    MPI_Op_create(keep, 1, &op);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Type_vector(2, 1, 2, MPI_INT, &second);

    guint counts[COLLSIM_HELD_KINDS];
    GPtrArray *held = collsim_handles_held_by(0, counts);
    ck_assert_uint_eq(held->len, 4);
    ck_assert_uint_eq(counts[COLLSIM_HELD_COMM], 1);
    ck_assert_uint_eq(counts[COLLSIM_HELD_DATATYPE], 2);
    ck_assert_uint_eq(counts[COLLSIM_HELD_OP], 1);
    const char *calls[] = {"MPI_Comm_dup", "MPI_Type_contiguous", "MPI_Type_vector",
                           "MPI_Op_create"};
    for (guint i = 0; i < held->len; i++) {
        const struct collsim_held *h = g_ptr_array_index(held, i);
        ck_assert_str_eq(h->call, calls[i]);
        ck_assert_ptr_nonnull(h->caller);   /* this test's call sites */
    }
    g_ptr_array_free(held, TRUE);
    ck_assert_uint_eq(collsim_handles_held_by(1, NULL)->len, 0);   /* another rank's */

    /* a type still referenced by another stays alive, but the program has let go of it */
    MPI_Datatype outer;
    MPI_Type_contiguous(3, first, &outer);
    MPI_Type_free(&first);
    ck_assert(collsim_handle_readable(outer));
    MPI_Type_free(&second);
    MPI_Type_free(&outer);
    MPI_Op_free(&op);
    MPI_Comm copy = dup;
    MPI_Comm_free(&dup);
    held = collsim_handles_held_by(0, counts);
    ck_assert_uint_eq(held->len, 0);
    g_ptr_array_free(held, TRUE);
    (void)copy;
}
END_TEST

static Suite *
handles_suite(void)
{
    Suite *s = suite_create("handles");
    TCase *tc = tcase_create("registry");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_predefined_objects_are_live);
    tcase_add_test(tc, test_created_objects_live_until_freed);
    tcase_add_test(tc, test_invalid_handles_are_errors);
    tcase_add_test(tc, test_holds_follow_creation_and_free);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(handles_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
