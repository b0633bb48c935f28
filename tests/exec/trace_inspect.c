/*
 * trace_inspect.c — reads a --trace JSON or a --timeline SVG back and prints what
 * tests/exec/test_trace.sh compares with the run's statistics, one "key=value" per line.
 *
 *   trace_inspect json FILE.json   ranks, slices, flow starts and finishes, whether every
 *                                  start has its finish (same id), whether each track's slices
 *                                  start in time order and nest
 *   trace_inspect svg FILE.svg     the timeline's row bands, message lines, axis ticks and
 *                                  tick labels, row labels (told apart by their colours,
 *                                  sim/trace/timeline.h)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

static int
inspect_json(const char *path)
{
    JsonParser *parser = json_parser_new();
    GError *error = NULL;
    if (!json_parser_load_from_file(parser, path, &error)) {
        fprintf(stderr, "trace_inspect: %s: %s\n", path, error->message);
        return 1;
    }
    JsonObject *root = json_node_get_object(json_parser_get_root(parser));
    JsonArray *events = json_object_get_array_member(root, "traceEvents");
    GHashTable *pids = g_hash_table_new(g_direct_hash, g_direct_equal);
    GHashTable *open_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
    /* per track ("pid/tid"): the end times (ns) of the slices still open, innermost last */
    GHashTable *tracks = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify)g_array_unref);
    guint slices = 0, starts = 0, finishes = 0;
    gboolean matched = TRUE, ordered = TRUE, nested = TRUE;
    for (guint i = 0; i < json_array_get_length(events); i++) {
        JsonObject *e = json_array_get_object_element(events, i);
        const char *ph = json_object_get_string_member(e, "ph");
        gint64 pid = json_object_get_int_member(e, "pid");
        g_hash_table_add(pids, GINT_TO_POINTER((int)pid + 1));
        if (strcmp(ph, "X") == 0) {
            slices++;
            gchar *key = g_strdup_printf("%" G_GINT64_FORMAT "/%" G_GINT64_FORMAT, pid,
                                         json_object_get_int_member(e, "tid"));
            GArray *open = g_hash_table_lookup(tracks, key);
            if (open == NULL) {
                open = g_array_new(FALSE, FALSE, sizeof(gint64));
                g_array_append_val(open, (gint64){-1}); /* the last start seen */
                g_hash_table_insert(tracks, g_strdup(key), open);
            }
            g_free(key);
            /* in whole nanoseconds, the trace's resolution (three decimals of µs): exact, where
             * ts + dur in doubles may land an ulp past the next slice's ts */
            gint64 ts = llround(json_object_get_double_member(e, "ts") * 1e3);
            gint64 end = ts + llround(json_object_get_double_member(e, "dur") * 1e3);
            ordered = ordered && ts >= g_array_index(open, gint64, 0);
            g_array_index(open, gint64, 0) = ts;
            while (open->len > 1 && g_array_index(open, gint64, open->len - 1) <= ts)
                g_array_set_size(open, open->len - 1);
            if (open->len > 1 && end > g_array_index(open, gint64, open->len - 1))
                nested = FALSE;
            g_array_append_val(open, end);
        } else if (strcmp(ph, "s") == 0) {
            starts++;
            g_hash_table_add(open_ids, GINT_TO_POINTER((int)json_object_get_int_member(e, "id")));
        } else if (strcmp(ph, "f") == 0) {
            finishes++;
            matched = matched && g_hash_table_remove(
                                     open_ids,
                                     GINT_TO_POINTER((int)json_object_get_int_member(e, "id")));
        }
    }
    matched = matched && g_hash_table_size(open_ids) == 0;
    printf("ranks=%u\nslices=%u\nflow_starts=%u\nflow_finishes=%u\nflows_matched=%s\n"
           "slices_ordered=%s\nslices_nested=%s\n",
           g_hash_table_size(pids), slices, starts, finishes, matched ? "yes" : "no",
           ordered ? "yes" : "no", nested ? "yes" : "no");
    g_hash_table_destroy(tracks);
    g_hash_table_destroy(open_ids);
    g_hash_table_destroy(pids);
    g_object_unref(parser);
    return 0;
}

struct svg_counts {
    guint bands, messages, ticks, tick_labels, row_labels, elements;
};

static void
svg_start(GMarkupParseContext *context, const char *element, const char **names,
          const char **values, gpointer data, GError **error)
{
    (void)context;
    (void)error;
    struct svg_counts *c = data;
    c->elements++;
    const char *style = "";
    for (int i = 0; names[i] != NULL; i++)
        if (strcmp(names[i], "style") == 0)
            style = values[i];
    if (strcmp(element, "path") == 0) {
        c->bands += strstr(style, "fill:rgb(95.5%,95.5%,95.5%)") != NULL ||
                    strstr(style, "fill:rgb(90.5%,90.5%,90.5%)") != NULL;
        c->messages += strstr(style, "stroke:rgb(15%,15%,40%)") != NULL;
        c->ticks += strstr(style, "stroke:rgb(30%,30%,30%)") != NULL;
    } else if (strcmp(element, "g") == 0) {
        c->tick_labels += strstr(style, "fill:rgb(10%,10%,10%)") != NULL;
        c->row_labels += strstr(style, "fill:rgb(20%,20%,20%)") != NULL;
    }
}

static int
inspect_svg(const char *path)
{
    gchar *text;
    gsize len;
    GError *error = NULL;
    if (!g_file_get_contents(path, &text, &len, &error)) {
        fprintf(stderr, "trace_inspect: %s\n", error->message);
        return 1;
    }
    struct svg_counts c = {0};
    GMarkupParser parser = {.start_element = svg_start};
    GMarkupParseContext *context = g_markup_parse_context_new(&parser, 0, &c, NULL);
    /* the XML declaration is not markup GMarkup reads: skip to the first element */
    const char *at = strstr(text, "<svg");
    gboolean ok = at != NULL &&
                  g_markup_parse_context_parse(context, at, (gssize)(len - (gsize)(at - text)),
                                               &error) &&
                  g_markup_parse_context_end_parse(context, &error);
    if (!ok) {
        fprintf(stderr, "trace_inspect: %s: not XML: %s\n", path,
                error != NULL ? error->message : "no <svg> element");
        return 1;
    }
    printf("bands=%u\nmessages=%u\nticks=%u\ntick_labels=%u\nrow_labels=%u\nelements=%u\n",
           c.bands, c.messages, c.ticks, c.tick_labels, c.row_labels, c.elements);
    g_markup_parse_context_free(context);
    g_free(text);
    return 0;
}

int
main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "json") == 0)
        return inspect_json(argv[2]);
    if (argc == 3 && strcmp(argv[1], "svg") == 0)
        return inspect_svg(argv[2]);
    fprintf(stderr, "usage: trace_inspect json|svg FILE\n");
    return 2;
}
