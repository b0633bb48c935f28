/*
 * check_report.c — the reports of `collsim run` (sim/report/report.c) from hand-made points and
 * results: exact table rows, number formats at their boundaries, CSV quoting, the JSON read
 * back with json-glib, the compact table (100 columns, programs included), files that stay complete after every point, the digest, the failure
 * count and the progress bar. Nothing is simulated.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "sim/report/decision_summary.h"
#include "sim/report/report.h"

/* ---------------------------------------------------------------- helpers */

/* A scratch directory for the CSV and JSON files, removed with everything in it. */
struct scratch {
    gchar *dir;
    gchar *csv;
    gchar *json;
};

static void
scratch_init(struct scratch *s)
{
    GError *error = NULL;
    s->dir = g_dir_make_tmp("check_report_XXXXXX", &error);
    ck_assert_msg(s->dir != NULL, "%s", error != NULL ? error->message : "?");
    s->csv = g_build_filename(s->dir, "out.csv", NULL);
    s->json = g_build_filename(s->dir, "out.json", NULL);
}

static void
scratch_clear(struct scratch *s)
{
    GDir *dir = g_dir_open(s->dir, 0, NULL);
    if (dir != NULL) {
        const char *name;
        while ((name = g_dir_read_name(dir)) != NULL) {
            g_autofree gchar *path = g_build_filename(s->dir, name, NULL);
            g_unlink(path);
        }
        g_dir_close(dir);
    }
    g_rmdir(s->dir);
    g_free(s->dir);
    g_free(s->csv);
    g_free(s->json);
}

static gchar *
read_text(const char *path)
{
    gchar *text = NULL;
    GError *error = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, NULL, &error), "%s", error->message);
    return text;
}

/* The accuracy fields of a point whose inputs were exact: nothing measured. */
#define NOT_MEASURED .max_ulps = NAN, .max_rel_error = NAN

static struct run_point
collective_point(guint index, enum coll_kind kind, char *algorithm, int nranks, guint64 bytes)
{
    return (struct run_point){
        .index = index,
        .nranks = nranks,
        .kind = kind,
        .algorithm = algorithm,
        .bytes = bytes,
        .count = (int)(bytes / 8),
        .datatype = "double",
        .op = kind == COLL_BARRIER || kind == COLL_BCAST ? NULL : "sum",
        .payload = SIM_PAYLOAD_DATA,
        .iterations = 10,
        .check = TRUE,
    };
}

static struct point_result
ok_result(char *served, double time_max, double predicted)
{
    return (struct point_result){
        NOT_MEASURED,
        .served = served,
        .time_max = time_max,
        .time_min = time_max / 2,
        .time_mean = time_max * 0.75,
        .messages = 14,
        .bytes_moved = 4096,
        .check = POINT_CHECK_OK,
        .predicted = predicted,
        .wall_seconds = 0.25,
    };
}

/* The table goes to a memory stream; report_* flush it after every row. */
struct table_capture {
    FILE *stream;
    char *text;
    size_t size;
};

static void
capture_open(struct table_capture *c)
{
    c->text = NULL;
    c->size = 0;
    c->stream = open_memstream(&c->text, &c->size);
    ck_assert_ptr_nonnull(c->stream);
}

static gchar *
capture_close(struct table_capture *c)
{
    fclose(c->stream);
    gchar *copy = g_strndup(c->text, c->size);
    free(c->text);
    return copy;
}

static struct report *
open_or_fail(const struct report_options *options, guint total)
{
    GError *error = NULL;
    struct report *report = report_open(options, total, &error);
    ck_assert_msg(report != NULL, "report_open: %s", error != NULL ? error->message : "?");
    return report;
}

static void
add_or_fail(struct report *report, const struct run_point *point, const struct point_result *result)
{
    GError *error = NULL;
    ck_assert_msg(report_add(report, point, result, &error), "report_add: %s",
                  error != NULL ? error->message : "?");
}

static gchar *
finish_or_fail(struct report *report)
{
    GError *error = NULL;
    gchar *digest = report_finish(report, &error);
    ck_assert_msg(digest != NULL, "report_finish: %s", error != NULL ? error->message : "?");
    return digest;
}

