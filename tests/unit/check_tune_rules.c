/*
 * check_tune_rules.c — the tuning files of `collsim tune` (sim/tune/): collsim's readers of the
 * Open MPI coll_tuned dynamic rules format and of MPICH's selection JSON on hand-written files
 * shaped like the libraries' documentation examples, malformed files refused with one error
 * naming the line and column (or the JSON path), the sizes each library compares, and the
 * writers read back: at every point of a synthetic sweep each file selects the fastest of the
 * library's algorithms (through a test-only mapping, tests/tune/tune_test_mapping.h).
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sim/tune/tune_rules.h"
#include "tests/tune/tune_test_mapping.h"

/* ---------------------------------------------------------------- Open MPI reader */

/* The classic-format example of docs/tuning-apps/coll-tuned.rst (Alltoall, one comm size). */
static const char ompi_doc_example[] = "rule-file-version-2\n"
                                       "1   # num of collectives\n"
                                       "3   # collective ID\n"
                                       "1   # number of comm sizes\n"
                                       "#=====================\n"
                                       "64   # comm size\n"
                                       "14   # number of rules\n"
                                       "# Bytes   alg topo segs reqs\n"
                                       "#----------------------\n"
                                       "0            0 0 0 0\n"
                                       "512000       4 0 0 64\n"
                                       "1536000      4 0 0 64\n"
                                       "3072000      4 0 0 64\n"
                                       "6144000      4 0 0 64\n"
                                       "12288000     4 0 0 16\n"
                                       "24576000     4 0 0 16\n"
                                       "49152000     4 0 0 16\n"
                                       "98304000     4 0 0 16\n"
                                       "196608000    4 0 0 8\n"
                                       "393216000    4 0 0 8\n"
                                       "786432000    4 0 0 1\n"
                                       "1572864000   4 0 0 1\n"
                                       "2621440000   0 0 0 0\n";

START_TEST(test_tune_ompi_reads_the_documentation_example)
{
    GError *error = NULL;
    struct tune_ompi_rules *rules = tune_ompi_parse(ompi_doc_example, "doc.rules", &error);
    ck_assert_msg(rules != NULL, "%s", error != NULL ? error->message : "");
    struct tune_ompi_choice c;
    ck_assert(tune_ompi_lookup(rules, 3, 64, 0, &c));
    ck_assert_int_eq(c.algorithm, 0);
    ck_assert(tune_ompi_lookup(rules, 3, 64, 511999, &c));
    ck_assert_int_eq(c.algorithm, 0);
    ck_assert(tune_ompi_lookup(rules, 3, 64, 512000, &c));
    ck_assert_int_eq(c.algorithm, 4);
    ck_assert_int_eq(c.max_requests, 64);
    ck_assert(tune_ompi_lookup(rules, 3, 128, 20000000, &c));
    ck_assert_int_eq(c.algorithm, 4);
    ck_assert_int_eq(c.max_requests, 16);
    ck_assert(tune_ompi_lookup(rules, 3, 64, 2621440000u, &c));
    ck_assert_int_eq(c.algorithm, 0);
    /* below the only comm size: Open MPI takes the first set */
    ck_assert(tune_ompi_lookup(rules, 3, 8, 600000, &c));
    ck_assert_int_eq(c.algorithm, 4);
    /* no rules for allreduce (2): the fixed decision */
    ck_assert(!tune_ompi_lookup(rules, 2, 64, 8, &c));
    tune_ompi_rules_free(rules);
}
END_TEST

