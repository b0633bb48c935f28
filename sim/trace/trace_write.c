/*
 * trace_write.c — the recorder's record as a Chrome/Perfetto JSON or a Paje trace
 * (trace_write.h).
 *
 * JSON: one process per rank (pid = world rank, named "rank R"), thread 0 its own calls,
 * thread 1 its nonblocking collectives; every span an "X" (complete) event with the
 * collective, algorithm, bytes and communicator as arguments; every message that arrived a
 * flow ("s" at its sending, "f" at its arrival, the same id). Times in microseconds with
 * exactly three decimals (whole nanoseconds), a slice's duration the difference of its
 * rounded ends, so a slice nested in another never sticks out of it. Written as text directly
 * (strings escaped here), which is also several times faster than a JSON library per event.
 *
 * Paje: a container per rank inside one "collsim" container; span kinds as Push/PopState of
 * the state type of their lane; messages as StartLink/EndLink keyed by their number. Paje
 * wants its events in time order: each rank's are produced in order (a pop before any later
 * push), then all are merged by (time, production order), which a sort with that key makes
 * deterministic.
 */
#include "config.h"

#include "sim/trace/trace_write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "sim/trace/recorder.h"
#include "src/coll/coll.h"
#include "src/coll/coll_kinds.h"

G_DEFINE_QUARK(collsim-trace-error-quark, trace_error)

gboolean
trace_format_of(const char *path, enum trace_format *format, GError **error)
{
    gsize len = strlen(path);
    if (len > 5 && g_ascii_strcasecmp(path + len - 5, ".paje") == 0) {
        *format = TRACE_PAJE;
        return TRUE;
    }
    if (len > 5 && g_ascii_strcasecmp(path + len - 5, ".json") == 0) {
        *format = TRACE_JSON;
        return TRUE;
    }
    g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT,
                "%s: unknown trace format (the file name must end in .json for Perfetto and "
                "chrome://tracing, or .paje for ViTE)",
                path);
    return FALSE;
}

gboolean
trace_check(const char *path, const char *option, GError **error)
{
    enum trace_format format;
    GError *why = NULL;
    if (!trace_format_of(path, &format, &why)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_FORMAT, "%s %s", option, why->message);
        g_error_free(why);
        return FALSE;
    }
    if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_PATH, "%s %s: is a directory", option, path);
        return FALSE;
    }
    /* the file itself is written later, whole, through FILE.tmp: try that one now */
    gchar *tmp = g_strconcat(path, ".tmp", NULL);
    FILE *f = g_fopen(tmp, "wx");
    int err = errno;
    gboolean ok = f != NULL || err == EEXIST;
    if (f != NULL) {
        fclose(f);
        g_unlink(tmp);
    }
    if (!ok)
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_PATH, "%s %s: cannot be written: %s", option,
                    path, g_strerror(err));
    g_free(tmp);
    return ok;
}

/* Simulated seconds as whole nanoseconds: the resolution of every time in a JSON trace. */
static gint64
nanos(double seconds)
{
    return (gint64)llround(seconds * 1e9);
}

/* Nanoseconds as the microseconds the format counts in, with exactly three decimals: printed
 * from the integer, so the text never depends on how a double is formatted. */
static void
append_micros(GString *out, gint64 ns)
{
    const char *sign = ns < 0 ? "-" : "";
    guint64 abs_ns = ns < 0 ? (guint64)-ns : (guint64)ns;
    g_string_append_printf(out, "%s%" G_GUINT64_FORMAT ".%03u", sign, abs_ns / 1000,
                           (unsigned)(abs_ns % 1000));
}

static const char *
category(const struct recorder_span *s)
{
    switch (s->kind) {
    case RECORDER_COLLECTIVE:
        return "collective";
    case RECORDER_CALL:
        return "point-to-point";
    case RECORDER_WAIT:
        return "wait";
    case RECORDER_COMPUTE:
        return "compute";
    }
    return "other";
}

/* A JSON string: quoted, with quotes, backslashes and control characters escaped (names come
 * from the program: a communicator's name may hold anything). */
