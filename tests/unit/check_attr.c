/*
 * check_attr.c — attribute caching, MPI_Info, MPI_Comm_split_type and rank placement, on
 * simulated ranks (tests/unit/sim_harness.h). Rank functions record what they see; the
 * assertions run afterwards against layouts worked out by hand.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "mpi.h"
#include "sim_harness.h"
#include "src/comm.h"

#define MAXR 64

static struct seen {
    int rc;
    int value;            /* the attribute value this rank read back */
    int flag_unset;       /* flag of a get before any set */
    int dup_flag, dup_value, nullcopy_flag;
    int tag_ub, tag_ub_flag, self_flag;
    int set_predefined_rc, delete_missing_rc, bad_keyval_rc;
    int node_size, node_rank, node_members[MAXR];
    int undefined_is_null;
    int info_nkeys, info_flag;
    int refused_delete_rc, kept_flag, kept_value, failed_dup_rc, delete_rc, gone_flag;
    int mpi1_dup_flag, mpi1_dup_value, mpi1_null_flag;
    char info_value[MPI_MAX_INFO_VAL + 1], info_nth[MPI_MAX_INFO_KEY + 1];
} seen[MAXR];

/* Delete callbacks: which (rank, value) pairs were deleted, in order. */
static int deleted[MAXR][8], ndeleted[MAXR];
static int self_deleted[MAXR];

static int
record_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    deleted[me][ndeleted[me]++] = *(int *)value;
    return MPI_SUCCESS;
}

static int
record_self_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    self_deleted[me] = *(int *)value;
    return MPI_SUCCESS;
}

static void
reset(void)
{
    memset(seen, 0, sizeof seen);
    memset(deleted, 0, sizeof deleted);
    memset(ndeleted, 0, sizeof ndeleted);
    memset(self_deleted, 0, sizeof self_deleted);
}

/* Values live in a per-rank array: each rank caches the address of its own slot. */
static int values[MAXR][4];

static void
attr_rank(int me, void *arg)
{
    (void)arg;
    struct seen *s = &seen[me];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int key_dup, key_nocopy;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, record_delete, &key_dup, NULL);
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &key_nocopy, NULL);
    MPI_Comm comm;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    void *got = NULL;
    MPI_Comm_get_attr(comm, key_dup, &got, &s->flag_unset);

    values[me][0] = 100 + me;
    values[me][1] = 200 + me;
    values[me][2] = 300 + me;
    MPI_Comm_set_attr(comm, key_dup, &values[me][0]);
    MPI_Comm_set_attr(comm, key_dup, &values[me][1]); /* replaces: deletes 100 + me */
    MPI_Comm_set_attr(comm, key_nocopy, &values[me][2]);
    int flag;
    MPI_Comm_get_attr(comm, key_dup, &got, &flag);
    s->value = flag ? *(int *)got : -1;

    MPI_Comm copy;
    MPI_Comm_dup(comm, &copy);
    MPI_Comm_get_attr(copy, key_dup, &got, &s->dup_flag);
    s->dup_value = s->dup_flag ? *(int *)got : -1;
    MPI_Comm_get_attr(copy, key_nocopy, &got, &s->nullcopy_flag);

    int *ub;
    MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &s->tag_ub_flag);
    s->tag_ub = s->tag_ub_flag ? *ub : -1;
    MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &ub, &s->self_flag);
    s->set_predefined_rc = MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &values[me][0]);
    s->bad_keyval_rc = MPI_Comm_set_attr(comm, 12345, &values[me][0]);

    /* freeing the keyval keeps the attributes that use it alive */
    MPI_Comm_free_keyval(&key_nocopy);
    MPI_Comm_free(&copy);  /* deletes 201 + ... (the copied key_dup value) */
    MPI_Comm_delete_attr(comm, key_dup);  /* deletes 200 + me */
    s->delete_missing_rc = MPI_Comm_delete_attr(comm, key_dup);
    MPI_Comm_free(&comm);  /* deletes 300 + me through the freed keyval */

    int key_self;
    values[me][3] = 400 + me;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_self_delete, &key_self, NULL);
    MPI_Comm_set_attr(MPI_COMM_SELF, key_self, &values[me][3]);
    s->rc = MPI_SUCCESS;
}