START_TEST(test_tune_ompi_takes_the_last_comm_size_at_or_below)
{
    static const char text[] = "1\n"
                               "2 # allreduce\n"
                               "2\n"
                               "4 2\n"
                               "0 3 0 0\n"
                               "1024 4 0 0\n"
                               "16 1\n"
                               "0 6 0 0\n";
    GError *error = NULL;
    struct tune_ompi_rules *rules = tune_ompi_parse(text, "t.rules", &error);
    ck_assert_msg(rules != NULL, "%s", error != NULL ? error->message : "");
    struct tune_ompi_choice c;
    ck_assert(tune_ompi_lookup(rules, 2, 15, 1023, &c));
    ck_assert_int_eq(c.algorithm, 3);
    ck_assert(tune_ompi_lookup(rules, 2, 15, 1024, &c));
    ck_assert_int_eq(c.algorithm, 4);
    ck_assert_int_eq(c.max_requests, -1);
    ck_assert(tune_ompi_lookup(rules, 2, 16, 1024, &c));
    ck_assert_int_eq(c.algorithm, 6);
    ck_assert(tune_ompi_lookup(rules, 2, 3, 1, &c));
    ck_assert_int_eq(c.algorithm, 3);
    tune_ompi_rules_free(rules);
}
END_TEST

