/*
 * outputs.c — the exec command's trace and timeline files (outputs.h).
 */
#include "config.h"

#include "sim/trace/outputs.h"

#include "sim/picture/picture.h"
#include "sim/trace/recorder.h"
#include "sim/trace/timeline.h"
#include "sim/trace/trace_write.h"

gboolean
trace_outputs_check(const char *trace, const char *timeline, GError **error)
{
    if (trace != NULL && !trace_check(trace, "--trace", error))
        return FALSE;
    if (timeline != NULL && !timeline_check(timeline, "--timeline", error))
        return FALSE;
    return TRUE;
}

void
trace_outputs_begin(const char *trace, const char *timeline, int nranks)
{
    if (trace != NULL || timeline != NULL)
        recorder_start(nranks);
}

gboolean
trace_outputs_finish(const char *trace, const char *timeline, const char *program, double end,
                     GError **error)
{
    if (trace == NULL && timeline == NULL)
        return TRUE;
    recorder_stop(end);
    gboolean ok = TRUE;
    if (trace != NULL)
        ok = trace_write(trace, error);
    if (ok && timeline != NULL) {
        gchar *base = g_path_get_basename(program);
        gchar *span = picture_seconds_label(end);
        guint64 messages = recorder_message_count();
        gchar *title = g_strdup_printf("%s on %d rank%s: %s simulated, %" G_GUINT64_FORMAT
                                       " message%s",
                                       base, recorder_nranks(), recorder_nranks() == 1 ? "" : "s",
                                       span, messages, messages == 1 ? "" : "s");
        ok = timeline_draw(timeline, title, error);
        g_free(title);
        g_free(span);
        g_free(base);
    }
    recorder_clear();
    return ok;
}