static void
append_string(GString *out, const char *text)
{
    g_string_append_c(out, '"');
    for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
        if (*c == '"' || *c == '\\')
            g_string_append_printf(out, "\\%c", *c);
        else if (*c < 0x20)
            g_string_append_printf(out, "\\u%04x", *c);
        else
            g_string_append_c(out, (gchar)*c);
    }
    g_string_append_c(out, '"');
}

/* Each event is a line of its own, appended as it is made (a tree of the whole trace would
 * cost a few hundred bytes per event at once). */
static void
begin_event(GString *out, gboolean *first)
{
    g_string_append(out, *first ? "\n{" : ",\n{");
    *first = FALSE;
}

static void
json_metadata(GString *out, gboolean *first, const char *what, int pid, int tid, const char *key,
              const char *text, gint64 number)
{
    begin_event(out, first);
    g_string_append(out, "\"name\":");
    append_string(out, what);
    g_string_append_printf(out, ",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{", pid, tid);
    append_string(out, key);
    g_string_append_c(out, ':');
    if (text != NULL)
        append_string(out, text);
    else
        g_string_append_printf(out, "%" G_GINT64_FORMAT, number);
    g_string_append(out, "}}");
}

static void
json_span(GString *out, gboolean *first, int rank, int lane, const struct recorder_span *s)
{
    gint64 start = nanos(s->start);
    begin_event(out, first);
    g_string_append(out, "\"name\":");
    append_string(out, s->name);
    g_string_append(out, ",\"cat\":");
    append_string(out, category(s));
    g_string_append_printf(out, ",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":", rank, lane);
    append_micros(out, start);
    g_string_append(out, ",\"dur\":");
    append_micros(out, nanos(s->end) - start);
    g_string_append(out, ",\"args\":{");
    const char *sep = "";
    if (s->collective >= 0) {
        g_string_append(out, "\"collective\":");
        append_string(out, coll_kind_name((enum coll_kind)s->collective));
        sep = ",";
    }
    if (s->algorithm != NULL) {
        g_string_append_printf(out, "%s\"algorithm\":", sep);
        append_string(out, s->algorithm);
        sep = ",";
    }
    if (s->kind == RECORDER_COLLECTIVE || s->kind == RECORDER_CALL) {
        g_string_append_printf(out, "%s\"bytes\":%" G_GUINT64_FORMAT, sep, s->bytes);
        sep = ",";
    }
    if (s->comm != NULL) {
        g_string_append_printf(out, "%s\"comm\":", sep);
        append_string(out, s->comm);
    }
    g_string_append(out, "}}");
}

static void
json_flow(GString *out, gboolean *first, const char *ph, guint id, int pid, int tid, double t,
          gboolean end, const struct recorder_message *m)
{
    begin_event(out, first);
    g_string_append_printf(out,
                           "\"name\":\"%s\",\"cat\":\"message\",\"ph\":\"%s\",\"id\":%u,"
                           "\"pid\":%d,\"tid\":%d,\"ts\":",
                           m->eager ? "eager message" : "rendezvous message", ph, id, pid, tid);
    append_micros(out, nanos(t));
    /* the finish binds to the slice its arrival falls in */
    if (end)
        g_string_append(out, ",\"bp\":\"e\"");
    g_string_append_printf(out,
                           ",\"args\":{\"from\":%d,\"to\":%d,\"bytes\":%" G_GUINT64_FORMAT
                           ",\"protocol\":\"%s\"}}",
                           m->src, m->dst, m->bytes, m->eager ? "eager" : "rendezvous");
}

gchar *
trace_json_text(void)
{
    int nranks = recorder_nranks();
    GString *out = g_string_new("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
    gboolean first = TRUE;
    for (int r = 0; r < nranks; r++) {
        gchar *name = g_strdup_printf("rank %d", r);
        json_metadata(out, &first, "process_name", r, 0, "name", name, 0);
        json_metadata(out, &first, "process_sort_index", r, 0, "sort_index", NULL, r);
        json_metadata(out, &first, "thread_name", r, 0, "name", "MPI calls", 0);
        guint n;
        recorder_spans(r, 1, &n);
        if (n > 0)
            json_metadata(out, &first, "thread_name", r, 1, "name", "nonblocking collectives", 0);
        g_free(name);
    }
    for (int r = 0; r < nranks; r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, lane, &n);
            for (guint i = 0; i < n; i++)
                json_span(out, &first, r, lane, &spans[i]);
        }
    }
    guint nmsg;
    const struct recorder_message *msgs = recorder_messages(&nmsg);
    for (guint i = 0; i < nmsg; i++) {
        const struct recorder_message *m = &msgs[i];
        if (m->arrived < 0)
            continue;
        json_flow(out, &first, "s", i + 1, m->src, m->src_lane, m->sent, FALSE, m);
        json_flow(out, &first, "f", i + 1, m->dst, m->dst_lane, m->arrived, TRUE, m);
    }
    g_string_append(out, "\n]}\n");
    return g_string_free(out, FALSE);
}