START_TEST(test_tune_ompi_refuses_malformed_files_with_line_and_column)
{
    static const struct {
        const char *text;
        const char *where; /* must appear in the message */
        const char *what;
    } bad[] = {
        {"1\n3\n1\n64\n2\n0 1 0 0\n1024 x 0 0\n", "bad.rules:7:6:", "'x'"},
        {"1\n3\n1\n64\n1\n5 1 0 0\n", "bad.rules:6:1:", "size 0"},
        {"1\n3\n1\n64\n2\n0 1 0 0\n", "bad.rules:7:1:", "ends where a message size"},
        {"0\n5\n", "bad.rules:2:1:", "text after"},
        {"1\n17 1\n", "bad.rules:2:1:", "not a blocking collective"},
        {"1\n2 2\n8 1\n0 1 0 0\n4 1\n0 1 0 0\n", "bad.rules:5:1:", "ascend"},
        {"1\n2 1\n8 2\n0 1 0 0\n0 2 0 0\n", "bad.rules:5:1:", "ascend"},
        {"1\n2 1\n8 1\n0 -1 0 0\n", "bad.rules:4:3:", "'-1'"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *error = NULL;
        struct tune_ompi_rules *rules = tune_ompi_parse(bad[i].text, "bad.rules", &error);
        ck_assert_msg(rules == NULL, "case %zu accepted", i);
        ck_assert_msg(strstr(error->message, bad[i].where) != NULL &&
                          strstr(error->message, bad[i].what) != NULL,
                      "case %zu: %s", i, error->message);
        g_error_free(error);
    }
}
END_TEST

/* ---------------------------------------------------------------- MPICH reader */

/* Shaped like the bcast part of MPICH's maint/tuning/coll/mpir/generic.json. */
static const char mpich_example[] =
    "{\n"
    "  \"collective=bcast\": {\n"
    "    \"comm_type=intra\": {\n"
    "      \"comm_size<8\": {\n"
    "        \"comm_hierarchy=parent\": {\n"
    "          \"avg_msg_size=any\": { \"algorithm=MPIR_Bcast_intra_smp\": {} }\n"
    "        },\n"
    "        \"comm_hierarchy=any\": {\n"
    "          \"avg_msg_size=any\": { \"algorithm=MPIR_Bcast_intra_binomial\": {} }\n"
    "        }\n"
    "      },\n"
    "      \"comm_size=pow2\": {\n"
    "        \"avg_msg_size<=12288\": { \"algorithm=MPIR_Bcast_intra_binomial\": {} },\n"
    "        \"avg_msg_size<=524288\": {\n"
    "          \"algorithm=MPIR_Bcast_intra_scatter_recursive_doubling_allgather\": {}\n"
    "        },\n"
    "        \"avg_msg_size=any\": { \"algorithm=MPIR_Bcast_intra_scatter_ring_allgather\": {} }\n"
    "      },\n"
    "      \"comm_size=any\": {\n"
    "        \"avg_msg_size<=12288\": { \"algorithm=MPIR_Bcast_intra_binomial\": {} },\n"
    "        \"avg_msg_size=any\": { \"algorithm=MPIR_Bcast_intra_scatter_ring_allgather\": {} }\n"
    "      }\n"
    "    }\n"
    "  },\n"
    "  \"collective=allreduce\": {\n"
    "    \"is_commutative=no\": { \"algorithm=MPIR_Allreduce_intra_recursive_doubling\": {} },\n"
    "    \"total_msg_size<=65536\": { \"algorithm=MPIR_Allreduce_intra_recursive_doubling\": {} "
    "},\n"
    "    \"any\": { \"algorithm=MPIR_Allreduce_intra_tree\": { \"k=4\": {} } }\n"
    "  }\n"
    "}\n";

static const char *
mpich_pick(const struct tune_mpich_rules *rules, enum coll_kind kind, int p, guint64 bytes,
           gboolean commutative)
{
    struct tune_mpich_call call = {
        .kind = kind, .comm_size = p, .bytes = bytes, .type_size = 8, .commutative = commutative};
    return tune_mpich_lookup(rules, &call);
}

START_TEST(test_tune_mpich_reads_a_generic_json_shaped_file)
{
    GError *error = NULL;
    struct tune_mpich_rules *rules = tune_mpich_parse(mpich_example, "x.json", &error);
    ck_assert_msg(rules != NULL, "%s", error != NULL ? error->message : "");
    ck_assert_str_eq(mpich_pick(rules, COLL_BCAST, 4, 1 << 20, TRUE), "MPIR_Bcast_intra_binomial");
    ck_assert_str_eq(mpich_pick(rules, COLL_BCAST, 16, 12288, TRUE), "MPIR_Bcast_intra_binomial");
    ck_assert_str_eq(mpich_pick(rules, COLL_BCAST, 16, 12289, TRUE),
                     "MPIR_Bcast_intra_scatter_recursive_doubling_allgather");
    ck_assert_str_eq(mpich_pick(rules, COLL_BCAST, 16, 1 << 20, TRUE),
                     "MPIR_Bcast_intra_scatter_ring_allgather");
    ck_assert_str_eq(mpich_pick(rules, COLL_BCAST, 24, 100000, TRUE),
                     "MPIR_Bcast_intra_scatter_ring_allgather");
    ck_assert_str_eq(mpich_pick(rules, COLL_ALLREDUCE, 8, 8192, FALSE),
                     "MPIR_Allreduce_intra_recursive_doubling");
    /* total_msg_size of an allreduce: bytes x P */
    ck_assert_str_eq(mpich_pick(rules, COLL_ALLREDUCE, 8, 8192, TRUE),
                     "MPIR_Allreduce_intra_recursive_doubling");
    ck_assert_str_eq(mpich_pick(rules, COLL_ALLREDUCE, 8, 8193, TRUE), "MPIR_Allreduce_intra_tree");
    /* no key for reduce: nothing matches (MPICH would assert) */
    ck_assert(mpich_pick(rules, COLL_REDUCE, 8, 8, TRUE) == NULL);
    tune_mpich_rules_free(rules);
}
END_TEST

START_TEST(test_tune_mpich_refuses_malformed_files_saying_where)
{
    static const struct {
        const char *text;
        const char *where;
    } bad[] = {
        {"{\n  \"collective=bcast\": {\n    \"any\": \n}\n", "bad.json:4:"},
        {"{\"collective=bcast\": {\"comm_sise<=8\": {\"algorithm=A\": {}}}}",
         "at \"collective=bcast\" > \"comm_sise<=8\": unknown key"},
        {"{\"collective=bcast\": {\"comm_size<=x\": {\"algorithm=A\": {}}}}",
         "\"comm_size<=x\": unknown key"},
        {"{\"collective=bcst\": {\"algorithm=A\": {}}}", "\"collective=bcst\": unknown key"},
        {"{\"collective=bcast\": 3}", "\"collective=bcast\": a value that is not an object"},
        {"{\"collective=bcast\": {\"algorithm=A\": 1}}", "parameters must be an object"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        GError *error = NULL;
        struct tune_mpich_rules *rules = tune_mpich_parse(bad[i].text, "bad.json", &error);
        ck_assert_msg(rules == NULL, "case %zu accepted", i);
        ck_assert_msg(strstr(error->message, bad[i].where) != NULL, "case %zu: %s", i,
                      error->message);
        ck_assert_msg(g_str_has_prefix(error->message, "bad.json"), "case %zu: %s", i,
                      error->message);
        g_error_free(error);
    }
}
END_TEST

/* ---------------------------------------------------------------- sizes */

START_TEST(test_tune_sizes_are_what_each_library_compares)
{
    /* Open MPI: coll_tuned_decision_dynamic.c */
    ck_assert_uint_eq(tune_ompi_message_size(COLL_ALLREDUCE, 8, 1024, 8), 1024);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_ALLGATHER, 8, 1024, 1), 8192);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_ALLTOALL, 4, 100, 1), 400);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_SCATTER, 4, 100, 1), 400);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_SCAN, 8, 1 << 20, 8), 64);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_BARRIER, 8, 0, 1), 0);
    ck_assert_uint_eq(tune_ompi_message_size(COLL_ALLGATHERV, 8, 64, 1), 64);
    ck_assert_int_eq(tune_ompi_collective_id(COLL_GATHERV), -1);
    ck_assert_int_eq(tune_ompi_collective_id(COLL_BCAST), 7);
    /* MPICH: csel.c */
    ck_assert_str_eq(tune_mpich_size_key(COLL_ALLREDUCE), "avg_msg_size");
    ck_assert_str_eq(tune_mpich_size_key(COLL_ALLGATHER), "total_msg_size");
    ck_assert(tune_mpich_size_key(COLL_SCAN) == NULL);
    ck_assert_uint_eq(tune_mpich_message_size(COLL_ALLTOALL, 8, 64, 1), 64);
    ck_assert_uint_eq(tune_mpich_message_size(COLL_ALLGATHER, 8, 64, 1), 512);
    /* gather: a count of elements x P, csel.c drops the type size */
    ck_assert_uint_eq(tune_mpich_message_size(COLL_GATHER, 8, 1024, 8), 1024);
    ck_assert_uint_eq(tune_mpich_message_size(COLL_REDUCE_SCATTER_BLOCK, 8, 1024, 8), 1024);
}
END_TEST

