/*
 * check_comm.c — unit tests of src/comm.c that need no running transport: the predefined
 * communicators (world, self, their twins), queries, compare, names, free, context
 * allocation, and the constructors on one-rank parents (a one-rank gather/scatter/broadcast
 * sends no message). Multi-rank constructors are in check_comm_multi.c.
 *
 * Expected values are worked out by hand: contexts 0/1 world, 2/3 self, then pairs from 4.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "src/comm.h"
#include "src/group.h"
#include "src/handles.h"
#include "src/runtime.h"

static int fake_rank;
static int fake_size;

static int
fake_world_rank(void)
{
    return fake_rank;
}

static int
fake_world_size(void)
{
    return fake_size;
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

/* Pretend to be world rank `rank` of a world of `size`. */
static void
become(int rank, int size)
{
    fake_rank = rank;
    fake_size = size;
    collsim_comm_world_setup(size);
    collsim_runtime_install(fake_hooks());
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

static void
setup_world1(void)
{
    collsim_comm_world_setup(1);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

static void
teardown_world(void)
{
    collsim_runtime_install(NULL);
    collsim_comm_world_teardown();
}

/* ---------------------------------------------------------------- predefined objects */

START_TEST(test_comm_world_queries)
{
    become(5, 8);
    int size, rank;
    ck_assert_int_eq(MPI_Comm_size(MPI_COMM_WORLD, &size), MPI_SUCCESS);
    ck_assert_int_eq(MPI_Comm_rank(MPI_COMM_WORLD, &rank), MPI_SUCCESS);
    ck_assert_int_eq(size, 8);
    ck_assert_int_eq(rank, 5);
    ck_assert_int_eq(collsim_comm_world_rank(MPI_COMM_WORLD, 7), 7);
    ck_assert_int_eq(collsim_comm_world_rank(MPI_COMM_WORLD, 8), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_comm_local_rank(MPI_COMM_WORLD, 3), 3);
    ck_assert_int_eq(collsim_comm_local_rank(MPI_COMM_WORLD, 8), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_comm_size(MPI_COMM_WORLD->coll), 8);
    ck_assert_int_eq(collsim_comm_my_rank(MPI_COMM_WORLD->coll), 5);
    ck_assert_ptr_null(MPI_COMM_WORLD->group->world_ranks);   /* identity: no array */
}
END_TEST

START_TEST(test_comm_self_is_the_caller)
{
    become(5, 8);
    int size, rank;
    MPI_Comm_size(MPI_COMM_SELF, &size);
    MPI_Comm_rank(MPI_COMM_SELF, &rank);
    ck_assert_int_eq(size, 1);
    ck_assert_int_eq(rank, 0);
    ck_assert_int_eq(collsim_comm_world_rank(MPI_COMM_SELF, 0), 5);
    ck_assert_int_eq(collsim_comm_world_rank(MPI_COMM_SELF, 1), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_comm_local_rank(MPI_COMM_SELF, 5), 0);
    ck_assert_int_eq(collsim_comm_local_rank(MPI_COMM_SELF, 4), MPI_UNDEFINED);
    ck_assert_int_eq(collsim_comm_my_rank(MPI_COMM_SELF->coll), 0);
    /* the same shared object answers for another caller */
    fake_rank = 2;
    ck_assert_int_eq(collsim_comm_world_rank(MPI_COMM_SELF, 0), 2);

    /* MPI_Comm_group gives a real group {caller}, the same after the caller changes (looked
     * at from inside: another rank may not pass rank 5's handles) */
    fake_rank = 5;
    MPI_Group self, world;
    MPI_Comm_group(MPI_COMM_SELF, &self);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    fake_rank = 6;
    ck_assert_int_eq(collsim_group_world_rank(self, 0), 5);
    ck_assert_int_eq(collsim_group_local_rank(self, 6), MPI_UNDEFINED); /* 6 is not in {5} */
    ck_assert_int_eq(MPI_Group_rank(self, &rank), MPI_ERR_GROUP);
    fake_rank = 5;
    int zero = 0, in_world;
    MPI_Group_translate_ranks(self, 1, &zero, world, &in_world);
    ck_assert_int_eq(in_world, 5);
    MPI_Group_free(&self);
    MPI_Group_free(&world);
}
END_TEST

START_TEST(test_comm_predefined_contexts_and_twins)
{
    ck_assert_uint_eq(MPI_COMM_WORLD->context, 0);
    ck_assert_uint_eq(MPI_COMM_WORLD->coll->context, 1);
    ck_assert_uint_eq(MPI_COMM_SELF->context, 2);
    ck_assert_uint_eq(MPI_COMM_SELF->coll->context, 3);
    ck_assert(!collsim_comm_is_internal(MPI_COMM_WORLD));
    ck_assert(collsim_comm_is_internal(MPI_COMM_WORLD->coll));
    ck_assert(collsim_comm_is_internal(MPI_COMM_SELF->coll));
    ck_assert(!collsim_comm_is_internal(MPI_COMM_NULL));
    ck_assert_ptr_eq(collsim_comm_visible(MPI_COMM_WORLD->coll), MPI_COMM_WORLD);
    ck_assert_ptr_eq(collsim_comm_visible(MPI_COMM_SELF->coll), MPI_COMM_SELF);
    ck_assert_ptr_eq(collsim_comm_visible(MPI_COMM_WORLD), MPI_COMM_WORLD);
    ck_assert_ptr_eq(MPI_COMM_WORLD->coll->coll, MPI_COMM_WORLD->coll);   /* its own twin */
    ck_assert_int_eq(collsim_comm_check(MPI_COMM_WORLD), MPI_SUCCESS);
    ck_assert_int_eq(collsim_comm_check(MPI_COMM_NULL), MPI_ERR_COMM);
}
END_TEST

START_TEST(test_comm_before_setup_is_a_one_process_world)
{
    collsim_comm_world_teardown();
    int size, rank;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ck_assert_int_eq(size, 1);
    ck_assert_int_eq(rank, 0);
}
END_TEST

/* ---------------------------------------------------------------- compare */

START_TEST(test_comm_compare)
{
    int result;
    ck_assert_int_eq(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &result), MPI_SUCCESS);
    ck_assert_int_eq(result, MPI_IDENT);
    /* a world of one: world and self have the same single member */
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    MPI_Comm dup;
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_SUCCESS);
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &result);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    MPI_Comm_free(&dup);
    ck_assert_int_eq(MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_NULL, &result), MPI_ERR_COMM);

    become(5, 8);
    MPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_SELF, &result);
    ck_assert_int_eq(result, MPI_UNEQUAL);
}
END_TEST