/* ---------------------------------------------------------------- Paje */

static const char paje_header[] =
    "%EventDef PajeDefineContainerType 0\n"
    "%       Alias string\n"
    "%       Type string\n"
    "%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n"
    "%       Alias string\n"
    "%       Type string\n"
    "%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineLinkType 2\n"
    "%       Alias string\n"
    "%       Type string\n"
    "%       StartContainerType string\n"
    "%       EndContainerType string\n"
    "%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDefineEntityValue 3\n"
    "%       Alias string\n"
    "%       Type string\n"
    "%       Name string\n"
    "%       Color color\n"
    "%EndEventDef\n"
    "%EventDef PajeCreateContainer 4\n"
    "%       Time date\n"
    "%       Alias string\n"
    "%       Type string\n"
    "%       Container string\n"
    "%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeDestroyContainer 5\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Name string\n"
    "%EndEventDef\n"
    "%EventDef PajeSetState 6\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Container string\n"
    "%       Value string\n"
    "%EndEventDef\n"
    "%EventDef PajePushState 7\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Container string\n"
    "%       Value string\n"
    "%EndEventDef\n"
    "%EventDef PajePopState 8\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Container string\n"
    "%EndEventDef\n"
    "%EventDef PajeStartLink 9\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Container string\n"
    "%       Value string\n"
    "%       StartContainer string\n"
    "%       Key string\n"
    "%EndEventDef\n"
    "%EventDef PajeEndLink 10\n"
    "%       Time date\n"
    "%       Type string\n"
    "%       Container string\n"
    "%       Value string\n"
    "%       EndContainer string\n"
    "%       Key string\n"
    "%EndEventDef\n";

struct paje_event {
    double time;
    guint64 order;
    gchar *line;
};