START_TEST(test_attributes_are_per_rank_and_callbacks_run)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(4, attr_rank, NULL), 0);
    for (int r = 0; r < 4; r++) {
        const struct seen *s = &seen[r];
        ck_assert_int_eq(s->flag_unset, 0);
        ck_assert_int_eq(s->value, 200 + r);
        ck_assert_int_eq(s->dup_flag, 1);
        ck_assert_int_eq(s->dup_value, 200 + r);
        ck_assert_int_eq(s->nullcopy_flag, 0);
        ck_assert_int_eq(s->tag_ub_flag, 1);
        ck_assert_int_ge(s->tag_ub, 32767);
        ck_assert_int_eq(s->self_flag, 0);
        ck_assert_int_eq(s->set_predefined_rc, MPI_ERR_KEYVAL);
        ck_assert_int_eq(s->bad_keyval_rc, MPI_ERR_KEYVAL);
        ck_assert_int_eq(s->delete_missing_rc, MPI_ERR_KEYVAL);
        /* replaced 100, the copy's 200 (free of copy), 200 (delete_attr), 300 (free) */
        ck_assert_int_eq(ndeleted[r], 4);
        ck_assert_int_eq(deleted[r][0], 100 + r);
        ck_assert_int_eq(deleted[r][1], 200 + r);
        ck_assert_int_eq(deleted[r][2], 200 + r);
        ck_assert_int_eq(deleted[r][3], 300 + r);
        /* MPI_Finalize deletes MPI_COMM_SELF's attributes */
        ck_assert_int_eq(self_deleted[r], 400 + r);
    }
}
END_TEST

static void
info_rank(int me, void *arg)
{
    (void)arg;
    struct seen *s = &seen[me];
    MPI_Info info, copy;
    MPI_Info_create(&info);
    MPI_Info_set(info, "zeta", "1");
    MPI_Info_set(info, "alpha", "two");
    MPI_Info_set(info, "zeta", "three"); /* keeps its place */
    MPI_Info_dup(info, &copy);
    MPI_Info_free(&info);
    MPI_Info_get_nkeys(copy, &s->info_nkeys);
    MPI_Info_get_nthkey(copy, 0, s->info_nth);
    MPI_Info_get(copy, "zeta", MPI_MAX_INFO_VAL, s->info_value, &s->info_flag);
    MPI_Info_free(&copy);
}

/* MPI-1's attribute interface with its predefined callbacks (MPICH's attr tests use them). */
static void
mpi1_rank(int me, void *arg)
{
    (void)arg;
    struct seen *s = &seen[me];
    int key_dup, key_null;
    void *got;
    MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &key_dup, NULL);
    MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &key_null, NULL);
    values[me][0] = 600 + me;
    MPI_Attr_put(MPI_COMM_WORLD, key_dup, &values[me][0]);
    MPI_Attr_put(MPI_COMM_WORLD, key_null, &values[me][0]);
    MPI_Comm copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &copy);
    MPI_Attr_get(copy, key_dup, &got, &s->mpi1_dup_flag);
    s->mpi1_dup_value = s->mpi1_dup_flag ? *(int *)got : -1;
    MPI_Attr_get(copy, key_null, &got, &s->mpi1_null_flag);
    MPI_Comm_free(&copy);
    MPI_Attr_delete(MPI_COMM_WORLD, key_dup);
    MPI_Attr_delete(MPI_COMM_WORLD, key_null);
    MPI_Keyval_free(&key_dup);
    MPI_Keyval_free(&key_null);
}

