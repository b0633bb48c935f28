/* check_handles.c — the registry of live MPI objects (src/handles.c) and the errors it
 * turns invalid handles into: for each kind, a handle never set, MPI's null handle, a freed
 * handle (its object gone, or kept alive by a communicator) and a live object of another kind,
 * passed to every function that takes that kind; and the objects each rank holds. */
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
    ck_assert(collsim_handle_readable(MPI_GROUP_EMPTY));
    ck_assert(collsim_handle_readable(MPI_ERRORS_ARE_FATAL));
    ck_assert(collsim_handle_readable(MPI_ERRORS_RETURN));
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

/* ---------------------------------------------------------------- groups, errhandlers, info,
 *                                                                    keyvals */

/* A handle's bits that no MPI call ever returned: a stack variable never set, made
 * deterministic. Read through, it would be a wild pointer. */
#define GARBAGE ((uintptr_t)0x12345678)

union bits {
    uintptr_t junk;
    MPI_Group group;
    MPI_Errhandler errhandler;
    MPI_Info info;
};

/* Every call that takes a group, with `bad` in each group position in turn: MPI_ERR_GROUP,
 * and no output written. */
static void
assert_group_refused(MPI_Group bad, const char *what)
{
    MPI_Group world, out = MPI_GROUP_NULL;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int size = -1, zero = 0, translated = -1, result = -1;
    int range[1][3] = {{0, 0, 1}};
    MPI_Comm newcomm = MPI_COMM_NULL;
#define REFUSED(call)                                                                          \
    ck_assert_msg((call) == MPI_ERR_GROUP, "%s: %s is not MPI_ERR_GROUP", what, #call)
    REFUSED(MPI_Group_size(bad, &size));
    REFUSED(MPI_Group_rank(bad, &size));
    REFUSED(MPI_Group_translate_ranks(bad, 1, &zero, world, &translated));
    REFUSED(MPI_Group_translate_ranks(world, 1, &zero, bad, &translated));
    REFUSED(MPI_Group_compare(bad, world, &result));
    REFUSED(MPI_Group_compare(world, bad, &result));
    REFUSED(MPI_Group_union(bad, world, &out));
    REFUSED(MPI_Group_union(world, bad, &out));
    REFUSED(MPI_Group_intersection(bad, world, &out));
    REFUSED(MPI_Group_intersection(world, bad, &out));
    REFUSED(MPI_Group_difference(bad, world, &out));
    REFUSED(MPI_Group_difference(world, bad, &out));
    REFUSED(MPI_Group_incl(bad, 1, &zero, &out));
    REFUSED(MPI_Group_excl(bad, 0, &zero, &out));
    REFUSED(MPI_Group_range_incl(bad, 1, range, &out));
    REFUSED(MPI_Group_range_excl(bad, 0, range, &out));
    REFUSED(MPI_Comm_create(MPI_COMM_WORLD, bad, &newcomm));
    MPI_Group copy = bad;
    REFUSED(MPI_Group_free(&copy));
#undef REFUSED
    ck_assert_int_eq(size, -1);
    ck_assert_int_eq(translated, -1);
    ck_assert_int_eq(result, -1);
    ck_assert_ptr_eq(out, MPI_GROUP_NULL);
    ck_assert_ptr_eq(newcomm, MPI_COMM_NULL);
    ck_assert_ptr_eq(copy, bad);   /* a refused free leaves the handle alone */
    MPI_Group_free(&world);
}

START_TEST(test_invalid_groups_are_err_group)
{
    union bits never_set = {.junk = GARBAGE};
    assert_group_refused(never_set.group, "a group never set");
    assert_group_refused(MPI_GROUP_NULL, "MPI_GROUP_NULL");

    /* freed, and its object destroyed */
    MPI_Group world, pair, stale;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, (int[]){0}, &pair);
    stale = pair;
    MPI_Group_free(&pair);
    ck_assert(!collsim_handle_readable(stale));
    assert_group_refused(stale, "a freed group");

    /* freed by this rank while the object lives on: a communicator still holds it (a split,
     * whose group is its own object: a dup of the world would share the world's group,
     * which this rank holds other handles to) */
    MPI_Comm part;
    MPI_Group of_part;
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &part);
    MPI_Comm_group(part, &of_part);
    stale = of_part;
    MPI_Group_free(&of_part);
    ck_assert(collsim_handle_readable(stale));
    assert_group_refused(stale, "a freed group its communicator still uses");
    MPI_Comm_free(&part);

    /* live objects of other kinds */
    MPI_Info info;
    MPI_Info_create(&info);
    assert_group_refused((MPI_Group)(void *)MPI_COMM_WORLD, "a communicator");
    assert_group_refused((MPI_Group)(void *)MPI_INT, "a datatype");
    assert_group_refused((MPI_Group)(void *)MPI_ERRORS_RETURN, "an error handler");
    assert_group_refused((MPI_Group)(void *)info, "an info object");
    MPI_Info_free(&info);
    MPI_Group_free(&world);

    /* MPI_GROUP_EMPTY is always valid, freed or not */
    MPI_Group empty = MPI_GROUP_EMPTY;
    int size = -1;
    ck_assert_int_eq(MPI_Group_free(&empty), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 0);
}
END_TEST

