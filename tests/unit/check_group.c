/*
 * check_group.c — unit tests of src/group.c: the MPI_Group_* API and the internal group
 * representation (evenly stepping groups without arrays, one object for the same members,
 * O(log n) reverse lookups).
 *
 * Runs without a simulation: the default runtime is one process of world rank 0, and a test
 * that needs another caller installs its own hooks. Every expected value below was worked
 * out by hand from MPI-3.1 §6.3, not produced by the code.
 */
#include <check.h>
#include <stdlib.h>

#include "mpi.h"
#include "src/comm.h"
#include "src/group.h"
#include "src/runtime.h"

/* ---------------------------------------------------------------- helpers */

static int fake_rank;

static int
fake_world_rank(void)
{
    return fake_rank;
}

static int
fake_world_size(void)
{
    return 6;
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
setup_world6(void)
{
    collsim_comm_world_setup(6);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

static void
teardown_world(void)
{
    collsim_runtime_install(NULL);
    collsim_comm_world_teardown();
}

static MPI_Group
world_group(void)
{
    MPI_Group g;
    ck_assert_int_eq(MPI_Comm_group(MPI_COMM_WORLD, &g), MPI_SUCCESS);
    return g;
}

/* g has exactly the world ranks expected[0..n), in that order. */
static void
assert_members(MPI_Group g, int n, const int *expected)
{
    int size;
    ck_assert_int_eq(MPI_Group_size(g, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, n);
    MPI_Group w = world_group();
    for (int i = 0; i < n; i++) {
        int world;
        ck_assert_int_eq(MPI_Group_translate_ranks(g, 1, &i, w, &world), MPI_SUCCESS);
        ck_assert_msg(world == expected[i], "member %d is world rank %d, expected %d", i, world,
                      expected[i]);
    }
    MPI_Group_free(&w);
}

static MPI_Group
incl(MPI_Group from, int n, const int *ranks)
{
    MPI_Group g = MPI_GROUP_NULL;
    ck_assert_int_eq(MPI_Group_incl(from, n, ranks, &g), MPI_SUCCESS);
    return g;
}

/* ---------------------------------------------------------------- the textbook example */

/* World of 6; gr1 = {0,1,2,4,5}, gr2 = {0,2,3}. */
START_TEST(test_group_textbook_example)
{
    MPI_Group w = world_group();
    MPI_Group gr1 = incl(w, 5, (int[]){0, 1, 2, 4, 5});
    MPI_Group gr2 = incl(w, 3, (int[]){0, 2, 3});
    MPI_Group inter, uni, diff;
    ck_assert_int_eq(MPI_Group_intersection(gr1, gr2, &inter), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_union(gr1, gr2, &uni), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_difference(gr1, gr2, &diff), MPI_SUCCESS);
    assert_members(inter, 2, (int[]){0, 2});
    assert_members(uni, 6, (int[]){0, 1, 2, 4, 5, 3});
    assert_members(diff, 3, (int[]){1, 4, 5});
    MPI_Group_free(&inter);
    MPI_Group_free(&uni);
    MPI_Group_free(&diff);
    MPI_Group_free(&gr1);
    MPI_Group_free(&gr2);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- set operations: order */

START_TEST(test_group_set_operations_keep_the_prescribed_order)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 2, (int[]){3, 1});
    MPI_Group b = incl(w, 4, (int[]){1, 0, 4, 3});
    MPI_Group r;
    /* union: all of a, then b's members not in a, in b's order */
    MPI_Group_union(a, b, &r);
    assert_members(r, 4, (int[]){3, 1, 0, 4});
    MPI_Group_free(&r);
    MPI_Group_union(b, a, &r);
    assert_members(r, 4, (int[]){1, 0, 4, 3});
    MPI_Group_free(&r);
    /* intersection and difference: first group's order */
    MPI_Group_intersection(b, a, &r);
    assert_members(r, 2, (int[]){1, 3});
    MPI_Group_free(&r);
    MPI_Group_intersection(a, b, &r);
    assert_members(r, 2, (int[]){3, 1});
    MPI_Group_free(&r);
    MPI_Group_difference(b, a, &r);
    assert_members(r, 2, (int[]){0, 4});
    MPI_Group_free(&r);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_empty_results_are_group_empty)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 2, (int[]){0, 1});
    MPI_Group b = incl(w, 2, (int[]){2, 3});
    MPI_Group r;
    MPI_Group_intersection(a, b, &r);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    MPI_Group_free(&r);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);
    MPI_Group_difference(a, a, &r);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    MPI_Group_free(&r);
    MPI_Group_union(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &r);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    MPI_Group_free(&r);
    MPI_Group_union(MPI_GROUP_EMPTY, b, &r);
    assert_members(r, 2, (int[]){2, 3});
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_incl(w, 0, NULL, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    ck_assert_int_eq(MPI_Group_excl(w, 6, (int[]){5, 4, 3, 2, 1, 0}, &r), MPI_SUCCESS);
    ck_assert_ptr_eq(r, MPI_GROUP_EMPTY);
    int size, rank;
    MPI_Group_size(MPI_GROUP_EMPTY, &size);
    MPI_Group_rank(MPI_GROUP_EMPTY, &rank);
    ck_assert_int_eq(size, 0);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- incl / excl */

START_TEST(test_group_incl_keeps_the_given_order)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 4, (int[]){5, 2, 0, 3});
    assert_members(a, 4, (int[]){5, 2, 0, 3});
    /* ranks of incl are local ranks of the input group: a's 1 and 3 are world 2 and 3 */
    MPI_Group b = incl(a, 2, (int[]){3, 1});
    assert_members(b, 2, (int[]){3, 2});
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_excl_keeps_the_group_order)
{
    MPI_Group w = world_group();
    MPI_Group r;
    ck_assert_int_eq(MPI_Group_excl(w, 2, (int[]){4, 1}, &r), MPI_SUCCESS);
    assert_members(r, 4, (int[]){0, 2, 3, 5});
    MPI_Group_free(&r);
    MPI_Group a = incl(w, 4, (int[]){5, 2, 0, 3});
    ck_assert_int_eq(MPI_Group_excl(a, 1, (int[]){1}, &r), MPI_SUCCESS);
    assert_members(r, 3, (int[]){5, 0, 3});
    MPI_Group_free(&r);
    /* n = 0: a group identical to the input */
    ck_assert_int_eq(MPI_Group_excl(a, 0, NULL, &r), MPI_SUCCESS);
    int cmp;
    MPI_Group_compare(a, r, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    MPI_Group_free(&r);
    MPI_Group_free(&a);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_incl_excl_reject_bad_ranks)
{
    MPI_Group w = world_group();
    MPI_Group r = MPI_GROUP_NULL;
    ck_assert_int_eq(MPI_Group_incl(w, 2, (int[]){1, 6}, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_incl(w, 2, (int[]){-1, 0}, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_incl(w, 3, (int[]){2, 0, 2}, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_excl(w, 2, (int[]){7, 0}, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_excl(w, 2, (int[]){3, 3}, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_incl(w, -1, (int[]){0}, &r), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_incl(w, 1, NULL, &r), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_incl(w, 1, (int[]){0}, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_incl(MPI_GROUP_NULL, 1, (int[]){0}, &r), MPI_ERR_GROUP);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);   /* untouched by the failures */
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- ranges */

START_TEST(test_group_range_incl_and_excl)
{
    collsim_comm_world_setup(10);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group w = world_group();
    MPI_Group r;
    /* (0,8,2) → 0 2 4 6 8; (9,5,-2) → 9 7 5 */
    int ranges[2][3] = {{0, 8, 2}, {9, 5, -2}};
    ck_assert_int_eq(MPI_Group_range_incl(w, 2, ranges, &r), MPI_SUCCESS);
    assert_members(r, 8, (int[]){0, 2, 4, 6, 8, 9, 7, 5});
    MPI_Group_free(&r);
    ck_assert_int_eq(MPI_Group_range_excl(w, 2, ranges, &r), MPI_SUCCESS);
    assert_members(r, 2, (int[]){1, 3});
    MPI_Group_free(&r);
    /* a stride past `last` still includes `first`: (3,4,5) → 3 */
    int single[1][3] = {{3, 4, 5}};
    ck_assert_int_eq(MPI_Group_range_incl(w, 1, single, &r), MPI_SUCCESS);
    assert_members(r, 1, (int[]){3});
    MPI_Group_free(&r);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_range_errors)
{
    collsim_comm_world_setup(10);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Group w = world_group();
    MPI_Group r = MPI_GROUP_NULL;
    int zero_stride[1][3] = {{0, 4, 0}};
    int wrong_way[1][3] = {{5, 2, 1}};
    int outside[1][3] = {{0, 10, 1}};
    int overlap[2][3] = {{0, 4, 1}, {4, 6, 1}};
    int too_many[3][3] = {{0, 9, 1}, {0, 0, 1}, {1, 1, 1}};
    ck_assert_int_eq(MPI_Group_range_incl(w, 1, zero_stride, &r), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_range_incl(w, 1, wrong_way, &r), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Group_range_incl(w, 1, outside, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_range_incl(w, 2, overlap, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_range_excl(w, 2, overlap, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_range_incl(w, 3, too_many, &r), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_range_excl(w, 1, zero_stride, &r), MPI_ERR_ARG);
    ck_assert_ptr_eq(r, MPI_GROUP_NULL);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- translate, compare */

START_TEST(test_group_translate_ranks)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 4, (int[]){5, 2, 0, 3});
    MPI_Group b = incl(w, 3, (int[]){3, 4, 5});
    int in[5] = {0, 1, 2, 3, MPI_PROC_NULL};
    int out[5];
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 5, in, b, out), MPI_SUCCESS);
    /* a: 0→w5→b2, 1→w2→absent, 2→w0→absent, 3→w3→b0, PROC_NULL stays */
    ck_assert_int_eq(out[0], 2);
    ck_assert_int_eq(out[1], MPI_UNDEFINED);
    ck_assert_int_eq(out[2], MPI_UNDEFINED);
    ck_assert_int_eq(out[3], 0);
    ck_assert_int_eq(out[4], MPI_PROC_NULL);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 1, (int[]){4}, b, out), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 1, (int[]){-3}, b, out), MPI_ERR_RANK);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 0, NULL, b, NULL), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_translate_ranks(a, 1, (int[]){0}, MPI_GROUP_EMPTY, out),
                     MPI_SUCCESS);
    ck_assert_int_eq(out[0], MPI_UNDEFINED);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_compare)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 3, (int[]){0, 1, 2});
    MPI_Group a2 = incl(w, 3, (int[]){0, 1, 2});
    MPI_Group perm = incl(w, 3, (int[]){2, 0, 1});
    MPI_Group other = incl(w, 3, (int[]){0, 1, 3});
    MPI_Group shorter = incl(w, 2, (int[]){0, 1});
    MPI_Group all = incl(w, 6, (int[]){0, 1, 2, 3, 4, 5});
    int cmp;
    MPI_Group_compare(a, a, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    MPI_Group_compare(a, a2, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    MPI_Group_compare(w, all, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    MPI_Group_compare(a, perm, &cmp);
    ck_assert_int_eq(cmp, MPI_SIMILAR);
    MPI_Group_compare(a, other, &cmp);
    ck_assert_int_eq(cmp, MPI_UNEQUAL);
    MPI_Group_compare(a, shorter, &cmp);
    ck_assert_int_eq(cmp, MPI_UNEQUAL);
    MPI_Group_compare(MPI_GROUP_EMPTY, MPI_GROUP_EMPTY, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    ck_assert_int_eq(MPI_Group_compare(a, MPI_GROUP_NULL, &cmp), MPI_ERR_GROUP);
    MPI_Group gs[] = {a, a2, perm, other, shorter, all, w};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++)
        MPI_Group_free(&gs[i]);
}
END_TEST

/* ---------------------------------------------------------------- size, rank of the caller */

START_TEST(test_group_rank_is_the_callers)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 2, (int[]){3, 0});
    MPI_Group b = incl(w, 2, (int[]){3, 4});
    int rank;
    /* default runtime: the caller is world rank 0 */
    MPI_Group_rank(w, &rank);
    ck_assert_int_eq(rank, 0);
    MPI_Group_rank(a, &rank);
    ck_assert_int_eq(rank, 1);
    MPI_Group_rank(b, &rank);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    /* as world rank 4, with its own handles: a handle belongs to the rank it was given to */
    fake_rank = 4;
    collsim_runtime_install(fake_hooks());
    ck_assert_int_eq(MPI_Group_rank(a, &rank), MPI_ERR_GROUP);
    MPI_Group w4 = world_group();
    MPI_Group a4 = incl(w4, 2, (int[]){3, 0});
    MPI_Group b4 = incl(w4, 2, (int[]){3, 4});
    MPI_Group_rank(w4, &rank);
    ck_assert_int_eq(rank, 4);
    MPI_Group_rank(a4, &rank);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    MPI_Group_rank(b4, &rank);
    ck_assert_int_eq(rank, 1);
    MPI_Group_free(&a4);
    MPI_Group_free(&b4);
    MPI_Group_free(&w4);
    collsim_runtime_install(NULL);
    ck_assert_int_eq(MPI_Group_rank(MPI_GROUP_NULL, &rank), MPI_ERR_GROUP);
    ck_assert_int_eq(MPI_Group_size(a, NULL), MPI_ERR_ARG);
    MPI_Group_free(&a);
    MPI_Group_free(&b);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- free */

START_TEST(test_group_free)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 2, (int[]){1, 2});
    ck_assert_int_eq(MPI_Group_free(&a), MPI_SUCCESS);
    ck_assert_ptr_eq(a, MPI_GROUP_NULL);
    /* MPI_GROUP_EMPTY may be freed (a no-op), and stays usable */
    MPI_Group e = MPI_GROUP_EMPTY;
    ck_assert_int_eq(MPI_Group_free(&e), MPI_SUCCESS);
    ck_assert_ptr_eq(e, MPI_GROUP_NULL);
    int size = -1;
    ck_assert_int_eq(MPI_Group_size(MPI_GROUP_EMPTY, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 0);
    /* the world's group handed out by MPI_Comm_group, twice, freed twice */
    MPI_Group w2 = world_group();
    ck_assert_int_eq(MPI_Group_free(&w2), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_free(&w), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Group_free(&w), MPI_ERR_GROUP);   /* now MPI_GROUP_NULL */
    ck_assert_int_eq(MPI_Group_free(NULL), MPI_ERR_ARG);
}
END_TEST

START_TEST(test_group_shared_by_references)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 3, (int[]){4, 1, 3});
    MPI_Group r;
    /* union with a subset adds nothing: same members, may share the object */
    MPI_Group_union(a, MPI_GROUP_EMPTY, &r);
    MPI_Group_free(&a);   /* r must survive a's release */
    assert_members(r, 3, (int[]){4, 1, 3});
    MPI_Group_free(&r);
    MPI_Group_free(&w);
}
END_TEST

