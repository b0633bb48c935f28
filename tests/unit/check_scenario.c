/*
 * check_scenario.c — scenario files (sim/scenario/scenario.c): units, ranges, the sweep's
 * expansion, the --set overrides, and every way a scenario is refused, with the FILE:LINE:
 * [group] key: that each error must start with.
 *
 * Scenario files are written into a fresh temporary directory per test.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sim/scenario/scenario.h"
#include "src/coll/coll_registry.h"

static gchar *tmpdir;

static void
make_tmpdir(void)
{
    GError *error = NULL;
    tmpdir = g_dir_make_tmp("check_scenario-XXXXXX", &error);
    ck_assert_msg(tmpdir != NULL, "%s", error != NULL ? error->message : "");
}

static void
remove_tmpdir(void)
{
    GDir *dir = g_dir_open(tmpdir, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
        gchar *path = g_build_filename(tmpdir, name, NULL);
        g_unlink(path);
        g_free(path);
    }
    if (dir != NULL)
        g_dir_close(dir);
    g_rmdir(tmpdir);
    g_clear_pointer(&tmpdir, g_free);
}

/* Write `text` to tmpdir/name; returns the path (g_free it). */
static gchar *
write_file(const char *name, const char *text)
{
    gchar *path = g_build_filename(tmpdir, name, NULL);
    ck_assert(g_file_set_contents(path, text, -1, NULL));
    return path;
}

static struct scenario *
load_ok(const char *text, const char *const *overrides)
{
    g_autofree gchar *path = write_file("s.ini", text);
    GError *error = NULL;
    struct scenario *scenario = scenario_load(path, overrides, &error);
    ck_assert_msg(scenario != NULL, "unexpected error: %s", error != NULL ? error->message : "");
    return scenario;
}

/*
 * Load `text` as s.ini and check it is refused with a one-line message starting with
 * "PATH:LINE: WHAT" (line > 0) or with WHAT alone (line == 0, a --set error).
 */
static void
expect_error_at(const char *text, const char *const *overrides, int line, const char *what)
{
    g_autofree gchar *path = write_file("s.ini", text);
    GError *error = NULL;
    struct scenario *scenario = scenario_load(path, overrides, &error);
    ck_assert_msg(scenario == NULL, "loaded, expected an error starting '%s'", what);
    ck_assert(error->domain == SCENARIO_ERROR);
    g_autofree gchar *prefix =
        line > 0 ? g_strdup_printf("%s:%d: %s", path, line, what) : g_strdup(what);
    ck_assert_msg(g_str_has_prefix(error->message, prefix), "message '%s' does not start '%s'",
                  error->message, prefix);
    ck_assert_msg(strchr(error->message, '\n') == NULL, "two lines: %s", error->message);
    g_error_free(error);
}

static void
expect_error(const char *text, int line, const char *what)
{
    expect_error_at(text, NULL, line, what);
}

static const struct run_point *
point_at(const struct scenario *scenario, guint i)
{
    ck_assert_uint_lt(i, scenario->points->len);
    const struct run_point *p = g_ptr_array_index(scenario->points, i);
    ck_assert_uint_eq(p->index, i);
    return p;
}

/* ---------------------------------------------------------------- units and ranges */

START_TEST(test_scenario_sizes_with_units)
{
    static const struct {
        const char *text;
        guint64 bytes;
    } good[] = {
        {"8", 8},
        {"0", 0},
        {"64KiB", 65536},
        {"1MiB", 1048576},
        {"2GiB", G_GUINT64_CONSTANT(2147483648)},
        {"1kB", 1000},
        {"3MB", 3000000},
        {"5B", 5},
        {"64 KiB", 65536},
        {"18446744073709551615", G_MAXUINT64},
        {"16777215TiB", G_GUINT64_CONSTANT(16777215) << 40},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
        guint64 bytes = 12345;
        ck_assert_msg(scenario_parse_size(good[i].text, &bytes), "'%s' refused", good[i].text);
        ck_assert_uint_eq(bytes, good[i].bytes);
    }
    static const char *const bad[] = {
        "", "-1", "+1", "1.5KiB", "12XB", "KiB", "1 K", "1kib", "0x10",
        "18446744073709551616", "16777216TiB", "1e3", "8 8",
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        guint64 bytes = 777;
        ck_assert_msg(!scenario_parse_size(bad[i], &bytes), "'%s' accepted", bad[i]);
        ck_assert_uint_eq(bytes, 777);
    }
}
END_TEST

static void
expect_ranks(const char *text, const int *expected, guint n)
{
    GArray *ranks = g_array_new(FALSE, FALSE, sizeof(int));
    gchar *why = NULL;
    ck_assert_msg(scenario_parse_ranks(text, ranks, &why), "'%s': %s", text, why);
    ck_assert_msg(ranks->len == n, "'%s': %u values, expected %u", text, ranks->len, n);
    for (guint i = 0; i < n; i++)
        ck_assert_int_eq(g_array_index(ranks, int, i), expected[i]);
    g_array_free(ranks, TRUE);
}

