/*
 * check_order_picture.c — `collsim order ... --picture FILE` end to end: the SVG of a few
 * certificates parsed as XML (GMarkupParser) and its shapes counted against the certificate,
 * PNG and PDF signatures, the same bytes from two collsim processes, and the refusals made
 * before anything runs.
 *
 * cairo draws text as glyphs, so the SVG is counted by its fills: each kind of shape has a
 * fill colour of its own (sim/order/order_picture.c), and the legend draws one sample of each
 * (hence the + 1 below). The breaking nodes expected are computed here, independently, from
 * the expression `collsim order --expressions` prints.
 */
#include "config.h"

#include <check.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#define LEAF_FILL "fill:rgb(90%,90%,90%)"
#define IN_ORDER_FILL "fill:rgb(80%,90%,100%)"
#define BREAKS_FILL "fill:rgb(100%,70%,50%)"

static gchar *tmpdir;

static void
setup(void)
{
    tmpdir = g_dir_make_tmp("collsim-order-picture-XXXXXX", NULL);
    ck_assert_ptr_nonnull(tmpdir);
}

static void
teardown(void)
{
    GDir *dir = g_dir_open(tmpdir, 0, NULL);
    const char *name;
    while (dir != NULL && (name = g_dir_read_name(dir)) != NULL) {
        g_autofree gchar *path = g_build_filename(tmpdir, name, NULL);
        g_unlink(path);
    }
    if (dir != NULL)
        g_dir_close(dir);
    g_rmdir(tmpdir);
    g_free(tmpdir);
}

