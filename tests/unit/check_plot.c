/*
 * check_plot.c — `collsim run --plot` (sim/report/plot.c) from hand-made points and results:
 * the SVG parsed with GMarkupParser (one solid line per algorithm and panel, dashed lines only
 * for the algorithms with a prediction, tick labels, one winner-map cell per size × P coloured
 * as the fastest algorithm worked out by hand), PNG and PDF signatures, the same bytes from
 * two processes, the panels of a sweep with a single P. Nothing is simulated.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sim/report/plot.h"

/* Three algorithms on allreduce, P in {4, 8}, sizes {1 KiB, 1 MiB}; "gamma" has no model.
 * The times, by hand: the fastest at (P, size) is
 *   1 KiB: P=4 alpha (1e-6 < 2e-6 < 3e-6), P=8 beta (1.5e-6 < 2e-6), tie-free
 *   1 MiB: P=4 gamma (1e-4 < 2e-4), P=8 alpha and beta tie at 2e-4: alpha, by name. */
struct sample {
    const char *algorithm;
    int nranks;
    guint64 bytes;
    double time;
};

static const struct sample samples[] = {
    {"alpha", 4, 1024, 1e-6},    {"alpha", 8, 1024, 2e-6},    {"alpha", 4, 1048576, 3e-4},
    {"alpha", 8, 1048576, 2e-4}, {"beta", 4, 1024, 2e-6},     {"beta", 8, 1024, 1.5e-6},
    {"beta", 4, 1048576, 2e-4},  {"beta", 8, 1048576, 2e-4},  {"gamma", 4, 1024, 3e-6},
    {"gamma", 8, 1024, 4e-6},    {"gamma", 4, 1048576, 1e-4}, {"gamma", 8, 1048576, 5e-4},
};

/* The winners in the order the map draws its cells: sizes up, then P across. */
static const char *const expected_winners[] = {"alpha", "beta", "gamma", "alpha"};

static struct plot_data *
sample_plot(gboolean single_p)
{
    struct plot_data *plot = plot_data_new();
    for (gsize i = 0; i < G_N_ELEMENTS(samples); i++) {
        if (single_p && samples[i].nranks != 8)
            continue;
        struct run_point point = {
            .index = (guint)i,
            .nranks = samples[i].nranks,
            .kind = COLL_ALLREDUCE,
            .algorithm = (char *)samples[i].algorithm,
            .bytes = samples[i].bytes,
        };
        struct point_result result = {
            .time_max = samples[i].time,
            .check = POINT_CHECK_OK,
            .predicted = strcmp(samples[i].algorithm, "gamma") == 0 ? NAN : samples[i].time * 1.1,
        };
        plot_data_add(plot, &point, &result);
    }
    /* a program and a failed point are not drawn */
    struct run_point program = {.nranks = 4, .program = "p.so"};
    struct point_result ok = {.time_max = 1, .check = POINT_CHECK_OK, .predicted = NAN};
    plot_data_add(plot, &program, &ok);
    struct run_point broken = {.nranks = 4, .kind = COLL_ALLREDUCE, .algorithm = "delta",
                               .bytes = 1024};
    struct point_result error = {.exit_code = 1, .check = POINT_CHECK_ERROR, .predicted = NAN};
    plot_data_add(plot, &broken, &error);
    return plot;
}

static gchar *
write_plot(const char *name, gboolean single_p, gchar **dir_out)
{
    GError *error = NULL;
    gchar *dir = g_dir_make_tmp("check_plot_XXXXXX", &error);
    ck_assert_msg(dir != NULL, "%s", error != NULL ? error->message : "?");
    gchar *path = g_build_filename(dir, name, NULL);
    ck_assert_msg(plot_check(path, &error), "%s", error != NULL ? error->message : "?");
    struct plot_data *plot = sample_plot(single_p);
    ck_assert_msg(plot_write(plot, path, "sample", &error), "%s",
                  error != NULL ? error->message : "?");
    plot_data_free(plot);
    *dir_out = dir;
    return path;
}