START_TEST(test_scenario_rank_lists_and_ranges)
{
    expect_ranks("4..64*2", (int[]){4, 8, 16, 32, 64}, 5);
    expect_ranks("2..10+4", (int[]){2, 6, 10}, 3);
    expect_ranks("2..11+4", (int[]){2, 6, 10}, 3);
    expect_ranks("3..100*3", (int[]){3, 9, 27, 81}, 4);
    expect_ranks("1,2..8*2,100", (int[]){1, 2, 4, 8, 100}, 5);
    expect_ranks("2, 3 ,8", (int[]){2, 3, 8}, 3);
    expect_ranks("5..7", (int[]){5, 6, 7}, 3);
    expect_ranks("7..7*2", (int[]){7}, 1);
    /* duplicates are kept once, first position wins */
    expect_ranks("4,2..6+2,4,3", (int[]){4, 2, 6, 3}, 4);
    /* a step that would overflow ends the range instead */
    expect_ranks("1073741824..2147483647*2", (int[]){1073741824}, 1);
    expect_ranks("2147483646..2147483647+5", (int[]){2147483646}, 1);
}
END_TEST

START_TEST(test_scenario_bad_rank_lists)
{
    static const char *const bad[] = {
        "", "0", "-1", "4..64*1", "4..64*0", "2..10+0", "64..4*2", "10..2+1", "x", "4..",
        "..4", "4..64*", "4..64+", "4..64*x", "2,,3", ",", "2.5", "1..2147483648", "2147483648",
        "1..200000+1", "4..64/2", "1KiB",
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        GArray *ranks = g_array_new(FALSE, FALSE, sizeof(int));
        int before = 99;
        g_array_append_val(ranks, before);
        gchar *why = NULL;
        ck_assert_msg(!scenario_parse_ranks(bad[i], ranks, &why), "'%s' accepted", bad[i]);
        ck_assert_ptr_nonnull(why);
        ck_assert_msg(*why != '\0', "'%s': no reason", bad[i]);
        /* nothing appended on failure */
        ck_assert_uint_eq(ranks->len, 1);
        g_free(why);
        g_array_free(ranks, TRUE);
    }
}
END_TEST

/* ---------------------------------------------------------------- expansion */

static const char full_scenario[] =
    "# a full scenario: every key of every group\n"                    /* 1 */
    "[scenario]\n"                                                      /* 2 */
    "name = full sweep\n"                                               /* 3 */
    "description = two collectives, two algorithms each\n"             /* 4 */
    "\n"                                                                /* 5 */
    "[platform]\n"                                                      /* 6 */
    "file = generated\n"                                                /* 7 */
    "placement = cyclic\n"                                              /* 8 */
    "oversubscribe = true\n"                                            /* 9 */
    "network_model = CM02\n"                                            /* 10 */
    "eager_threshold = 4KiB\n"                                          /* 11 */
    "send_overhead = 1us\n"                                             /* 12 */
    "recv_overhead = 2e-6\n"                                            /* 13 */
    "progress = async\n"                                                /* 14 */
    "\n"                                                                /* 15 */
    "[run]\n"                                                           /* 16 */
    "ranks = 2,4..8*2\n"                                                /* 17 */
    "collectives = bcast, allreduce\n"                                  /* 18 */
    "algorithms = default, allreduce:ring, binomial\n"                  /* 19 */
    "segment_bytes = 1KiB\n"                                            /* 20 */
    "radix = 4\n"                                                       /* 21 */
    "sizes = 8, 1KiB..4KiB*4\n"                                         /* 22 */
    "root = 1\n"                                                        /* 23 */
    "in_place = false\n"                                                /* 24 */
    "payload = none\n"                                                  /* 25 */
    "iterations = 3\n"                                                  /* 26 */
    "warmup = 2\n"                                                      /* 27 */
    "check = false\n"                                                   /* 28 */
    "engine = simgrid\n"                                                /* 29 */
    "wall_limit = 90s\n";                                               /* 30 */