/* ---------------------------------------------------------------- writers, read back */

/* A made-up sweep: every registry algorithm of a few collectives, times that give different
 * winners at different points, ties included. */
static struct tune_table *
synthetic_table(void)
{
    static const enum coll_kind kinds[] = {COLL_BARRIER,   COLL_BCAST,     COLL_GATHER,
                                           COLL_ALLGATHER, COLL_ALLREDUCE, COLL_SCAN};
    static const int ranks[] = {4, 8, 16, 64};
    static const guint64 sizes[] = {8, 1024, 65536, 1 << 20};
    struct tune_table *table = tune_table_new();
    size_t n;
    const struct coll_algorithm *rows = coll_registry_rows(&n);
    for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++) {
        guint type_size = coll_kind_reduces((int)kinds[k]) ? 8 : 1;
        for (gsize r = 0; r < G_N_ELEMENTS(ranks); r++) {
            for (gsize s = 0; s < G_N_ELEMENTS(sizes); s++) {
                if (kinds[k] == COLL_BARRIER && s > 0)
                    break;
                guint64 bytes = kinds[k] == COLL_BARRIER ? 0 : sizes[s];
                int index = 0;
                for (size_t i = 0; i < n; i++) {
                    if (rows[i].kind != kinds[k])
                        continue;
                    double t = (double)((index * 7 + (int)r * 3 + (int)s * 5) % 6 + 1) * 1e-6;
                    tune_table_add(table, kinds[k], ranks[r], bytes, type_size, rows[i].name, t);
                    index++;
                }
            }
        }
    }
    tune_table_finish(table);
    return table;
}