static guint
count_occurrences(const char *text, const char *needle)
{
    guint n = 0;
    for (const char *p = strstr(text, needle); p != NULL; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* ---------------------------------------------------------------- formats */

static void
assert_seconds(double seconds, const char *expected)
{
    g_autofree gchar *text = report_format_seconds(seconds);
    ck_assert_msg(strcmp(text, expected) == 0, "%.17g s -> \"%s\", expected \"%s\"", seconds, text,
                  expected);
}

START_TEST(test_report_format_seconds_boundaries)
{
    assert_seconds(0.0, "0.000 s");
    assert_seconds(5e-10, "0.500 ns");
    assert_seconds(999e-9, "999.000 ns");
    assert_seconds(1e-6, "1.000 us");
    /* rounds to 1000 ns: written in the next unit */
    assert_seconds(999.9996e-9, "1.000 us");
    assert_seconds(12.345e-6, "12.345 us");
    assert_seconds(999.999e-6, "999.999 us");
    assert_seconds(1e-3, "1.000 ms");
    assert_seconds(1.2344e-3, "1.234 ms");
    assert_seconds(1.0, "1.000 s");
    assert_seconds(3725.5, "3725.500 s");
    assert_seconds(NAN, "-");
    assert_seconds(INFINITY, "-");
}
END_TEST

static void
assert_bytes(guint64 bytes, const char *expected)
{
    g_autofree gchar *text = report_format_bytes(bytes);
    ck_assert_msg(strcmp(text, expected) == 0, "%" G_GUINT64_FORMAT " B -> \"%s\", expected \"%s\"",
                  bytes, text, expected);
}

START_TEST(test_report_format_bytes_boundaries)
{
    assert_bytes(0, "0 B");
    assert_bytes(8, "8 B");
    assert_bytes(1023, "1023 B");
    assert_bytes(1024, "1 KiB");
    assert_bytes(1536, "1.5 KiB");
    assert_bytes(65536, "64 KiB");
    assert_bytes(1048575, "1.0 MiB"); /* not "1024.0 KiB" */
    assert_bytes(1048576, "1 MiB");
    assert_bytes(G_GUINT64_CONSTANT(3) << 30, "3 GiB");
    assert_bytes(G_MAXUINT64, "16.0 EiB");
}
END_TEST

START_TEST(test_report_format_progress_text)
{
    g_autofree gchar *start = report_format_progress(0, 40, 0.2);
    ck_assert_str_eq(start, "[--------------------] 0/40 points  0:00 elapsed");
    /* 12 of 40 after 12 s: 6 of 20 cells, 28 points at 1 s each left */
    g_autofree gchar *middle = report_format_progress(12, 40, 12.0);
    ck_assert_str_eq(middle, "[######--------------] 12/40 points  0:12 elapsed  ~0:28 left");
    g_autofree gchar *long_run = report_format_progress(1, 2, 3725.0);
    ck_assert_str_eq(long_run, "[##########----------] 1/2 points  1:02:05 elapsed  ~1:02:05 left");
    g_autofree gchar *done = report_format_progress(40, 40, 95.0);
    ck_assert_str_eq(done, "[####################] 40/40 points  1:35 elapsed");
}
END_TEST

/* ---------------------------------------------------------------- the table */

/* Widths: collective 20 (reduce_scatter_block), algorithm 36 (the registry's longest name),
 * then P 7, bytes 10, three times 10, messages 10, bytes moved 11, check 5, predicted 10,
 * ratio 6, inputs 12, max ulps 9, rel error 9, two spaces between columns. */
static const char expected_header[] =
    "scenario rows: 4 points\n"
    "\n"
    "collective            algorithm                                   P       bytes    time max"
    "    time min   time mean    messages  bytes moved  check   predicted   ratio  inputs      "
    "   max ulps  rel error\n"
    "--------------------  ------------------------------------  -------  ----------  ----------"
    "  ----------  ----------  ----------  -----------  -----  ----------  ------  ------------"
    "  ---------  ---------\n";

/* the accuracy cells of a point with exact inputs: nothing measured */
#define EXACT_CELLS "  exact                 -          -"

/* allreduce ring, 8 ranks, 1 MiB, 1.234567 ms against a 1.2 ms prediction: ratio 1.029 */
static const char expected_ok_row[] =
    "allreduce             ring                                        8       1 MiB    1.235 ms"
    "    1.200 ms    1.210 ms         112       14 MiB  ok       1.200 ms   1.029" EXACT_CELLS "\n";

/* a fallback that fails its check, times at the ns/us boundary, no prediction */
static const char expected_fail_rows[] =
    "reduce                ring→in_order_binary [1]                    5      64 KiB  999.000 ns"
    "     0.000 s    1.000 us           4       1023 B  FAIL            -       -" EXACT_CELLS "\n"
    "    rank 3 element 17: got 5, expected 6\n";

/* a barrier has no size; payload none skips the check */
static const char expected_skipped_row[] =
    "barrier               dissemination                            1024           -   20.000 us"
    "   10.000 us   15.000 us       10240          0 B  -       18.000 us   1.111" EXACT_CELLS "\n";

/* a program that ended badly: no measurements, the error's lines indented */
static const char expected_error_rows[] =
    "program               doubling_sum.so                             4           -           -"
    "           -           -           -            -  ERROR           -       -  -           "
    "          -          -\n"
    "    rank 2: MPI_Recv: invalid source 9\n"
    "    (communicator of 4 ranks)\n";

static void
add_table_cases(struct report *report)
{
    struct run_point ok_point = collective_point(0, COLL_ALLREDUCE, "ring", 8, 1048576);
    struct point_result ok = {
        NOT_MEASURED,
        .served = "ring",
        .time_max = 1.234567e-3,
        .time_min = 1.2e-3,
        .time_mean = 1.21e-3,
        .messages = 112,
        .bytes_moved = 14680064,
        .check = POINT_CHECK_OK,
        .predicted = 1.2e-3,
        .wall_seconds = 0.5,
    };
    add_or_fail(report, &ok_point, &ok);

    struct run_point fail_point = collective_point(1, COLL_REDUCE, "ring", 5, 65536);
    fail_point.op = "complex_prod";
    struct point_result fail = {
        NOT_MEASURED,
        .served = "in_order_binary",
        .fallback_reason = "ring requires a commutative op",
        .time_max = 999e-9,
        .time_min = 0.0,
        .time_mean = 999.9996e-9,
        .messages = 4,
        .bytes_moved = 1023,
        .check = POINT_CHECK_FAIL,
        .check_detail = "rank 3 element 17: got 5, expected 6",
        .predicted = NAN,
        .wall_seconds = 0.125,
    };
    add_or_fail(report, &fail_point, &fail);

    struct run_point skipped_point = collective_point(2, COLL_BARRIER, "dissemination", 1024, 0);
    skipped_point.payload = SIM_PAYLOAD_NONE;
    struct point_result skipped = {
        NOT_MEASURED,
        .served = "dissemination",
        .time_max = 20e-6,
        .time_min = 10e-6,
        .time_mean = 15e-6,
        .messages = 10240,
        .bytes_moved = 0,
        .check = POINT_CHECK_SKIPPED,
        .predicted = 18e-6,
        .wall_seconds = 2.0,
    };
    add_or_fail(report, &skipped_point, &skipped);

    struct run_point program_point = {
        .index = 3, .nranks = 4, .program = "/somewhere/seeds/doubling_sum.so", .iterations = 1};
    struct point_result error = {
        NOT_MEASURED,
        .exit_code = 3,
        .served = "",
        .check = POINT_CHECK_ERROR,
        .check_detail = "rank 2: MPI_Recv: invalid source 9\n(communicator of 4 ranks)\n",
        .predicted = NAN,
        .output = "sum = 10\n",
    };
    add_or_fail(report, &program_point, &error);
}

START_TEST(test_report_table_rows_exact)
{
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream, .scenario = "rows"};
    struct report *report = open_or_fail(&options, 4);

    /* the header is there before any point finishes */
    fflush(capture.stream);
    ck_assert_str_eq(capture.text, expected_header);

    add_table_cases(report);
    /* and each row as soon as its point is added */
    fflush(capture.stream);
    g_autofree gchar *rows = g_strconcat(expected_header, expected_ok_row, expected_fail_rows,
                                         expected_skipped_row, expected_error_rows, NULL);
    ck_assert_str_eq(capture.text, rows);

    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_autofree gchar *table = capture_close(&capture);
    g_autofree gchar *expected = g_strdup_printf("%s\n"
                                                 "[1] ring requires a commutative op\n"
                                                 "4 points: 1 ok, 1 FAIL, 1 ERROR, 1 skipped\n"
                                                 "digest sha256:%s\n",
                                                 rows, digest);
    ck_assert_str_eq(table, expected);
    ck_assert_uint_eq(strlen(digest), 64);
}
END_TEST

START_TEST(test_report_fallback_footnote_once_per_reason)
{
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream};
    struct report *report = open_or_fail(&options, 4);

    struct run_point point = collective_point(0, COLL_ALLREDUCE, "ring", 3, 64);
    struct point_result result = ok_result("reduce_bcast", 1e-5, NAN);
    result.fallback_reason = "requires commutative op";
    add_or_fail(report, &point, &result);
    point.index = 1;
    point.algorithm = "rabenseifner";
    add_or_fail(report, &point, &result);
    point.index = 2;
    point.algorithm = "halving_doubling";
    result.fallback_reason = "requires power-of-two ranks";
    result.served = "recursive_doubling";
    add_or_fail(report, &point, &result);
    /* a fallback without an explicit request has nothing to put before an arrow */
    point.index = 3;
    point.algorithm = NULL;
    result.fallback_reason = "requires commutative op";
    result.served = "reduce_bcast";
    add_or_fail(report, &point, &result);

    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_autofree gchar *table = capture_close(&capture);

    ck_assert_ptr_nonnull(strstr(table, "  ring→reduce_bcast [1]  "));
    ck_assert_ptr_nonnull(strstr(table, "  rabenseifner→reduce_bcast [1]  "));
    ck_assert_ptr_nonnull(strstr(table, "  halving_doubling→recursive_doubling [2]  "));
    ck_assert_ptr_nonnull(strstr(table, "  reduce_bcast [1]  "));
    ck_assert_uint_eq(count_occurrences(table, "requires commutative op"), 1);
    ck_assert_uint_eq(count_occurrences(table, "requires power-of-two ranks"), 1);
    ck_assert_ptr_nonnull(strstr(table, "\n\n[1] requires commutative op\n"
                                        "[2] requires power-of-two ranks\n"
                                        "4 points: 4 ok, 0 FAIL, 0 ERROR, 0 skipped\n"));
    /* the arrow counts as one column, so rows that fit stay aligned with the header; the
     * 39-character cell overflows the algorithm column by 3 and pushes its own row only */
    gchar **lines = g_strsplit(table, "\n", -1);
    glong header = g_utf8_strlen(lines[2], -1);
    ck_assert(g_str_has_prefix(lines[2], "collective "));
    ck_assert_int_eq(g_utf8_strlen(lines[4], -1), header);
    ck_assert_int_eq(g_utf8_strlen(lines[5], -1), header);
    ck_assert_int_eq(g_utf8_strlen(lines[6], -1), header + 3);
    ck_assert_int_eq(g_utf8_strlen(lines[7], -1), header);
    g_strfreev(lines);
}
END_TEST