START_TEST(test_scenario_full_expansion)
{
    g_autofree gchar *csv = g_build_filename(tmpdir, "out.csv", NULL);
    g_autofree gchar *json = g_build_filename(tmpdir, "out.json", NULL);
    g_autofree gchar *text =
        g_strdup_printf("%s[output]\ncsv = %s\njson = %s\n", full_scenario, csv, json);
    struct scenario *scenario = load_ok(text, NULL);
    ck_assert_str_eq(scenario->name, "full sweep");
    ck_assert_str_eq(scenario->description, "two collectives, two algorithms each");
    ck_assert_str_eq(scenario->csv_path, csv);
    ck_assert_str_eq(scenario->json_path, json);
    ck_assert(g_str_has_suffix(scenario->path, "s.ini"));

    /* bcast: default and binomial (allreduce has no binomial); allreduce: default and ring */
    static const struct {
        enum coll_kind kind;
        const char *algorithm;
    } rows[] = {
        {COLL_BCAST, NULL}, {COLL_BCAST, "binomial"}, {COLL_ALLREDUCE, NULL},
        {COLL_ALLREDUCE, "ring"},
    };
    static const int ranks[] = {2, 4, 8};
    static const guint64 sizes[] = {8, 1024, 4096};
    ck_assert_uint_eq(scenario->points->len, 4 * 3 * 3);
    guint i = 0;
    for (gsize a = 0; a < G_N_ELEMENTS(rows); a++) {
        for (gsize r = 0; r < G_N_ELEMENTS(ranks); r++) {
            for (gsize b = 0; b < G_N_ELEMENTS(sizes); b++, i++) {
                const struct run_point *p = point_at(scenario, i);
                gboolean reduces = rows[a].kind == COLL_ALLREDUCE;
                ck_assert_int_eq(p->kind, rows[a].kind);
                if (rows[a].algorithm == NULL)
                    ck_assert_ptr_null(p->algorithm);
                else
                    ck_assert_str_eq(p->algorithm, rows[a].algorithm);
                ck_assert_int_eq(p->nranks, ranks[r]);
                ck_assert_uint_eq(p->bytes, sizes[b]);
                ck_assert_str_eq(p->datatype, reduces ? "double" : "byte");
                ck_assert_int_eq(p->count, (int)(sizes[b] / (reduces ? 8 : 1)));
                if (reduces)
                    ck_assert_str_eq(p->op, "sum");
                else
                    ck_assert_ptr_null(p->op);
                ck_assert_ptr_null(p->platform);
                ck_assert_int_eq(p->placement, SIM_PLACEMENT_CYCLIC);
                ck_assert(p->oversubscribe);
                ck_assert_str_eq(p->network_model, "CM02");
                ck_assert_uint_eq(p->transport.eager_threshold, 4096);
                ck_assert_double_eq_tol(p->transport.send_overhead, 1e-6, 1e-15);
                ck_assert_double_eq_tol(p->transport.recv_overhead, 2e-6, 1e-15);
                ck_assert_int_eq(p->transport.progress, MODEL_PROGRESS_ASYNC);
                ck_assert_int_eq(p->params.segment_bytes, 1024);
                ck_assert_int_eq(p->params.radix, 4);
                ck_assert_int_eq(p->root, 1);
                ck_assert(!p->in_place);
                ck_assert(p->commutative);
                ck_assert_int_eq(p->payload, SIM_PAYLOAD_NONE);
                ck_assert_int_eq(p->iterations, 3);
                ck_assert_int_eq(p->warmup, 2);
                ck_assert(!p->check);
                ck_assert_int_eq(p->engine, SIM_ENGINE_SIMGRID);
                ck_assert_double_eq(p->wall_limit, 90.0);
                ck_assert_ptr_null(p->program);
                ck_assert_ptr_null(p->program_args);
                ck_assert_ptr_null(p->expected_output);
            }
        }
    }
    scenario_free(scenario);
}
END_TEST

START_TEST(test_scenario_defaults)
{
    g_autofree gchar *path = write_file("my_sweep.ini", "[run]\nranks = 3\ncollectives = reduce\n");
    GError *error = NULL;
    struct scenario *scenario = scenario_load(path, NULL, &error);
    ck_assert_msg(scenario != NULL, "%s", error != NULL ? error->message : "");
    ck_assert_str_eq(scenario->name, "my_sweep");
    ck_assert_ptr_null(scenario->description);
    ck_assert_ptr_null(scenario->csv_path);
    ck_assert_ptr_null(scenario->json_path);
    ck_assert_uint_eq(scenario->points->len, 1);
    const struct run_point *p = point_at(scenario, 0);
    struct model_transport transport;
    model_transport_defaults(&transport);
    ck_assert_int_eq(p->kind, COLL_REDUCE);
    ck_assert_ptr_null(p->algorithm);
    ck_assert_int_eq(p->nranks, 3);
    ck_assert_uint_eq(p->bytes, 8);
    ck_assert_int_eq(p->count, 1);
    ck_assert_str_eq(p->datatype, "double");
    ck_assert_str_eq(p->op, "sum");
    ck_assert(p->commutative);
    ck_assert_int_eq(p->root, 0);
    ck_assert(!p->in_place);
    ck_assert_int_eq(p->payload, SIM_PAYLOAD_DATA);
    ck_assert_int_eq(p->iterations, 1);
    ck_assert_int_eq(p->warmup, 0);
    ck_assert(p->check);
    ck_assert_int_eq(p->engine, SIM_ENGINE_AUTO);
    ck_assert_double_eq(p->wall_limit, 0.0);
    ck_assert_int_eq(p->params.segment_bytes, 0);
    ck_assert_int_eq(p->params.radix, 0);
    ck_assert_int_eq(p->placement, SIM_PLACEMENT_BLOCK);
    ck_assert(!p->oversubscribe);
    ck_assert_ptr_null(p->network_model);
    ck_assert_uint_eq(p->transport.eager_threshold, transport.eager_threshold);
    ck_assert_double_eq(p->transport.send_overhead, transport.send_overhead);
    ck_assert_double_eq(p->transport.gap, transport.gap);
    ck_assert_int_eq(p->transport.progress, MODEL_PROGRESS_CALLS);
    /* the default platform is the cluster generated from the default network preset */
    ck_assert_ptr_null(p->platform);
    ck_assert_ptr_eq(p->network, model_network_default());
    scenario_free(scenario);
}
END_TEST