/* Group-level SIMILAR through communicators built on the same members in other orders. */
START_TEST(test_comm_compare_similar_and_unequal_groups)
{
    become(0, 1);
    MPI_Comm a;
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &a);
    /* hand-built comms over world ranks {0,1} and {1,0} and {0,2}, compared directly */
    struct collsim_comm x = *a, y = *a, z = *a;
    x.group = collsim_group_new(2, (int[]){0, 1});
    y.group = collsim_group_new(2, (int[]){1, 0});
    z.group = collsim_group_new(2, (int[]){0, 2});
    /* handles the library did not create are not live until registered, nor this rank's
     * until it holds them */
    MPI_Comm built[] = {&x, &y, &z};
    for (int i = 0; i < 3; i++) {
        collsim_handle_add(built[i]);
        collsim_handle_hold(built[i], COLLSIM_HELD_COMM, "a test", NULL);
    }
    int result;
    MPI_Comm_compare(&x, &y, &result);
    ck_assert_int_eq(result, MPI_SIMILAR);
    MPI_Comm_compare(&x, &z, &result);
    ck_assert_int_eq(result, MPI_UNEQUAL);
    collsim_group_unref(x.group);
    collsim_group_unref(y.group);
    collsim_group_unref(z.group);
    for (int i = 0; i < 3; i++)
        collsim_handle_let_go(built[i]);
    collsim_handle_remove(&x);
    collsim_handle_remove(&y);
    collsim_handle_remove(&z);
    MPI_Comm_free(&a);
}
END_TEST