START_TEST(test_report_interrupted_sweep_summary)
{
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream};
    struct report *report = open_or_fail(&options, 5);
    struct run_point point = collective_point(0, COLL_BCAST, "binomial", 4, 8);
    struct point_result result = ok_result("binomial", 2e-6, 2e-6);
    add_or_fail(report, &point, &result);
    point.index = 1;
    result.check = POINT_CHECK_FAIL;
    add_or_fail(report, &point, &result);
    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_autofree gchar *table = capture_close(&capture);
    ck_assert_ptr_nonnull(strstr(table, "\n2 of 5 points: 1 ok, 1 FAIL, 0 ERROR, 0 skipped\n"));
    /* a FAIL without a detail gets no detail line */
    ck_assert_ptr_null(strstr(table, "\n    "));
}
END_TEST

/* ---------------------------------------------------------------- the compact table */

/* The quickstart's sweep: every Allreduce algorithm, P 8 and 16, 8 B and 1 MiB; at 8 B the
 * ring family falls back to recursive_doubling, as collsim run shows. */
static const char *const quickstart_algorithms[] = {
    "reduce_bcast", "recursive_doubling", "halving_doubling", "ring",
    "ring_segmented", "rabenseifner", "smp"};

static gchar *
compact_quickstart_table(gboolean compact)
{
    struct table_capture capture;
    capture_open(&capture);
    GPtrArray *points = g_ptr_array_new_with_free_func(g_free);
    for (gsize a = 0; a < G_N_ELEMENTS(quickstart_algorithms); a++)
        for (int p = 8; p <= 16; p *= 2)
            for (guint64 bytes = 8; bytes <= 1048576; bytes *= 131072) {
                struct run_point *point = g_new(struct run_point, 1);
                *point = collective_point(points->len, COLL_ALLREDUCE,
                                          (char *)quickstart_algorithms[a], p, bytes);
                g_ptr_array_add(points, point);
            }
    struct report_options options = {
        .table = capture.stream, .scenario = "quickstart", .compact = compact, .points = points};
    struct report *report = open_or_fail(&options, points->len);
    for (guint i = 0; i < points->len; i++) {
        const struct run_point *point = g_ptr_array_index(points, i);
        gboolean falls_back = point->bytes == 8 && (strncmp(point->algorithm, "ring", 4) == 0 ||
                                                    strcmp(point->algorithm, "rabenseifner") == 0);
        struct point_result result =
            ok_result(falls_back ? "recursive_doubling" : point->algorithm, 738.314e-6, 838.312e-6);
        result.messages = 4294967295u;
        result.bytes_moved = 31u << 20;
        if (falls_back)
            result.fallback_reason = "requires count >= ranks";
        add_or_fail(report, point, &result);
    }
    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_ptr_array_free(points, TRUE);
    return capture_close(&capture);
}

START_TEST(test_report_compact_table_fits_100_columns)
{
    g_autofree gchar *table = compact_quickstart_table(TRUE);
    gchar **lines = g_strsplit(table, "\n", -1);
    guint rows = 0;
    for (int i = 0; lines[i] != NULL; i++) {
        ck_assert_msg(g_utf8_strlen(lines[i], -1) <= REPORT_COMPACT_COLUMNS,
                      "line %d is %ld columns: %s", i, g_utf8_strlen(lines[i], -1), lines[i]);
        ck_assert(!g_str_has_suffix(lines[i], " "));
        rows += g_str_has_prefix(lines[i], "allreduce ");
    }
    ck_assert_uint_eq(rows, 28);
    /* the columns a reader needs; the long ones stay in --wide, CSV and JSON */
    ck_assert(g_str_has_prefix(lines[2], "collective  algorithm "));
    ck_assert_ptr_nonnull(strstr(lines[2], "  P  bytes    time max  check   predicted   ratio"));
    ck_assert_ptr_null(strstr(lines[2], "time min"));
    ck_assert_ptr_null(strstr(lines[2], "bytes moved"));
    ck_assert_ptr_nonnull(strstr(table, "  ring_segmented→recursive_doubling [1]   "));
    ck_assert_ptr_nonnull(strstr(table, "\n[1] requires count >= ranks\n"));
    g_strfreev(lines);
}
END_TEST

START_TEST(test_report_wide_table_has_every_column)
{
    g_autofree gchar *table = compact_quickstart_table(FALSE);
    gchar **lines = g_strsplit(table, "\n", -1);
    ck_assert_str_eq(lines[2], "collective            algorithm                                   P  "
                               "     bytes    time max    time min   time mean    messages  bytes "
                               "moved  check   predicted   ratio  inputs         max ulps  rel "
                               "error");
    ck_assert_ptr_nonnull(strstr(table, " 4294967295 "));
    g_strfreev(lines);
}
END_TEST

START_TEST(test_report_compact_table_shows_programs)
{
    struct table_capture capture;
    capture_open(&capture);
    GPtrArray *points = g_ptr_array_new();
    struct run_point program = {.index = 0, .nranks = 16, .program = "/x/doubling_sum.so"};
    struct run_point collective = collective_point(1, COLL_BCAST, "binomial", 4, 64);
    g_ptr_array_add(points, &program);
    g_ptr_array_add(points, &collective);
    struct report_options options = {.table = capture.stream, .compact = TRUE, .points = points};
    struct report *report = open_or_fail(&options, 2);
    struct point_result ran = {NOT_MEASURED,
                               .served = "",
                               .time_max = 3.888e-3,
                               .messages = 222,
                               .bytes_moved = 1024,
                               .check = POINT_CHECK_OK,
                               .predicted = NAN,
                               .output = "sum = 10\n"};
    add_or_fail(report, &program, &ran);
    struct point_result bcast = ok_result("binomial", 2e-6, 2e-6);
    add_or_fail(report, &collective, &bcast);
    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_ptr_array_free(points, TRUE);
    g_autofree gchar *table = capture_close(&capture);
    /* a program's traffic is shown beside the collectives' predictions */
    ck_assert_ptr_nonnull(strstr(table, "collective  algorithm         P  bytes    time max    "
                                        "messages  bytes moved  check   predicted   ratio\n"));
    ck_assert_ptr_nonnull(strstr(table, "\nprogram     doubling_sum.so  16      -    3.888 ms  "
                                        "       222        1 KiB  ok              -       -\n"));
    ck_assert_ptr_nonnull(strstr(table, "\nbcast       binomial          4   64 B    2.000 us  "
                                        "        14        4 KiB  ok       2.000 us   1.000\n"));
}
END_TEST

/* ---------------------------------------------------------------- CSV */

static const char expected_csv_header[] =
    "index,collective,algorithm_requested,algorithm_served,fallback_reason,ranks,bytes,count,"
    "datatype,op,root,payload,iterations,time_max_s,time_min_s,time_mean_s,messages,"
    "bytes_moved,check,check_detail,predicted_s,inputs,max_ulps,max_rel_error,identical,"
    "results_sha256,wall_s\n";