static void
count_calls(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

/* Every call that takes an error handler, with `bad`: MPI_ERR_ARG (MPI-3.1 §8.3), the
 * communicator's handler unchanged. */
static void
assert_errhandler_refused(MPI_Errhandler bad, const char *what)
{
    ck_assert_msg(MPI_Comm_set_errhandler(MPI_COMM_WORLD, bad) == MPI_ERR_ARG,
                  "%s: MPI_Comm_set_errhandler", what);
    ck_assert_msg(MPI_Errhandler_set(MPI_COMM_WORLD, bad) == MPI_ERR_ARG,
                  "%s: MPI_Errhandler_set", what);
    MPI_Errhandler copy = bad;
    ck_assert_msg(MPI_Errhandler_free(&copy) == MPI_ERR_ARG, "%s: MPI_Errhandler_free", what);
    ck_assert_ptr_eq(copy, bad);
    ck_assert_ptr_eq(MPI_COMM_WORLD->errhandler, MPI_ERRORS_RETURN);
}

START_TEST(test_invalid_errhandlers_are_err_arg)
{
    union bits never_set = {.junk = GARBAGE};
    assert_errhandler_refused(never_set.errhandler, "a handler never set");
    assert_errhandler_refused(MPI_ERRHANDLER_NULL, "MPI_ERRHANDLER_NULL");

    /* freed, and its object destroyed */
    MPI_Errhandler handler, stale;
    MPI_Comm_create_errhandler(count_calls, &handler);
    stale = handler;
    MPI_Errhandler_free(&handler);
    ck_assert(!collsim_handle_readable(stale));
    assert_errhandler_refused(stale, "a freed handler");

    /* freed while a communicator still uses it */
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Comm_create_errhandler(count_calls, &handler);
    MPI_Comm_set_errhandler(dup, handler);
    stale = handler;
    MPI_Errhandler_free(&handler);
    ck_assert(collsim_handle_readable(stale));
    assert_errhandler_refused(stale, "a freed handler its communicator still uses");
    /* what MPI_Comm_get_errhandler hands out is a new handle, valid until freed */
    MPI_Errhandler got;
    ck_assert_int_eq(MPI_Comm_get_errhandler(dup, &got), MPI_SUCCESS);
    ck_assert_ptr_eq(got, stale);
    ck_assert_int_eq(MPI_Comm_set_errhandler(dup, got), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Errhandler_free(&got), MPI_SUCCESS);
    MPI_Comm_free(&dup);

    assert_errhandler_refused((MPI_Errhandler)(void *)MPI_COMM_WORLD, "a communicator");
    assert_errhandler_refused((MPI_Errhandler)(void *)MPI_SUM, "an op");
    assert_errhandler_refused((MPI_Errhandler)(void *)MPI_GROUP_EMPTY, "a group");

    /* the predefined handlers stay valid, freed or not */
    MPI_Errhandler fatal = MPI_ERRORS_ARE_FATAL;
    ck_assert_int_eq(MPI_Errhandler_free(&fatal), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN), MPI_SUCCESS);
}
END_TEST

/* Every call that takes an info, with `bad`: MPI_ERR_INFO, nothing written. */
static void
assert_info_refused(MPI_Info bad, const char *what)
{
    MPI_Info out = MPI_INFO_NULL;
    char value[MPI_MAX_INFO_VAL + 1] = "";
    int flag = -1, len = -1, nkeys = -1;
#define REFUSED(call)                                                                          \
    ck_assert_msg((call) == MPI_ERR_INFO, "%s: %s is not MPI_ERR_INFO", what, #call)
    REFUSED(MPI_Info_dup(bad, &out));
    REFUSED(MPI_Info_set(bad, "key", "value"));
    REFUSED(MPI_Info_get(bad, "key", MPI_MAX_INFO_VAL, value, &flag));
    REFUSED(MPI_Info_get_valuelen(bad, "key", &len, &flag));
    REFUSED(MPI_Info_delete(bad, "key"));
    REFUSED(MPI_Info_get_nkeys(bad, &nkeys));
    REFUSED(MPI_Info_get_nthkey(bad, 0, value));
    MPI_Info copy = bad;
    REFUSED(MPI_Info_free(&copy));
#undef REFUSED
    ck_assert_ptr_eq(copy, bad);
    ck_assert_ptr_eq(out, MPI_INFO_NULL);
    ck_assert_int_eq(flag, -1);
    ck_assert_int_eq(nkeys, -1);
    if (bad != MPI_INFO_NULL) {   /* MPI_INFO_NULL means "no hints" there */
        MPI_Comm newcomm = MPI_COMM_NULL;
        ck_assert_msg(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, bad,
                                          &newcomm) == MPI_ERR_INFO,
                      "%s: MPI_Comm_split_type", what);
        ck_assert_ptr_eq(newcomm, MPI_COMM_NULL);
    }
}