/* ---------------------------------------------------------------- one-rank constructors */

START_TEST(test_comm_contexts_are_allocated_in_pairs)
{
    MPI_Comm d1, d2, s1, s2 = MPI_COMM_WORLD, c1;
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    ck_assert_uint_eq(d1->context, 4);
    ck_assert_uint_eq(d1->coll->context, 5);
    MPI_Comm_dup(d1, &d2);
    ck_assert_uint_eq(d2->context, 6);
    ck_assert_uint_eq(d2->coll->context, 7);
    MPI_Comm_split(MPI_COMM_WORLD, 3, 0, &s1);
    ck_assert_uint_eq(s1->context, 8);
    /* MPI_UNDEFINED: no communicator, no context used */
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, 0, &s2), MPI_SUCCESS);
    ck_assert_ptr_eq(s2, MPI_COMM_NULL);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Comm_create(MPI_COMM_WORLD, world, &c1);
    ck_assert_uint_eq(c1->context, 10);
    ck_assert_uint_eq(c1->coll->context, 11);
    ck_assert(collsim_comm_is_internal(c1->coll));
    ck_assert_ptr_eq(collsim_comm_visible(c1->coll), c1);
    MPI_Group_free(&world);
    MPI_Comm_free(&d1);
    MPI_Comm_free(&d2);
    MPI_Comm_free(&s1);
    MPI_Comm_free(&c1);
    /* a new world starts the numbering again */
    collsim_comm_world_setup(1);
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    ck_assert_uint_eq(d1->context, 4);
    MPI_Comm_free(&d1);
}
END_TEST

START_TEST(test_comm_split_and_create_on_one_rank)
{
    MPI_Comm s, c = MPI_COMM_WORLD;
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_WORLD, 7, -3, &s), MPI_SUCCESS);
    int size, rank, result;
    MPI_Comm_size(s, &size);
    MPI_Comm_rank(s, &rank);
    ck_assert_int_eq(size, 1);
    ck_assert_int_eq(rank, 0);
    MPI_Comm_compare(s, MPI_COMM_WORLD, &result);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    ck_assert_int_eq(s->live_members, 1);
    MPI_Comm_free(&s);
    ck_assert_ptr_eq(s, MPI_COMM_NULL);
    /* a group the caller is not in: MPI_COMM_NULL */
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c), MPI_SUCCESS);
    ck_assert_ptr_eq(c, MPI_COMM_NULL);
}
END_TEST

/* MPI_COMM_SELF as a parent, for a caller that is not world rank 0. */
START_TEST(test_comm_constructors_on_self)
{
    become(5, 8);
    MPI_Comm s, d;
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_SELF, 0, 0, &s), MPI_SUCCESS);
    ck_assert_int_eq(collsim_comm_world_rank(s, 0), 5);
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_SELF, &d), MPI_SUCCESS);
    ck_assert_int_eq(collsim_comm_world_rank(d, 0), 5);
    ck_assert(!d->group->caller_relative);   /* a real group, not the caller-relative one */
    int result;
    MPI_Comm_compare(s, MPI_COMM_SELF, &result);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    MPI_Comm_compare(d, s, &result);
    ck_assert_int_eq(result, MPI_CONGRUENT);
    /* another caller is not a member of these */
    fake_rank = 3;
    int rank;
    ck_assert_int_eq(MPI_Comm_rank(d, &rank), MPI_ERR_COMM);
    fake_rank = 5;
    MPI_Comm_free(&s);
    MPI_Comm_free(&d);
}
END_TEST