/* inputs sweep between algorithm and ranks; reproducible is a request like default */
START_TEST(test_scenario_inputs_and_reproducible_mode)
{
    struct scenario *scenario =
        load_ok("[platform]\nfile = generated\n"
                "[run]\nranks = 3, 5\ncollectives = allreduce\n"
                "algorithms = reproducible, ring\n"
                "inputs = cancellation, random:7, random:7, random:4294967295\n"
                "sizes = 64\n",
                NULL);
    ck_assert_uint_eq(scenario->points->len, 2 * 3 * 2);
    for (guint i = 0; i < scenario->points->len; i++) {
        const struct run_point *p = point_at(scenario, i);
        ck_assert_str_eq(p->algorithm, i < 6 ? "reproducible" : "ring");
        ck_assert_int_eq(p->inputs, i % 6 < 2 ? POINT_INPUTS_CANCELLATION : POINT_INPUTS_RANDOM);
        ck_assert_uint_eq(p->inputs_seed, i % 6 < 2 ? 0 : i % 6 < 4 ? 7 : 4294967295u);
        ck_assert_int_eq(p->nranks, i % 2 ? 5 : 3);
    }
    scenario_free(scenario);
    /* the default: exact inputs */
    scenario = load_ok("[platform]\nfile = generated\n[run]\nranks = 3\ncollectives = bcast\n"
                       "algorithms = reproducible\n",
                       NULL);
    ck_assert_uint_eq(scenario->points->len, 1);
    ck_assert_int_eq(point_at(scenario, 0)->inputs, POINT_INPUTS_EXACT);
    ck_assert_str_eq(point_at(scenario, 0)->algorithm, "reproducible");
    scenario_free(scenario);
}
END_TEST

START_TEST(test_scenario_algorithm_all_is_the_registry_in_order)
{
    struct scenario *scenario = load_ok("[platform]\nfile = generated\n"
                                        "[run]\nranks = 4\ncollectives = reduce\n"
                                        "algorithms = all\n",
                                        NULL);
    size_t n = coll_registry_count(COLL_REDUCE);
    ck_assert_uint_gt(n, 1);
    ck_assert_uint_eq(scenario->points->len, n);
    for (size_t i = 0; i < n; i++)
        ck_assert_str_eq(point_at(scenario, (guint)i)->algorithm,
                         coll_registry_nth(COLL_REDUCE, i)->name);
    scenario_free(scenario);

    /* COLLECTIVE:all and default mixed, each algorithm once */
    scenario = load_ok("[platform]\nfile = generated\n"
                       "[run]\nranks = 4\ncollectives = scan, bcast\n"
                       "algorithms = linear, scan:all, default, bcast:linear\n",
                       NULL);
    size_t nscan = coll_registry_count(COLL_SCAN);
    ck_assert_uint_eq(scenario->points->len, nscan + 1 + 2);
    ck_assert_str_eq(point_at(scenario, 0)->algorithm, "linear");
    for (size_t i = 1; i < nscan; i++)
        ck_assert_str_ne(point_at(scenario, (guint)i)->algorithm, "linear");
    ck_assert_ptr_null(point_at(scenario, (guint)nscan)->algorithm);
    ck_assert_str_eq(point_at(scenario, (guint)nscan + 1)->algorithm, "linear");
    ck_assert_int_eq(point_at(scenario, (guint)nscan + 1)->kind, COLL_BCAST);
    ck_assert_ptr_null(point_at(scenario, (guint)nscan + 2)->algorithm);
    scenario_free(scenario);
}
END_TEST

START_TEST(test_scenario_collectives_all_and_barrier_ignores_sizes)
{
    struct scenario *scenario = load_ok("[platform]\nfile = generated\n"
                                        "[run]\nranks = 2,3\ncollectives = barrier, gather\n"
                                        "sizes = 8, 16\n",
                                        NULL);
    ck_assert_uint_eq(scenario->points->len, 2 + 4);
    for (guint i = 0; i < 2; i++) {
        ck_assert_int_eq(point_at(scenario, i)->kind, COLL_BARRIER);
        ck_assert_uint_eq(point_at(scenario, i)->bytes, 0);
        ck_assert_int_eq(point_at(scenario, i)->count, 0);
        ck_assert_ptr_null(point_at(scenario, i)->op);
    }
    ck_assert_int_eq(point_at(scenario, 0)->nranks, 2);
    ck_assert_int_eq(point_at(scenario, 1)->nranks, 3);
    ck_assert_int_eq(point_at(scenario, 2)->kind, COLL_GATHER);
    ck_assert_uint_eq(point_at(scenario, 3)->bytes, 16);
    scenario_free(scenario);

    scenario = load_ok("[platform]\nfile = generated\n"
                       "[run]\nranks = 2\ncollectives = all\n",
                       NULL);
    ck_assert_uint_eq(scenario->points->len, COLL_KIND_COUNT);
    for (guint i = 0; i < COLL_KIND_COUNT; i++)
        ck_assert_int_eq(point_at(scenario, i)->kind, (int)i);
    scenario_free(scenario);
}
END_TEST