static void
remove_plot(gchar *path, gchar *dir)
{
    g_unlink(path);
    g_rmdir(dir);
    g_free(path);
    g_free(dir);
}

/* What the SVG holds, by the conventions plot.c documents. */
struct svg_count {
    GPtrArray *solid;  /* the stroke colour of each simulated line, in order */
    guint dashed;
    GPtrArray *cells;  /* the fill colour of each winner-map cell, in order */
    guint tick_labels; /* glyph groups in the tick labels' grey */
    gboolean in_tick_group;
    guint tick_uses;
};

/* The value of `key` in a style attribute ("fill:rgb(...)"), or NULL (caller frees). */
static gchar *
style_value(const char *style, const char *key)
{
    g_auto(GStrv) parts = g_strsplit(style, ";", -1);
    for (int i = 0; parts[i] != NULL; i++) {
        gchar *part = g_strstrip(parts[i]);
        gsize n = strlen(key);
        if (strncmp(part, key, n) == 0 && part[n] == ':')
            return g_strdup(part + n + 1);
    }
    return NULL;
}

static void
svg_start(GMarkupParseContext *context, const gchar *element, const gchar **names,
          const gchar **values, gpointer data, GError **error)
{
    (void)context;
    (void)error;
    struct svg_count *c = data;
    const char *style = NULL;
    for (int i = 0; names[i] != NULL; i++)
        if (strcmp(names[i], "style") == 0)
            style = values[i];
    if (strcmp(element, "use") == 0 && c->in_tick_group)
        c->tick_uses++;
    if (style == NULL)
        return;
    if (strcmp(element, "g") == 0) {
        c->in_tick_group = strstr(style, "fill:rgb(25%,25%,25%)") != NULL;
        if (c->in_tick_group)
            c->tick_labels++;
        return;
    }
    if (strcmp(element, "path") != 0)
        return;
    g_autofree gchar *width = style_value(style, "stroke-width");
    if (strstr(style, "stroke-dasharray") != NULL)
        c->dashed++;
    else if (width != NULL && strcmp(width, "2") == 0)
        g_ptr_array_add(c->solid, style_value(style, "stroke"));
    g_autofree gchar *opacity = style_value(style, "fill-opacity");
    if (opacity != NULL && strcmp(opacity, "0.85") == 0)
        g_ptr_array_add(c->cells, style_value(style, "fill"));
}

static void
svg_end(GMarkupParseContext *context, const gchar *element, gpointer data, GError **error)
{
    (void)context;
    (void)error;
    struct svg_count *c = data;
    if (strcmp(element, "g") == 0)
        c->in_tick_group = FALSE;
}

static void
count_svg(const char *path, struct svg_count *c)
{
    gchar *text = NULL;
    gsize length = 0;
    GError *error = NULL;
    ck_assert(g_file_get_contents(path, &text, &length, &error));
    *c = (struct svg_count){.solid = g_ptr_array_new_with_free_func(g_free),
                            .cells = g_ptr_array_new_with_free_func(g_free)};
    static const GMarkupParser parser = {svg_start, svg_end, NULL, NULL, NULL};
    GMarkupParseContext *context = g_markup_parse_context_new(&parser, 0, c, NULL);
    ck_assert_msg(g_markup_parse_context_parse(context, text, (gssize)length, &error) &&
                      g_markup_parse_context_end_parse(context, &error),
                  "the SVG is not XML: %s", error != NULL ? error->message : "?");
    g_markup_parse_context_free(context);
    g_free(text);
}

static void
svg_count_clear(struct svg_count *c)
{
    g_ptr_array_free(c->solid, TRUE);
    g_ptr_array_free(c->cells, TRUE);
}