/* Run collsim with `args` (NULL-terminated after "order"); its exit status, stdout in *out. */
static int
collsim(gchar **out, const char *first, ...)
{
    const char *binary = g_getenv("COLLSIM");
    ck_assert_msg(binary != NULL, "COLLSIM is not set (run through make check)");
    GPtrArray *argv = g_ptr_array_new();
    g_ptr_array_add(argv, (gpointer)binary);
    va_list ap;
    va_start(ap, first);
    for (const char *a = first; a != NULL; a = va_arg(ap, const char *))
        g_ptr_array_add(argv, (gpointer)a);
    va_end(ap);
    g_ptr_array_add(argv, NULL);
    gint status = -1;
    GError *error = NULL;
    gchar *err = NULL;
    gboolean ok = g_spawn_sync(NULL, (gchar **)argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, out,
                               &err, &status, &error);
    ck_assert_msg(ok, "%s", error != NULL ? error->message : "");
    g_ptr_array_free(argv, TRUE);
    g_free(err);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---------------------------------------------------------------- the SVG, counted */

struct fills {
    int leaves, in_order, breaks;
};

static void
on_start(GMarkupParseContext *context, const gchar *element, const gchar **names,
         const gchar **values, gpointer data, GError **error)
{
    (void)context;
    (void)error;
    struct fills *f = data;
    if (strcmp(element, "path") != 0)
        return;
    /* cairo 1.16 writes the fill in a style attribute, later versions in a fill attribute */
    for (int i = 0; names[i] != NULL; i++) {
        gchar *fill;
        if (strcmp(names[i], "style") == 0)
            fill = g_strdup(values[i]);
        else if (strcmp(names[i], "fill") == 0)
            fill = g_strconcat("fill:", values[i], NULL);
        else
            continue;
        g_strdelimit(fill, " ", ';');
        gchar **words = g_strsplit(fill, ";", -1);
        gchar *joined = g_strjoinv("", words); /* spaces out: "rgb(90%, 90%, 90%)" too */
        f->leaves += strstr(joined, LEAF_FILL) != NULL;
        f->in_order += strstr(joined, IN_ORDER_FILL) != NULL;
        f->breaks += strstr(joined, BREAKS_FILL) != NULL;
        g_free(joined);
        g_strfreev(words);
        g_free(fill);
    }
}

static struct fills
count_svg(const char *path)
{
    gchar *text = NULL;
    gsize len = 0;
    ck_assert(g_file_get_contents(path, &text, &len, NULL));
    struct fills f = {0, 0, 0};
    GMarkupParser parser = {.start_element = on_start};
    GMarkupParseContext *context = g_markup_parse_context_new(&parser, 0, &f, NULL);
    GError *error = NULL;
    gboolean ok = g_markup_parse_context_parse(context, text, (gssize)len, &error) &&
                  g_markup_parse_context_end_parse(context, &error);
    ck_assert_msg(ok, "%s is not XML: %s", path, error != NULL ? error->message : "");
    g_markup_parse_context_free(context);
    g_free(text);
    return f;
}

/* ---------------------------------------------------------------- expressions, judged here */

/* "(A·B)" or "r<i>" at *p; the number of applications and of those breaking rank order, and
 * the lowest, highest rank and leaf count of the expression. */
static void
judge(const char **p, int *apps, int *breaks, int *low, int *high, int *size)
{
    if (**p == 'r') {
        (*p)++;
        int rank = (int)strtol(*p, (char **)p, 10);
        *low = *high = rank;
        *size = 1;
        return;
    }
    ck_assert_int_eq(**p, '(');
    (*p)++;
    int llow, lhigh, lsize, rlow, rhigh, rsize;
    judge(p, apps, breaks, &llow, &lhigh, &lsize);
    ck_assert(g_str_has_prefix(*p, "\u00b7"));
    *p += strlen("\u00b7");
    judge(p, apps, breaks, &rlow, &rhigh, &rsize);
    ck_assert_int_eq(**p, ')');
    (*p)++;
    *low = MIN(llow, rlow);
    *high = MAX(lhigh, rhigh);
    *size = lsize + rsize;
    (*apps)++;
    if (lhigh >= rlow || *size != *high - *low + 1)
        (*breaks)++;
}

/* The expression of `rank`'s element 0 in `collsim order` output. */
static void
expected_counts(const char *out, int rank, int *apps, int *breaks)
{
    g_autofree gchar *key = g_strdup_printf("  rank %d element 0 depth=", rank);
    const char *line = strstr(out, key);
    ck_assert_msg(line != NULL, "no expression of rank %d in:\n%s", rank, out);
    const char *p = strchr(line + strlen(key), ' ') + 1;
    int low, high, size;
    *apps = *breaks = 0;
    judge(&p, apps, breaks, &low, &high, &size);
}

/* Draw one point, count its shapes against its expression. */
static void
check_point(const char *collective, const char *algorithm, const char *np, int nranks,
            const char *extra, int rank, gboolean expect_breaks)
{
    g_autofree gchar *svg = g_build_filename(tmpdir, "tree.svg", NULL);
    g_autofree gchar *out = NULL;
    int rc = collsim(&out, "order", collective, algorithm, "-n", np, "--expressions", "--picture",
                     svg, extra, NULL);
    ck_assert_msg(rc == 0 || rc == 1, "exit %d", rc);
    int apps, breaks;
    expected_counts(out, rank, &apps, &breaks);
    struct fills f = count_svg(svg);
    ck_assert_int_eq(f.leaves, nranks + 1);
    ck_assert_int_eq(f.in_order + f.breaks, apps + 2);
    ck_assert_int_eq(f.breaks, breaks + 1);
    if (expect_breaks)
        ck_assert_int_gt(breaks, 0);
    else
        ck_assert_int_eq(breaks, 0);
}

START_TEST(test_reduce_tree_in_order)
{
    /* a reduce tree: P leaves, P - 1 applications, none breaking rank order */
    check_point("reduce", "binomial", "8", 8, NULL, 0, FALSE);
    g_autofree gchar *svg = g_build_filename(tmpdir, "tree.svg", NULL);
    struct fills f = count_svg(svg);
    ck_assert_int_eq(f.in_order, 7 + 1);
    check_point("reduce", "linear", "5", 5, NULL, 0, FALSE);
    check_point("allreduce", "recursive_doubling", "16", 16, NULL, 0, FALSE);
}
END_TEST

START_TEST(test_trees_out_of_order)
{
    /* algorithms the certificates call NOT-RANK with a commutative op */
    check_point("reduce_scatter", "ring", "8", 8, "--commutative", 0, TRUE);
    check_point("allreduce", "halving_doubling", "4", 4, "--commutative", 0, TRUE);
    check_point("reduce_scatter", "recursive_halving", "8", 8, "--commutative", 0, TRUE);
}
END_TEST

START_TEST(test_picture_rank)
{
    /* scan: the last rank by default (its result folds every rank); --picture-rank chooses */
    check_point("scan", "linear", "6", 6, NULL, 5, FALSE);
    g_autofree gchar *svg = g_build_filename(tmpdir, "tree.svg", NULL);
    g_autofree gchar *out = NULL;
    ck_assert_int_eq(collsim(&out, "order", "scan", "linear", "-n", "6", "--picture", svg,
                             "--picture-rank", "2", NULL),
                     0);
    struct fills f = count_svg(svg);
    ck_assert_int_eq(f.leaves, 6 + 1);
    ck_assert_int_eq(f.in_order, 2 + 1); /* rank 2 folds r0, r1, r2 */
}
END_TEST

START_TEST(test_formats_and_same_bytes)
{
    static const char *const names[] = {"a.png", "a.svg", "a.pdf"};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree gchar *first = g_build_filename(tmpdir, names[i], NULL);
        g_autofree gchar *second = g_strconcat(first, ".again", NULL);
        g_autofree gchar *again = g_strconcat(second, strrchr(names[i], '.'), NULL);
        g_autofree gchar *o1 = NULL, *o2 = NULL;
        /* two collsim processes: cairo numbers SVG glyphs per process */
        ck_assert_int_eq(
            collsim(&o1, "order", "allreduce", "ring", "-n", "6", "--picture", first, NULL), 0);
        ck_assert_int_eq(
            collsim(&o2, "order", "allreduce", "ring", "-n", "6", "--picture", again, NULL), 0);
        gchar *a = NULL, *b = NULL;
        gsize alen = 0, blen = 0;
        ck_assert(g_file_get_contents(first, &a, &alen, NULL));
        ck_assert(g_file_get_contents(again, &b, &blen, NULL));
        ck_assert_msg(alen == blen && memcmp(a, b, alen) == 0, "%s differs between two runs",
                      names[i]);
        ck_assert_uint_gt(alen, 1000);
        if (i == 0)
            ck_assert(memcmp(a, "\x89PNG\r\n\x1a\n", 8) == 0);
        else if (i == 1)
            ck_assert(strstr(a, "<svg") != NULL);
        else
            ck_assert(memcmp(a, "%PDF-", 5) == 0);
        g_free(a);
        g_free(b);
    }
}
END_TEST

