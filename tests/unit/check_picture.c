/*
 * check_picture.c — the picture files of sim/picture/picture.c: the format by extension, the
 * checks made before a simulation, each format's signature and size, the same bytes from the
 * same drawing, and a failed picture leaving the previous file as it was.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sim/picture/picture.h"

static gchar *tmpdir;

static void
setup(void)
{
    tmpdir = g_dir_make_tmp("collsim-picture-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmpdir);
}

static void
teardown(void)
{
    GDir *dir = g_dir_open(tmpdir, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
        g_autofree gchar *path = g_build_filename(tmpdir, name, NULL);
        if (g_file_test(path, G_FILE_TEST_IS_DIR))
            g_rmdir(path);
        else
            g_unlink(path);
    }
    if (dir != NULL)
        g_dir_close(dir);
    g_rmdir(tmpdir);
    g_free(tmpdir);
}

/* A small drawing with a line, a rectangle and text; written to `name` in tmpdir. */
static gchar *
draw(const char *name)
{
    gchar *path = g_build_filename(tmpdir, name, NULL);
    GError *error = NULL;
    struct picture *p = picture_begin(path, 200, 100, &error);
    ck_assert_msg(p != NULL, "%s", error != NULL ? error->message : "");
    cairo_t *cr = picture_cairo(p);
    cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
    cairo_rectangle(cr, 10, 10, 50, 30);
    cairo_fill(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, 0, 90);
    cairo_line_to(cr, 200, 90);
    cairo_stroke(cr);
    picture_text(cr, 100, 50, 0.5, 0.5, "rank 0");
    ck_assert_msg(picture_end(p, &error), "%s", error != NULL ? error->message : "");
    return path;
}

/* draw() in a process of its own, as each collsim run is: cairo numbers the glyphs of an SVG
 * per process, so two drawings in one process differ in their ids (and only there). */
static gchar *
draw_in_child(const char *name)
{
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        g_free(draw(name));
        _exit(0);
    }
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return g_build_filename(tmpdir, name, NULL);
}

static GBytes *
read_all(const char *path)
{
    gchar *data;
    gsize len;
    ck_assert(g_file_get_contents(path, &data, &len, NULL));
    return g_bytes_new_take(data, len);
}

START_TEST(test_format_by_extension)
{
    enum picture_format f;
    ck_assert(picture_format_of("a.png", &f, NULL) && f == PICTURE_PNG);
    ck_assert(picture_format_of("dir/b.SVG", &f, NULL) && f == PICTURE_SVG);
    ck_assert(picture_format_of("c.Pdf", &f, NULL) && f == PICTURE_PDF);
    GError *error = NULL;
    ck_assert(!picture_format_of("d.jpg", &f, &error));
    ck_assert_str_eq(error->message, "d.jpg: unknown picture format (the file name must end in "
                                     ".png, .svg or .pdf)");
    g_clear_error(&error);
    ck_assert(!picture_format_of(".png", &f, &error)); /* no name before the extension */
    g_clear_error(&error);
    ck_assert(!picture_format_of("png", &f, &error));
    g_clear_error(&error);
}
END_TEST

START_TEST(test_check_before_simulating)
{
    GError *error = NULL;
    g_autofree gchar *ok = g_build_filename(tmpdir, "t.svg", NULL);
    ck_assert_msg(picture_check(ok, "--timeline", &error), "%s", error ? error->message : "");
    ck_assert(!g_file_test(ok, G_FILE_TEST_EXISTS)); /* the probe leaves nothing behind */
    g_autofree gchar *tmp = g_strconcat(ok, ".tmp", NULL);
    ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));

    ck_assert(!picture_check("t.gif", "--timeline", &error));
    ck_assert(g_str_has_prefix(error->message, "--timeline t.gif: unknown picture format"));
    g_clear_error(&error);

    g_autofree gchar *missing = g_build_filename(tmpdir, "no", "such", "t.png", NULL);
    ck_assert(!picture_check(missing, "--picture", &error));
    ck_assert_msg(strstr(error->message, "cannot be written (No such file or directory)") != NULL,
                  "%s", error->message);
    g_clear_error(&error);

    g_autofree gchar *dir = g_build_filename(tmpdir, "d.png", NULL);
    ck_assert_int_eq(g_mkdir(dir, 0700), 0);
    ck_assert(!picture_check(dir, "--plot", &error));
    ck_assert(g_str_has_suffix(error->message, "d.png: is a directory"));
    g_clear_error(&error);
}
END_TEST

/* Each format starts with its signature and is not trivially small; the same drawing gives
 * the same bytes. */