START_TEST(test_report_csv_rows_and_quoting)
{
    struct scratch s;
    scratch_init(&s);
    struct report_options options = {.csv_path = s.csv};
    struct report *report = open_or_fail(&options, 3);

    struct run_point point = collective_point(0, COLL_ALLREDUCE, "ring", 8, 1048576);
    struct point_result ok = {
        NOT_MEASURED,
        .served = "ring",
        .time_max = 1.234567e-3,
        .time_min = 1.2e-3,
        .time_mean = 0.1,
        .messages = 112,
        .bytes_moved = 14680064,
        .check = POINT_CHECK_OK,
        .predicted = 1.0 / 3.0,
        .wall_seconds = 0.5,
    };
    add_or_fail(report, &point, &ok);

    struct run_point quoted_point = collective_point(1, COLL_REDUCE, NULL, 5, 64);
    quoted_point.root = 4;
    quoted_point.payload = SIM_PAYLOAD_NONE;
    struct point_result fail = {
        NOT_MEASURED,
        .served = "binomial",
        .fallback_reason = "a, b",
        .time_max = 2e-6,
        .time_min = 1e-6,
        .time_mean = 1.5e-6,
        .messages = 4,
        .bytes_moved = 256,
        .check = POINT_CHECK_FAIL,
        .check_detail = "got \"5\", expected 6\nsecond line",
        .predicted = NAN,
        .wall_seconds = 1.0,
    };
    add_or_fail(report, &quoted_point, &fail);

    struct run_point program = {.index = 2, .nranks = 4, .program = "dir/prog.so"};
    struct point_result skipped = {
        NOT_MEASURED,
        .served = "",
        .time_max = 1e-3,
        .time_min = 1e-3,
        .time_mean = 1e-3,
        .check = POINT_CHECK_SKIPPED,
        .check_detail = "first\nsecond",
        .predicted = NAN,
        .output = "x",
    };
    add_or_fail(report, &program, &skipped);

    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);
    g_autofree gchar *csv = read_text(s.csv);
    g_autofree gchar *expected = g_strconcat(
        expected_csv_header,
        /* doubles with the fewest digits that read back exactly: 1/3 needs 16 */
        "0,allreduce,ring,ring,,8,1048576,131072,double,sum,0,data,10,1.234567e-03,1.2e-03,"
        "1e-01,112,14680064,ok,,3.333333333333333e-01,exact,,,,,5e-01\n",
        /* default algorithm: empty request; comma, quotes and newline quoted; NAN empty */
        "1,reduce,,binomial,\"a, b\",5,64,8,double,sum,4,none,10,2e-06,1e-06,1.5e-06,4,256,FAIL,"
        "\"got \"\"5\"\", expected 6\nsecond line\",,exact,,,,,1e+00\n",
        /* a program: its name for the algorithm, no collective parameters */
        "2,program,prog.so,prog.so,,4,,,,,,data,,1e-03,1e-03,1e-03,0,0,skipped,\"first\nsecond\",,"
        ",,,,,0e+00\n",
        NULL);
    ck_assert_str_eq(csv, expected);
    scratch_clear(&s);
}
END_TEST

/* ---------------------------------------------------------------- JSON */

static JsonObject *
load_json(JsonParser *parser, const char *path)
{
    GError *error = NULL;
    ck_assert_msg(json_parser_load_from_file(parser, path, &error), "%s: %s", path, error->message);
    JsonNode *root = json_parser_get_root(parser);
    ck_assert_int_eq(JSON_NODE_TYPE(root), JSON_NODE_OBJECT);
    return json_node_get_object(root);
}

START_TEST(test_report_json_parses_back)
{
    struct scratch s;
    scratch_init(&s);
    struct report_options options = {.json_path = s.json, .scenario = "json \"quoted\""};
    struct report *report = open_or_fail(&options, 2);

    struct run_point point = collective_point(0, COLL_SCAN, NULL, 6, 48);
    struct point_result result = ok_result("recursive_doubling", 1.0 / 3.0 * 1e-5, NAN);
    result.messages = G_GUINT64_CONSTANT(5000000000);
    add_or_fail(report, &point, &result);
    struct run_point program = {.index = 1, .nranks = 2, .program = "/a/b/prog.so"};
    struct point_result output = {
        NOT_MEASURED,
        .served = "", .check = POINT_CHECK_OK, .predicted = 4e-6, .output = "line 1\nline \"2\"\n"};
    add_or_fail(report, &program, &output);

    JsonParser *parser = json_parser_new();
    JsonObject *root = load_json(parser, s.json);
    ck_assert(!json_object_has_member(root, "digest"));
    g_object_unref(parser);

    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);

    parser = json_parser_new();
    root = load_json(parser, s.json);
    ck_assert_str_eq(json_object_get_string_member(root, "scenario"), "json \"quoted\"");
    ck_assert_str_eq(json_object_get_string_member(root, "digest"), digest);
    JsonArray *points = json_object_get_array_member(root, "points");
    ck_assert_uint_eq(json_array_get_length(points), 2);

    JsonObject *first = json_array_get_object_element(points, 0);
    ck_assert_int_eq(json_object_get_int_member(first, "index"), 0);
    ck_assert_str_eq(json_object_get_string_member(first, "collective"), "scan");
    ck_assert(json_object_get_null_member(first, "algorithm_requested"));
    ck_assert_str_eq(json_object_get_string_member(first, "algorithm_served"),
                     "recursive_doubling");
    ck_assert(json_object_get_null_member(first, "fallback_reason"));
    ck_assert_int_eq(json_object_get_int_member(first, "ranks"), 6);
    ck_assert_int_eq(json_object_get_int_member(first, "bytes"), 48);
    ck_assert_int_eq(json_object_get_int_member(first, "count"), 6);
    ck_assert_str_eq(json_object_get_string_member(first, "op"), "sum");
    ck_assert_str_eq(json_object_get_string_member(first, "payload"), "data");
    /* numbers are numbers, and exact */
    ck_assert(json_object_get_double_member(first, "time_max_s") == 1.0 / 3.0 * 1e-5);
    ck_assert(json_object_get_double_member(first, "time_min_s") == 1.0 / 3.0 * 1e-5 / 2);
    ck_assert_int_eq(json_object_get_int_member(first, "messages"), 5000000000);
    ck_assert_int_eq(json_object_get_int_member(first, "bytes_moved"), 4096);
    ck_assert_str_eq(json_object_get_string_member(first, "check"), "ok");
    ck_assert(json_object_get_null_member(first, "check_detail"));
    ck_assert(json_object_get_null_member(first, "predicted_s"));
    ck_assert(json_object_get_double_member(first, "wall_s") == 0.25);
    ck_assert(!json_object_has_member(first, "program"));
    ck_assert(!json_object_has_member(first, "output"));

    JsonObject *second = json_array_get_object_element(points, 1);
    ck_assert_str_eq(json_object_get_string_member(second, "collective"), "program");
    ck_assert_str_eq(json_object_get_string_member(second, "algorithm_served"), "prog.so");
    ck_assert_str_eq(json_object_get_string_member(second, "program"), "/a/b/prog.so");
    ck_assert_str_eq(json_object_get_string_member(second, "output"), "line 1\nline \"2\"\n");
    ck_assert(json_object_get_null_member(second, "bytes"));
    ck_assert(json_object_get_null_member(second, "iterations"));
    ck_assert(json_object_get_double_member(second, "predicted_s") == 4e-6);
    g_object_unref(parser);
    scratch_clear(&s);
}
END_TEST

/* Accuracy on non-exact inputs: the table's last three cells, the CSV's and JSON's five
 * fields, an infinite relative error (an exact sum of 0), and the reproducible mode's cell. */