START_TEST(test_mpi1_callbacks)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, mpi1_rank, NULL), 0);
    for (int r = 0; r < 2; r++) {
        ck_assert_int_eq(seen[r].mpi1_dup_flag, 1);
        ck_assert_int_eq(seen[r].mpi1_dup_value, 600 + r);
        ck_assert_int_eq(seen[r].mpi1_null_flag, 0);
    }
}
END_TEST

/* A delete callback that refuses while refuse_delete is set; a copy callback that fails. */
static int refuse_delete;

static int
refusing_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    return refuse_delete ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int
failing_copy(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)comm, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_ERR_OTHER;
}

static void
refusing_rank(int me, void *arg)
{
    (void)arg;
    struct seen *s = &seen[me];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm comm, copy;
    MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    int key;
    void *got;
    MPI_Comm_create_keyval(failing_copy, refusing_delete, &key, NULL);
    values[me][0] = 500 + me;
    MPI_Comm_set_attr(comm, key, &values[me][0]);
    refuse_delete = 1;
    s->refused_delete_rc = MPI_Comm_delete_attr(comm, key);
    MPI_Comm_get_attr(comm, key, &got, &s->kept_flag);
    s->kept_value = s->kept_flag ? *(int *)got : -1;
    s->failed_dup_rc = MPI_Comm_dup(comm, &copy);
    refuse_delete = 0;
    s->delete_rc = MPI_Comm_delete_attr(comm, key);
    MPI_Comm_get_attr(comm, key, &got, &s->gone_flag);
    MPI_Comm_free_keyval(&key);
    MPI_Comm_free(&comm);
}

/* A delete callback that fails makes MPI_Comm_delete_attr fail and leaves the attribute (as
 * a failed replacement does), so a later MPI_Comm_dup still runs its copy callback, whose
 * failure MPI_Comm_dup returns (MPICH's attrerr). */
START_TEST(test_failed_callbacks_change_nothing)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, refusing_rank, NULL), 0);
    for (int r = 0; r < 2; r++) {
        const struct seen *s = &seen[r];
        ck_assert_int_eq(s->refused_delete_rc, MPI_ERR_OTHER);
        ck_assert_int_eq(s->kept_flag, 1);
        ck_assert_int_eq(s->kept_value, 500 + r);
        ck_assert_int_eq(s->failed_dup_rc, MPI_ERR_OTHER);
        ck_assert_int_eq(s->delete_rc, MPI_SUCCESS);
        ck_assert_int_eq(s->gone_flag, 0);
    }
}
END_TEST

START_TEST(test_info_keeps_setting_order)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(2, info_rank, NULL), 0);
    ck_assert_int_eq(seen[1].info_nkeys, 2);
    ck_assert_str_eq(seen[1].info_nth, "zeta");
    ck_assert_int_eq(seen[1].info_flag, 1);
    ck_assert_str_eq(seen[1].info_value, "three");
}
END_TEST

/* ---------------------------------------------------------------- split_type, placement */

struct split_arg {
    int reverse_keys;
};

static void
split_rank(int me, void *arg)
{
    const struct split_arg *a = arg;
    struct seen *s = &seen[me];
    MPI_Comm node, none;
    s->rc = MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED,
                                a->reverse_keys ? -me : 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &s->node_size);
    MPI_Comm_rank(node, &s->node_rank);
    MPI_Allgather(&me, 1, MPI_INT, s->node_members, 1, MPI_INT, node);
    MPI_Comm_free(&node);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_UNDEFINED, 0, MPI_INFO_NULL, &none);
    s->undefined_is_null = none == MPI_COMM_NULL;
}

static void
run_split(const char *platform, const char *placement, int nranks, int reverse)
{
    reset();
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = nranks;
    config.platform_file = platform;
    GError *error = NULL;
    ck_assert_msg(sim_placement_parse(placement, &config, &error), "%s",
                  error ? error->message : "");
    struct split_arg arg = {reverse};
    struct sim_outcome outcome;
    ck_assert_int_eq(collsim_test_run_config(&config, split_rank, &arg, &outcome), 0);
}