static gint
paje_event_cmp(gconstpointer a, gconstpointer b)
{
    const struct paje_event *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void
paje_add(GArray *events, double time, gchar *line)
{
    struct paje_event e = {time, events->len, line};
    g_array_append_val(events, e);
}

/* A span's state value: the call's name ("MPI_Allreduce"), or "compute". */
static const char *
paje_value(const struct recorder_span *s)
{
    return s->name;
}

/* One rank's lane as pushes and pops, in time order: before a span is pushed, every open
 * span that ended by its start is popped, innermost first. */
static void
paje_lane(GArray *events, int rank, int lane)
{
    guint n;
    const struct recorder_span *spans = recorder_spans(rank, lane, &n);
    const char *type = lane == 0 ? "ST_Call" : "ST_Nonblocking";
    GArray *open = g_array_new(FALSE, FALSE, sizeof(double));
    for (guint i = 0; i <= n; i++) {
        while (open->len > 0) {
            double end = g_array_index(open, double, open->len - 1);
            if (i < n && end > spans[i].start)
                break;
            paje_add(events, end, g_strdup_printf("8 %.9f %s r%d\n", end, type, rank));
            g_array_set_size(open, open->len - 1);
        }
        if (i == n)
            break;
        paje_add(events, spans[i].start,
                 g_strdup_printf("7 %.9f %s r%d \"%s/%s\"\n", spans[i].start, type, rank, type,
                                 paje_value(&spans[i])));
        g_array_append_val(open, spans[i].end);
    }
    g_array_free(open, TRUE);
}

gchar *
trace_paje_text(void)
{
    int nranks = recorder_nranks();
    GString *out = g_string_new(paje_header);
    g_string_append(out, "0 CT_Program 0 \"Program\"\n"
                         "0 CT_Rank CT_Program \"Rank\"\n"
                         "1 ST_Call CT_Rank \"MPI call\"\n"
                         "1 ST_Nonblocking CT_Rank \"Nonblocking collective\"\n"
                         "2 LT_Message CT_Program CT_Rank CT_Rank \"Message\"\n"
                         "3 eager LT_Message \"eager\" \"0.2 0.2 0.6\"\n"
                         "3 rendezvous LT_Message \"rendezvous\" \"0.6 0.2 0.2\"\n");
    /* each state value once, in order of first appearance (rank by rank) */
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (int r = 0; r < nranks; r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *spans = recorder_spans(r, lane, &n);
            const char *type = lane == 0 ? "ST_Call" : "ST_Nonblocking";
            for (guint i = 0; i < n; i++) {
                gchar *key = g_strdup_printf("%s/%s", type, paje_value(&spans[i]));
                if (g_hash_table_contains(seen, key)) {
                    g_free(key);
                    continue;
                }
                g_hash_table_add(seen, key);
                double red = spans[i].kind == RECORDER_WAIT ? 0.9 : 0.3;
                double green = spans[i].kind == RECORDER_COMPUTE ? 0.8 : 0.5;
                double blue = spans[i].kind == RECORDER_COLLECTIVE ? 0.9 : 0.4;
                g_string_append_printf(out, "3 \"%s\" %s \"%s\" \"%.1f %.1f %.1f\"\n", key, type,
                                       paje_value(&spans[i]), red, green, blue);
            }
        }
    }
    g_string_append(out, "4 0.000000000 prog CT_Program 0 \"collsim\"\n");
    for (int r = 0; r < nranks; r++)
        g_string_append_printf(out, "4 0.000000000 r%d CT_Rank prog \"rank %d\"\n", r, r);
    GArray *events = g_array_new(FALSE, FALSE, sizeof(struct paje_event));
    for (int r = 0; r < nranks; r++)
        for (int lane = 0; lane < RECORDER_LANES; lane++)
            paje_lane(events, r, lane);
    guint nmsg;
    const struct recorder_message *msgs = recorder_messages(&nmsg);
    for (guint i = 0; i < nmsg; i++) {
        const struct recorder_message *m = &msgs[i];
        if (m->arrived < 0)
            continue;
        const char *value = m->eager ? "eager" : "rendezvous";
        paje_add(events, m->sent,
                 g_strdup_printf("9 %.9f LT_Message prog %s r%d m%u\n", m->sent, value, m->src,
                                 i + 1));
        paje_add(events, m->arrived,
                 g_strdup_printf("10 %.9f LT_Message prog %s r%d m%u\n", m->arrived, value,
                                 m->dst, i + 1));
    }
    g_array_sort(events, paje_event_cmp);
    for (guint i = 0; i < events->len; i++) {
        struct paje_event *e = &g_array_index(events, struct paje_event, i);
        g_string_append(out, e->line);
        g_free(e->line);
    }
    g_array_free(events, TRUE);
    double end = recorder_end_time();
    for (int r = 0; r < nranks; r++)
        g_string_append_printf(out, "5 %.9f CT_Rank r%d\n", end, r);
    g_string_append_printf(out, "5 %.9f CT_Program prog\n", end);
    g_hash_table_destroy(seen);
    return g_string_free(out, FALSE);
}

gboolean
trace_write(const char *path, GError **error)
{
    enum trace_format format;
    if (!trace_format_of(path, &format, error))
        return FALSE;
    gchar *text = format == TRACE_JSON ? trace_json_text() : trace_paje_text();
    gchar *tmp = g_strconcat(path, ".tmp", NULL);
    GError *why = NULL;
    gboolean ok = g_file_set_contents(tmp, text, -1, &why);
    if (ok && g_rename(tmp, path) != 0) {
        g_set_error(&why, TRACE_ERROR, TRACE_ERROR_WRITE, "%s", g_strerror(errno));
        g_unlink(tmp);
        ok = FALSE;
    }
    if (!ok) {
        g_set_error(error, TRACE_ERROR, TRACE_ERROR_WRITE, "--trace %s: %s", path, why->message);
        g_error_free(why);
    }
    g_free(text);
    g_free(tmp);
    return ok;
}