/* ---------------------------------------------------------------- representation */

START_TEST(test_group_identity_groups_store_no_array)
{
    MPI_Group w = world_group();
    ck_assert_ptr_null(w->world_ranks);
    MPI_Group prefix = incl(w, 3, (int[]){0, 1, 2});
    ck_assert_ptr_null(prefix->world_ranks);
    ck_assert_ptr_null(prefix->sorted_by_world);
    MPI_Group uneven = incl(w, 3, (int[]){0, 2, 3});
    ck_assert_ptr_nonnull(uneven->world_ranks);
    ck_assert_int_eq(collsim_group_local_rank(prefix, 2), 2);
    ck_assert_int_eq(collsim_group_local_rank(prefix, 3), MPI_UNDEFINED);
    MPI_Group_free(&prefix);
    MPI_Group_free(&uneven);
    MPI_Group_free(&w);
}
END_TEST

/* Members that step evenly, up or down, keep no array and answer lookups by arithmetic. */
START_TEST(test_group_even_steps_store_no_array)
{
    MPI_Group w = world_group();
    MPI_Group evens = incl(w, 3, (int[]){0, 2, 4});
    ck_assert_ptr_null(evens->world_ranks);
    assert_members(evens, 3, (int[]){0, 2, 4});
    ck_assert_int_eq(collsim_group_local_rank(evens, 4), 2);
    ck_assert_int_eq(collsim_group_local_rank(evens, 3), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(evens, 6), MPI_UNDEFINED); /* the step's next */
    ck_assert_int_eq(collsim_group_local_rank(evens, -2), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_world_rank(evens, 3), MPI_UNDEFINED);

    MPI_Group down = incl(w, 3, (int[]){5, 3, 1});
    ck_assert_ptr_null(down->world_ranks);
    ck_assert_int_eq(collsim_group_local_rank(down, 1), 2);
    ck_assert_int_eq(collsim_group_local_rank(down, 5), 0);
    ck_assert_int_eq(collsim_group_local_rank(down, 7), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(down, -1), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(down, 4), MPI_UNDEFINED);

    /* ranks of a group that steps: ranks 0 and 2 of {5, 3, 1} are world 5 and 1 */
    MPI_Group ends;
    ck_assert_int_eq(MPI_Group_range_incl(down, 1, (int[][3]){{0, 2, 2}}, &ends), MPI_SUCCESS);
    ck_assert_ptr_null(ends->world_ranks);
    assert_members(ends, 2, (int[]){5, 1});
    int cmp;
    MPI_Group one = incl(w, 2, (int[]){5, 1});
    MPI_Group_compare(ends, one, &cmp);
    ck_assert_int_eq(cmp, MPI_IDENT);
    /* two ranges, joined: 1 then 5 3 → {3, 1, 5} of down's world ranks, uneven */
    MPI_Group joined;
    ck_assert_int_eq(MPI_Group_range_incl(down, 2, (int[][3]){{1, 2, 1}, {0, 0, 1}}, &joined),
                     MPI_SUCCESS);
    assert_members(joined, 3, (int[]){3, 1, 5});
    MPI_Group single;
    ck_assert_int_eq(MPI_Group_range_incl(down, 1, (int[][3]){{1, 1, -7}}, &single),
                     MPI_SUCCESS);
    assert_members(single, 1, (int[]){3});
    MPI_Group rest;
    ck_assert_int_eq(MPI_Group_range_excl(down, 1, (int[][3]){{2, 0, -2}}, &rest), MPI_SUCCESS);
    assert_members(rest, 1, (int[]){3});
    MPI_Group_free(&rest);
    MPI_Group_free(&single);
    MPI_Group_free(&joined);
    MPI_Group_free(&one);
    MPI_Group_free(&ends);
    MPI_Group_free(&down);
    MPI_Group_free(&evens);
    MPI_Group_free(&w);
}
END_TEST