START_TEST(test_scenario_program_one_point_per_rank_count)
{
    /* a real program: the benchmark's static checks load it */
    const char *dir = g_getenv("PROGRAMS_DIR");
    g_autofree gchar *built =
        g_build_filename(dir != NULL ? dir : "tests/programs/.libs", "pingpong.so", NULL);
    g_autofree gchar *code = NULL;
    gsize length = 0;
    ck_assert_msg(g_file_get_contents(built, &code, &length, NULL), "cannot read %s", built);
    g_autofree gchar *program = g_build_filename(tmpdir, "prog.so", NULL);
    ck_assert(g_file_set_contents(program, code, (gssize)length, NULL));
    g_autofree gchar *expected = write_file("prog.out", "42\n");
    struct scenario *scenario = load_ok("[platform]\nfile = generated\n"
                                        "[run]\nranks = 1, 3\nprogram = prog.so\n"
                                        "args = noncommute \"two words\"\n"
                                        "expected_output = prog.out\npayload = none\n",
                                        NULL);
    ck_assert_uint_eq(scenario->points->len, 2);
    for (guint i = 0; i < 2; i++) {
        const struct run_point *p = point_at(scenario, i);
        ck_assert_int_eq(p->nranks, i == 0 ? 1 : 3);
        /* found beside the scenario, not in the current directory */
        ck_assert_str_eq(p->program, program);
        ck_assert_str_eq(p->expected_output, expected);
        ck_assert_ptr_nonnull(p->program_args);
        ck_assert_uint_eq(g_strv_length(p->program_args), 2);
        ck_assert_str_eq(p->program_args[0], "noncommute");
        ck_assert_str_eq(p->program_args[1], "two words");
        ck_assert_ptr_null(p->algorithm);
        ck_assert_ptr_null(p->datatype);
        ck_assert_ptr_null(p->op);
        ck_assert_int_eq(p->payload, SIM_PAYLOAD_NONE);
    }
    scenario_free(scenario);
}
END_TEST

/* ---------------------------------------------------------------- platforms */

