/*
 * check_decision.c — the reader of the libraries' decision files (src/coll_decision.c):
 * every malformed file is refused with its own FILE:LINE message, a good one answers rule by
 * rule, and the catalogue lookups go both ways. The files are written to a temporary
 * directory; only collsim algorithms that exist in every build are named (the shipped
 * libraries' files are checked against the registry by tests/scenarios/test_decide_registry.sh).
 */
#include <check.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "src/coll_decision.h"

#define HEADER "library = Test MPI\nversion = 1.0\n"

static gchar *dir;

static gchar *
write_rules(const char *text)
{
    gchar *path = g_build_filename(dir, "test.rules", NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

/* Load `text` and expect the error "PATH:LINE: ...contains...". */
static void
expect_error(const char *text, int line, const char *contains, unsigned flags)
{
    gchar *path = write_rules(text);
    GError *error = NULL;
    struct coll_decision *d = coll_decision_load(path, flags, &error);
    ck_assert_msg(d == NULL, "accepted: %s", text);
    ck_assert(error != NULL);
    gchar *prefix = g_strdup_printf("%s:%d: ", path, line);
    ck_assert_msg(g_str_has_prefix(error->message, prefix), "'%s' does not start with '%s'",
                  error->message, prefix);
    ck_assert_msg(strstr(error->message, contains) != NULL, "'%s' does not say '%s'",
                  error->message, contains);
    g_error_free(error);
    g_free(prefix);
    g_free(path);
}

static struct coll_decision *
load_ok(const char *text, unsigned flags)
{
    gchar *path = write_rules(text);
    GError *error = NULL;
    struct coll_decision *d = coll_decision_load(path, flags, &error);
    ck_assert_msg(d != NULL, "refused: %s", error != NULL ? error->message : "?");
    g_free(path);
    return d;
}

static void
setup(void)
{
    dir = g_dir_make_tmp("check_decision_XXXXXX", NULL);
    ck_assert(dir != NULL);
}

static void
teardown(void)
{
    gchar *path = g_build_filename(dir, "test.rules", NULL);
    g_unlink(path);
    g_free(path);
    g_rmdir(dir);
    g_free(dir);
}

START_TEST(test_decision_refuses_malformed_lines)
{
    static const char *section = "[allreduce]\nalgorithm 3 recursive_doubling = "
                                 "recursive_doubling\n";
    struct {
        const char *text;
        int line;
        const char *contains;
    } cases[] = {
        {"library = X\nbogus line\n", 2, "unknown line 'bogus line'"},
        {"library = X\ncolour = red\n", 2, "unknown key 'colour'"},
        {"library = X\nlibrary = Y\n", 2, "'library' given twice"},
        {"[allreduce]\n", 1, "must come before the first section"},
        {HEADER "[frobnicate]\n", 3, "unknown collective 'frobnicate'"},
        {HEADER "[allreduce\n", 3, "a section header is '[COLLECTIVE]'"},
        {HEADER "[allreduce]\nalgorithm 3 recursive_doubling recursive_doubling\n", 4,
         "an algorithm line is"},
        {HEADER "[allreduce]\nalgorithm 3 rd = no_such_algorithm\nrule => rd\n", 4,
         "unknown collsim algorithm 'no_such_algorithm'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling colour=red\n", 4,
         "unknown parameter 'colour=red'"},
        {HEADER "[allreduce]\nalgorithm 5 sr = ring_segmented segment_bytes=12k\n", 4,
         "bad number in 'segment_bytes=12k'"},
        {HEADER "[allreduce]\nalgorithm 5 sr = ring_segmented segment_bytes=0\n", 4,
         "segment_bytes must be positive"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling radix=4\n", 4,
         "allreduce recursive_doubling takes no radix"},
        {HEADER "[bcast]\nalgorithm 7 knomial = knomial radix=1\n", 4,
         "radix must be at least 2"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\n"
                "algorithm 3 ring = ring\n", 5, "duplicate algorithm id '3' (line 4)"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\n"
                "algorithm 4 rd = ring\n", 5, "duplicate algorithm name 'rd' (line 4)"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule => rd\n"
                "[allreduce]\n", 6, "duplicate section [allreduce] (first at line 3)"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < 4 rd\n", 5,
         "a rule is 'rule [CONDITIONS] => ALGORITHM"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < 4 => ring\n"
                "rule => rd\n", 5, "'ring' is not in the allreduce catalogue"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule colour < 4 => rd\n", 5,
         "unknown condition 'colour < 4'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks ~ 4 => rd\n", 5,
         "unknown comparison '~'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < -4 => rd\n", 5,
         "bad number '-4'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule bytes < 1e3 => rd\n", 5,
         "bad number '1e3'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks <= => rd\n", 5,
         "is not 'ranks OP N'"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < 4,, pof2 => rd\n",
         5, "empty condition"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < 4 =>\n", 5,
         "rule without an algorithm"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\n"
                "rule commutative, noncommutative => rd\n", 5, "both commutative and"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule => rd\n"
                "rule ranks < 4 => rd\n", 6, "after the unconditional rule of line 5"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule ranks < 4 => rd\n", 5,
         "the last rule of [allreduce] has conditions"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule pof2 => rd\n"
                "[bcast]\n", 5, "the last rule of [allreduce] has conditions"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\n", 3,
         "section [allreduce] has no rule"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nrule => rd\n"
                "algorithm 4 ring = ring\n", 6, "after the section's first rule"},
        {HEADER "[allreduce]\nalgorithm 3 rd = recursive_doubling\nchoose rd\n", 5,
         "unknown word 'choose'"},
        {"# only a comment\n", 1, "no 'library = NAME'"},
        {HEADER, 2, "no section"},
    };
    (void)section;
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++)
        expect_error(cases[i].text, cases[i].line, cases[i].contains, COLL_DECISION_STRICT);
}
END_TEST

START_TEST(test_decision_unknown_algorithm_is_lenient_unless_strict)
{
    const char *text = HEADER "[allreduce]\n"
                              "algorithm 3 rd = recursive_doubling\n"
                              "algorithm 9 future = an_algorithm_of_tomorrow\n"
                              "rule ranks < 4 => future\n"
                              "rule => rd\n";
    expect_error(text, 5, "unknown collsim algorithm 'an_algorithm_of_tomorrow'",
                 COLL_DECISION_STRICT);
    struct coll_decision *d = load_ok(text, 0);
    ck_assert_uint_eq(d->unresolved->len, 1);
    ck_assert(strstr(g_ptr_array_index(d->unresolved, 0), ":5: allreduce future") != NULL);
    struct coll_call call = {COLL_ALLREDUCE, 2, 8, 1, 1, 1, 1, 0};
    struct coll_decision_choice choice;
    ck_assert(coll_decision_choose(d, &call, &choice));
    ck_assert_str_eq(choice.entry->short_name, "future");
    ck_assert(choice.row == NULL);
    coll_decision_free(d);
}
END_TEST

START_TEST(test_decision_first_matching_rule_wins)
{
    struct coll_decision *d = load_ok(
        HEADER "# a comment\n"
               "[allreduce]   # trailing comment\n"
               "algorithm 3 recursive_doubling = recursive_doubling\n"
               "algorithm 4 ring = ring\n"
               "algorithm 5 segmented_ring = ring_segmented segment_bytes=4096\n"
               "algorithm 6 rabenseifner = rabenseifner\n"
               "rule noncommutative => recursive_doubling\n"
               "rule ranks <= 4, bytes < 8192 => 3\n"
               "rule pof2, total_bytes >= 1048576 => segmented_ring segment_bytes=131072\n"
               "rule not_pof2, count_below_pof2 => recursive_doubling\n"
               "rule count_below_ranks => recursive_doubling\n"
               "rule bytes == 65536 => segmented_ring\n"
               "rule ranks > 100, block_bytes > 1000 => rabenseifner\n"
               "rule => ring\n",
        COLL_DECISION_STRICT);
    ck_assert_str_eq(d->library, "Test MPI");
    ck_assert_str_eq(d->version, "1.0");
    ck_assert_str_eq(d->name, "test");
    ck_assert(d->sections[COLL_BCAST] == NULL);
    struct {
        int ranks;
        size_t bytes;
        int count;
        int commutative;
        const char *expect;
        int line;
        int segment_bytes;
    } cases[] = {
        {4, 8, 1, 0, "recursive_doubling", 9, 0},
        {4, 8191, 1000, 1, "recursive_doubling", 10, 0},  /* by id */
        {4, 8192, 1024, 1, "ring", 16, 0},                 /* the boundary is exclusive */
        {5, 8, 1, 1, "recursive_doubling", 12, 0},         /* count 1 < pof2 4, 5 not pof2 */
        {8, 131072, 16384, 1, "segmented_ring", 11, 131072}, /* 8 x 128 KiB = 1 MiB */
        {8, 131071, 16383, 1, "ring", 16, 0},
        {6, 32, 4, 1, "recursive_doubling", 13, 0},        /* count 4 < 6 ranks, not < 4 */
        {6, 65536, 8192, 1, "segmented_ring", 14, 4096},   /* the entry's parameter */
        {200, 200 * 1001, 200 * 1001 / 8, 1, "rabenseifner", 15, 0},
        {200, 200 * 1000, 200 * 1000 / 8, 1, "ring", 16, 0},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        struct coll_call call = {COLL_ALLREDUCE, cases[i].ranks, cases[i].bytes, cases[i].count,
                                 cases[i].commutative, 1, 1, 0};
        struct coll_decision_choice choice;
        ck_assert(coll_decision_choose(d, &call, &choice));
        ck_assert_msg(strcmp(choice.entry->short_name, cases[i].expect) == 0,
                      "case %zu: %s, expected %s", i, choice.entry->short_name, cases[i].expect);
        ck_assert_int_eq(choice.rule->line, cases[i].line);
        ck_assert(choice.row != NULL);
        if (cases[i].segment_bytes != 0)
            ck_assert_int_eq(choice.params.segment_bytes, cases[i].segment_bytes);
    }
    struct coll_call bcast = {COLL_BCAST, 4, 8, 1, 1, 1, 1, 0};
    struct coll_decision_choice choice;
    ck_assert(!coll_decision_choose(d, &bcast, &choice));
    gchar *text = coll_decision_rule_conditions(
        g_ptr_array_index(d->sections[COLL_ALLREDUCE]->rules, 2));
    ck_assert_str_eq(text, "pof2, total_bytes >= 1048576");
    g_free(text);
    text = coll_decision_rule_conditions(
        g_ptr_array_index(d->sections[COLL_ALLREDUCE]->rules, 7));
    ck_assert_str_eq(text, "otherwise");
    g_free(text);
    coll_decision_free(d);
}
END_TEST

START_TEST(test_decision_catalogue_lookups)
{
    struct coll_decision *d = load_ok(
        HEADER "[bcast]\n"
               "algorithm 3 pipeline = pipeline_chain segment_bytes=1073741824\n"
               "algorithm 2 chain = pipeline_chain segment_bytes=65536\n"
               "algorithm 6 binomial = binomial\n"
               "algorithm 7 knomial = knomial radix=4\n"
               "rule => binomial\n"
               "[allreduce]\n"
               "algorithm MPIR_Allreduce_intra_recursive_doubling recursive_doubling = "
               "recursive_doubling\n"
               "rule => recursive_doubling\n",
        COLL_DECISION_STRICT);
    ck_assert_str_eq(coll_decision_library_id(d, COLL_BCAST, "binomial", NULL), "6");
    ck_assert_str_eq(coll_decision_library_id(d, COLL_BCAST, "pipeline_chain", NULL), "3");
    struct coll_params seg = {65536, 0};
    ck_assert_str_eq(coll_decision_library_id(d, COLL_BCAST, "pipeline_chain", &seg), "2");
    struct coll_params other = {512, 0};
    ck_assert_str_eq(coll_decision_library_id(d, COLL_BCAST, "pipeline_chain", &other), "3");
    ck_assert(coll_decision_library_id(d, COLL_BCAST, "linear", NULL) == NULL);
    ck_assert(coll_decision_library_id(d, COLL_REDUCE, "binomial", NULL) == NULL);
    ck_assert_str_eq(coll_decision_library_id(d, COLL_ALLREDUCE, "recursive_doubling", NULL),
                     "MPIR_Allreduce_intra_recursive_doubling");
    ck_assert_str_eq(coll_decision_collsim_name(d, COLL_BCAST, "7"), "knomial");
    ck_assert(coll_decision_collsim_name(d, COLL_BCAST, "knomial") == NULL); /* ids only */
    ck_assert(coll_decision_collsim_name(d, COLL_GATHER, "1") == NULL);
    const struct coll_decision_entry *e = coll_decision_entry_find(d, COLL_BCAST, "knomial");
    ck_assert(e != NULL);
    ck_assert_str_eq(e->id, "7");
    ck_assert_int_eq(e->params.radix, 4);
    ck_assert_int_eq(e->line, 7);
    ck_assert(coll_decision_entry_find(d, COLL_BCAST, "7") == e);
    coll_decision_free(d);
}
END_TEST

START_TEST(test_decision_finds_libraries)
{
    GError *error = NULL;
    ck_assert(coll_decision_find("no_such_library", &error) == NULL);
    ck_assert(strstr(error->message, "unknown library 'no_such_library'") != NULL);
    g_clear_error(&error);
    gchar *path = coll_decision_find("ompi", &error);
    ck_assert_msg(path != NULL, "%s", error != NULL ? error->message : "");
    ck_assert(g_str_has_suffix(path, "/ompi.rules"));
    g_free(path);
    /* an explicit path is taken as given */
    path = coll_decision_find("some/where/x.rules", &error);
    ck_assert_str_eq(path, "some/where/x.rules");
    g_free(path);
    ck_assert(coll_decision_open("/nonexistent/x.rules", 0, &error) == NULL);
    ck_assert(error != NULL && error->code == COLL_DECISION_ERROR_READ);
    g_clear_error(&error);
    gchar **libraries = coll_decision_libraries();
    ck_assert(g_strv_contains((const char *const *)libraries, "ompi"));
    ck_assert(g_strv_contains((const char *const *)libraries, "mpich"));
    g_strfreev(libraries);
    /* the shipped files read (leniently: other branches add the algorithms they name) */
    for (const char *const *lib = (const char *const[]){"ompi", "mpich", NULL}; *lib; lib++) {
        struct coll_decision *d = coll_decision_open(*lib, 0, &error);
        ck_assert_msg(d != NULL, "%s", error != NULL ? error->message : "");
        for (int k = 0; k < COLL_KIND_COUNT; k++)
            ck_assert_msg(d->sections[k] != NULL, "%s has no [%s]", *lib,
                          coll_kind_name((enum coll_kind)k));
        coll_decision_free(d);
    }
}
END_TEST

static Suite *
decision_suite(void)
{
    Suite *s = suite_create("decision");
    TCase *tc = tcase_create("core");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_decision_refuses_malformed_lines);
    tcase_add_test(tc, test_decision_unknown_algorithm_is_lenient_unless_strict);
    tcase_add_test(tc, test_decision_first_matching_rule_wins);
    tcase_add_test(tc, test_decision_catalogue_lookups);
    tcase_add_test(tc, test_decision_finds_libraries);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(decision_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