START_TEST(test_report_accuracy_columns)
{
    struct scratch s;
    scratch_init(&s);
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {
        .table = capture.stream, .csv_path = s.csv, .json_path = s.json, .scenario = "acc"};
    struct report *report = open_or_fail(&options, 2);

    struct run_point point = collective_point(0, COLL_ALLREDUCE, "reproducible", 7, 1024);
    point.inputs = POINT_INPUTS_RANDOM;
    point.inputs_seed = 42;
    struct point_result result = ok_result("recursive_doubling", 2e-6, NAN);
    result.max_ulps = 1.6894e15;
    result.max_rel_error = 0.2727;
    result.identical = POINT_IDENTITY_IDENTICAL;
    result.results_sha256 = "5f3a";
    add_or_fail(report, &point, &result);

    struct run_point zero = collective_point(1, COLL_REDUCE, "chain", 2, 8);
    zero.inputs = POINT_INPUTS_CANCELLATION;
    struct point_result off = ok_result("chain", 1e-6, NAN);
    off.max_ulps = 0.5;
    off.max_rel_error = INFINITY;
    off.results_sha256 = "77";
    add_or_fail(report, &zero, &off);
    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);

    g_autofree gchar *table = capture_close(&capture);
    g_auto(GStrv) lines = g_strsplit(table, "\n", -1);
    ck_assert(
        g_str_has_prefix(lines[4], "allreduce             recursive_doubling (reproducible)"));
    ck_assert_msg(g_str_has_suffix(lines[4], "  random:42     1.689e+15  2.727e-01"), "%s",
                  lines[4]);
    ck_assert_msg(g_str_has_suffix(lines[5], "  cancellation        0.5        inf"), "%s",
                  lines[5]);

    g_autofree gchar *csv = read_text(s.csv);
    g_auto(GStrv) rows = g_strsplit(csv, "\n", -1);
    ck_assert_msg(g_str_has_suffix(rows[1], ",random:42,1.6894e+15,2.727e-01,yes,5f3a,2.5e-01"),
                  "%s", rows[1]);
    ck_assert_msg(g_str_has_suffix(rows[2], ",cancellation,5e-01,inf,,77,2.5e-01"), "%s", rows[2]);

    JsonParser *parser = json_parser_new();
    JsonObject *root = load_json(parser, s.json);
    JsonArray *points = json_object_get_array_member(root, "points");
    JsonObject *first = json_array_get_object_element(points, 0);
    ck_assert_str_eq(json_object_get_string_member(first, "algorithm_requested"), "reproducible");
    ck_assert_str_eq(json_object_get_string_member(first, "inputs"), "random:42");
    ck_assert(json_object_get_double_member(first, "max_ulps") == 1.6894e15);
    ck_assert(json_object_get_double_member(first, "max_rel_error") == 0.2727);
    ck_assert_str_eq(json_object_get_string_member(first, "identical"), "yes");
    ck_assert_str_eq(json_object_get_string_member(first, "results_sha256"), "5f3a");
    JsonObject *second = json_array_get_object_element(points, 1);
    ck_assert(json_object_get_null_member(second, "max_rel_error"));
    ck_assert(json_object_get_null_member(second, "identical"));
    ck_assert_str_eq(json_object_get_string_member(root, "digest"), digest);
    g_object_unref(parser);
    scratch_clear(&s);
}
END_TEST

/* ---------------------------------------------------------------- interruption */

START_TEST(test_report_files_complete_after_each_add)
{
    struct scratch s;
    scratch_init(&s);
    struct report_options options = {.csv_path = s.csv, .json_path = s.json};
    struct report *report = open_or_fail(&options, 10);

    /* before any point: a CSV header and a JSON document with no points */
    g_autofree gchar *csv0 = read_text(s.csv);
    ck_assert_str_eq(csv0, expected_csv_header);
    JsonParser *parser = json_parser_new();
    JsonObject *root = load_json(parser, s.json);
    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(root, "points")), 0);
    g_object_unref(parser);

    for (guint i = 0; i < 3; i++) {
        struct run_point point = collective_point(i, COLL_ALLGATHER, "ring", 2 + (int)i, 1024);
        struct point_result result = ok_result("ring", 1e-6 * (i + 1), 1e-6);
        add_or_fail(report, &point, &result);

        /* read as another process would, with the report still open */
        g_autofree gchar *csv = read_text(s.csv);
        ck_assert_uint_eq(count_occurrences(csv, "\n"), i + 2);
        g_autofree gchar *row_start = g_strdup_printf("\n%u,allgather,ring,ring,,%u,", i, 2 + i);
        ck_assert_ptr_nonnull(strstr(csv, row_start));

        parser = json_parser_new();
        root = load_json(parser, s.json);
        JsonArray *points = json_object_get_array_member(root, "points");
        ck_assert_uint_eq(json_array_get_length(points), i + 1);
        JsonObject *last = json_array_get_object_element(points, i);
        ck_assert_int_eq(json_object_get_int_member(last, "ranks"), 2 + (int)i);
        ck_assert(!json_object_has_member(root, "digest"));
        g_object_unref(parser);

        g_autofree gchar *tmp = g_strconcat(s.json, ".tmp", NULL);
        ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
    }

    /* the sweep dies here: no report_finish */
    report_free(report);
    g_autofree gchar *csv = read_text(s.csv);
    ck_assert_uint_eq(count_occurrences(csv, "\n"), 4);
    parser = json_parser_new();
    root = load_json(parser, s.json);
    ck_assert_uint_eq(json_array_get_length(json_object_get_array_member(root, "points")), 3);
    g_object_unref(parser);
    scratch_clear(&s);
}
END_TEST

START_TEST(test_report_json_failure_keeps_other_outputs)
{
    struct scratch s;
    scratch_init(&s);
    g_autofree gchar *json_dir = g_build_filename(s.dir, "sub", NULL);
    ck_assert_int_eq(g_mkdir(json_dir, 0700), 0);
    g_autofree gchar *json = g_build_filename(json_dir, "out.json", NULL);
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream, .csv_path = s.csv, .json_path = json};
    struct report *report = open_or_fail(&options, 2);

    /* the JSON's directory disappears mid-sweep */
    ck_assert_int_eq(g_unlink(json), 0);
    ck_assert_int_eq(g_rmdir(json_dir), 0);

    struct run_point point = collective_point(0, COLL_GATHER, "linear", 4, 8);
    struct point_result result = ok_result("linear", 3e-6, NAN);
    result.check = POINT_CHECK_ERROR;
    GError *error = NULL;
    ck_assert(!report_add(report, &point, &result, &error));
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_nonnull(strstr(error->message, "out.json.tmp"));
    g_error_free(error);
    /* the failure still counts, and the other outputs have the point */
    ck_assert_uint_eq(report_failures(report), 1);
    g_autofree gchar *csv = read_text(s.csv);
    ck_assert_ptr_nonnull(strstr(csv, "\n0,gather,linear,linear,,4,8,1,double,sum,"));
    fflush(capture.stream);
    ck_assert_ptr_nonnull(strstr(capture.text, "\ngather  "));

    report_free(report);
    g_free(capture_close(&capture));
    scratch_clear(&s);
}
END_TEST

START_TEST(test_report_finish_failure_still_ends_table_and_csv)
{
    struct scratch s;
    scratch_init(&s);
    g_autofree gchar *json_dir = g_build_filename(s.dir, "sub", NULL);
    ck_assert_int_eq(g_mkdir(json_dir, 0700), 0);
    g_autofree gchar *json = g_build_filename(json_dir, "out.json", NULL);
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream, .csv_path = s.csv, .json_path = json};
    struct report *report = open_or_fail(&options, 1);
    struct run_point point = collective_point(0, COLL_EXSCAN, "linear", 3, 16);
    struct point_result result = ok_result("linear", 3e-6, NAN);
    add_or_fail(report, &point, &result);

    ck_assert_int_eq(g_unlink(json), 0);
    ck_assert_int_eq(g_rmdir(json_dir), 0);
    GError *error = NULL;
    ck_assert_ptr_null(report_finish(report, &error));
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_nonnull(strstr(error->message, "out.json.tmp"));
    g_error_free(error);
    fflush(capture.stream);
    ck_assert_ptr_nonnull(strstr(capture.text, "\n1 point: 1 ok, 0 FAIL, 0 ERROR, 0 skipped\n"
                                               "digest sha256:"));
    report_free(report);
    g_free(capture_close(&capture));
    g_autofree gchar *csv = read_text(s.csv);
    ck_assert_uint_eq(count_occurrences(csv, "\n"), 2);
    scratch_clear(&s);
}
END_TEST