/* Inclusion, through the range of a world prefix (O(1)) or member by member. */
START_TEST(test_group_includes)
{
    MPI_Group w = world_group();
    MPI_Group prefix = incl(w, 4, (int[]){0, 1, 2, 3});
    MPI_Group down = incl(w, 3, (int[]){3, 2, 1});
    MPI_Group uneven = incl(w, 3, (int[]){2, 0, 3});
    MPI_Group outside = incl(w, 3, (int[]){2, 4, 0});
    MPI_Group evens = incl(w, 3, (int[]){0, 2, 4});
    MPI_Group odd_out = incl(w, 2, (int[]){4, 1});
    int missing = -1;
    ck_assert(collsim_group_includes(w, outside, &missing));
    ck_assert(collsim_group_includes(prefix, down, &missing));
    ck_assert(collsim_group_includes(prefix, uneven, &missing));
    ck_assert(!collsim_group_includes(prefix, outside, &missing));
    ck_assert_int_eq(missing, 1); /* world rank 4 */
    ck_assert(collsim_group_includes(prefix, MPI_GROUP_EMPTY, &missing));
    /* a whole that skips ranks: member by member */
    ck_assert(collsim_group_includes(evens, evens, &missing));
    ck_assert(!collsim_group_includes(evens, odd_out, &missing));
    ck_assert_int_eq(missing, 1); /* world rank 1 */
    ck_assert(!collsim_group_includes(evens, prefix, &missing));
    ck_assert_int_eq(missing, 1);
    MPI_Group three = incl(w, 1, (int[]){3});
    ck_assert(collsim_group_includes(uneven, three, &missing));
    MPI_Group_free(&three);
    MPI_Group_free(&odd_out);
    MPI_Group_free(&evens);
    MPI_Group_free(&outside);
    MPI_Group_free(&uneven);
    MPI_Group_free(&down);
    MPI_Group_free(&prefix);
    MPI_Group_free(&w);
}
END_TEST

