/*
 * point_outputs.c — a trace and a timeline per point of a scenario's sweep (point_outputs.h).
 *
 * The parent checks the paths and keeps them in `sweep` before it forks the points' children,
 * which inherit it: each child records its one simulation and writes its point's files. The
 * parent never records anything itself.
 */
#include "config.h"

#include "sim/trace/point_outputs.h"

#include <stdio.h>
#include <string.h>

#include "sim/picture/picture.h"
#include "sim/trace/recorder.h"
#include "sim/trace/timeline.h"
#include "sim/trace/trace_write.h"
#include "src/coll/coll.h"
#include "src/coll/coll_kinds.h"

static struct {
    gchar *trace;    /* FILE of [output] trace / --trace, or NULL */
    gchar *timeline; /* FILE of [output] timeline / --timeline, or NULL */
    guint total;
} sweep;

gboolean
trace_points_setup(const char *trace, const char *trace_option, const char *timeline,
                   const char *timeline_option, guint total, GError **error)
{
    trace_points_reset();
    /* every point's file lives beside FILE with FILE's extension: checking FILE says it all */
    if (trace != NULL && !trace_check(trace, trace_option, error))
        return FALSE;
    if (timeline != NULL && !timeline_check(timeline, timeline_option, error))
        return FALSE;
    sweep.trace = g_strdup(trace);
    sweep.timeline = g_strdup(timeline);
    sweep.total = total;
    return TRUE;
}

void
trace_points_reset(void)
{
    g_clear_pointer(&sweep.trace, g_free);
    g_clear_pointer(&sweep.timeline, g_free);
    sweep.total = 0;
}

/* "8B", "64KiB", "3MiB": the largest binary unit that divides the size exactly. */
static void
append_size(GString *out, guint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    guint u = 0;
    while (u + 1 < G_N_ELEMENTS(units) && bytes >= 1024 && bytes % 1024 == 0) {
        bytes /= 1024;
        u++;
    }
    g_string_append_printf(out, "%" G_GUINT64_FORMAT "%s", bytes, units[u]);
}

/* What the point runs, as a file name part (point_outputs.h). */
static gchar *
point_label(const struct run_point *point)
{
    GString *label = g_string_new(NULL);
    if (point->program != NULL) {
        gchar *base = g_path_get_basename(point->program);
        if (g_str_has_suffix(base, ".so"))
            base[strlen(base) - 3] = '\0';
        g_string_append_printf(label, "%s-P%d", base, point->nranks);
        g_free(base);
    } else {
        g_string_append_printf(label, "%s-%s-P%d", coll_kind_name(point->kind),
                               point->algorithm != NULL ? point->algorithm : "default",
                               point->nranks);
        if (point->kind != COLL_BARRIER) {
            g_string_append_c(label, '-');
            append_size(label, point->bytes);
        }
    }
    for (gchar *c = label->str; *c != '\0'; c++)
        if (!g_ascii_isalnum(*c) && strchr("._+-", *c) == NULL)
            *c = '_';
    return g_string_free(label, FALSE);
}

gchar *
trace_point_path(const char *path, const struct run_point *point, guint total)
{
    gchar *dir = g_path_get_dirname(path);
    gchar *base = g_path_get_basename(path);
    const char *dot = strrchr(base, '.');
    gsize stem = dot != NULL ? (gsize)(dot - base) : strlen(base);
    int width = 3;
    for (guint last = total > 0 ? total - 1 : 0; last >= 1000; last /= 10)
        width++;
    gchar *label = point_label(point);
    gchar *name = g_strdup_printf("%.*s-%0*u-%s%s", (int)stem, base, width, point->index, label,
                                  dot != NULL ? dot : "");
    /* a FILE given without a directory stays without one */
    gchar *result = strcmp(dir, ".") == 0 && !g_str_has_prefix(path, "./")
                        ? g_strdup(name)
                        : g_build_filename(dir, name, NULL);
    g_free(name);
    g_free(label);
    g_free(base);
    g_free(dir);
    return result;
}

void
trace_point_begin(const struct run_point *point)
{
    if (sweep.trace != NULL || sweep.timeline != NULL)
        recorder_start(point->nranks);
}

/* The last simulated time the record saw (the point's engine may be gone by now). */
static double
record_end(void)
{
    double end = 0;
    for (int r = 0; r < recorder_nranks(); r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, lane, &n);
            for (guint i = 0; i < n; i++)
                end = MAX(end, MAX(spans[i].start, spans[i].end));
        }
    }
    guint n;
    const struct recorder_message *msgs = recorder_messages(&n);
    for (guint i = 0; i < n; i++)
        end = MAX(end, MAX(msgs[i].sent, msgs[i].arrived));
    return end;
}

gboolean
trace_point_finish(const struct run_point *point, GError **error)
{
    if (sweep.trace == NULL && sweep.timeline == NULL)
        return TRUE;
    recorder_stop(record_end());
    gboolean ok = TRUE;
    if (sweep.trace != NULL) {
        gchar *path = trace_point_path(sweep.trace, point, sweep.total);
        ok = trace_write(path, error);
        g_free(path);
    }
    if (ok && sweep.timeline != NULL) {
        gchar *path = trace_point_path(sweep.timeline, point, sweep.total);
        gchar *label = point_label(point);
        gchar *span = picture_seconds_label(recorder_end_time());
        guint64 messages = recorder_message_count();
        gchar *title = g_strdup_printf("point %u, %s: %s simulated, %" G_GUINT64_FORMAT
                                       " message%s",
                                       point->index, label, span, messages,
                                       messages == 1 ? "" : "s");
        ok = timeline_draw(path, title, error);
        g_free(title);
        g_free(span);
        g_free(label);
        g_free(path);
    }
    recorder_clear();
    return ok;
}

guint
trace_points_missing(const GPtrArray *points, const char *prefix)
{
    guint missing = 0;
    const char *paths[] = {sweep.trace, sweep.timeline};
    for (guint k = 0; k < G_N_ELEMENTS(paths); k++) {
        for (guint i = 0; paths[k] != NULL && i < points->len; i++) {
            gchar *path = trace_point_path(paths[k], points->pdata[i], sweep.total);
            if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
                fprintf(stderr, "%s%s was not written\n", prefix, path);
                missing++;
            }
            g_free(path);
        }
    }
    return missing;
}