START_TEST(test_comm_create_checks_its_group)
{
    become(5, 8);
    MPI_Group world, g;
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    /* the group's rank 0 (world 3) is not in MPI_COMM_SELF */
    MPI_Group_incl(world, 2, (int[]){3, 5}, &g);
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_SELF, g, &c), MPI_ERR_GROUP);
    MPI_Group_free(&g);
    /* {5, 3}: rank 0 is the caller, but world 3 is not in the parent */
    MPI_Group_incl(world, 2, (int[]){5, 3}, &g);
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_SELF, g, &c), MPI_ERR_GROUP);
    MPI_Group_free(&g);
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_SELF, MPI_GROUP_NULL, &c), MPI_ERR_GROUP);
    ck_assert_ptr_eq(c, MPI_COMM_WORLD);   /* untouched */
    /* {5}: fine */
    MPI_Group_incl(world, 1, (int[]){5}, &g);
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_SELF, g, &c), MPI_SUCCESS);
    ck_assert_int_eq(collsim_comm_world_rank(c, 0), 5);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
}
END_TEST

/* MPI_Comm_create_group's group must lie in the communicator: checked over a prefix of the
 * world by the group's range, over MPI_COMM_SELF member by member. */
START_TEST(test_comm_create_group_checks_its_group)
{
    become(5, 8);
    MPI_Group world, g;
    MPI_Comm c = MPI_COMM_WORLD;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 2, (int[]){5, 3}, &g);
    ck_assert_int_eq(MPI_Comm_create_group(MPI_COMM_SELF, g, 0, &c), MPI_ERR_GROUP);
    ck_assert_ptr_eq(c, MPI_COMM_WORLD); /* untouched */
    MPI_Group_free(&g);
    MPI_Group_incl(world, 1, (int[]){5}, &g);
    ck_assert_int_eq(MPI_Comm_create_group(MPI_COMM_SELF, g, 0, &c), MPI_SUCCESS);
    ck_assert_int_eq(collsim_comm_world_rank(c, 0), 5);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    /* the world of 8 takes any of its ranks; a group that is not the caller's gives NULL */
    MPI_Group_incl(world, 3, (int[]){7, 0, 2}, &g);
    ck_assert_int_eq(MPI_Comm_create_group(MPI_COMM_WORLD, g, 0, &c), MPI_SUCCESS);
    ck_assert_ptr_eq(c, MPI_COMM_NULL);
    MPI_Group_free(&g);
    MPI_Group_free(&world);
}
END_TEST

START_TEST(test_comm_constructor_argument_errors)
{
    MPI_Comm s = MPI_COMM_WORLD;
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_WORLD, -5, 0, &s), MPI_ERR_ARG);
    ck_assert_ptr_eq(s, MPI_COMM_WORLD);
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_WORLD, 0, 0, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Comm_split(MPI_COMM_NULL, 0, 0, &s), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Comm_dup(MPI_COMM_NULL, &s), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, NULL), MPI_ERR_ARG);
    ck_assert_ptr_eq(s, MPI_COMM_WORLD);
}
END_TEST

/* ---------------------------------------------------------------- free, names, misc */

START_TEST(test_comm_free)
{
    MPI_Comm world = MPI_COMM_WORLD, self = MPI_COMM_SELF, twin = MPI_COMM_WORLD->coll;
    MPI_Comm null = MPI_COMM_NULL;
    ck_assert_int_eq(MPI_Comm_free(&world), MPI_ERR_COMM);
    ck_assert_ptr_eq(world, MPI_COMM_WORLD);
    ck_assert_int_eq(MPI_Comm_free(&self), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_free(&twin), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_free(&null), MPI_ERR_COMM);
    ck_assert_int_eq(MPI_Comm_free(NULL), MPI_ERR_ARG);
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm t = d->coll;
    ck_assert_int_eq(MPI_Comm_free(&t), MPI_ERR_COMM);   /* a created comm's twin */
    ck_assert_int_eq(collsim_comm_live_count(), 1);
    ck_assert_int_eq(MPI_Comm_free(&d), MPI_SUCCESS);
    ck_assert_ptr_eq(d, MPI_COMM_NULL);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
}
END_TEST

START_TEST(test_comm_teardown_frees_what_is_left)
{
    MPI_Comm d1, d2;
    MPI_Comm_dup(MPI_COMM_WORLD, &d1);
    MPI_Comm_dup(d1, &d2);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
    ck_assert_int_eq(collsim_comm_live_count(), 2);
    /* d1 and d2 are never freed: teardown must (ASan's leak check would fail otherwise) */
    collsim_comm_world_teardown();
    ck_assert_int_eq(collsim_comm_live_count(), 0);
}
END_TEST