/* Each refusal: exit 2, and the file that was there is still there, unchanged. */
START_TEST(test_refusals_before_running)
{
    g_autofree gchar *svg = g_build_filename(tmpdir, "keep.svg", NULL);
    ck_assert(g_file_set_contents(svg, "previous", -1, NULL));
    g_autofree gchar *bad = g_build_filename(tmpdir, "tree.gif", NULL);
    g_autofree gchar *nodir = g_build_filename(tmpdir, "no", "such", "dir.svg", NULL);
    struct {
        const char *args[8];
        const char *path;
    } cases[] = {
        {{"reduce", "binomial", "-n", "257", "--picture"}, svg},
        {{"reduce", "binomial", "-n", "4,8", "--picture"}, svg},
        {{"reduce", "all", "-n", "4", "--picture"}, svg},
        {{"reduce", "binomial", "-n", "4", "--count", "0", "--picture"}, svg},
        {{"reduce", "binomial", "-n", "4", "--picture-rank", "1", "--picture"}, svg},
        {{"scan", "linear", "-n", "4", "--picture-rank", "4", "--picture"}, svg},
        {{"reduce", "binomial", "-n", "4", "--picture"}, bad},
        {{"reduce", "binomial", "-n", "4", "--picture"}, nodir},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(cases); i++) {
        const char *a[10] = {"order"};
        gsize n = 1;
        for (gsize k = 0; k < G_N_ELEMENTS(cases[i].args) && cases[i].args[k] != NULL; k++)
            a[n++] = cases[i].args[k];
        a[n++] = cases[i].path;
        a[n] = NULL;
        g_autofree gchar *out = NULL;
        int rc = collsim(&out, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]);
        ck_assert_msg(rc == 2, "case %zu: exit %d", i, rc);
        ck_assert_str_eq(out, ""); /* refused before any point ran */
        g_autofree gchar *kept = NULL;
        ck_assert(g_file_get_contents(svg, &kept, NULL, NULL));
        ck_assert_str_eq(kept, "previous");
    }
    g_autofree gchar *out = NULL;
    ck_assert_int_eq(
        collsim(&out, "order", "reduce", "binomial", "-n", "4", "--picture-rank", "0", NULL), 2);
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("order_picture");
    TCase *tc = tcase_create("order_picture");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_reduce_tree_in_order);
    tcase_add_test(tc, test_trees_out_of_order);
    tcase_add_test(tc, test_picture_rank);
    tcase_add_test(tc, test_formats_and_same_bytes);
    tcase_add_test(tc, test_refusals_before_running);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? 0 : 1;
}