START_TEST(test_invalid_infos_are_err_info)
{
    union bits never_set = {.junk = GARBAGE};
    assert_info_refused(never_set.info, "an info never set");
    assert_info_refused(MPI_INFO_NULL, "MPI_INFO_NULL");
    MPI_Info info, stale;
    MPI_Info_create(&info);
    MPI_Info_set(info, "key", "value");
    stale = info;
    MPI_Info_free(&info);
    assert_info_refused(stale, "a freed info");
    assert_info_refused((MPI_Info)(void *)MPI_COMM_WORLD, "a communicator");
    assert_info_refused((MPI_Info)(void *)MPI_DOUBLE, "a datatype");
    assert_info_refused((MPI_Info)(void *)MPI_GROUP_EMPTY, "a group");
    /* a live one is accepted where an info is optional */
    MPI_Comm node;
    MPI_Info_create(&info);
    ck_assert_int_eq(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, info, &node),
                     MPI_SUCCESS);
    MPI_Comm_free(&node);
    MPI_Info_free(&info);
}
END_TEST

/* Every call that takes a keyval, with `bad`: MPI_ERR_KEYVAL, nothing written. */
static void
assert_keyval_refused(int bad, const char *what)
{
    int value = 7, flag = -1;
    void *got = NULL;
    ck_assert_msg(MPI_Comm_set_attr(MPI_COMM_WORLD, bad, &value) == MPI_ERR_KEYVAL,
                  "%s: MPI_Comm_set_attr", what);
    ck_assert_msg(MPI_Comm_get_attr(MPI_COMM_WORLD, bad, &got, &flag) == MPI_ERR_KEYVAL,
                  "%s: MPI_Comm_get_attr", what);
    ck_assert_msg(MPI_Comm_delete_attr(MPI_COMM_WORLD, bad) == MPI_ERR_KEYVAL,
                  "%s: MPI_Comm_delete_attr", what);
    int copy = bad;
    ck_assert_msg(MPI_Comm_free_keyval(&copy) == MPI_ERR_KEYVAL, "%s: MPI_Comm_free_keyval",
                  what);
    ck_assert_int_eq(copy, bad);
    ck_assert_int_eq(flag, -1);
    ck_assert_ptr_null(got);
}

START_TEST(test_invalid_keyvals_are_err_keyval)
{
    assert_keyval_refused(MPI_KEYVAL_INVALID, "MPI_KEYVAL_INVALID");
    assert_keyval_refused(0x12345678, "a keyval never set");
    assert_keyval_refused(-7, "a negative keyval");

    /* freed, with no attribute left: gone */
    int keyval, stale;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    stale = keyval;
    ck_assert_int_eq(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS);
    ck_assert_int_eq(keyval, MPI_KEYVAL_INVALID);
    assert_keyval_refused(stale, "a freed keyval");

    /* freed while an attribute still uses it: only deleting that attribute is allowed */
    int value = 1, flag = -1;
    void *got = NULL;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    stale = keyval;
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &value);
    ck_assert_int_eq(MPI_Comm_free_keyval(&keyval), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_set_attr(MPI_COMM_SELF, stale, &value), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Comm_get_attr(MPI_COMM_SELF, stale, &got, &flag), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Comm_free_keyval(&stale), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Comm_delete_attr(MPI_COMM_SELF, stale), MPI_SUCCESS);
    assert_keyval_refused(stale, "a freed keyval after its last attribute went");

    /* a keyval of an earlier simulation */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    collsim_comm_world_setup(1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    assert_keyval_refused(keyval, "a keyval of an earlier simulation");

    /* the predefined keys: readable, never written, deleted or freed */
    int tag_ub = MPI_TAG_UB;
    ck_assert_int_eq(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &got, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 1);
    ck_assert_int_eq(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL);
    ck_assert_int_eq(MPI_Comm_free_keyval(&tag_ub), MPI_ERR_KEYVAL);
}
END_TEST

/* A communicator or request check never mistakes a live object of another kind for one. */
START_TEST(test_other_kinds_are_not_communicators)
{
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int size = -1;
    ck_assert_int_eq(MPI_Comm_size((MPI_Comm)(void *)world, &size), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_size((MPI_Comm)(void *)MPI_ERRORS_RETURN, &size), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_size((MPI_Comm)(void *)MPI_INT, &size), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Type_size((MPI_Datatype)(void *)world, &size), MPI_ERR_TYPE);
    ck_assert_int_eq(collsim_op_check_handle((MPI_Op)(void *)world), MPI_ERR_OP);
    ck_assert_int_eq(size, -1);
    MPI_Group_free(&world);
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
    tcase_add_test(tc, test_invalid_groups_are_err_group);
    tcase_add_test(tc, test_invalid_errhandlers_are_err_arg);
    tcase_add_test(tc, test_invalid_infos_are_err_info);
    tcase_add_test(tc, test_invalid_keyvals_are_err_keyval);
    tcase_add_test(tc, test_other_kinds_are_not_communicators);
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
