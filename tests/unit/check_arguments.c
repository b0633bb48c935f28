/*
 * check_arguments.c — every MPI function of mpi.h with each kind of invalid argument it
 * takes (negative counts, ranks and roots out of range, bad tags, NULL output pointers,
 * NULL buffers with data to move, handles of the wrong kind), under MPI_ERRORS_RETURN: the
 * error class MPI-3.1 names, through MPI_Error_class, and never a crash. Bad handles of each
 * kind are in check_handles.c; tests/misuse/AUDIT.md lists what each function checks.
 *
 * The cases follow src/ file by file, without a simulation (the default runtime is world
 * rank 0: every error here is found before anything is sent); the functions of sim/
 * (point-to-point, environment) run on two simulated ranks, which record what they get and
 * are judged afterwards.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "mpi.h"
#include "sim_harness.h"
#include "src/comm.h"
#include "src/info.h"

/* The class of rc, as a program would learn it. */
static int
class_of(int rc)
{
    int class = -1;
    if (rc != MPI_SUCCESS && MPI_Error_class(rc, &class) != MPI_SUCCESS)
        return -1;
    return rc == MPI_SUCCESS ? MPI_SUCCESS : class;
}

static void
expect_class(const char *call, int rc, int expected, const char *expected_name)
{
    int got = class_of(rc);
    ck_assert_msg(got == expected, "%s: got class %d, expected %s", call, got, expected_name);
}

#define EXPECT(class, call) expect_class(#call, (call), (class), #class)

/* A handle of no kind: a variable never set, made deterministic. Never read. */
static union {
    uintptr_t junk;
    MPI_Comm comm;
    MPI_Datatype type;
    MPI_Op op;
    MPI_Request request;
} never_set = {.junk = 0x12345678};