START_TEST(test_plot_svg_lines_cells_and_labels)
{
    gchar *dir;
    gchar *path = write_plot("plot.svg", FALSE, &dir);
    struct svg_count c;
    count_svg(path, &c);

    /* 3 algorithms × 2 panels solid, 2 with a model × 2 panels dashed */
    ck_assert_uint_eq(c.solid->len, 6);
    ck_assert_uint_eq(c.dashed, 4);
    /* the first panel draws its lines in the algorithms' name order: their colours */
    const char *colour_of[] = {g_ptr_array_index(c.solid, 0), g_ptr_array_index(c.solid, 1),
                               g_ptr_array_index(c.solid, 2)};
    ck_assert_str_ne(colour_of[0], colour_of[1]);
    ck_assert_str_ne(colour_of[1], colour_of[2]);
    /* a cell per size × P, each in the colour of the fastest algorithm */
    ck_assert_uint_eq(c.cells->len, 2 * 2);
    for (guint i = 0; i < c.cells->len; i++) {
        const char *w = expected_winners[i];
        guint a = strcmp(w, "alpha") == 0 ? 0 : strcmp(w, "beta") == 0 ? 1 : 2;
        ck_assert_msg(strcmp(g_ptr_array_index(c.cells, i), colour_of[a]) == 0,
                      "cell %u: %s, expected %s's %s", i,
                      (const char *)g_ptr_array_index(c.cells, i), w, colour_of[a]);
    }
    /* tick labels: time decades on 2 panels, 2 Ps and 2 sizes on the line panels, and the
     * map's 2 Ps and 2 sizes */
    ck_assert_uint_ge(c.tick_labels, 2 * 2 + 2 + 2 + 2 + 2);
    ck_assert_uint_gt(c.tick_uses, c.tick_labels);
    svg_count_clear(&c);
    remove_plot(path, dir);
}
END_TEST

START_TEST(test_plot_single_p_has_no_panel_against_p)
{
    gchar *dir;
    gchar *path = write_plot("single.svg", TRUE, &dir);
    struct svg_count c;
    count_svg(path, &c);
    ck_assert_uint_eq(c.solid->len, 3); /* against size only */
    ck_assert_uint_eq(c.dashed, 2);
    ck_assert_uint_eq(c.cells->len, 2); /* 2 sizes × 1 P */
    svg_count_clear(&c);
    remove_plot(path, dir);
}
END_TEST

static gchar *
read_bytes(const char *path, gsize *length)
{
    gchar *text = NULL;
    GError *error = NULL;
    ck_assert_msg(g_file_get_contents(path, &text, length, &error), "%s",
                  error != NULL ? error->message : "?");
    return text;
}

START_TEST(test_plot_png_and_pdf_signatures)
{
    static const struct {
        const char *name;
        const char *magic;
    } kinds[] = {{"plot.png", "\x89PNG\r\n\x1a\n"}, {"plot.pdf", "%PDF-"}};
    for (gsize k = 0; k < G_N_ELEMENTS(kinds); k++) {
        gchar *dir;
        gchar *path = write_plot(kinds[k].name, FALSE, &dir);
        gsize length = 0;
        g_autofree gchar *bytes = read_bytes(path, &length);
        ck_assert_uint_gt(length, 5000);
        ck_assert(memcmp(bytes, kinds[k].magic, strlen(kinds[k].magic)) == 0);
        remove_plot(path, dir);
    }
}
END_TEST