static const char two_single_core_hosts[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <cluster id=\"c\" prefix=\"h-\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\""
    " lat=\"1us\"/>\n"
    "</platform>\n";

START_TEST(test_scenario_platform_beside_the_scenario_and_its_cores)
{
    g_autofree gchar *platform = write_file("two.xml", two_single_core_hosts);
    g_autofree gchar *cwd = g_get_current_dir();
    /* from another directory, the platform is found beside the scenario */
    ck_assert_int_eq(chdir("/"), 0);
    struct scenario *scenario =
        load_ok("[platform]\nfile = two.xml\n[run]\nranks = 1,2\ncollectives = bcast\n", NULL);
    ck_assert_str_eq(point_at(scenario, 0)->platform, platform);
    scenario_free(scenario);

    const char three_ranks[] = "[platform]\nfile = two.xml\n"
                               "[run]\nranks = 2, 3\ncollectives = bcast\n";
    expect_error(three_ranks, 4, "[run] ranks: 3 ranks but");
    static const char *const oversubscribe[] = {"platform.oversubscribe=true", NULL};
    scenario = load_ok(three_ranks, oversubscribe);
    ck_assert_uint_eq(scenario->points->len, 2);
    ck_assert(point_at(scenario, 1)->oversubscribe);
    scenario_free(scenario);

    /* the generated cluster has a host for every rank */
    scenario = load_ok("[platform]\nfile = generated\n[run]\nranks = 5000\ncollectives = bcast\n",
                       NULL);
    scenario_free(scenario);
    /* the shipped cluster has 1024 cores */
    expect_error("[platform]\nfile = platforms/cluster.xml\n[run]\nranks = 1024, 1025\n"
                 "collectives = bcast\n",
                 4, "[run] ranks: 1025 ranks but");
    ck_assert_int_eq(chdir(cwd), 0);
}
END_TEST

START_TEST(test_scenario_platform_errors)
{
    expect_error("[platform]\n\nfile = nowhere.xml\n[run]\nranks = 2\ncollectives = bcast\n", 3,
                 "[platform] file: 'nowhere.xml' not found");
    g_autofree gchar *bad = write_file("bad.xml", "<?xml version='1.0'?>\n"
                                                  "<platform version=\"4.1\">\n"
                                                  "  <zone id=\"z\" routing=\"Full\">\n"
                                                  "</platform>\n");
    expect_error("[platform]\nfile = bad.xml\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] file: platform");
    expect_error("[platform]\nplacement = round_robin\n[run]\nranks = 2\ncollectives = bcast\n",
                 2, "[platform] placement: unknown placement 'round_robin' (block, cyclic, "
                 "random:SEED or hostfile:FILE)");
    expect_error("[platform]\noversubscribe = maybe\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] oversubscribe: 'maybe' is not a boolean (true or false)");
    expect_error("[platform]\nnetwork_model = fast\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] network_model: unknown network model 'fast'");
    expect_error("[platform]\neager_threshold = 12XB\n[run]\nranks = 2\ncollectives = bcast\n",
                 2, "[platform] eager_threshold: '12XB' is not a size");
    expect_error("[platform]\nsend_overhead = -1\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] send_overhead: '-1' is not a duration");
    expect_error("[platform]\nrecv_overhead = 1 parsec\n[run]\nranks = 2\ncollectives = bcast\n",
                 2, "[platform] recv_overhead: '1 parsec' is not a duration");
    expect_error("[platform]\nprogress = thread\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] progress: 'thread' is not calls or async");
    expect_error("[platform]\nprogress =\n[run]\nranks = 2\ncollectives = bcast\n", 2,
                 "[platform] progress: empty value");
}
END_TEST

/* The progress model of nonblocking collectives reaches every point. */
START_TEST(test_scenario_progress)
{
    struct scenario *scenario =
        load_ok("[platform]\nprogress = async\n[run]\nranks = 2,3\ncollectives = bcast\n", NULL);
    ck_assert_uint_eq(scenario->points->len, 2);
    for (guint i = 0; i < scenario->points->len; i++)
        ck_assert_int_eq(point_at(scenario, i)->transport.progress, MODEL_PROGRESS_ASYNC);
    scenario_free(scenario);
    scenario = load_ok("[platform]\nprogress = calls\n[run]\nranks = 2\ncollectives = bcast\n",
                       NULL);
    ck_assert_int_eq(point_at(scenario, 0)->transport.progress, MODEL_PROGRESS_CALLS);
    scenario_free(scenario);
}
END_TEST

/* ---------------------------------------------------------------- [run] errors */

#define GEN "[platform]\nfile = generated\n" /* lines 1-2 */

START_TEST(test_scenario_run_errors)
{
    /* a missing key is reported at its group's header, or line 1 without the group */
    expect_error(GEN "\n[run]\ncollectives = bcast\n", 4, "[run] ranks: missing");
    expect_error(GEN, 1, "[run] ranks: missing");
    expect_error(GEN "[run]\nranks = 2\n", 3, "[run] collectives: missing");
    expect_error(GEN "[run]\nranks = 0\ncollectives = bcast\n", 4, "[run] ranks: ");
    expect_error(GEN "[run]\nranks = 64..4*2\ncollectives = bcast\n", 4,
                 "[run] ranks: '64..4*2': empty range");
    expect_error(GEN "[run]\nranks = 4..64*1\ncollectives = bcast\n", 4, "[run] ranks: ");
    expect_error(GEN "[run]\nranks = 2..10+0\ncollectives = bcast\n", 4, "[run] ranks: ");
    expect_error(GEN "[run]\nranks =\ncollectives = bcast\n", 4, "[run] ranks: empty value");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast, reducee\n", 5,
                 "[run] collectives: unknown collective 'reducee'");
    expect_error(GEN "[run]\nranks = 2\ncollectives = ,\n", 5, "[run] collectives: empty");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nalgorithms = nosuch\n", 6,
                 "[run] algorithms: 'nosuch' is an algorithm of none of the listed collectives");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nalgorithms = bcast:ring\n", 6,
                 "[run] algorithms: 'bcast:ring': MPI_Bcast has no algorithm 'ring'");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nalgorithms = reduce:binomial\n", 6,
                 "[run] algorithms: 'reduce:binomial': reduce is not one of the collectives");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nalgorithms = bacst:linear\n", 6,
                 "[run] algorithms: 'bacst:linear': unknown collective 'bacst'");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast,allreduce\nalgorithms = ring\n", 6,
                 "[run] algorithms: no entry names an algorithm of bcast");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nsegment_bytes = -5\n", 6,
                 "[run] segment_bytes: '-5' is not a size");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nradix = 1\n", 6, "[run] radix: ");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nradix = two\n", 6,
                 "[run] radix: 'two' is not a whole number");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nsizes = 1.5KiB\n", 6,
                 "[run] sizes: '1.5KiB' is not a value");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nsizes = 8..1KiB*1\n", 6,
                 "[run] sizes: '8..1KiB*1': a geometric step must be at least *2");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nsizes = 0..1KiB*2\n", 6,
                 "[run] sizes: '0..1KiB*2': a geometric range cannot start at 0");
    /* 12 bytes of doubles; the default datatype's line is its group's header */
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\nsizes = 8, 12\n", 6,
                 "[run] sizes: 12 bytes is not a whole number of double elements");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nsizes = 4GiB\n", 6,
                 "[run] sizes: 4294967296 bytes is more than 2147483647 byte elements");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\ndatatype = quaternion\n", 6,
                 "[run] datatype: unknown datatype 'quaternion'");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nop = max\n", 6,
                 "[run] op: none of the listed collectives reduces");
    expect_error(GEN "[run]\nranks = 2\ncollectives = reduce\ncommutative = false\n", 6,
                 "[run] commutative: only for user ops");
    expect_error(GEN "[run]\nranks = 2\ncollectives = reduce\nop = max\ncommutative = true\n", 7,
                 "[run] commutative: only for user ops; the predefined op max");
    expect_error(GEN "[run]\nranks = 4, 2, 8\ncollectives = bcast\nroot = 2\n", 6,
                 "[run] root: root 2 is not below the smallest rank count 2");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nroot = -1\n", 6, "[run] root: ");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nin_place = yes please\n", 6,
                 "[run] in_place: 'yes please' is not a boolean");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\npayload = some\n", 6,
                 "[run] payload: unknown payload mode 'some' (data or none)");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nengine = fast\n", 6,
                 "[run] engine: 'fast' is not auto, simgrid or collsim");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nwall_limit = soon\n", 6,
                 "[run] wall_limit: 'soon' is not a duration");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\niterations = 0\n", 6,
                 "[run] iterations: 0 is below 1");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nwarmup = -1\n", 6, "[run] warmup: ");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\ncheck = 2\n", 6,
                 "[run] check: '2' is not a boolean");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\ninputs = gaussian\n", 6,
                 "[run] inputs: unknown inputs 'gaussian' (exact, cancellation or random:SEED");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\ninputs = random:-1\n", 6,
                 "[run] inputs: 'random:-1': the seed must be an integer from 0 to 4294967295");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\ninputs = random:4294967296\n", 6,
                 "[run] inputs: 'random:4294967296': the seed must be");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\ninputs = random:\n", 6,
                 "[run] inputs: 'random:': the seed must be");
}
END_TEST