START_TEST(test_formats_and_determinism)
{
    static const struct {
        const char *a, *b, *magic;
    } cases[] = {{"a.png", "b.png", "\x89PNG\r\n\x1a\n"},
                 {"a.svg", "b.svg", "<?xml"},
                 {"a.pdf", "b.pdf", "%PDF-"}};
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree gchar *pa = draw_in_child(cases[i].a);
        g_autofree gchar *pb = draw_in_child(cases[i].b);
        GBytes *a = read_all(pa), *b = read_all(pb);
        gsize len;
        const char *data = g_bytes_get_data(a, &len);
        ck_assert_uint_gt(len, 200);
        ck_assert_int_eq(memcmp(data, cases[i].magic, strlen(cases[i].magic)), 0);
        ck_assert_msg(g_bytes_equal(a, b), "%s: two drawings differ", cases[i].a);
        g_bytes_unref(a);
        g_bytes_unref(b);
    }
    /* the SVG carries the text as glyphs and the rectangle's colour */
    g_autofree gchar *svg = g_build_filename(tmpdir, "a.svg", NULL);
    g_autofree gchar *text = NULL;
    ck_assert(g_file_get_contents(svg, &text, NULL, NULL));
    ck_assert(strstr(text, "width=\"200pt\"") != NULL);
    ck_assert(strstr(text, "rgb(80%,10%,10%)") != NULL);
    ck_assert(strstr(text, "<use xlink:href=\"#glyph") != NULL);
}
END_TEST

/* A PNG's pixel size is the picture's. */
START_TEST(test_png_size)
{
    g_autofree gchar *path = draw("size.png");
    cairo_surface_t *s = cairo_image_surface_create_from_png(path);
    ck_assert_int_eq(cairo_surface_status(s), CAIRO_STATUS_SUCCESS);
    ck_assert_int_eq(cairo_image_surface_get_width(s), 200);
    ck_assert_int_eq(cairo_image_surface_get_height(s), 100);
    cairo_surface_destroy(s);
}
END_TEST

/* A picture that cannot be written (its FILE.tmp is taken by a directory, which stops root
 * too) leaves the previous file whole. */
START_TEST(test_failure_keeps_previous_file)
{
    g_autofree gchar *path = draw("keep.svg");
    GBytes *before = read_all(path);
    g_autofree gchar *tmp = g_strconcat(path, ".tmp", NULL);
    ck_assert_int_eq(g_mkdir(tmp, 0700), 0);
    GError *error = NULL;
    struct picture *p = picture_begin(path, 50, 50, &error);
    ck_assert_ptr_nonnull(p);
    ck_assert(!picture_end(p, &error));
    ck_assert_msg(strstr(error->message, "keep.svg.tmp: cannot be written (Is a directory)") !=
                      NULL,
                  "%s", error->message);
    g_clear_error(&error);
    GBytes *after = read_all(path);
    ck_assert(g_bytes_equal(before, after));
    g_bytes_unref(before);
    g_bytes_unref(after);
    g_rmdir(tmp);
}
END_TEST

/* A drawing whose file cannot be renamed into place (the name is a directory). */
START_TEST(test_failure_on_rename)
{
    g_autofree gchar *path = g_build_filename(tmpdir, "dir.png", NULL);
    ck_assert_int_eq(g_mkdir(path, 0700), 0);
    g_autofree gchar *inside = g_build_filename(path, "x", NULL);
    ck_assert(g_file_set_contents(inside, "x", 1, NULL));
    GError *error = NULL;
    struct picture *p = picture_begin(path, 10, 10, &error);
    ck_assert_ptr_nonnull(p);
    ck_assert(!picture_end(p, &error));
    ck_assert(strstr(error->message, "cannot be renamed") != NULL);
    g_clear_error(&error);
    g_autofree gchar *tmp = g_strconcat(path, ".tmp", NULL);
    ck_assert(!g_file_test(tmp, G_FILE_TEST_EXISTS));
    g_unlink(inside);
}
END_TEST

START_TEST(test_sizes_refused)
{
    GError *error = NULL;
    ck_assert_ptr_null(picture_begin("x.png", 0, 10, &error));
    ck_assert(strstr(error->message, "beyond what can be drawn") != NULL);
    g_clear_error(&error);
    ck_assert_ptr_null(picture_begin("x.png", 10, 1e9, &error));
    g_clear_error(&error);
    ck_assert_ptr_null(picture_begin("x.png", NAN, 10, &error));
    g_clear_error(&error);
}
END_TEST

START_TEST(test_seconds_labels)
{
    static const struct {
        double s;
        const char *label;
    } cases[] = {{0, "0"},           {1.5e-6, "1.5 µs"}, {250e-9, "250 ns"},
                 {0.012, "12 ms"},   {3, "3 s"},         {1e-12, "0.001 ns"},
                 {999e-6, "999 µs"}, {1e-3, "1 ms"},     {-2e-6, "-2 µs"}};
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree gchar *got = picture_seconds_label(cases[i].s);
        ck_assert_str_eq(got, cases[i].label);
    }
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("picture");
    TCase *tc = tcase_create("picture");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_format_by_extension);
    tcase_add_test(tc, test_check_before_simulating);
    tcase_add_test(tc, test_formats_and_determinism);
    tcase_add_test(tc, test_png_size);
    tcase_add_test(tc, test_failure_keeps_previous_file);
    tcase_add_test(tc, test_failure_on_rename);
    tcase_add_test(tc, test_sizes_refused);
    tcase_add_test(tc, test_seconds_labels);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
