/*
 * check_shard.c — slices of a sweep and shard files (sim/report/shard.c): --shard I/N parsed
 * and refused at every kind of bad value, every point in exactly one slice for many N and
 * sweep sizes (empty slices included), the names of per-shard files, and hand-made points
 * reported as shards (through sim/report/report.c, nothing simulated), read back and merged
 * into the unsharded CSV and digest, program outputs and multi-line details included; shards
 * missing, repeated, cut short or edited are refused with their names.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sim/report/report.h"
#include "sim/report/shard.h"

/* ---------------------------------------------------------------- --shard I/N */

START_TEST(test_shard_spec_parses_good_values)
{
    static const struct {
        const char *text;
        guint index, count;
    } good[] = {{"1/1", 1, 1}, {"2/3", 2, 3}, {"3/3", 3, 3}, {"7/100", 7, 100}, {"01/02", 1, 2}};
    for (gsize i = 0; i < G_N_ELEMENTS(good); i++) {
        struct shard_spec spec = {0};
        GError *error = NULL;
        ck_assert_msg(shard_spec_parse(good[i].text, &spec, &error), "%s", good[i].text);
        ck_assert_uint_eq(spec.index, good[i].index);
        ck_assert_uint_eq(spec.count, good[i].count);
    }
}
END_TEST