START_TEST(test_scenario_benchmark_refusals_name_their_key)
{
    /* order-sensitive inputs: sum on float or double in a reduction only */
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\ninputs = random:1\n"
                     "datatype = int\n",
                 6,
                 "[run] inputs: inputs 'random:1' need op sum on float or double (not sum on int)");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\nop = max\n"
                     "inputs = cancellation\n",
                 7,
                 "[run] inputs: inputs 'cancellation' need op sum on float or double (not max on "
                 "double)");
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce, bcast\ninputs = exact, random:3\n",
                 6, "[run] inputs: inputs 'random:3' need a reduction (MPI_Bcast moves data");
    /* judged by bench_point_invalid() and reported at the line of the key it names */
    expect_error(GEN "[run]\nranks = 2\ncollectives = allreduce\nop = frobnicate\n", 6,
                 "[run] op: ");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nin_place = true\n", 6,
                 "[run] in_place: ");
}
END_TEST

START_TEST(test_scenario_program_errors)
{
    g_autofree gchar *program = write_file("prog.so", "x");
    expect_error(GEN "[run]\nranks = 2\nprogram = missing.so\n", 5,
                 "[run] program: 'missing.so' not found");
    expect_error(GEN "[run]\nranks = 2\nprogram = prog.so\ncollectives = bcast\n", 6,
                 "[run] collectives: not used with a program");
    expect_error(GEN "[run]\nranks = 2\nprogram = prog.so\nsizes = 8\n", 6,
                 "[run] sizes: not used with a program");
    expect_error(GEN "[run]\nranks = 2\nalgorithms = ring\nprogram = prog.so\n", 5,
                 "[run] algorithms: not used with a program");
    expect_error(GEN "[run]\nranks = 2\nprogram = prog.so\nexpected_output = none.txt\n", 6,
                 "[run] expected_output: 'none.txt' not found");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nargs = -v\n", 6,
                 "[run] args: only with a program");
    expect_error(GEN "[run]\nranks = 2\nprogram = prog.so\nargs = \"unclosed\n", 6,
                 "[run] args: ");
}
END_TEST

START_TEST(test_scenario_file_errors)
{
    /* unknown groups and keys, at their lines */
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\n\n[outptu]\ncsv = x\n", 7,
                 "[outptu]: unknown group (groups: scenario, platform, run, output)");
    expect_error(GEN "[run]\nranks = 2\nrank = 3\ncollectives = bcast\n", 5,
                 "[run] rank: unknown key (keys of [run]: ranks,");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\nranks = 4\n", 6,
                 "[run] ranks: given twice, first on line 4");
    /* syntax: GLib's parse errors at the line they quote */
    expect_error(GEN "[run]\nranks 2\n", 4, "syntax error: ");
    expect_error(GEN "[run\nranks = 2\n", 3, "syntax error: ");
    expect_error("# comment\n\nranks = 2\n[run]\n", 3, "syntax error: ");
    expect_error(GEN "[run]\nranks = 2\ncollectives = bcast\n[output]\ncsv = /no/such/dir/x.csv\n",
                 7, "[output] csv: directory '/no/such/dir' does not exist");
    g_autofree gchar *out = g_build_filename(tmpdir, "o", NULL);
    g_autofree gchar *same =
        g_strdup_printf(GEN "[run]\nranks = 2\ncollectives = bcast\n[output]\ncsv = %s\n"
                            "json = %s\n",
                        out, out);
    expect_error(same, 8, "[output] json: the same file as [output] csv");

    g_autofree gchar *missing = g_build_filename(tmpdir, "absent.ini", NULL);
    GError *error = NULL;
    ck_assert_ptr_null(scenario_load(missing, NULL, &error));
    g_autofree gchar *prefix = g_strdup_printf("%s: cannot read it", missing);
    ck_assert_msg(g_str_has_prefix(error->message, prefix), "%s", error->message);
    ck_assert_int_eq(error->code, SCENARIO_ERROR_READ);
    g_error_free(error);
}
END_TEST