START_TEST(test_tune_written_files_select_the_library_winners)
{
    struct tune_table *table = synthetic_table();
    gchar *dir = g_dir_make_tmp("collsim-tune-XXXXXX", NULL);
    gchar *prefix = g_build_filename(dir, "t", NULL);
    int checked = 0;
    int wrong = test_round_trip(table, prefix, &checked);
    ck_assert_int_eq(wrong, 0);
    ck_assert_int_gt(checked, 100);
    /* the times file loads back to the same table */
    gchar *times = g_strdup_printf("%s-times.csv", prefix);
    GError *error = NULL;
    ck_assert(tune_table_write_times(table, times, &error));
    struct tune_table *again = tune_table_load_times(times, &error);
    ck_assert_msg(again != NULL, "%s", error != NULL ? error->message : "");
    ck_assert_uint_eq(again->points->len, table->points->len);
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *a = g_ptr_array_index(table->points, i);
        const struct tune_point *b = g_ptr_array_index(again->points, i);
        ck_assert(a->kind == b->kind && a->nranks == b->nranks && a->bytes == b->bytes);
        ck_assert_str_eq(tune_point_fastest(a, TUNE_LIBRARY_COUNT, NULL, NULL)->algorithm,
                         tune_point_fastest(b, TUNE_LIBRARY_COUNT, NULL, NULL)->algorithm);
    }
    tune_table_free(again);
    const char *names[] = {"t-ompi.rules", "t-mpich.json", "t-times.csv"};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
        gchar *path = g_build_filename(dir, names[i], NULL);
        g_unlink(path);
        g_free(path);
    }
    g_rmdir(dir);
    g_free(times);
    g_free(prefix);
    g_free(dir);
    tune_table_free(table);
}
END_TEST

START_TEST(test_tune_a_tie_goes_to_the_first_in_registry_order)
{
    struct tune_table *table = tune_table_new();
    tune_table_add(table, COLL_ALLREDUCE, 8, 8, 8, "zeta", 2e-6);
    tune_table_add(table, COLL_ALLREDUCE, 8, 8, 8, "beta", 1e-6);
    tune_table_add(table, COLL_ALLREDUCE, 8, 8, 8, "alpha", 1e-6);
    tune_table_finish(table);
    const struct tune_candidate *second = NULL;
    const struct tune_point *p = tune_table_find(table, COLL_ALLREDUCE, 8, 8);
    ck_assert_str_eq(tune_point_fastest(p, TUNE_LIBRARY_COUNT, NULL, &second)->algorithm, "beta");
    ck_assert_str_eq(second->algorithm, "alpha");
    tune_table_free(table);
}
END_TEST

static Suite *
tune_rules_suite(void)
{
    Suite *s = suite_create("tune_rules");
    TCase *ompi = tcase_create("ompi");
    tcase_add_test(ompi, test_tune_ompi_reads_the_documentation_example);
    tcase_add_test(ompi, test_tune_ompi_takes_the_last_comm_size_at_or_below);
    tcase_add_test(ompi, test_tune_ompi_refuses_malformed_files_with_line_and_column);
    suite_add_tcase(s, ompi);
    TCase *mpich = tcase_create("mpich");
    tcase_add_test(mpich, test_tune_mpich_reads_a_generic_json_shaped_file);
    tcase_add_test(mpich, test_tune_mpich_refuses_malformed_files_saying_where);
    suite_add_tcase(s, mpich);
    TCase *writers = tcase_create("writers");
    tcase_add_test(writers, test_tune_sizes_are_what_each_library_compares);
    tcase_add_test(writers, test_tune_written_files_select_the_library_winners);
    tcase_add_test(writers, test_tune_a_tie_goes_to_the_first_in_registry_order);
    suite_add_tcase(s, writers);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(tune_rules_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