START_TEST(test_comm_names)
{
    char name[MPI_MAX_OBJECT_NAME];
    int len;
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    ck_assert_str_eq(name, "MPI_COMM_WORLD");
    ck_assert_int_eq(len, 14);
    MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
    ck_assert_str_eq(name, "MPI_COMM_SELF");
    MPI_Comm d;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_get_name(d, name, &len);
    ck_assert_str_eq(name, "");   /* names are not inherited */
    ck_assert_int_eq(len, 0);
    MPI_Comm_set_name(d, "library");
    MPI_Comm_get_name(d, name, &len);
    ck_assert_str_eq(name, "library");
    char long_name[100];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    MPI_Comm_set_name(d, long_name);
    MPI_Comm_get_name(d, name, &len);
    ck_assert_int_eq(len, MPI_MAX_OBJECT_NAME - 1);
    MPI_Comm_free(&d);
    MPI_Comm_set_name(MPI_COMM_WORLD, "renamed");
    collsim_comm_world_setup(1);
    MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
    ck_assert_str_eq(name, "MPI_COMM_WORLD");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);   /* setup reset it */
    ck_assert_int_eq(MPI_Comm_set_name(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
}
END_TEST

START_TEST(test_comm_test_inter_and_group)
{
    int flag = -1;
    ck_assert_int_eq(MPI_Comm_test_inter(MPI_COMM_WORLD, &flag), MPI_SUCCESS);
    ck_assert_int_eq(flag, 0);
    become(0, 6);
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    int size;
    MPI_Group_size(g, &size);
    ck_assert_int_eq(size, 6);
    MPI_Group_free(&g);
    ck_assert_int_eq(MPI_Comm_group(MPI_COMM_WORLD, NULL), MPI_ERR_ARG);
}
END_TEST

START_TEST(test_comm_new_comms_inherit_the_errhandler)
{
    /* fixture: world has MPI_ERRORS_RETURN */
    MPI_Comm d, s;
    MPI_Comm_dup(MPI_COMM_WORLD, &d);
    MPI_Comm_split(MPI_COMM_WORLD, 0, 0, &s);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(d, &eh);
    ck_assert_ptr_eq(eh, MPI_ERRORS_RETURN);
    MPI_Comm_get_errhandler(s, &eh);
    ck_assert_ptr_eq(eh, MPI_ERRORS_RETURN);
    MPI_Comm_free(&d);
    MPI_Comm_free(&s);
}
END_TEST

static Suite *
comm_suite(void)
{
    Suite *s = suite_create("comm");
    TCase *tc = tcase_create("pure");
    tcase_add_checked_fixture(tc, setup_world1, teardown_world);
    tcase_add_test(tc, test_comm_world_queries);
    tcase_add_test(tc, test_comm_self_is_the_caller);
    tcase_add_test(tc, test_comm_predefined_contexts_and_twins);
    tcase_add_test(tc, test_comm_before_setup_is_a_one_process_world);
    tcase_add_test(tc, test_comm_compare);
    tcase_add_test(tc, test_comm_compare_similar_and_unequal_groups);
    tcase_add_test(tc, test_comm_contexts_are_allocated_in_pairs);
    tcase_add_test(tc, test_comm_split_and_create_on_one_rank);
    tcase_add_test(tc, test_comm_constructors_on_self);
    tcase_add_test(tc, test_comm_create_checks_its_group);
    tcase_add_test(tc, test_comm_create_group_checks_its_group);
    tcase_add_test(tc, test_comm_constructor_argument_errors);
    tcase_add_test(tc, test_comm_free);
    tcase_add_test(tc, test_comm_teardown_frees_what_is_left);
    tcase_add_test(tc, test_comm_names);
    tcase_add_test(tc, test_comm_test_inter_and_group);
    tcase_add_test(tc, test_comm_new_comms_inherit_the_errhandler);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(comm_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