/* The members of each rank's node, as "a,b|c,d|..." by world rank. */
static void
assert_nodes(int nranks, const char *const *expected)
{
    for (int r = 0; r < nranks; r++) {
        char got[256] = "";
        for (int i = 0; i < seen[r].node_size; i++) {
            char one[16];
            snprintf(one, sizeof one, i ? ",%d" : "%d", seen[r].node_members[i]);
            strcat(got, one);
        }
        ck_assert_int_eq(seen[r].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[r].undefined_is_null, 1);
        ck_assert_msg(strcmp(got, expected[r]) == 0, "rank %d: node {%s}, expected {%s}", r,
                      got, expected[r]);
    }
}

START_TEST(test_split_type_block)
{
    run_split("flat:hosts=3,cores=2", "block", 6, 0);
    const char *want[] = {"0,1", "0,1", "2,3", "2,3", "4,5", "4,5"};
    assert_nodes(6, want);
    ck_assert_int_eq(seen[3].node_rank, 1);
}
END_TEST

START_TEST(test_split_type_cyclic_reversed_keys)
{
    run_split("flat:hosts=3,cores=2", "cyclic", 6, 1);
    /* cyclic: host 0 gets ranks 0 and 3; keys -rank order them 3 first */
    const char *want[] = {"3,0", "4,1", "5,2", "3,0", "4,1", "5,2"};
    assert_nodes(6, want);
    ck_assert_int_eq(seen[3].node_rank, 0);
}
END_TEST

START_TEST(test_split_type_random_fills_cores_at_most)
{
    /* 6 ranks on 4 hosts x 2 cores: a shuffle of the 8 cores (the same seed giving the same
     * placement is checked end to end in tests/exec/test_platforms.sh) */
    run_split("flat:hosts=4,cores=2", "random:7", 6, 0);
    int total = 0;
    for (int r = 0; r < 6; r++) {
        ck_assert_int_le(seen[r].node_size, 2);
        ck_assert_int_ge(seen[r].node_size, 1);
        int found = 0;
        for (int i = 0; i < seen[r].node_size; i++)
            found |= seen[r].node_members[i] == r;
        ck_assert(found);
        total += 1;
    }
    ck_assert_int_eq(total, 6);
}
END_TEST

START_TEST(test_split_type_hostfile)
{
    char path[] = "/tmp/collsim-hostfile-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *text = "# two on the last host, then one each\nnode-2:2\n\nnode-0 slots=1\nnode-1\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    char spec[64];
    snprintf(spec, sizeof spec, "hostfile:%s", path);
    run_split("flat:hosts=3,cores=2", spec, 4, 0);
    unlink(path);
    const char *want[] = {"0,1", "0,1", "2", "3"};
    assert_nodes(4, want);
}
END_TEST

START_TEST(test_placement_parse_rejects)
{
    struct sim_config config;
    sim_config_defaults(&config);
    const char *bad[] = {"random", "random:", "random:-1", "random:x", "hostfile:", "spread", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        GError *error = NULL;
        ck_assert_msg(!sim_placement_parse(bad[i], &config, &error), "accepted '%s'", bad[i]);
        ck_assert_ptr_nonnull(strstr(error->message, "random:SEED"));
        g_error_free(error);
    }
}
END_TEST

static Suite *
attr_suite(void)
{
    Suite *s = suite_create("attr");
    TCase *tc = tcase_create("attr");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_attributes_are_per_rank_and_callbacks_run);
    tcase_add_test(tc, test_info_keeps_setting_order);
    tcase_add_test(tc, test_failed_callbacks_change_nothing);
    tcase_add_test(tc, test_mpi1_callbacks);
    tcase_add_test(tc, test_split_type_block);
    tcase_add_test(tc, test_split_type_cyclic_reversed_keys);
    tcase_add_test(tc, test_split_type_random_fills_cores_at_most);
    tcase_add_test(tc, test_split_type_hostfile);
    tcase_add_test(tc, test_placement_parse_rejects);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(attr_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