START_TEST(test_report_open_refuses_unwritable_files)
{
    struct scratch s;
    scratch_init(&s);
    g_autofree gchar *missing = g_build_filename(s.dir, "no", "such", "dir", "out.csv", NULL);

    struct report_options csv_options = {.csv_path = missing};
    GError *error = NULL;
    ck_assert_ptr_null(report_open(&csv_options, 1, &error));
    ck_assert_ptr_nonnull(error);
    ck_assert(g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_NOENT));
    ck_assert_ptr_nonnull(strstr(error->message, missing));
    g_clear_error(&error);

    struct report_options json_options = {.csv_path = s.csv, .json_path = missing};
    ck_assert_ptr_null(report_open(&json_options, 1, &error));
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_nonnull(strstr(error->message, "out.csv.tmp"));
    g_clear_error(&error);
    scratch_clear(&s);
}
END_TEST

/*
 * The disk fills in the middle of a CSV row, as a file size limit makes it (EFBIG where a full
 * disk gives ENOSPC, after writing the part that fits): the file is cut back to the rows
 * before, the next rows are refused rather than written after the gap, and report_finish
 * says so again.
 */
START_TEST(test_report_csv_row_that_does_not_fit_is_cut_back)
{
    struct scratch s;
    scratch_init(&s);
    struct report_options options = {.csv_path = s.csv};
    struct report *report = open_or_fail(&options, 3);
    struct run_point first = collective_point(0, COLL_ALLREDUCE, "ring", 8, 4096);
    struct point_result result = ok_result("ring", 1.5e-5, 1.4e-5);
    add_or_fail(report, &first, &result);
    g_autofree gchar *before = read_text(s.csv);
    gsize row_length = strlen(before) - strlen(expected_csv_header);

    /* the limit falls in the middle of the second row, whose length is the first's */
    struct rlimit saved_limit;
    ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &saved_limit), 0);
    struct rlimit limit = saved_limit;
    limit.rlim_cur = (rlim_t)(strlen(before) + row_length / 2);
    void (*saved_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &limit), 0);

    struct run_point second = collective_point(1, COLL_ALLREDUCE, "ring", 16, 4096);
    GError *error = NULL;
    gboolean added = report_add(report, &second, &result, &error);
    ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &saved_limit), 0);
    signal(SIGXFSZ, saved_handler);

    ck_assert(!added);
    ck_assert_ptr_nonnull(error);
    g_autofree gchar *expected_message =
        g_strdup_printf("cannot write '%s': %s", s.csv, g_strerror(EFBIG));
    ck_assert_str_eq(error->message, expected_message);
    g_clear_error(&error);
    g_autofree gchar *after = read_text(s.csv);
    ck_assert_str_eq(after, before);

    /* room again: a later row would leave a gap, so it is refused, and so is the finish */
    struct run_point third = collective_point(2, COLL_ALLREDUCE, "ring", 32, 4096);
    ck_assert(!report_add(report, &third, &result, &error));
    ck_assert_str_eq(error->message, expected_message);
    g_clear_error(&error);
    ck_assert_ptr_null(report_finish(report, &error));
    ck_assert_str_eq(error->message, expected_message);
    g_clear_error(&error);
    report_free(report);
    g_autofree gchar *last = read_text(s.csv);
    ck_assert_str_eq(last, before);
    scratch_clear(&s);
}
END_TEST

/* A JSON file is replaced after each point: a name that is not a regular file is refused
 * before anything is written, and stays what it was. */
START_TEST(test_report_open_refuses_a_json_that_is_no_regular_file)
{
    struct scratch s;
    scratch_init(&s);
    ck_assert_int_eq(mkfifo(s.json, 0600), 0);
    struct report_options options = {.csv_path = s.csv, .json_path = s.json};
    GError *error = NULL;
    ck_assert_ptr_null(report_open(&options, 1, &error));
    ck_assert(g_error_matches(error, G_FILE_ERROR, G_FILE_ERROR_INVAL));
    g_autofree gchar *expected = g_strdup_printf("cannot write '%s': not a regular file", s.json);
    ck_assert_msg(g_str_has_prefix(error->message, expected), "%s", error->message);
    g_clear_error(&error);
    GStatBuf status;
    ck_assert_int_eq(g_stat(s.json, &status), 0);
    ck_assert(S_ISFIFO(status.st_mode));
    ck_assert(!g_file_test(s.csv, G_FILE_TEST_EXISTS));
    scratch_clear(&s);
}
END_TEST

/* ---------------------------------------------------------------- digest */

/* The digest of a sweep of three points, optionally changing one value first. */
enum mutation {
    MUTATE_NOTHING,
    MUTATE_WALL_TIME,
    MUTATE_TIME_MAX_ULP,
    MUTATE_TIME_MEAN_ULP,
    MUTATE_PREDICTED_ULP,
    MUTATE_MESSAGES,
    MUTATE_CHECK_DETAIL,
    MUTATE_OUTPUT,
    MUTATE_SERVED,
    MUTATE_MAX_ULPS,
    MUTATE_MAX_REL_ERROR,
    MUTATE_IDENTICAL,
    MUTATE_RESULTS_SHA256,
    MUTATE_INPUTS_SEED,
    MUTATE_COUNT
};

static gchar *
digest_of_sweep(enum mutation mutation, gchar **table_text)
{
    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream, .scenario = "digest"};
    struct report *report = open_or_fail(&options, 3);

    struct run_point a = collective_point(0, COLL_ALLREDUCE, "ring", 8, 4096);
    struct point_result ra = ok_result("ring", 1.5e-5, 1.4e-5);
    struct run_point b = collective_point(1, COLL_REDUCE, "binomial", 7, 4096);
    struct point_result rb = ok_result("binomial", 9e-6, 8e-6);
    b.inputs = POINT_INPUTS_RANDOM;
    b.inputs_seed = 7;
    rb.max_ulps = 16;
    rb.max_rel_error = 1.994e-15;
    ra.identical = POINT_IDENTITY_IDENTICAL;
    rb.results_sha256 = "00ff";
    rb.check = POINT_CHECK_FAIL;
    rb.check_detail = "rank 1 element 0: got 1, expected 2";
    struct run_point c = {.index = 2, .nranks = 3, .program = "p.so"};
    struct point_result rc = {NOT_MEASURED,
                              .served = "",
                              .time_max = 2e-3,
                              .check = POINT_CHECK_OK,
                              .predicted = NAN,
                              .output = "result 42\n"};

    switch (mutation) {
    case MUTATE_NOTHING:
        break;
    case MUTATE_WALL_TIME:
        ra.wall_seconds = 99.0;
        rb.wall_seconds = 0.001;
        rc.wall_seconds = 7.0;
        break;
    case MUTATE_TIME_MAX_ULP:
        ra.time_max = nextafter(ra.time_max, 1.0);
        break;
    case MUTATE_TIME_MEAN_ULP:
        rb.time_mean = nextafter(rb.time_mean, 0.0);
        break;
    case MUTATE_PREDICTED_ULP:
        ra.predicted = nextafter(ra.predicted, 1.0);
        break;
    case MUTATE_MESSAGES:
        rb.messages++;
        break;
    case MUTATE_CHECK_DETAIL:
        rb.check_detail = "rank 1 element 0: got 1, expected 3";
        break;
    case MUTATE_OUTPUT:
        rc.output = "result 43\n";
        break;
    case MUTATE_SERVED:
        ra.served = "ring_segmented";
        break;
    case MUTATE_MAX_ULPS:
        rb.max_ulps = nextafter(rb.max_ulps, 0.0);
        break;
    case MUTATE_MAX_REL_ERROR:
        rb.max_rel_error = nextafter(rb.max_rel_error, 1.0);
        break;
    case MUTATE_IDENTICAL:
        ra.identical = POINT_IDENTITY_DIFFERENT;
        break;
    case MUTATE_RESULTS_SHA256:
        rb.results_sha256 = "00fe";
        break;
    case MUTATE_INPUTS_SEED:
        b.inputs_seed = 8;
        break;
    case MUTATE_COUNT:
        break;
    }
    add_or_fail(report, &a, &ra);
    add_or_fail(report, &b, &rb);
    add_or_fail(report, &c, &rc);
    gchar *digest = finish_or_fail(report);
    report_free(report);
    gchar *table = capture_close(&capture);
    if (table_text != NULL)
        *table_text = table;
    else
        g_free(table);
    return digest;
}