START_TEST(test_scenario_syntax_error_lines)
{
    g_autofree gchar *path = write_file("s.ini", GEN "[run]\n  this is not a key\n");
    GError *error = NULL;
    ck_assert_ptr_null(scenario_load(path, NULL, &error));
    ck_assert_int_eq(error->code, SCENARIO_ERROR_SYNTAX);
    g_autofree gchar *prefix = g_strdup_printf("%s:4: syntax error: ", path);
    ck_assert_msg(g_str_has_prefix(error->message, prefix), "%s", error->message);
    g_error_free(error);
}
END_TEST

/* ---------------------------------------------------------------- overrides */

static const char small_scenario[] = GEN "[run]\nranks = 2,4\ncollectives = bcast\n";

START_TEST(test_scenario_override_sets_and_adds_keys)
{
    static const char *const set[] = {"run.ranks=16", "run.sizes=1KiB", "run.root=3",
                                      "scenario.name=renamed", "run.root=5", NULL};
    struct scenario *scenario = load_ok(small_scenario, set);
    ck_assert_str_eq(scenario->name, "renamed");
    ck_assert_uint_eq(scenario->points->len, 1);
    const struct run_point *p = point_at(scenario, 0);
    ck_assert_int_eq(p->nranks, 16);
    ck_assert_uint_eq(p->bytes, 1024);
    /* the later override of a key wins */
    ck_assert_int_eq(p->root, 5);
    scenario_free(scenario);
}
END_TEST

START_TEST(test_scenario_override_errors)
{
    expect_error_at(small_scenario, (const char *const[]){"run.rank=2", NULL}, 0,
                    "--set run.rank=2: [run] rank: unknown key");
    expect_error_at(small_scenario, (const char *const[]){"net.x=1", NULL}, 0,
                    "--set net.x=1: [net]: unknown group");
    static const char *const malformed[] = {"runranks=2", "run.ranks", ".ranks=2", "run.=2",
                                            "=2", "run=ranks.2"};
    for (gsize i = 0; i < G_N_ELEMENTS(malformed); i++) {
        g_autofree gchar *what = g_strdup_printf("--set %s: not an override", malformed[i]);
        expect_error_at(small_scenario, (const char *const[]){malformed[i], NULL}, 0, what);
    }
    /* a bad value given by --set is reported at the --set, not at the file's line */
    expect_error_at(small_scenario, (const char *const[]){"run.ranks=0", NULL}, 0,
                    "--set run.ranks=0: [run] ranks: ");
    expect_error_at(small_scenario, (const char *const[]){"run.root=2", NULL}, 0,
                    "--set run.root=2: [run] root: root 2 is not below");
    /* ... and a fault of a file's key not overridden stays at its line */
    expect_error_at(GEN "[run]\nranks = 2,4\ncollectives = bcast\nroot = 3\n",
                    (const char *const[]){"run.sizes=16", NULL}, 6, "[run] root: ");
}
END_TEST

static Suite *
scenario_suite(void)
{
    Suite *s = suite_create("scenario");
    TCase *parse = tcase_create("parse");
    tcase_add_test(parse, test_scenario_sizes_with_units);
    tcase_add_test(parse, test_scenario_rank_lists_and_ranges);
    tcase_add_test(parse, test_scenario_bad_rank_lists);
    suite_add_tcase(s, parse);

    TCase *expand = tcase_create("expand");
    tcase_add_checked_fixture(expand, make_tmpdir, remove_tmpdir);
    tcase_add_test(expand, test_scenario_full_expansion);
    tcase_add_test(expand, test_scenario_defaults);
    tcase_add_test(expand, test_scenario_algorithm_all_is_the_registry_in_order);
    tcase_add_test(expand, test_scenario_inputs_and_reproducible_mode);
    tcase_add_test(expand, test_scenario_collectives_all_and_barrier_ignores_sizes);
    tcase_add_test(expand, test_scenario_program_one_point_per_rank_count);
    tcase_add_test(expand, test_scenario_platform_beside_the_scenario_and_its_cores);
    tcase_set_timeout(expand, 60);
    suite_add_tcase(s, expand);

    TCase *errors = tcase_create("errors");
    tcase_add_checked_fixture(errors, make_tmpdir, remove_tmpdir);
    tcase_add_test(errors, test_scenario_platform_errors);
    tcase_add_test(errors, test_scenario_progress);
    tcase_add_test(errors, test_scenario_run_errors);
    tcase_add_test(errors, test_scenario_benchmark_refusals_name_their_key);
    tcase_add_test(errors, test_scenario_program_errors);
    tcase_add_test(errors, test_scenario_file_errors);
    tcase_add_test(errors, test_scenario_syntax_error_lines);
    tcase_set_timeout(errors, 60);
    suite_add_tcase(s, errors);

    TCase *overrides = tcase_create("overrides");
    tcase_add_checked_fixture(overrides, make_tmpdir, remove_tmpdir);
    tcase_add_test(overrides, test_scenario_override_sets_and_adds_keys);
    tcase_add_test(overrides, test_scenario_override_errors);
    suite_add_tcase(s, overrides);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(scenario_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