/* cairo numbers an SVG's glyphs per process: two processes must still write the same bytes */
START_TEST(test_plot_same_bytes_from_two_processes)
{
    static const char *const names[] = {"plot.svg", "plot.pdf", "plot.png"};
    for (gsize n = 0; n < G_N_ELEMENTS(names); n++) {
        GError *error = NULL;
        gchar *dir = g_dir_make_tmp("check_plot_XXXXXX", &error);
        ck_assert_ptr_nonnull(dir);
        gchar *paths[2];
        for (int child = 0; child < 2; child++) {
            g_autofree gchar *name = g_strdup_printf("%d-%s", child, names[n]);
            paths[child] = g_build_filename(dir, name, NULL);
            pid_t pid = fork();
            ck_assert_int_ge(pid, 0);
            if (pid == 0) {
                struct plot_data *plot = sample_plot(FALSE);
                _exit(plot_write(plot, paths[child], "sample", NULL) ? 0 : 1);
            }
            int status = 0;
            ck_assert_int_eq(waitpid(pid, &status, 0), pid);
            ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        }
        gsize la = 0, lb = 0;
        g_autofree gchar *a = read_bytes(paths[0], &la);
        g_autofree gchar *b = read_bytes(paths[1], &lb);
        ck_assert_uint_eq(la, lb);
        ck_assert(memcmp(a, b, la) == 0);
        for (int child = 0; child < 2; child++) {
            g_unlink(paths[child]);
            g_free(paths[child]);
        }
        g_rmdir(dir);
        g_free(dir);
    }
}
END_TEST

/* A tie between an algorithm that fell back to another and one that served its calls itself
 * goes to the latter, whatever their names: the first name, "alpha", fell back here. */
START_TEST(test_plot_tie_skips_an_algorithm_that_fell_back)
{
    struct plot_data *plot = plot_data_new();
    static const char *const names[] = {"alpha", "beta"};
    static const int ranks[] = {4, 8};
    for (gsize a = 0; a < 2; a++) {
        for (gsize p = 0; p < 2; p++) {
            struct run_point point = {.index = (guint)(2 * a + p), .nranks = ranks[p],
                                      .kind = COLL_ALLREDUCE, .algorithm = (char *)names[a],
                                      .bytes = 1024};
            /* P=4: alpha faster; P=8: a tie, alpha fell back */
            struct point_result result = {
                .time_max = p == 0 ? (a == 0 ? 1e-6 : 2e-6) : 3e-6,
                .check = POINT_CHECK_OK,
                .predicted = NAN,
                .fallback_reason = a == 0 && p == 1 ? (char *)"needs a power of two" : NULL,
            };
            plot_data_add(plot, &point, &result);
        }
    }
    GError *error = NULL;
    gchar *dir = g_dir_make_tmp("check_plot_XXXXXX", &error);
    ck_assert_ptr_nonnull(dir);
    gchar *path = g_build_filename(dir, "tie.svg", NULL);
    ck_assert_msg(plot_write(plot, path, "tie", &error), "%s",
                  error != NULL ? error->message : "?");
    plot_data_free(plot);
    struct svg_count c;
    count_svg(path, &c);
    /* one size: the panel against P only, alpha's line then beta's; a cell per P */
    ck_assert_uint_eq(c.solid->len, 2);
    ck_assert_uint_eq(c.cells->len, 2);
    ck_assert_str_eq(g_ptr_array_index(c.cells, 0), g_ptr_array_index(c.solid, 0));
    ck_assert_str_eq(g_ptr_array_index(c.cells, 1), g_ptr_array_index(c.solid, 1));
    svg_count_clear(&c);
    remove_plot(path, dir);
}
END_TEST

START_TEST(test_plot_check_refuses_unknown_extension)
{
    GError *error = NULL;
    ck_assert(!plot_check("/tmp/plot.gif", &error));
    ck_assert_ptr_nonnull(error);
    ck_assert_ptr_nonnull(strstr(error->message, "--plot"));
    g_error_free(error);
}
END_TEST

int
main(void)
{
    Suite *suite = suite_create("plot");
    TCase *tc = tcase_create("plot");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_plot_svg_lines_cells_and_labels);
    tcase_add_test(tc, test_plot_single_p_has_no_panel_against_p);
    tcase_add_test(tc, test_plot_png_and_pdf_signatures);
    tcase_add_test(tc, test_plot_same_bytes_from_two_processes);
    tcase_add_test(tc, test_plot_check_refuses_unknown_extension);
    tcase_add_test(tc, test_plot_tie_skips_an_algorithm_that_fell_back);
    suite_add_tcase(suite, tc);
    SRunner *runner = srunner_create(suite);
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