START_TEST(test_report_digest_equal_for_equal_results_whatever_the_wall_time)
{
    gchar *table1 = NULL, *table2 = NULL, *table3 = NULL;
    g_autofree gchar *first = digest_of_sweep(MUTATE_NOTHING, &table1);
    g_autofree gchar *again = digest_of_sweep(MUTATE_NOTHING, &table2);
    g_autofree gchar *other_wall = digest_of_sweep(MUTATE_WALL_TIME, &table3);
    ck_assert_str_eq(first, again);
    ck_assert_str_eq(first, other_wall);
    /* the table too is the same, byte for byte */
    ck_assert_str_eq(table1, table2);
    ck_assert_str_eq(table1, table3);
    g_free(table1);
    g_free(table2);
    g_free(table3);
}
END_TEST

START_TEST(test_report_digest_changes_with_any_simulated_value)
{
    g_autofree gchar *reference = digest_of_sweep(MUTATE_NOTHING, NULL);
    gchar *digest = digest_of_sweep((enum mutation)_i, NULL);
    ck_assert_msg(strcmp(digest, reference) != 0, "mutation %d left the digest %s", _i, digest);
    g_free(digest);
}
END_TEST

/* An oracle independent of the report's code: SHA-256 of the documented canonical text. */
START_TEST(test_report_digest_is_sha256_of_the_canonical_text)
{
    struct report_options options = {0};
    struct report *report = open_or_fail(&options, 2);
    struct run_point point = collective_point(0, COLL_BCAST, "binomial", 4, 8);
    struct point_result result = ok_result("binomial", 2e-6, NAN);
    add_or_fail(report, &point, &result);
    struct run_point program = {.index = 1, .nranks = 2, .program = "/x/p.so"};
    struct point_result output = {
        NOT_MEASURED,
        .served = "", .check = POINT_CHECK_SKIPPED, .predicted = NAN, .output = "hi\n"};
    add_or_fail(report, &program, &output);
    g_autofree gchar *digest = finish_or_fail(report);
    report_free(report);

    const char canonical[] =
        "index,collective,algorithm_requested,algorithm_served,fallback_reason,ranks,bytes,count,"
        "datatype,op,root,payload,iterations,time_max_s,time_min_s,time_mean_s,messages,"
        "bytes_moved,check,check_detail,predicted_s,inputs,max_ulps,max_rel_error,identical,"
        "results_sha256\n"
        "0,bcast,binomial,binomial,,4,8,1,double,,0,data,10,2e-06,1e-06,1.5e-06,14,4096,ok,,,"
        "exact,,,,\n"
        "1,program,p.so,p.so,,2,,,,,,data,,0e+00,0e+00,0e+00,0,0,skipped,,,,,,,\n"
        "output 3\nhi\n\n";
    g_autofree gchar *expected = g_compute_checksum_for_string(G_CHECKSUM_SHA256, canonical, -1);
    ck_assert_str_eq(digest, expected);
}
END_TEST

/* ---------------------------------------------------------------- failures */

START_TEST(test_report_failures_counts_fail_and_error)
{
    struct report_options options = {0};
    struct report *report = open_or_fail(&options, 6);
    ck_assert_uint_eq(report_failures(report), 0);
    static const int checks[] = {POINT_CHECK_OK,    POINT_CHECK_FAIL, POINT_CHECK_SKIPPED,
                                 POINT_CHECK_ERROR, POINT_CHECK_FAIL, 42};
    static const guint expected_after[] = {0, 1, 1, 2, 3, 4};
    for (guint i = 0; i < G_N_ELEMENTS(checks); i++) {
        struct run_point point = collective_point(i, COLL_SCATTER, "binomial", 4, 8);
        struct point_result result = ok_result("binomial", 1e-6, 1e-6);
        /* a check value the report does not know is an error, never a success */
        result.check = (enum point_check)checks[i];
        add_or_fail(report, &point, &result);
        ck_assert_uint_eq(report_failures(report), expected_after[i]);
    }
    g_free(finish_or_fail(report));
    ck_assert_uint_eq(report_failures(report), 4);
    report_free(report);
}
END_TEST

/* ---------------------------------------------------------------- progress */

START_TEST(test_report_progress_bar_on_stderr_only)
{
    struct scratch s;
    scratch_init(&s);
    g_autofree gchar *err_path = g_build_filename(s.dir, "stderr", NULL);
    /* this test runs in its own forked process: stderr may be replaced */
    ck_assert_ptr_nonnull(freopen(err_path, "w", stderr));

    struct table_capture capture;
    capture_open(&capture);
    struct report_options options = {.table = capture.stream, .progress = TRUE};
    struct report *report = open_or_fail(&options, 2);
    for (guint i = 0; i < 2; i++) {
        struct run_point point = collective_point(i, COLL_ALLTOALL, "pairwise", 4, 8);
        struct point_result result = ok_result("pairwise", 1e-6, 1e-6);
        add_or_fail(report, &point, &result);
    }
    g_free(finish_or_fail(report));
    fflush(stderr);
    g_autofree gchar *err = read_text(err_path);
    ck_assert(g_str_has_prefix(err, "\r[--------------------] 0/2 points  0:0"));
    ck_assert_ptr_nonnull(strstr(err, "\r[##########----------] 1/2 points  0:0"));
    ck_assert_ptr_nonnull(strstr(err, "\r[####################] 2/2 points  0:0"));
    /* erased by report_finish, which comes before the summary */
    ck_assert(g_str_has_suffix(err, "\033[K\r\033[K"));

    report_free(report);
    fflush(stderr);
    g_autofree gchar *err_after_free = read_text(err_path);
    ck_assert_str_eq(err_after_free, err);
    /* the table is not on the terminal: the bar is redrawn in place, never erased between */
    ck_assert_uint_eq(count_occurrences(err, "\r\033[K"), 1);
    /* the bar never reaches the table */
    g_autofree gchar *table = capture_close(&capture);
    ck_assert_ptr_null(strchr(table, '\r'));
    ck_assert_ptr_null(strchr(table, '\033'));
    scratch_clear(&s);
}
END_TEST

/* Table and bar on one terminal (a pseudo-terminal here): each row replaces the bar, which
 * is drawn again below it. */