static void
setup_world(int size)
{
    collsim_comm_world_setup(size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

static void
setup_world1(void)
{
    setup_world(1);
}

static void
setup_world4(void)
{
    setup_world(4);
}

static void
teardown(void)
{
    collsim_comm_world_teardown();
}

/* ---------------------------------------------------------------- src/group.c */

START_TEST(test_group_arguments)
{
    MPI_Group w, out = MPI_GROUP_NULL;
    int r[2] = {0, 0}, r2[2];
    ck_assert_int_eq(MPI_Comm_group(MPI_COMM_WORLD, &w), MPI_SUCCESS);
    EXPECT(MPI_ERR_ARG, MPI_Group_size(w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_rank(w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks(w, -1, r, w, r2));
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks(w, 1, NULL, w, r2));
    EXPECT(MPI_ERR_ARG, MPI_Group_translate_ranks(w, 1, r, w, NULL));
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks(w, 1, (int[]){4}, w, r2));
    EXPECT(MPI_ERR_RANK, MPI_Group_translate_ranks(w, 1, (int[]){-3}, w, r2));
    EXPECT(MPI_SUCCESS, MPI_Group_translate_ranks(w, 1, (int[]){MPI_PROC_NULL}, w, r2));
    EXPECT(MPI_ERR_ARG, MPI_Group_compare(w, w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_union(w, w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_intersection(w, w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_difference(w, w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl(w, -1, r, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl(w, 1, NULL, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_incl(w, 1, r, NULL));
    EXPECT(MPI_ERR_RANK, MPI_Group_incl(w, 1, (int[]){4}, &out));
    EXPECT(MPI_ERR_RANK, MPI_Group_incl(w, 2, r, &out));   /* rank 0 twice */
    EXPECT(MPI_ERR_ARG, MPI_Group_excl(w, -1, r, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_excl(w, 1, r, NULL));
    EXPECT(MPI_ERR_RANK, MPI_Group_excl(w, 1, (int[]){-1}, &out));
    EXPECT(MPI_ERR_RANK, MPI_Group_excl(w, 2, r, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(w, -1, NULL, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(w, 1, NULL, &out));
    EXPECT(MPI_ERR_RANK, MPI_Group_range_incl(w, 1, (int[][3]){{0, 9, 1}}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(w, 1, (int[][3]){{0, 3, 0}}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_incl(w, 1, (int[][3]){{0, 3, 1}}, NULL));
    EXPECT(MPI_ERR_RANK, MPI_Group_range_incl(w, 2, (int[][3]){{0, 1, 1}, {1, 2, 1}}, &out));
    EXPECT(MPI_ERR_RANK, MPI_Group_range_excl(w, 1, (int[][3]){{-2, 0, 1}}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_range_excl(w, 1, (int[][3]){{3, 0, 1}}, &out));
    EXPECT(MPI_ERR_RANK, MPI_Group_range_excl(w, 2, (int[][3]){{0, 1, 1}, {1, 2, 1}}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Group_free(NULL));
    ck_assert_ptr_eq(out, MPI_GROUP_NULL);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- src/comm.c */

START_TEST(test_comm_arguments)
{
    MPI_Comm out = MPI_COMM_NULL, world = MPI_COMM_WORLD;
    MPI_Group w;
    MPI_Comm_group(MPI_COMM_WORLD, &w);
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    EXPECT(MPI_ERR_ARG, MPI_Comm_size(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_rank(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_group(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_compare(MPI_COMM_WORLD, never_set.comm, &len));
    EXPECT(MPI_ERR_ARG, MPI_Comm_dup(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_create(MPI_COMM_WORLD, w, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &out));
    EXPECT(MPI_ERR_ARG, MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_split_type(MPI_COMM_WORLD, 99, 0, MPI_INFO_NULL, &out));
    EXPECT(MPI_ERR_ARG,
           MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_free(NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_free(&world));
    EXPECT(MPI_ERR_ARG, MPI_Comm_test_inter(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_set_name(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_name(MPI_COMM_WORLD, NULL, &len));
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_name(MPI_COMM_WORLD, name, NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_name(never_set.comm, name, &len));
    ck_assert_ptr_eq(out, MPI_COMM_NULL);
    ck_assert_ptr_eq(world, MPI_COMM_WORLD);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- src/errhandler.c */

static void
ignore(MPI_Comm *comm, int *code, ...)
{
    (void)comm;
    (void)code;
}

START_TEST(test_errhandler_arguments)
{
    int class, len;
    char text[MPI_MAX_ERROR_STRING];
    MPI_Errhandler handler;
    EXPECT(MPI_ERR_ARG, MPI_Error_class(MPI_ERR_RANK, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Error_class(12345, &class));
    EXPECT(MPI_ERR_ARG, MPI_Error_string(MPI_ERR_RANK, NULL, &len));
    EXPECT(MPI_ERR_ARG, MPI_Error_string(MPI_ERR_RANK, text, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Error_string(-4, text, &len));
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_errhandler(MPI_COMM_WORLD, NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_errhandler(never_set.comm, &handler));
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_errhandler(never_set.comm, MPI_ERRORS_RETURN));
    EXPECT(MPI_ERR_COMM, MPI_Errhandler_set(never_set.comm, MPI_ERRORS_RETURN));
    EXPECT(MPI_ERR_ARG, MPI_Comm_create_errhandler(NULL, &handler));
    EXPECT(MPI_ERR_ARG, MPI_Comm_create_errhandler(ignore, NULL));
    EXPECT(MPI_ERR_COMM, MPI_Comm_call_errhandler(never_set.comm, MPI_ERR_OTHER));
    EXPECT(MPI_ERR_ARG, MPI_Errhandler_free(NULL));
}
END_TEST

/* ---------------------------------------------------------------- src/attr.c, src/info.c */

START_TEST(test_attr_and_info_arguments)
{
    int keyval, flag, value = 0, len, nkeys;
    void *got;
    EXPECT(MPI_ERR_ARG, MPI_Comm_create_keyval(NULL, NULL, NULL, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Comm_free_keyval(NULL));
    MPI_Comm_create_keyval(NULL, NULL, &keyval, NULL);
    EXPECT(MPI_ERR_COMM, MPI_Comm_set_attr(never_set.comm, keyval, &value));
    EXPECT(MPI_ERR_COMM, MPI_Comm_get_attr(never_set.comm, keyval, &got, &flag));
    EXPECT(MPI_ERR_COMM, MPI_Comm_delete_attr(never_set.comm, keyval));
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, NULL, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, NULL));
    EXPECT(MPI_ERR_KEYVAL, MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));   /* none set */
    MPI_Comm_free_keyval(&keyval);

    MPI_Info info;
    char text[MPI_MAX_INFO_VAL + 1];
    char long_key[MPI_MAX_INFO_KEY + 2];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    EXPECT(MPI_ERR_ARG, MPI_Info_create(NULL));
    EXPECT(MPI_ERR_ARG, MPI_Info_free(NULL));
    MPI_Info_create(&info);
    EXPECT(MPI_ERR_ARG, MPI_Info_dup(info, NULL));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_set(info, NULL, "v"));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_set(info, "", "v"));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_set(info, long_key, "v"));
    EXPECT(MPI_ERR_INFO_VALUE, MPI_Info_set(info, "k", NULL));
    EXPECT(MPI_ERR_INFO_VALUE, MPI_Info_set(info, "k", ""));
    MPI_Info_set(info, "k", "v");
    EXPECT(MPI_ERR_ARG, MPI_Info_get(info, "k", -1, text, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_get(info, "k", 4, NULL, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_get(info, "k", 4, text, NULL));
    EXPECT(MPI_ERR_INFO_KEY, MPI_Info_get(info, NULL, 4, text, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_valuelen(info, "k", NULL, &flag));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_valuelen(info, "k", &len, NULL));
    /* MPI_Info_get_string (MPI-4): the room needed back in buflen, the value cut to the room,
     * untouched with no room or no key */
    len = 0;
    text[0] = '#';
    EXPECT(MPI_SUCCESS, MPI_Info_get_string(info, "k", &len, text, &flag));
    ck_assert(flag && len == 2 && text[0] == '#');
    MPI_Info_set(info, "long", "value");
    len = 3;
    EXPECT(MPI_SUCCESS, MPI_Info_get_string(info, "long", &len, text, &flag));
    ck_assert(flag && len == 6);
    ck_assert_str_eq(text, "va");
    len = 64;
    EXPECT(MPI_SUCCESS, MPI_Info_get_string(info, "long", &len, text, &flag));
    ck_assert_str_eq(text, "value");
    len = 64;
    EXPECT(MPI_SUCCESS, MPI_Info_get_string(info, "absent", &len, text, &flag));
    ck_assert(!flag && len == 64);
    MPI_Info_delete(info, "long");
    EXPECT(MPI_ERR_ARG, MPI_Info_get_string(info, "k", NULL, text, &flag));
    len = -1;
    EXPECT(MPI_ERR_ARG, MPI_Info_get_string(info, "k", &len, text, &flag));
    len = 4;
    EXPECT(MPI_ERR_ARG, MPI_Info_get_string(info, "k", &len, NULL, &flag));
    EXPECT(MPI_ERR_INFO_NOKEY, MPI_Info_delete(info, "absent"));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nkeys(info, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nthkey(info, 1, text));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nthkey(info, -1, text));
    EXPECT(MPI_ERR_ARG, MPI_Info_get_nthkey(info, 0, NULL));
    EXPECT(MPI_SUCCESS, MPI_Info_get_nkeys(info, &nkeys));
    ck_assert_int_eq(nkeys, 1);
    MPI_Info_free(&info);
}
END_TEST

/* MPI_INFO_ENV holds what the simulator filled, in order; it cannot be changed or freed (the
 * ranks share it), a copy from MPI_Info_dup or MPI-4's MPI_Info_create_env can. */
START_TEST(test_info_env)
{
    const char *pairs[] = {"command", "prog.so", "argv", "-n 5", "maxprocs", "4", NULL};
    collsim_info_env_fill(pairs);
    char key[MPI_MAX_INFO_KEY + 1], text[MPI_MAX_INFO_VAL + 1];
    int nkeys = -1, flag = 0;
    EXPECT(MPI_SUCCESS, MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
    ck_assert_int_eq(nkeys, 3);
    EXPECT(MPI_SUCCESS, MPI_Info_get_nthkey(MPI_INFO_ENV, 1, key));
    ck_assert_str_eq(key, "argv");
    EXPECT(MPI_SUCCESS, MPI_Info_get(MPI_INFO_ENV, "argv", MPI_MAX_INFO_VAL, text, &flag));
    ck_assert(flag);
    ck_assert_str_eq(text, "-n 5");
    EXPECT(MPI_ERR_INFO, MPI_Info_set(MPI_INFO_ENV, "maxprocs", "8"));
    EXPECT(MPI_ERR_INFO, MPI_Info_delete(MPI_INFO_ENV, "argv"));
    MPI_Info env = MPI_INFO_ENV;
    EXPECT(MPI_ERR_INFO, MPI_Info_free(&env));
    ck_assert(env == MPI_INFO_ENV);
    MPI_Info copy, dup;
    EXPECT(MPI_SUCCESS, MPI_Info_create_env(0, NULL, &copy));
    EXPECT(MPI_SUCCESS, MPI_Info_dup(MPI_INFO_ENV, &dup));
    EXPECT(MPI_SUCCESS, MPI_Info_set(copy, "maxprocs", "8"));
    EXPECT(MPI_SUCCESS, MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, text, &flag));
    ck_assert_str_eq(text, "4");
    EXPECT(MPI_SUCCESS, MPI_Info_get(copy, "command", MPI_MAX_INFO_VAL, text, &flag));
    ck_assert_str_eq(text, "prog.so");
    EXPECT(MPI_SUCCESS, MPI_Info_get_nkeys(dup, &nkeys));
    ck_assert_int_eq(nkeys, 3);
    EXPECT(MPI_ERR_ARG, MPI_Info_create_env(0, NULL, NULL));
    MPI_Info_free(&copy);
    MPI_Info_free(&dup);
    collsim_info_env_fill(NULL);
    EXPECT(MPI_SUCCESS, MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys));
    ck_assert_int_eq(nkeys, 0);
}
END_TEST

/* ---------------------------------------------------------------- src/datatype.c */

START_TEST(test_datatype_arguments)
{
    MPI_Datatype out = MPI_DATATYPE_NULL, predefined = MPI_INT, uncommitted;
    int one = 1, minus = -1, zero = 0, size;
    MPI_Aint aone = 1, lb, extent;
    MPI_Datatype bad_types[1] = {never_set.type};
    EXPECT(MPI_ERR_COUNT, MPI_Type_contiguous(-1, MPI_INT, &out));
    EXPECT(MPI_ERR_TYPE, MPI_Type_contiguous(1, never_set.type, &out));
    EXPECT(MPI_ERR_TYPE, MPI_Type_contiguous(1, MPI_DATATYPE_NULL, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_contiguous(1, MPI_INT, NULL));
    EXPECT(MPI_ERR_COUNT, MPI_Type_vector(-1, 1, 1, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_vector(1, -1, 1, MPI_INT, &out));
    EXPECT(MPI_ERR_TYPE, MPI_Type_vector(1, 1, 1, never_set.type, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_hvector(1, -1, 8, MPI_INT, &out));
    EXPECT(MPI_ERR_COUNT, MPI_Type_hvector(-2, 1, 8, MPI_INT, &out));
    EXPECT(MPI_ERR_COUNT, MPI_Type_indexed(-1, &one, &zero, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed(1, NULL, &zero, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed(1, &one, NULL, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_indexed(1, &minus, &zero, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_hindexed(1, NULL, &aone, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_hindexed(1, &minus, &aone, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_indexed_block(1, -1, &zero, MPI_INT, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_indexed_block(1, 1, NULL, MPI_INT, &out));
    EXPECT(MPI_ERR_COUNT,
           MPI_Type_create_struct(-1, &one, &aone, (MPI_Datatype[]){MPI_INT}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_struct(1, NULL, &aone, (MPI_Datatype[]){MPI_INT}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_struct(1, &one, NULL, (MPI_Datatype[]){MPI_INT}, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_struct(1, &one, &aone, NULL, &out));
    EXPECT(MPI_ERR_ARG,
           MPI_Type_create_struct(1, &minus, &aone, (MPI_Datatype[]){MPI_INT}, &out));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_struct(1, &one, &aone, bad_types, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_struct(1, &one, &aone, (MPI_Datatype[]){MPI_INT}, NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_struct(1, &one, &aone, bad_types, &out));
    EXPECT(MPI_ERR_TYPE, MPI_Type_create_resized(never_set.type, 0, 4, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_create_resized(MPI_INT, 0, 4, NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_dup(never_set.type, &out));
    EXPECT(MPI_ERR_ARG, MPI_Type_dup(MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Type_commit(NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_commit(&bad_types[0]));
    EXPECT(MPI_ERR_ARG, MPI_Type_free(NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_free(&predefined));
    EXPECT(MPI_ERR_TYPE, MPI_Type_size(never_set.type, &size));
    EXPECT(MPI_ERR_ARG, MPI_Type_size(MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Type_get_extent(MPI_INT, NULL, &extent));
    EXPECT(MPI_ERR_ARG, MPI_Type_get_extent(MPI_INT, &lb, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Type_get_true_extent(MPI_INT, NULL, &extent));
    EXPECT(MPI_ERR_ARG, MPI_Type_get_true_extent(MPI_INT, &lb, NULL));
    EXPECT(MPI_ERR_TYPE, MPI_Type_extent(never_set.type, &extent));
    EXPECT(MPI_ERR_ARG, MPI_Type_extent(MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Type_lb(MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Type_ub(MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Get_address(&size, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Address(&size, NULL));
    ck_assert_ptr_eq(out, MPI_DATATYPE_NULL);

    MPI_Status status = {.collsim_bytes = 8};
    EXPECT(MPI_ERR_ARG, MPI_Get_count(NULL, MPI_INT, &size));
    EXPECT(MPI_ERR_TYPE, MPI_Get_count(&status, never_set.type, &size));
    EXPECT(MPI_ERR_ARG, MPI_Get_count(&status, MPI_INT, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Get_elements(NULL, MPI_INT, &size));
    EXPECT(MPI_ERR_ARG, MPI_Get_elements(&status, MPI_INT, NULL));

    /* pack and unpack: an invalid communicator is not read to find its handler */
    int data[2] = {1, 2}, position = 0;
    char packed[16];
    MPI_Type_contiguous(2, MPI_INT, &uncommitted);
    EXPECT(MPI_ERR_COMM, MPI_Pack(data, 2, MPI_INT, packed, 16, &position, never_set.comm));
    EXPECT(MPI_ERR_COMM, MPI_Pack(data, 2, MPI_INT, packed, 16, &position, MPI_COMM_NULL));
    EXPECT(MPI_ERR_COUNT, MPI_Pack(data, -1, MPI_INT, packed, 16, &position, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TYPE, MPI_Pack(data, 1, uncommitted, packed, 16, &position, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_ARG, MPI_Pack(data, 2, MPI_INT, packed, -1, &position, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_ARG, MPI_Pack(data, 2, MPI_INT, packed, 16, NULL, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_ARG, MPI_Pack(data, 2, MPI_INT, packed, 4, &position, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_BUFFER, MPI_Pack(NULL, 2, MPI_INT, packed, 16, &position, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_BUFFER, MPI_Pack(data, 2, MPI_INT, NULL, 16, &position, MPI_COMM_WORLD));
    ck_assert_int_eq(position, 0);
    position = 20;
    EXPECT(MPI_ERR_ARG, MPI_Pack(data, 2, MPI_INT, packed, 16, &position, MPI_COMM_WORLD));
    position = 0;
    EXPECT(MPI_SUCCESS, MPI_Pack(data, 2, MPI_INT, packed, 16, &position, MPI_COMM_WORLD));
    position = 0;
    EXPECT(MPI_ERR_BUFFER, MPI_Unpack(NULL, 16, &position, data, 2, MPI_INT, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_BUFFER, MPI_Unpack(packed, 16, &position, NULL, 2, MPI_INT, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_TRUNCATE, MPI_Unpack(packed, 4, &position, data, 2, MPI_INT, MPI_COMM_WORLD));
    EXPECT(MPI_ERR_COMM, MPI_Unpack(packed, 16, &position, data, 2, MPI_INT, never_set.comm));
    EXPECT(MPI_ERR_COMM, MPI_Pack_size(1, MPI_INT, never_set.comm, &size));
    EXPECT(MPI_ERR_COUNT, MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size));
    EXPECT(MPI_ERR_ARG, MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, NULL));
    ck_assert_int_eq(position, 0);
    MPI_Type_free(&uncommitted);
}
END_TEST

/* ---------------------------------------------------------------- src/op.c */

static void
add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

START_TEST(test_op_arguments)
{
    MPI_Op op, sum = MPI_SUM;
    MPI_Datatype pair;
    int commute, a[2] = {1, 2}, b[2] = {3, 4};
    EXPECT(MPI_ERR_ARG, MPI_Op_create(NULL, 1, &op));
    EXPECT(MPI_ERR_ARG, MPI_Op_create(add_ints, 1, NULL));
    EXPECT(MPI_ERR_ARG, MPI_Op_free(NULL));
    EXPECT(MPI_ERR_OP, MPI_Op_free(&sum));
    EXPECT(MPI_ERR_OP, MPI_Op_commutative(never_set.op, &commute));
    EXPECT(MPI_ERR_ARG, MPI_Op_commutative(MPI_SUM, NULL));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(MPI_IN_PLACE, b, 2, MPI_INT, MPI_SUM));
    EXPECT(MPI_ERR_COUNT, MPI_Reduce_local(a, b, -1, MPI_INT, MPI_SUM));
    EXPECT(MPI_ERR_TYPE, MPI_Reduce_local(a, b, 2, never_set.type, MPI_SUM));
    EXPECT(MPI_ERR_OP, MPI_Reduce_local(a, b, 2, MPI_INT, never_set.op));
    EXPECT(MPI_ERR_OP, MPI_Reduce_local(a, b, 2, MPI_INT, MPI_OP_NULL));
    EXPECT(MPI_ERR_OP, MPI_Reduce_local(a, b, 2, MPI_BYTE, MPI_SUM));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(NULL, b, 2, MPI_INT, MPI_SUM));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(a, NULL, 2, MPI_INT, MPI_SUM));
    /* inbuf and inoutbuf aliased, wholly or by one item; adjacent is fine */
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(b, b, 2, MPI_INT, MPI_SUM));
    EXPECT(MPI_SUCCESS, MPI_Reduce_local(&b[0], &b[1], 1, MPI_INT, MPI_SUM));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(&b[0], &b[1], 2, MPI_INT, MPI_SUM));
    ck_assert_int_eq(b[0], 3);
    ck_assert_int_eq(b[1], 7); /* only the adjacent call ran: b[1] += b[0] */
    b[1] = 4;
    /* a contiguous derived type has its data at the buffer too */
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(NULL, b, 1, pair, MPI_SUM));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce_local(a, NULL, 1, pair, MPI_SUM));
    EXPECT(MPI_SUCCESS, MPI_Reduce_local(a, b, 1, pair, MPI_SUM));
    ck_assert_int_eq(b[1], 6);
    MPI_Type_free(&pair);
}
END_TEST

/* ------------------------------------------- src/coll/<collective>/mpi_<collective>.c */

/* World of 4, the caller rank 0: every error is found before anything is sent. */
START_TEST(test_collective_arguments)
{
    int buf[8] = {0}, out[8] = {0};
    int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3}, negative[4] = {1, -1, 1, 1};
    MPI_Datatype types[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
    MPI_Datatype bad_types[4] = {MPI_INT, never_set.type, MPI_INT, MPI_INT};
    MPI_Comm world = MPI_COMM_WORLD;

    EXPECT(MPI_ERR_COMM, MPI_Barrier(never_set.comm));
    EXPECT(MPI_ERR_COMM, MPI_Barrier(MPI_COMM_NULL));
    EXPECT(MPI_ERR_COMM, MPI_Barrier(MPI_COMM_WORLD->coll));   /* internal */

    EXPECT(MPI_ERR_COMM, MPI_Bcast(buf, 1, MPI_INT, 0, never_set.comm));
    EXPECT(MPI_ERR_COUNT, MPI_Bcast(buf, -1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_TYPE, MPI_Bcast(buf, 1, never_set.type, 0, world));
    EXPECT(MPI_ERR_ROOT, MPI_Bcast(buf, 1, MPI_INT, 4, world));
    EXPECT(MPI_ERR_ROOT, MPI_Bcast(buf, 1, MPI_INT, -1, world));
    EXPECT(MPI_ERR_ROOT, MPI_Bcast(buf, 1, MPI_INT, MPI_ROOT, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Bcast(NULL, 1, MPI_INT, 0, world));

    EXPECT(MPI_ERR_COUNT, MPI_Reduce(buf, out, -1, MPI_INT, MPI_SUM, 0, world));
    EXPECT(MPI_ERR_TYPE, MPI_Reduce(buf, out, 1, MPI_DATATYPE_NULL, MPI_SUM, 0, world));
    EXPECT(MPI_ERR_OP, MPI_Reduce(buf, out, 1, MPI_INT, never_set.op, 0, world));
    EXPECT(MPI_ERR_ROOT, MPI_Reduce(buf, out, 1, MPI_INT, MPI_SUM, 7, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce(buf, MPI_IN_PLACE, 1, MPI_INT, MPI_SUM, 0, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Reduce(buf, NULL, 1, MPI_INT, MPI_SUM, 0, world));
    EXPECT(MPI_ERR_COUNT, MPI_Allreduce(buf, out, -1, MPI_INT, MPI_SUM, world));
    EXPECT(MPI_ERR_OP, MPI_Allreduce(buf, out, 1, MPI_INT, MPI_OP_NULL, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Allreduce(buf, buf, 1, MPI_INT, MPI_SUM, world));
    EXPECT(MPI_ERR_TYPE, MPI_Scan(buf, out, 1, never_set.type, MPI_SUM, world));
    EXPECT(MPI_ERR_COMM, MPI_Exscan(buf, out, 1, MPI_INT, MPI_SUM, never_set.comm));
    EXPECT(MPI_ERR_ARG, MPI_Reduce_scatter(buf, out, NULL, MPI_INT, MPI_SUM, world));
    EXPECT(MPI_ERR_COUNT, MPI_Reduce_scatter(buf, out, negative, MPI_INT, MPI_SUM, world));
    EXPECT(MPI_ERR_COUNT, MPI_Reduce_scatter_block(buf, out, -1, MPI_INT, MPI_SUM, world));

    EXPECT(MPI_ERR_ROOT, MPI_Gather(buf, 1, MPI_INT, out, 1, MPI_INT, 4, world));
    EXPECT(MPI_ERR_COUNT, MPI_Gather(buf, -1, MPI_INT, out, 1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_TYPE, MPI_Gather(buf, 1, MPI_INT, out, 1, never_set.type, 0, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Gather(buf, 1, MPI_INT, NULL, 1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_ROOT, MPI_Gatherv(buf, 1, MPI_INT, out, counts, displs, MPI_INT, -2, world));
    EXPECT(MPI_ERR_ARG, MPI_Gatherv(buf, 1, MPI_INT, out, NULL, displs, MPI_INT, 0, world));
    EXPECT(MPI_ERR_ARG, MPI_Gatherv(buf, 1, MPI_INT, out, counts, NULL, MPI_INT, 0, world));
    EXPECT(MPI_ERR_COUNT, MPI_Gatherv(buf, 1, MPI_INT, out, negative, displs, MPI_INT, 0, world));
    EXPECT(MPI_ERR_ROOT, MPI_Scatter(buf, 1, MPI_INT, out, 1, MPI_INT, 4, world));
    EXPECT(MPI_ERR_COUNT, MPI_Scatter(buf, 1, MPI_INT, out, -1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_TYPE, MPI_Scatter(buf, 1, never_set.type, out, 1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_ARG, MPI_Scatterv(buf, NULL, displs, MPI_INT, out, 1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_COUNT, MPI_Scatterv(buf, negative, displs, MPI_INT, out, 1, MPI_INT, 0, world));
    EXPECT(MPI_ERR_ROOT, MPI_Scatterv(buf, counts, displs, MPI_INT, out, 1, MPI_INT, 5, world));

    EXPECT(MPI_ERR_COUNT, MPI_Allgather(buf, 1, MPI_INT, out, -1, MPI_INT, world));
    EXPECT(MPI_ERR_COUNT, MPI_Allgather(buf, -1, MPI_INT, out, 1, MPI_INT, world));
    EXPECT(MPI_ERR_TYPE, MPI_Allgather(buf, 1, never_set.type, out, 1, MPI_INT, world));
    EXPECT(MPI_ERR_BUFFER, MPI_Allgather(buf, 1, MPI_INT, MPI_IN_PLACE, 1, MPI_INT, world));
    EXPECT(MPI_ERR_ARG, MPI_Allgatherv(buf, 1, MPI_INT, out, NULL, displs, MPI_INT, world));
    EXPECT(MPI_ERR_COUNT, MPI_Allgatherv(buf, 1, MPI_INT, out, negative, displs, MPI_INT, world));
    EXPECT(MPI_ERR_COUNT, MPI_Alltoall(buf, -1, MPI_INT, out, 1, MPI_INT, world));
    EXPECT(MPI_ERR_TYPE, MPI_Alltoall(buf, 1, MPI_INT, out, 1, never_set.type, world));
    EXPECT(MPI_ERR_ARG,
           MPI_Alltoallv(buf, NULL, displs, MPI_INT, out, counts, displs, MPI_INT, world));
    EXPECT(MPI_ERR_COUNT,
           MPI_Alltoallv(buf, counts, displs, MPI_INT, out, negative, displs, MPI_INT, world));
    EXPECT(MPI_ERR_ARG,
           MPI_Alltoallw(buf, counts, displs, NULL, out, counts, displs, types, world));
    EXPECT(MPI_ERR_TYPE,
           MPI_Alltoallw(buf, counts, displs, bad_types, out, counts, displs, types, world));
    EXPECT(MPI_ERR_COUNT,
           MPI_Alltoallw(buf, negative, displs, types, out, counts, displs, types, world));
}
END_TEST

/* -------------------------------------------------- sim/transport/p2p.c, sim/engine/env.c */

static GString *wrong;   /* what the ranks got that they should not have, one line each */

static void
record(int rank, const char *what, int rc, int expected)
{
    int got = class_of(rc);
    if (got != expected)
        g_string_append_printf(wrong, "rank %d: %s: class %d, expected %d\n", rank, what, got,
                               expected);
}

#define RECORD(rank, class, call) record(rank, #call, (call), class)

static MPI_Comm rank0_only;   /* rank 0's communicator of its own, for rank 1 to misuse */

static void
p2p_rank(int rank, void *arg)
{
    (void)arg;
    int value = 1, flag = -1, index = -1, count = -1, len;
    MPI_Status status;
    MPI_Request request = MPI_REQUEST_NULL, requests[1] = {MPI_REQUEST_NULL};
    MPI_Comm world = MPI_COMM_WORLD;
    MPI_Comm_set_errhandler(world, MPI_ERRORS_RETURN);

    MPI_Comm mine;
    MPI_Comm_split(world, rank, 0, &mine);
    if (rank == 0)
        rank0_only = mine;
    MPI_Barrier(world);

    if (rank == 1) {
        /* a communicator this rank is not a member of (a stray copy of the handle) */
        RECORD(1, MPI_ERR_COMM, MPI_Send(&value, 1, MPI_INT, 0, 0, rank0_only));
        RECORD(1, MPI_ERR_COMM, MPI_Barrier(rank0_only));
        RECORD(1, MPI_ERR_COMM, MPI_Bcast(&value, 1, MPI_INT, 0, rank0_only));
    }
    if (rank == 0) {
        MPI_Group group;
        MPI_Comm_group(world, &group);
        RECORD(0, MPI_ERR_RANK, MPI_Send(&value, 1, MPI_INT, 2, 0, world));
        RECORD(0, MPI_ERR_RANK, MPI_Send(&value, 1, MPI_INT, -3, 0, world));
        RECORD(0, MPI_ERR_RANK, MPI_Send(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, world));
        RECORD(0, MPI_ERR_TAG, MPI_Send(&value, 1, MPI_INT, 1, -5, world));
        RECORD(0, MPI_ERR_TAG, MPI_Send(&value, 1, MPI_INT, 1, MPI_ANY_TAG, world));
        RECORD(0, MPI_ERR_COUNT, MPI_Send(&value, -1, MPI_INT, 1, 0, world));
        RECORD(0, MPI_ERR_TYPE, MPI_Send(&value, 1, never_set.type, 1, 0, world));
        RECORD(0, MPI_ERR_BUFFER, MPI_Send(NULL, 1, MPI_INT, 1, 0, world));
        RECORD(0, MPI_ERR_COMM, MPI_Send(&value, 1, MPI_INT, 1, 0, never_set.comm));
        RECORD(0, MPI_ERR_COMM, MPI_Send(&value, 1, MPI_INT, 1, 0, (MPI_Comm)(void *)group));
        RECORD(0, MPI_ERR_RANK, MPI_Ssend(&value, 1, MPI_INT, 9, 0, world));
        RECORD(0, MPI_ERR_TAG, MPI_Rsend(&value, 1, MPI_INT, 1, -2, world));
        RECORD(0, MPI_ERR_COUNT, MPI_Isend(&value, -4, MPI_INT, 1, 0, world, &request));
        RECORD(0, MPI_ERR_REQUEST, MPI_Isend(&value, 1, MPI_INT, 1, 0, world, NULL));
        RECORD(0, MPI_ERR_RANK, MPI_Issend(&value, 1, MPI_INT, 5, 0, world, &request));
        RECORD(0, MPI_ERR_RANK, MPI_Recv(&value, 1, MPI_INT, 2, 0, world, &status));
        RECORD(0, MPI_ERR_TAG, MPI_Recv(&value, 1, MPI_INT, 1, -5, world, &status));
        RECORD(0, MPI_ERR_COUNT, MPI_Recv(&value, -1, MPI_INT, 1, 0, world, &status));
        RECORD(0, MPI_ERR_REQUEST, MPI_Irecv(&value, 1, MPI_INT, 1, 0, world, NULL));
        RECORD(0, MPI_ERR_RANK, MPI_Irecv(&value, 1, MPI_INT, 7, 0, world, &request));
        RECORD(0, MPI_ERR_TAG,
               MPI_Sendrecv(&value, 1, MPI_INT, 0, 0, &count, 1, MPI_INT, 0, -7, world, &status));
        RECORD(0, MPI_ERR_RANK,
               MPI_Sendrecv(&value, 1, MPI_INT, 3, 0, &count, 1, MPI_INT, 0, 0, world, &status));
        RECORD(0, MPI_ERR_RANK,
               MPI_Sendrecv_replace(&value, 1, MPI_INT, 0, 0, 4, 0, world, &status));
        RECORD(0, MPI_ERR_RANK, MPI_Probe(5, 0, world, &status));
        RECORD(0, MPI_ERR_TAG, MPI_Probe(1, -9, world, &status));
        RECORD(0, MPI_ERR_COMM, MPI_Probe(1, 0, never_set.comm, &status));
        RECORD(0, MPI_ERR_ARG, MPI_Iprobe(1, 0, world, NULL, &status));
        RECORD(0, MPI_ERR_RANK, MPI_Iprobe(-7, 0, world, &flag, &status));

        /* a receive's datatype may not have entries that overlap (MPI-3.1 4.1.1), within an
         * item or between items; a send's may, and items that interleave do not overlap */
        MPI_Datatype skewed, pair, column, zero_extent;
        MPI_Type_create_hvector(4, 1, 3, MPI_FLOAT, &skewed); /* 4-byte floats 3 bytes apart */
        MPI_Type_commit(&skewed);
        MPI_Type_vector(2, 1, 2, MPI_INT, &pair);
        MPI_Type_create_resized(pair, 0, sizeof(int), &column); /* items interleave */
        MPI_Type_commit(&column);
        MPI_Type_create_resized(MPI_INT, 0, 0, &zero_extent); /* every item at one place */
        MPI_Type_commit(&zero_extent);
        float floats[8] = {0};
        int ints[8] = {0};
        RECORD(0, MPI_ERR_TYPE, MPI_Recv(floats, 1, skewed, 1, 0, world, &status));
        RECORD(0, MPI_ERR_TYPE, MPI_Irecv(ints, 2, zero_extent, 1, 0, world, &request));
        RECORD(0, MPI_SUCCESS, MPI_Recv(ints, 1, zero_extent, MPI_PROC_NULL, 0, world, &status));
        RECORD(0, MPI_SUCCESS, MPI_Recv(ints, 3, column, MPI_PROC_NULL, 0, world, &status));
        RECORD(0, MPI_SUCCESS, MPI_Send(floats, 1, skewed, MPI_PROC_NULL, 0, world));
        MPI_Type_free(&skewed);
        MPI_Type_free(&pair);
        MPI_Type_free(&column);
        MPI_Type_free(&zero_extent);

        /* requests: never set, of another kind, given up with MPI_Request_free */
        MPI_Request stale = never_set.request;
        RECORD(0, MPI_ERR_REQUEST, MPI_Wait(&stale, &status));
        RECORD(0, MPI_ERR_REQUEST, MPI_Wait(NULL, &status));
        stale = (MPI_Request)(void *)group;
        RECORD(0, MPI_ERR_REQUEST, MPI_Wait(&stale, &status));
        stale = (MPI_Request)(void *)MPI_COMM_WORLD;
        RECORD(0, MPI_ERR_REQUEST, MPI_Test(&stale, &flag, &status));
        MPI_Irecv(&count, 1, MPI_INT, 1, 99, world, &request);
        stale = request;
        MPI_Request_free(&request);
        RECORD(0, MPI_ERR_REQUEST, MPI_Wait(&stale, &status));
        RECORD(0, MPI_ERR_REQUEST, MPI_Request_free(&stale));
        RECORD(0, MPI_ERR_REQUEST, MPI_Request_free(NULL));
        RECORD(0, MPI_ERR_COUNT, MPI_Waitall(-1, requests, MPI_STATUSES_IGNORE));
        RECORD(0, MPI_ERR_REQUEST, MPI_Waitall(1, NULL, MPI_STATUSES_IGNORE));
        requests[0] = never_set.request;
        RECORD(0, MPI_ERR_REQUEST, MPI_Waitall(1, requests, MPI_STATUSES_IGNORE));
        RECORD(0, MPI_ERR_REQUEST, MPI_Testall(1, requests, &flag, MPI_STATUSES_IGNORE));
        requests[0] = MPI_REQUEST_NULL;
        RECORD(0, MPI_ERR_ARG, MPI_Waitany(1, requests, NULL, &status));
        RECORD(0, MPI_ERR_ARG, MPI_Waitsome(1, requests, NULL, &index, MPI_STATUSES_IGNORE));
        RECORD(0, MPI_ERR_ARG, MPI_Waitsome(1, requests, &count, NULL, MPI_STATUSES_IGNORE));
        RECORD(0, MPI_ERR_ARG, MPI_Test(requests, NULL, &status));
        RECORD(0, MPI_ERR_ARG, MPI_Testall(1, requests, NULL, MPI_STATUSES_IGNORE));
        RECORD(0, MPI_ERR_ARG, MPI_Testany(1, requests, NULL, &flag, &status));
        RECORD(0, MPI_ERR_ARG, MPI_Testany(1, requests, &index, NULL, &status));

        /* the environment */
        char name[MPI_MAX_PROCESSOR_NAME];
        int version;
        RECORD(0, MPI_ERR_ARG, MPI_Initialized(NULL));
        RECORD(0, MPI_ERR_ARG, MPI_Finalized(NULL));
        RECORD(0, MPI_ERR_ARG, MPI_Get_processor_name(NULL, &len));
        RECORD(0, MPI_ERR_ARG, MPI_Get_processor_name(name, NULL));
        RECORD(0, MPI_ERR_ARG, MPI_Get_version(NULL, &version));
        RECORD(0, MPI_ERR_ARG, MPI_Get_version(&version, NULL));
        RECORD(0, MPI_ERR_ARG, MPI_Init_thread(NULL, NULL, MPI_THREAD_SINGLE, NULL));
        RECORD(0, MPI_ERR_OTHER, MPI_Init(NULL, NULL));   /* a second time */
        MPI_Group_free(&group);
    }
    MPI_Barrier(world);
    if (rank == 1)   /* what rank 0's freed receive waits for */
        MPI_Send(&value, 1, MPI_INT, 0, 99, world);
    MPI_Barrier(world);
    MPI_Comm_free(&mine);
}

START_TEST(test_p2p_and_environment_arguments)
{
    wrong = g_string_new("");
    ck_assert_int_eq(collsim_test_run_ranks(2, p2p_rank, NULL), 0);
    ck_assert_msg(wrong->len == 0, "%s", wrong->str);
    g_string_free(wrong, TRUE);
}
END_TEST

static Suite *
arguments_suite(void)
{
    Suite *s = suite_create("arguments");
    TCase *src1 = tcase_create("src, world of 1");
    tcase_add_checked_fixture(src1, setup_world1, teardown);
    tcase_add_test(src1, test_comm_arguments);
    tcase_add_test(src1, test_errhandler_arguments);
    tcase_add_test(src1, test_attr_and_info_arguments);
    tcase_add_test(src1, test_info_env);
    tcase_add_test(src1, test_datatype_arguments);
    tcase_add_test(src1, test_op_arguments);
    suite_add_tcase(s, src1);
    TCase *src4 = tcase_create("src, world of 4");
    tcase_add_checked_fixture(src4, setup_world4, teardown);
    tcase_add_test(src4, test_group_arguments);
    tcase_add_test(src4, test_collective_arguments);
    suite_add_tcase(s, src4);
    TCase *sim = tcase_create("sim");
    tcase_add_test(sim, test_p2p_and_environment_arguments);
    suite_add_tcase(s, sim);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(arguments_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
