/*
 * tune_verify.c — checks what `collsim tune -o PREFIX` wrote (tests/tune/test_tune.sh):
 *
 *   tune_verify PREFIX
 *
 * 1. PREFIX-winners.csv names, at every point of PREFIX-times.csv, the fastest algorithm and the
 *    runner-up with their times (ties to the first in registry order);
 * 2. rules files written from the same times through the test-only mapping
 *    (tune_test_mapping.h) and read back with collsim's readers select, at every measured point,
 *    the fastest of each library's algorithms;
 * 3. if collsim tune wrote PREFIX-ompi.rules and PREFIX-mpich.json itself (a build with the
 *    libraries' catalogues), they select the same way through the real catalogues
 *    (tune_library_mapping(): models/decisions/ompi.rules and mpich.rules).
 * Exit 0 when all hold; otherwise each difference on stderr and exit 1.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/tune/tune.h"
#include "sim/tune/tune_rules.h"
#include "tests/tune/tune_test_mapping.h"

static int
check_winners(const struct tune_table *table, const char *path)
{
    gchar *text = NULL;
    GError *error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &error)) {
        fprintf(stderr, "%s\n", error->message);
        g_error_free(error);
        return 1;
    }
    gchar **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    int bad = 0;
    guint rows = 0;
    for (guint n = 1; lines[n] != NULL; n++) {
        if (lines[n][0] == '\0')
            continue;
        gchar **f = g_strsplit(lines[n], ",", -1);
        enum coll_kind kind;
        if (g_strv_length(f) < 7 || !coll_kind_from_name(f[0], &kind)) {
            fprintf(stderr, "%s:%u: not a winners row\n", path, n + 1);
            bad++;
            g_strfreev(f);
            continue;
        }
        rows++;
        const struct tune_point *p =
            tune_table_find(table, kind, atoi(f[1]), g_ascii_strtoull(f[2], NULL, 10));
        const struct tune_candidate *second = NULL;
        const struct tune_candidate *best =
            p != NULL ? tune_point_fastest(p, TUNE_LIBRARY_COUNT, NULL, &second) : NULL;
        if (best == NULL || strcmp(best->algorithm, f[3]) != 0 ||
            g_ascii_strtod(f[4], NULL) != best->time ||
            strcmp(second != NULL ? second->algorithm : "", f[5]) != 0) {
            fprintf(stderr, "%s:%u: winner %s / runner-up %s, the times say %s / %s\n", path, n + 1,
                    f[3], f[5], best != NULL ? best->algorithm : "(none)",
                    second != NULL ? second->algorithm : "(none)");
            bad++;
        }
        g_strfreev(f);
    }
    g_strfreev(lines);
    if (rows != table->points->len) {
        fprintf(stderr, "%s: %u rows for %u points\n", path, rows, table->points->len);
        bad++;
    }
    return bad;
}

int
main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tune_verify PREFIX\n");
        return 2;
    }
    const char *prefix = argv[1];
    gchar *times = g_strdup_printf("%s-times.csv", prefix);
    gchar *winners = g_strdup_printf("%s-winners.csv", prefix);
    GError *error = NULL;
    struct tune_table *table = tune_table_load_times(times, &error);
    if (table == NULL) {
        fprintf(stderr, "%s\n", error->message);
        return 1;
    }
    int bad = check_winners(table, winners);

    gchar *test_prefix = g_strdup_printf("%s-testmap", prefix);
    int checked = 0;
    int wrong = test_round_trip(table, test_prefix, &checked);
    if (wrong != 0)
        bad++;
    printf("tune_verify: %u points, winners %s; test-mapping rules files: %d selections "
           "checked, %d wrong\n",
           table->points->len, bad == 0 ? "ok" : "WRONG", checked, wrong);

    /* the files collsim tune wrote with the libraries' catalogues, if it did */
    gchar *ompi = g_strdup_printf("%s-ompi.rules", prefix);
    gchar *mpich = g_strdup_printf("%s-mpich.json", prefix);
    if (g_file_test(ompi, G_FILE_TEST_EXISTS) || g_file_test(mpich, G_FILE_TEST_EXISTS)) {
        int real_checked = 0;
        int real_wrong =
            test_check_files(table, tune_library_mapping(), ompi, mpich, &real_checked);
        printf("tune_verify: the files collsim tune wrote: %d selections checked, %d wrong\n",
               real_checked, real_wrong);
        if (real_wrong != 0 || real_checked == 0)
            bad++;
    }
    tune_table_free(table);
    g_free(ompi);
    g_free(mpich);
    g_free(test_prefix);
    g_free(times);
    g_free(winners);
    return bad == 0 ? 0 : 1;
}