START_TEST(test_report_progress_erased_before_rows_on_a_shared_terminal)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    ck_assert_int_ge(master, 0);
    ck_assert_int_eq(grantpt(master), 0);
    ck_assert_int_eq(unlockpt(master), 0);
    int terminal = open(ptsname(master), O_RDWR | O_NOCTTY);
    ck_assert_int_ge(terminal, 0);
    struct termios raw;
    ck_assert_int_eq(tcgetattr(terminal, &raw), 0);
    cfmakeraw(&raw); /* no \n -> \r\n translation: what is read is what was written */
    ck_assert_int_eq(tcsetattr(terminal, TCSANOW, &raw), 0);
    /* this test runs in its own forked process: stderr may be replaced */
    ck_assert_int_eq(dup2(terminal, STDERR_FILENO), STDERR_FILENO);
    FILE *table = fdopen(dup(terminal), "w");
    ck_assert_ptr_nonnull(table);

    struct report_options options = {.table = table, .progress = TRUE};
    struct report *report = open_or_fail(&options, 2);
    for (guint i = 0; i < 2; i++) {
        struct run_point point = collective_point(i, COLL_ALLTOALL, "pairwise", 4, 8);
        struct point_result result = ok_result("pairwise", 1e-6, 1e-6);
        add_or_fail(report, &point, &result);
    }
    g_free(finish_or_fail(report));
    report_free(report);
    fclose(table);

    /* everything fits the terminal's buffer; read it all without blocking */
    GString *screen = g_string_new(NULL);
    char buffer[4096];
    struct pollfd ready = {.fd = master, .events = POLLIN};
    while (poll(&ready, 1, 100) > 0) {
        ssize_t n = read(master, buffer, sizeof buffer);
        if (n <= 0)
            break;
        g_string_append_len(screen, buffer, n);
    }
    close(terminal);
    close(master);

    /* bar, erased, row, bar again, erased, row, bar again, erased before the summary */
    const char *bar0 = strstr(screen->str, "] 0/2 points");
    const char *row0 = strstr(screen->str, "\r\033[Kalltoall ");
    ck_assert_ptr_nonnull(bar0);
    ck_assert_ptr_nonnull(row0);
    ck_assert(bar0 < row0);
    const char *bar1 = strstr(row0, "] 1/2 points");
    ck_assert_ptr_nonnull(bar1);
    const char *row1 = strstr(bar1, "\r\033[Kalltoall ");
    ck_assert_ptr_nonnull(row1);
    const char *bar2 = strstr(row1, "] 2/2 points");
    ck_assert_ptr_nonnull(bar2);
    const char *summary = strstr(bar2, "\r\033[K\n2 points: 2 ok,");
    ck_assert_ptr_nonnull(summary);
    ck_assert_uint_eq(count_occurrences(screen->str, "\r\033[K"), 3);
    g_string_free(screen, TRUE);
}
END_TEST

START_TEST(test_report_no_progress_no_stderr)
{
    struct scratch s;
    scratch_init(&s);
    g_autofree gchar *err_path = g_build_filename(s.dir, "stderr", NULL);
    ck_assert_ptr_nonnull(freopen(err_path, "w", stderr));
    struct report_options options = {0};
    struct report *report = open_or_fail(&options, 1);
    struct run_point point = collective_point(0, COLL_BARRIER, "linear", 2, 0);
    struct point_result result = ok_result("linear", 1e-6, 1e-6);
    add_or_fail(report, &point, &result);
    g_free(finish_or_fail(report));
    report_free(report);
    fflush(stderr);
    g_autofree gchar *err = read_text(err_path);
    ck_assert_str_eq(err, "");
    scratch_clear(&s);
}
END_TEST


/* A library's choice against the fastest algorithm: when the library runs the very algorithm that
 * won, only slower (its own radix), the worst-call line says so rather than naming one algorithm
 * as slower than itself. Times of the 1024-rank fat-tree barrier: 9.40008 us for the registry's
 * radix-4 k-dissemination, 13.60080 us for MPICH's radix 2 (ratio 1.447); Open MPI's tree
 * 26.00088 us (2.766). */
START_TEST(test_decision_summary_same_algorithm_other_parameters)
{
    struct decision_summary *summary = decision_summary_new();
    struct run_point fastest = collective_point(0, COLL_BARRIER, "k_dissemination", 1024, 0);
    struct run_point linear = collective_point(1, COLL_BARRIER, "linear", 1024, 0);
    struct run_point mpich = collective_point(2, COLL_BARRIER, "mpich", 1024, 0);
    struct run_point ompi = collective_point(3, COLL_BARRIER, "ompi", 1024, 0);
    struct point_result r_fastest = ok_result("k_dissemination", 9.40008e-06, NAN);
    struct point_result r_linear = ok_result("linear", 4.1207944e-04, NAN);
    struct point_result r_mpich = ok_result("k_dissemination", 1.360080e-05, NAN);
    struct point_result r_ompi = ok_result("tree", 2.600088e-05, NAN);
    decision_summary_add(summary, &fastest, &r_fastest);
    decision_summary_add(summary, &linear, &r_linear);
    decision_summary_add(summary, &mpich, &r_mpich);
    decision_summary_add(summary, &ompi, &r_ompi);
    GString *text = g_string_new(NULL);
    decision_summary_write(summary, text);
    ck_assert_msg(strstr(text->str, "mpich: within 0.1% of the fastest at 0 of 1 calls; worst 1.447 "
                                    "(barrier P=1024 -: k_dissemination with the library's "
                                    "parameters, fastest k_dissemination with the registry's "
                                    "defaults)\n") != NULL,
                  "%s", text->str);
    ck_assert_msg(strstr(text->str, "ompi: within 0.1% of the fastest at 0 of 1 calls; worst 2.766 "
                                    "(barrier P=1024 -: tree, fastest k_dissemination)\n") != NULL,
                  "%s", text->str);
    g_string_free(text, TRUE);
    decision_summary_free(summary);
}
END_TEST

static Suite *
report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *formats = tcase_create("formats");
    tcase_add_test(formats, test_report_format_seconds_boundaries);
    tcase_add_test(formats, test_report_format_bytes_boundaries);
    tcase_add_test(formats, test_report_format_progress_text);
    suite_add_tcase(s, formats);

    TCase *table = tcase_create("table");
    tcase_add_test(table, test_report_table_rows_exact);
    tcase_add_test(table, test_report_fallback_footnote_once_per_reason);
    tcase_add_test(table, test_report_interrupted_sweep_summary);
    tcase_add_test(table, test_report_compact_table_fits_100_columns);
    tcase_add_test(table, test_report_wide_table_has_every_column);
    tcase_add_test(table, test_report_compact_table_shows_programs);
    suite_add_tcase(s, table);

    TCase *files = tcase_create("files");
    tcase_add_test(files, test_report_csv_rows_and_quoting);
    tcase_add_test(files, test_report_accuracy_columns);
    tcase_add_test(files, test_report_json_parses_back);
    tcase_add_test(files, test_report_files_complete_after_each_add);
    tcase_add_test(files, test_report_json_failure_keeps_other_outputs);
    tcase_add_test(files, test_report_finish_failure_still_ends_table_and_csv);
    tcase_add_test(files, test_report_open_refuses_unwritable_files);
    tcase_add_test(files, test_report_csv_row_that_does_not_fit_is_cut_back);
    tcase_add_test(files, test_report_open_refuses_a_json_that_is_no_regular_file);
    suite_add_tcase(s, files);

    TCase *digest = tcase_create("digest");
    tcase_add_test(digest, test_report_digest_equal_for_equal_results_whatever_the_wall_time);
    tcase_add_loop_test(digest, test_report_digest_changes_with_any_simulated_value,
                        MUTATE_TIME_MAX_ULP, MUTATE_COUNT);
    tcase_add_test(digest, test_report_digest_is_sha256_of_the_canonical_text);
    tcase_add_test(digest, test_report_failures_counts_fail_and_error);
    suite_add_tcase(s, digest);

    TCase *decisions = tcase_create("decision summary");
    tcase_add_test(decisions, test_decision_summary_same_algorithm_other_parameters);
    suite_add_tcase(s, decisions);

    TCase *progress = tcase_create("progress");
    tcase_add_test(progress, test_report_progress_bar_on_stderr_only);
    tcase_add_test(progress, test_report_progress_erased_before_rows_on_a_shared_terminal);
    tcase_add_test(progress, test_report_no_progress_no_stderr);
    suite_add_tcase(s, progress);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(report_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