/* Ranks that build the same members in the same order get one object, with a handle each. */
START_TEST(test_group_same_members_share_one_object)
{
    MPI_Group w = world_group();
    MPI_Group a = incl(w, 3, (int[]){4, 1, 3});
    MPI_Group again = incl(w, 3, (int[]){4, 1, 3});
    MPI_Group other_order = incl(w, 3, (int[]){1, 4, 3});
    ck_assert_ptr_eq(a, again);
    ck_assert_ptr_ne(a, other_order);
    ck_assert_int_eq(a->refcount, 2);
    fake_rank = 4;
    collsim_runtime_install(fake_hooks());
    MPI_Group w4 = world_group();
    MPI_Group a4 = incl(w4, 3, (int[]){4, 1, 3});
    ck_assert_ptr_eq(a4, a);
    int rank;
    ck_assert_int_eq(MPI_Group_rank(a4, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, 0);
    MPI_Group_free(&a4);
    /* rank 4 gave its handle back: the object is still rank 0's, not rank 4's */
    MPI_Group stale = a;
    ck_assert_int_eq(MPI_Group_rank(stale, &rank), MPI_ERR_GROUP);
    MPI_Group_free(&w4);
    collsim_runtime_install(NULL);
    MPI_Group_free(&a);
    /* rank 0's second handle lives on */
    int size;
    ck_assert_int_eq(MPI_Group_size(again, &size), MPI_SUCCESS);
    ck_assert_int_eq(size, 3);
    ck_assert_int_eq(MPI_Group_rank(again, &rank), MPI_SUCCESS);
    ck_assert_int_eq(rank, MPI_UNDEFINED);
    MPI_Group_free(&again);
    ck_assert_int_eq(MPI_Group_size(stale, &size), MPI_ERR_GROUP); /* gone */
    /* a set operation's result is shared too */
    MPI_Group inter;
    MPI_Group_intersection(other_order, w, &inter);
    ck_assert_ptr_eq(inter, other_order);
    MPI_Group_free(&inter);
    MPI_Group_free(&other_order);
    MPI_Group_free(&w);
}
END_TEST

START_TEST(test_group_internal_lookups)
{
    MPI_Group g = collsim_group_new(4, (int[]){50, 10, 30, 20});
    ck_assert_int_eq(g->size, 4);
    ck_assert_int_eq(collsim_group_local_rank(g, 50), 0);
    ck_assert_int_eq(collsim_group_local_rank(g, 10), 1);
    ck_assert_int_eq(collsim_group_local_rank(g, 30), 2);
    ck_assert_int_eq(collsim_group_local_rank(g, 20), 3);
    ck_assert_int_eq(collsim_group_local_rank(g, 40), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(g, 0), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(g, 99), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_local_rank(g, -1), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_world_rank(g, 2), 30);
    ck_assert_int_eq(collsim_group_world_rank(g, 4), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_group_world_rank(g, -1), MPI_UNDEFINED);
    MPI_Group ref = collsim_group_ref(g);
    collsim_group_unref(g);
    ck_assert_int_eq(collsim_group_world_rank(ref, 0), 50);
    collsim_group_unref(ref);
    ck_assert_ptr_eq(collsim_group_new(0, NULL), MPI_GROUP_EMPTY);
    MPI_Group id = collsim_group_new(5, NULL);
    ck_assert_int_eq(collsim_group_world_rank(id, 4), 4);
    ck_assert_int_eq(collsim_group_local_rank(id, 5), MPI_UNDEFINED);
    collsim_group_unref(id);
}
END_TEST

/* ---------------------------------------------------------------- scale */

#define BIG 1000000

/* A million members in reverse order, then set operations on it: O(n log n) each. */
START_TEST(test_group_million_members)
{
    collsim_comm_world_setup(BIG);
    MPI_Group w = world_group();
    int *ranks = malloc(BIG * sizeof *ranks);
    for (int i = 0; i < BIG; i++)
        ranks[i] = BIG - 1 - i;
    MPI_Group rev = incl(w, BIG, ranks);
    for (int i = 0; i < BIG / 2; i++)
        ranks[i] = 2 * i;
    MPI_Group evens = incl(w, BIG / 2, ranks);
    free(ranks);

    int samples[] = {0, 1, 2, 999, 123456, BIG - 2, BIG - 1};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        ck_assert_int_eq(collsim_group_local_rank(rev, samples[i]), BIG - 1 - samples[i]);

    int cmp;
    MPI_Group_compare(w, rev, &cmp);
    ck_assert_int_eq(cmp, MPI_SIMILAR);

    /* evens ∪ rev = evens then the odd ranks in rev's (decreasing) order */
    MPI_Group uni;
    MPI_Group_union(evens, rev, &uni);
    ck_assert_int_eq(uni->size, BIG);
    ck_assert_int_eq(collsim_group_world_rank(uni, BIG / 2 - 1), BIG - 2);
    ck_assert_int_eq(collsim_group_world_rank(uni, BIG / 2), BIG - 1);
    ck_assert_int_eq(collsim_group_world_rank(uni, BIG - 1), 1);

    /* rev \ evens = the odd ranks, decreasing */
    MPI_Group diff;
    MPI_Group_difference(rev, evens, &diff);
    ck_assert_int_eq(diff->size, BIG / 2);
    ck_assert_int_eq(collsim_group_world_rank(diff, 0), BIG - 1);
    ck_assert_int_eq(collsim_group_local_rank(diff, 1), BIG / 2 - 1);

    int in[2] = {0, BIG - 1}, out[2];
    MPI_Group_translate_ranks(rev, 2, in, evens, out);
    /* rev 0 → world 999999 (odd, absent); rev 999999 → world 0 → evens 0 */
    ck_assert_int_eq(out[0], MPI_UNDEFINED);
    ck_assert_int_eq(out[1], 0);

    MPI_Group_free(&uni);
    MPI_Group_free(&diff);
    MPI_Group_free(&rev);
    MPI_Group_free(&evens);
    MPI_Group_free(&w);
}
END_TEST

static Suite *
group_suite(void)
{
    Suite *s = suite_create("group");
    TCase *tc = tcase_create("api");
    tcase_add_checked_fixture(tc, setup_world6, teardown_world);
    tcase_add_test(tc, test_group_textbook_example);
    tcase_add_test(tc, test_group_set_operations_keep_the_prescribed_order);
    tcase_add_test(tc, test_group_empty_results_are_group_empty);
    tcase_add_test(tc, test_group_incl_keeps_the_given_order);
    tcase_add_test(tc, test_group_excl_keeps_the_group_order);
    tcase_add_test(tc, test_group_incl_excl_reject_bad_ranks);
    tcase_add_test(tc, test_group_range_incl_and_excl);
    tcase_add_test(tc, test_group_range_errors);
    tcase_add_test(tc, test_group_translate_ranks);
    tcase_add_test(tc, test_group_compare);
    tcase_add_test(tc, test_group_rank_is_the_callers);
    tcase_add_test(tc, test_group_free);
    tcase_add_test(tc, test_group_shared_by_references);
    tcase_add_test(tc, test_group_identity_groups_store_no_array);
    tcase_add_test(tc, test_group_even_steps_store_no_array);
    tcase_add_test(tc, test_group_same_members_share_one_object);
    tcase_add_test(tc, test_group_includes);
    tcase_add_test(tc, test_group_internal_lookups);
    suite_add_tcase(s, tc);

    TCase *big = tcase_create("scale");
    tcase_add_checked_fixture(big, setup_world6, teardown_world);
    tcase_set_timeout(big, 60);
    tcase_add_test(big, test_group_million_members);
    suite_add_tcase(s, big);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(group_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
