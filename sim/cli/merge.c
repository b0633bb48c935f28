/*
 * merge.c — `collsim merge [-o OUT] SHARD...`: join the CSV or JSON files of the shards of one
 * sweep (collsim run --shard I/N, for I = 1..N, in any order on the command line) into the
 * file the unsharded run writes, and print the last two lines of its table: the count of
 * points by check and the run's digest.
 *
 * Invariants: every shard is read and checked before anything is written (sim/report/shard.c
 * names what is missing, repeated or foreign); OUT is written beside itself and renamed, so it
 * is either the whole merge or untouched; the merged CSV rows and JSON points are the shards'
 * own bytes and values, the wall_s of each point being the wall time it took in its shard's
 * process; the JSON is generated as sim/report/report.c generates it (2-space pretty print, a
 * final newline).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "sim/cli/merge.h"
#include "sim/report/json_api.h"
#include "sim/report/report.h"
#include "sim/report/shard.h"

#define MERGE_EXIT_FAILED 1
#define MERGE_EXIT_USAGE 2

/* The merged file's bytes. */
static gchar *
merged_text(const struct shard_merge *merge, gsize *length)
{
    if (merge->format == SHARD_FORMAT_CSV) {
        GString *text = g_string_new(merge->csv_header);
        for (guint k = 0; k < merge->points->len; k++) {
            const struct shard_point *point = merge->points->pdata[k];
            g_string_append(text, point->csv_row);
        }
        *length = text->len;
        return g_string_free(text, FALSE);
    }
    JsonObject *root = json_object_new();
    if (merge->scenario != NULL)
        json_object_set_string_member(root, "scenario", merge->scenario);
    else
        json_object_set_null_member(root, "scenario");
    JsonArray *points = json_array_new();
    for (guint k = 0; k < merge->points->len; k++) {
        const struct shard_point *point = merge->points->pdata[k];
        json_array_add_element(points, json_node_copy(point->json_node));
    }
    json_object_set_array_member(root, "points", points);
    json_object_set_string_member(root, "digest", merge->digest_hex);
    /* the run's own serializer: the merge is the unsharded file byte for byte */
    return report_json_document(root, length);
}

/* OUT whole or not at all: written beside it, then renamed over it. */
static gboolean
write_whole(const char *path, const gchar *text, gsize length, GError **error)
{
    g_autofree gchar *tmp_path = g_strconcat(path, ".tmp", NULL);
    if (!g_file_set_contents(tmp_path, text, (gssize)length, error)) {
        g_unlink(tmp_path);
        return FALSE;
    }
    if (g_rename(tmp_path, path) != 0) {
        int errsv = errno;
        g_unlink(tmp_path);
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv), "cannot replace '%s': %s",
                    path, g_strerror(errsv));
        return FALSE;
    }
    return TRUE;
}

int
command_merge(int argc, char **argv)
{
    gchar *out_path = NULL;
    gboolean quiet = FALSE;
    GOptionEntry entries[] = {
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out_path,
         "Write the merged CSV or JSON (the shards' format) to FILE; without it, only check the "
         "shards and print the digest",
         "FILE"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "Print nothing on standard output", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context = g_option_context_new("SHARD... - join the shards of a sweep");
    g_option_context_set_summary(
        context,
        "Joins the CSV (or JSON) files of collsim run FILE.ini --shard I/N, one for each I of N,\n"
        "given in any order, into exactly the file collsim run FILE.ini writes, and prints the\n"
        "last lines of its table: points by check, and the run's digest. Shards missing,\n"
        "repeated, cut short, or of another scenario or collsim are named and nothing is\n"
        "written. Each point's wall_s is the wall time it took in its shard's process.");
    g_option_context_set_description(
        context, "Exit status: 0 merged, every point ok; 1 merged, a point FAILed or ended in an\n"
                 "error (as the run exits), or FILE could not be written; 2 bad options or\n"
                 "shards (nothing written).");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = 0;
    gchar **args = g_strdupv(argv);
    GPtrArray *files = g_ptr_array_new_with_free_func((GDestroyNotify)shard_file_free);
    struct shard_merge merge = {0};
    gchar *text = NULL;
    (void)argc;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        fprintf(stderr, "collsim: merge: %s\n", error->message);
        rc = MERGE_EXIT_USAGE;
        goto out;
    }
    if (g_strv_length(args) < 2) {
        fprintf(stderr, "collsim: merge: which shards? (collsim merge [-o OUT] SHARD...)\n");
        rc = MERGE_EXIT_USAGE;
        goto out;
    }
    for (guint i = 1; args[i] != NULL; i++) {
        struct shard_file *file = shard_file_read(args[i], &error);
        if (file == NULL) {
            fprintf(stderr, "collsim: merge: %s\n", error->message);
            rc = MERGE_EXIT_USAGE;
            goto out;
        }
        g_ptr_array_add(files, file);
    }
    if (!shard_merge((struct shard_file *const *)files->pdata, files->len, &merge, &error)) {
        fprintf(stderr, "collsim: merge: %s\n", error->message);
        rc = MERGE_EXIT_USAGE;
        goto out;
    }
    if (out_path != NULL) {
        gsize length = 0;
        text = merged_text(&merge, &length);
        if (!write_whole(out_path, text, length, &error)) {
            fprintf(stderr, "collsim: merge: %s\n", error->message);
            rc = MERGE_EXIT_FAILED;
            goto out;
        }
    }
    /* the last two lines of the unsharded run's table (enum point_check order) */
    guint total = merge.points->len;
    if (!quiet) {
        printf("%u point%s: %u ok, %u FAIL, %u ERROR, %u skipped\n", total, total == 1 ? "" : "s",
               merge.checks[0], merge.checks[1], merge.checks[3], merge.checks[2]);
        printf("digest sha256:%s\n", merge.digest_hex);
        if (fflush(stdout) != 0)
            rc = MERGE_EXIT_FAILED;
    }
    if (merge.checks[1] + merge.checks[3] > 0)
        rc = MAX(rc, MERGE_EXIT_FAILED);
out:
    g_free(text);
    shard_merge_clear(&merge);
    g_ptr_array_free(files, TRUE);
    g_clear_error(&error);
    g_strfreev(args);
    g_option_context_free(context);
    g_free(out_path);
    return rc;
}
