/*
 * progress_lines.c — progress lines of a sweep on a stderr that is not a terminal
 * (progress_lines.h).
 */
#include "config.h"

#include "sim/report/progress_lines.h"

#include <math.h>
#include <stdlib.h>

struct progress_lines {
    FILE *out;
    guint total;
    guint done;
    double interval;   /* seconds between lines at least */
    gint64 started_us; /* monotonic */
    double last_line;  /* elapsed seconds at the last line, or at the start */
    gboolean printed;
};

/* COLLSIM_PROGRESS_SECONDS, or the default when it is unset or not a number >= 0. */
static double
interval_seconds(void)
{
    const char *text = g_getenv("COLLSIM_PROGRESS_SECONDS");
    if (text == NULL || *text == '\0')
        return PROGRESS_LINES_SECONDS;
    gchar *end = NULL;
    double value = g_ascii_strtod(text, &end);
    return *end == '\0' && isfinite(value) && value >= 0 ? value : PROGRESS_LINES_SECONDS;
}

static void
append_duration(GString *text, double seconds)
{
    guint64 s = seconds > 0 ? (guint64)llround(seconds) : 0;
    if (s >= 3600)
        g_string_append_printf(text, "%" G_GUINT64_FORMAT "h%02um%02us", s / 3600,
                               (unsigned)(s / 60 % 60), (unsigned)(s % 60));
    else if (s >= 60)
        g_string_append_printf(text, "%um%02us", (unsigned)(s / 60), (unsigned)(s % 60));
    else
        g_string_append_printf(text, "%us", (unsigned)s);
}

gchar *
progress_lines_format(guint done, guint total, double elapsed_seconds)
{
    GString *text = g_string_new(NULL);
    g_string_append_printf(text, "collsim: run: point %u/%u done, ", done, total);
    append_duration(text, elapsed_seconds);
    g_string_append(text, " elapsed");
    if (done > 0 && done < total) {
        g_string_append(text, ", ETA ");
        append_duration(text, elapsed_seconds / done * (total - done));
    }
    return g_string_free(text, FALSE);
}

struct progress_lines *
progress_lines_new(FILE *out, guint total)
{
    struct progress_lines *lines = g_new0(struct progress_lines, 1);
    lines->out = out;
    lines->total = total;
    lines->interval = interval_seconds();
    lines->started_us = g_get_monotonic_time();
    return lines;
}

void
progress_lines_point(struct progress_lines *lines)
{
    if (lines == NULL)
        return;
    lines->done++;
    double elapsed = (double)(g_get_monotonic_time() - lines->started_us) / G_USEC_PER_SEC;
    /* the last point closes what earlier lines began */
    gboolean last = lines->done >= lines->total;
    if (!(elapsed - lines->last_line >= lines->interval || (last && lines->printed)))
        return;
    gchar *text = progress_lines_format(lines->done, lines->total, elapsed);
    fprintf(lines->out, "%s\n", text);
    fflush(lines->out);
    g_free(text);
    lines->last_line = elapsed;
    lines->printed = TRUE;
}

void
progress_lines_free(struct progress_lines *lines)
{
    g_free(lines);
}