START_TEST(test_shard_spec_refuses_bad_values_saying_why)
{
    static const struct {
        const char *text;
        const char *why;
    } bad[] = {
        {"0/3", "I counts from 1"},      {"4/3", "I is larger than N"},
        {"1/0", "N must be at least 1"}, {"0/0", "N must be at least 1"},
        {"abc", "not of the form"},      {"", "not of the form"},
        {"1/", "not of the form"},       {"/3", "not of the form"},
        {"-1/3", "not of the form"},     {"+1/3", "not of the form"},
        {" 1/3", "not of the form"},     {"1/3 ", "not of the form"},
        {"1/3/4", "not of the form"},    {"1.0/3", "not of the form"},
        {"1/9999999999", "not of"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(bad); i++) {
        struct shard_spec spec = {42, 42};
        GError *error = NULL;
        ck_assert_msg(!shard_spec_parse(bad[i].text, &spec, &error), "'%s' accepted", bad[i].text);
        ck_assert(g_error_matches(error, SHARD_ERROR, SHARD_ERROR_SPEC));
        ck_assert_msg(strstr(error->message, bad[i].why) != NULL, "'%s': %s", bad[i].text,
                      error->message);
        ck_assert_msg(strstr(error->message, "1 <= I <= N") != NULL, "%s", error->message);
        ck_assert_uint_eq(spec.index, 42); /* untouched */
        g_error_free(error);
    }
    GError *error = NULL;
    struct shard_spec spec;
    ck_assert(!shard_spec_parse(NULL, &spec, &error));
    g_error_free(error);
}
END_TEST

/* Every point of a sweep of any size is in exactly one slice, by index, and the sizes agree. */
START_TEST(test_shard_slices_partition_every_sweep)
{
    for (guint n = 1; n <= 9; n++) {
        for (guint total = 0; total <= 30; total++) {
            guint *owners = g_new0(guint, total + 1);
            for (guint i = 1; i <= n; i++) {
                struct shard_spec spec = {i, n};
                guint size = 0, previous = G_MAXUINT;
                for (guint k = 0; k < total; k++) {
                    if (!shard_spec_contains(&spec, k))
                        continue;
                    owners[k]++;
                    size++;
                    ck_assert_uint_eq(k % n, i - 1); /* round robin by index */
                    ck_assert(previous == G_MAXUINT || k > previous);
                    previous = k;
                }
                ck_assert_uint_eq(shard_spec_size(&spec, total), size);
                /* a slice is empty exactly when N exceeds the points and I is past them */
                ck_assert(size == 0 ? i > total : i <= total);
            }
            for (guint k = 0; k < total; k++)
                ck_assert_msg(owners[k] == 1, "N=%u total=%u point %u in %u slices", n, total, k,
                              owners[k]);
            g_free(owners);
        }
    }
}
END_TEST

START_TEST(test_shard_output_path_marks_the_slice_before_the_extension)
{
    struct shard_spec spec = {2, 3};
    static const char *const cases[][2] = {
        {"r.csv", "r.shard-2-of-3.csv"},
        {"out/r.json", "out/r.shard-2-of-3.json"},
        {"r", "r.shard-2-of-3"},
        {"dir.d/r", "dir.d/r.shard-2-of-3"},
        {".hidden", ".hidden.shard-2-of-3"},
        {"a.b.csv", "a.b.shard-2-of-3.csv"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree gchar *path = shard_output_path(cases[i][0], &spec);
        ck_assert_str_eq(path, cases[i][1]);
    }
}
END_TEST

/* ---------------------------------------------------------------- shards written and merged */

#define POINTS 7

static struct run_point points[POINTS];
static struct point_result results[POINTS];
/* the scenario the shards name (a test sets an awkward one) */
static const char *scenario_name = "unit";


/* Points that exercise the CSV: quoted details over several lines, programs with and without
 * output (the output holds commas, quotes and newlines; the digest covers it). */
static void
make_points(void)
{
    for (guint k = 0; k < POINTS; k++) {
        points[k] = (struct run_point){
            .index = k,
            .nranks = 4 << k,
            .kind = COLL_ALLREDUCE,
            .algorithm = "ring",
            .bytes = 64,
            .count = 8,
            .datatype = "double",
            .op = "sum",
            .payload = SIM_PAYLOAD_DATA,
            .iterations = 1,
            .check = TRUE,
        };
        results[k] = (struct point_result){
            .served = "ring",
            .time_max = 1e-6 * (k + 1) / 3.0,
            .time_min = 1e-7,
            .time_mean = 2e-7,
            .messages = k,
            .check = POINT_CHECK_OK,
            .predicted = NAN,
            .max_ulps = NAN,
            .max_rel_error = NAN,
            .wall_seconds = 0.125 * k,
        };
    }
    results[2].check = POINT_CHECK_FAIL;
    results[2].check_detail = "rank 3 element 1: got \"5\", expected 6,\nand more";
    points[3].program = "/x/prog.so";
    results[3].served = "";
    results[3].output = "hello, \"world\"\nline two\n";
    points[5].program = "/x/prog.so";
    results[5].served = "";
    results[5].output = NULL;
    results[6].check = POINT_CHECK_ERROR;
    results[6].time_max = INFINITY;
}

static void
remove_dir(const char *path)
{
    GDir *dir = g_dir_open(path, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
        g_autofree gchar *file = g_build_filename(path, name, NULL);
        g_unlink(file);
    }
    if (dir != NULL)
        g_dir_close(dir);
    g_rmdir(path);
}

static gchar *
write_report(const char *csv, const char *json, const struct shard_identity *id)
{
    struct report_options options = {
        .csv_path = csv, .json_path = json, .scenario = scenario_name, .shard = id};
    GError *error = NULL;
    guint size = id != NULL ? shard_spec_size(&id->spec, POINTS) : POINTS;
    struct report *report = report_open(&options, size, &error);
    ck_assert_msg(report != NULL, "%s", error != NULL ? error->message : "?");
    for (guint k = 0; k < POINTS; k++)
        if (id == NULL || shard_spec_contains(&id->spec, k))
            ck_assert(report_add(report, &points[k], &results[k], &error));
    gchar *digest = report_finish(report, &error);
    ck_assert_ptr_nonnull(digest);
    report_free(report);
    return digest;
}

static gchar *
shard_path(const char *dir, guint i, guint n, const char *ext)
{
    g_autofree gchar *name = g_strdup_printf("s%u-of-%u.%s", i, n, ext);
    return g_build_filename(dir, name, NULL);
}

static void
write_shards(const char *dir, guint n, const char *scenario_sha256)
{
    for (guint i = 1; i <= n; i++) {
        struct shard_identity id = {.spec = {i, n},
                                    .total_points = POINTS,
                                    .scenario = (gchar *)scenario_name,
                                    .scenario_sha256 = (gchar *)scenario_sha256,
                                    .binary = "test sha256:00"};
        g_autofree gchar *csv = shard_path(dir, i, n, "csv");
        g_autofree gchar *json = shard_path(dir, i, n, "json");
        g_free(write_report(csv, json, &id));
    }
}

/* Merge files named by slice numbers (0 ends the list); FALSE with *error on refusal. The merge
 * borrows the points of *files_out, freed after it. */
static gboolean
merge_slices(const char *dir, guint n, const char *ext, const guint *slices, struct shard_merge *m,
             GPtrArray **files_out, GError **error)
{
    GPtrArray *files = g_ptr_array_new_with_free_func((GDestroyNotify)shard_file_free);
    gboolean ok = TRUE;
    for (guint j = 0; slices[j] != 0 && ok; j++) {
        g_autofree gchar *path = shard_path(dir, slices[j], n, ext);
        struct shard_file *file = shard_file_read(path, error);
        if (file == NULL)
            ok = FALSE;
        else
            g_ptr_array_add(files, file);
    }
    if (ok)
        ok = shard_merge((struct shard_file *const *)files->pdata, files->len, m, error);
    *files_out = files;
    return ok;
}

static gchar *
merged_csv(const struct shard_merge *m)
{
    GString *text = g_string_new(m->csv_header);
    for (guint k = 0; k < m->points->len; k++)
        g_string_append(text, ((const struct shard_point *)m->points->pdata[k])->csv_row);
    return g_string_free(text, FALSE);
}

START_TEST(test_shard_merge_gives_the_unsharded_csv_and_digest)
{
    make_points();
    /* a name the CSV's first line must carry through quotes and separators */
    scenario_name = _i == 0 ? "unit" : "a \"quoted\", odd; scenario\n";
    g_autofree gchar *dir = g_dir_make_tmp("check_shard_XXXXXX", NULL);
    g_autofree gchar *csv = g_build_filename(dir, "all.csv", NULL);
    g_autofree gchar *digest = write_report(csv, NULL, NULL);
    g_autofree gchar *all = NULL;
    ck_assert(g_file_get_contents(csv, &all, NULL, NULL));
    static const guint orders[][12] = {
        /* N, then the slices in the order given; N = 9 > 7 points: slices 8 and 9 are empty */
        {1, 1, 0},
        {2, 2, 1, 0},
        {3, 3, 1, 2, 0},
        {5, 5, 4, 3, 2, 1, 0},
        {9, 1, 9, 8, 2, 7, 3, 6, 4, 5, 0}};
    for (gsize o = 0; o < G_N_ELEMENTS(orders); o++) {
        guint n = orders[o][0];
        write_shards(dir, n, "abc");
        for (int json = 0; json <= 1; json++) {
            struct shard_merge m;
            GError *error = NULL;
            GPtrArray *files = NULL;
            ck_assert_msg(
                merge_slices(dir, n, json ? "json" : "csv", &orders[o][1], &m, &files, &error),
                "N=%u: %s", n, error != NULL ? error->message : "?");
            ck_assert_str_eq(m.digest_hex, digest);
            ck_assert_str_eq(m.scenario, scenario_name);
            ck_assert_uint_eq(m.points->len, POINTS);
            ck_assert_uint_eq(m.checks[0], 5); /* ok */
            ck_assert_uint_eq(m.checks[1], 1); /* FAIL */
            ck_assert_uint_eq(m.checks[3], 1); /* ERROR */
            if (!json) {
                g_autofree gchar *text = merged_csv(&m);
                ck_assert_str_eq(text, all);
            }
            shard_merge_clear(&m);
            g_ptr_array_free(files, TRUE);
        }
    }
    remove_dir(dir);
}
END_TEST

static void
expect_refusal(const char *dir, guint n, const char *ext, const guint *slices, int code,
               const char *words)
{
    struct shard_merge m;
    GError *error = NULL;
    GPtrArray *files = NULL;
    ck_assert_msg(!merge_slices(dir, n, ext, slices, &m, &files, &error), "merged: %s", words);
    g_ptr_array_free(files, TRUE);
    ck_assert_msg(g_error_matches(error, SHARD_ERROR, code), "%s", error->message);
    ck_assert_msg(strstr(error->message, words) != NULL, "'%s' not in: %s", words, error->message);
    g_error_free(error);
}

START_TEST(test_shard_merge_names_missing_repeated_and_foreign_shards)
{
    make_points();
    scenario_name = "unit";
    g_autofree gchar *dir = g_dir_make_tmp("check_shard_XXXXXX", NULL);
    write_shards(dir, 4, "abc");
    const char *exts[] = {"csv", "json"};
    for (int e = 0; e < 2; e++) {
        expect_refusal(dir, 4, exts[e], (const guint[]){1, 3, 0}, SHARD_ERROR_MISSING,
                       "missing shards 2/4, 4/4 of scenario 'unit' (2 of 4 given)");
        expect_refusal(dir, 4, exts[e], (const guint[]){1, 2, 3, 2, 4, 0}, SHARD_ERROR_DUPLICATE,
                       "shard 2/4 given twice");
    }
    /* slice 4 of another scenario */
    g_autofree gchar *other = g_dir_make_tmp("check_shard_XXXXXX", NULL);
    write_shards(other, 4, "def");
    g_autofree gchar *from = shard_path(other, 4, 4, "csv");
    g_autofree gchar *to = shard_path(dir, 4, 4, "csv");
    ck_assert_int_eq(g_rename(from, to), 0);
    expect_refusal(dir, 4, "csv", (const guint[]){1, 2, 3, 4, 0}, SHARD_ERROR_MISMATCH,
                   "not a shard of the same sweep");

    /* a shard cut short (no end line), then one edited */
    write_shards(dir, 4, "abc");
    g_autofree gchar *path = shard_path(dir, 2, 4, "csv");
    gchar *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    gchar *end = strstr(text, "# end of shard");
    ck_assert_ptr_nonnull(end);
    ck_assert(g_file_set_contents(path, text, end - text, NULL));
    expect_refusal(dir, 4, "csv", (const guint[]){1, 2, 3, 4, 0}, SHARD_ERROR_MISSING,
                   "shard 2/4 is incomplete");
    gchar *edited = g_strdup(text);
    gchar *ring = strstr(strstr(edited, "\n1,"), "ring");
    ring[0] = 'R';
    ck_assert(g_file_set_contents(path, edited, -1, NULL));
    expect_refusal(dir, 4, "csv", (const guint[]){1, 2, 3, 4, 0}, SHARD_ERROR_READ,
                   "does not match its own digest");
    g_free(edited);
    g_free(text);
    /* not a shard at all */
    ck_assert(g_file_set_contents(path, "index,collective\n", -1, NULL));
    expect_refusal(dir, 4, "csv", (const guint[]){2, 0}, SHARD_ERROR_READ,
                   "not a collsim shard file");
    remove_dir(dir);
    remove_dir(other);
}
END_TEST

static Suite *
shard_suite(void)
{
    Suite *s = suite_create("shard");
    TCase *spec = tcase_create("spec");
    tcase_add_test(spec, test_shard_spec_parses_good_values);
    tcase_add_test(spec, test_shard_spec_refuses_bad_values_saying_why);
    tcase_add_test(spec, test_shard_slices_partition_every_sweep);
    tcase_add_test(spec, test_shard_output_path_marks_the_slice_before_the_extension);
    suite_add_tcase(s, spec);
    TCase *merge = tcase_create("merge");
    tcase_add_loop_test(merge, test_shard_merge_gives_the_unsharded_csv_and_digest, 0, 2);
    tcase_add_test(merge, test_shard_merge_names_missing_repeated_and_foreign_shards);
    suite_add_tcase(s, merge);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(shard_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
