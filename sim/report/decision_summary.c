/*
 * decision_summary.c — libraries' choices against the fastest algorithm of each call of a sweep
 * (decision_summary.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "sim/report/decision_summary.h"
#include "sim/report/report.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"

/* What one library chose for one call. */
struct choice {
    double time;
    gchar *served;
};

/* One call of the sweep: every point that differs only by its algorithm. */
struct call {
    enum coll_kind kind;
    int nranks;
    guint64 bytes;
    double best_time; /* INFINITY until an algorithm point is added */
    gchar *best;      /* the algorithm that served the fastest point */
    GHashTable *choices; /* library name (interned) -> struct choice * */
};

struct decision_summary {
    GPtrArray *calls;       /* struct call *, in order of first appearance */
    GHashTable *by_key;     /* call key -> struct call * (lookup only, never iterated) */
    GPtrArray *libraries;   /* interned names, in order of first appearance */
};

static void
choice_free(gpointer data)
{
    struct choice *c = data;
    g_free(c->served);
    g_free(c);
}

static void
call_free(gpointer data)
{
    struct call *c = data;
    g_free(c->best);
    g_hash_table_destroy(c->choices);
    g_free(c);
}

struct decision_summary *
decision_summary_new(void)
{
    struct decision_summary *s = g_new0(struct decision_summary, 1);
    s->calls = g_ptr_array_new_with_free_func(call_free);
    s->by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    s->libraries = g_ptr_array_new();
    return s;
}

void
decision_summary_free(struct decision_summary *summary)
{
    if (summary == NULL)
        return;
    g_hash_table_destroy(summary->by_key);
    g_ptr_array_free(summary->calls, TRUE);
    g_ptr_array_free(summary->libraries, TRUE);
    g_free(summary);
}

/* The call a point belongs to, made on first sight. */
static struct call *
call_of(struct decision_summary *s, const struct run_point *point)
{
    g_autofree gchar *key = g_strdup_printf(
        "%d|%d|%" G_GUINT64_FORMAT "|%d|%s|%s|%d|%d|%d", (int)point->kind, point->nranks,
        point->bytes, point->count, point->datatype != NULL ? point->datatype : "",
        point->op != NULL ? point->op : "", point->root, point->in_place, (int)point->inputs);
    struct call *c = g_hash_table_lookup(s->by_key, key);
    if (c != NULL)
        return c;
    c = g_new0(struct call, 1);
    c->kind = point->kind;
    c->nranks = point->nranks;
    c->bytes = point->bytes;
    c->best_time = INFINITY;
    c->choices = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, choice_free);
    g_ptr_array_add(s->calls, c);
    g_hash_table_insert(s->by_key, g_steal_pointer(&key), c);
    return c;
}

void
decision_summary_add(struct decision_summary *summary, const struct run_point *point,
                     const struct point_result *result)
{
    if (point->program != NULL || result->exit_code != 0 || result->check == POINT_CHECK_FAIL ||
        result->check == POINT_CHECK_ERROR || !isfinite(result->time_max))
        return;
    struct call *c = call_of(summary, point);
    const char *served = result->served != NULL ? result->served : "?";
    if (point->algorithm != NULL && coll_decision_is_library(point->algorithm)) {
        const char *library = g_intern_string(point->algorithm);
        if (g_hash_table_contains(c->choices, library))
            return;
        struct choice *choice = g_new0(struct choice, 1);
        choice->time = result->time_max;
        choice->served = g_strdup(served);
        g_hash_table_insert(c->choices, (gpointer)library, choice);
        gboolean known = FALSE;
        for (guint i = 0; i < summary->libraries->len && !known; i++)
            known = g_ptr_array_index(summary->libraries, i) == library;
        if (!known)
            g_ptr_array_add(summary->libraries, (gpointer)library);
        return;
    }
    if (result->time_max < c->best_time) {
        c->best_time = result->time_max;
        g_free(c->best);
        c->best = g_strdup(served);
    }
}

/* A choice within this fraction of the fastest time counts as the fastest (the ratio then
 * prints as 1.000 or 1.001: sub-nanosecond differences are not a worse choice). */
#define FASTEST_TOLERANCE 0.001

/* Per library: calls where its choice was as fast as the fastest, and its worst ratio. */
struct tally {
    guint compared, fastest;
    double worst;
    const struct call *worst_call;
};

/* Per collective (in order of first appearance) and library: the geometric mean of the ratios
 * and the largest, "-" where no call of that collective was compared. */
static void
write_per_collective(const struct decision_summary *summary, GString *text)
{
    guint nlib = summary->libraries->len;
    gboolean listed[COLL_KIND_COUNT] = {FALSE};
    int w_kind = (int)strlen("collective");
    for (guint i = 0; i < summary->calls->len; i++) {
        const struct call *c = g_ptr_array_index(summary->calls, i);
        w_kind = MAX(w_kind, (int)strlen(coll_kind_name(c->kind)));
    }
    g_string_append(text, "per collective, each library's choice / the fastest: geometric mean "
                          "over the calls (largest)\n");
    g_string_append_printf(text, "%-*s", w_kind, "collective");
    for (guint l = 0; l < nlib; l++)
        g_string_append_printf(text, "  %15s", (const char *)g_ptr_array_index(summary->libraries, l));
    g_string_append_c(text, '\n');
    for (guint i = 0; i < summary->calls->len; i++) {
        enum coll_kind kind = ((const struct call *)g_ptr_array_index(summary->calls, i))->kind;
        if (listed[kind])
            continue;
        listed[kind] = TRUE;
        g_string_append_printf(text, "%-*s", w_kind, coll_kind_name(kind));
        for (guint l = 0; l < nlib; l++) {
            const char *library = g_ptr_array_index(summary->libraries, l);
            double log_sum = 0, largest = 0;
            guint n = 0;
            for (guint j = i; j < summary->calls->len; j++) {
                const struct call *c = g_ptr_array_index(summary->calls, j);
                const struct choice *choice = g_hash_table_lookup(c->choices, library);
                if (c->kind != kind || choice == NULL || !isfinite(c->best_time) ||
                    c->best_time <= 0)
                    continue;
                double ratio = choice->time / c->best_time;
                log_sum += log(ratio);
                largest = MAX(largest, ratio);
                n++;
            }
            if (n == 0) {
                g_string_append_printf(text, "  %15s", "-");
                continue;
            }
            char cell[32];
            snprintf(cell, sizeof cell, "%.3f (%.3f)", exp(log_sum / n), largest);
            g_string_append_printf(text, "  %15s", cell);
        }
        g_string_append_c(text, '\n');
    }
}

void
decision_summary_write(const struct decision_summary *summary, GString *text)
{
    guint nlib = summary->libraries->len;
    gboolean compared = FALSE; /* some call ran an algorithm to hold the choices against */
    for (guint i = 0; i < summary->calls->len && !compared; i++)
        compared = ((const struct call *)g_ptr_array_index(summary->calls, i))->best != NULL;
    if (nlib == 0 || !compared)
        return;
    int w_kind = (int)strlen("collective"), w_p = 1, w_bytes = (int)strlen("bytes");
    int w_best = (int)strlen("fastest"), w_time = (int)strlen("time");
    GPtrArray *sizes = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *times = g_ptr_array_new_with_free_func(g_free);
    for (guint i = 0; i < summary->calls->len; i++) {
        const struct call *c = g_ptr_array_index(summary->calls, i);
        gchar *size = c->kind == COLL_BARRIER ? g_strdup("-") : report_format_bytes(c->bytes);
        gchar *time = isfinite(c->best_time) ? report_format_seconds(c->best_time) : g_strdup("-");
        w_kind = MAX(w_kind, (int)strlen(coll_kind_name(c->kind)));
        w_p = MAX(w_p, snprintf(NULL, 0, "%d", c->nranks));
        w_bytes = MAX(w_bytes, (int)g_utf8_strlen(size, -1));
        w_best = MAX(w_best, c->best != NULL ? (int)strlen(c->best) : 1);
        w_time = MAX(w_time, (int)g_utf8_strlen(time, -1));
        g_ptr_array_add(sizes, size);
        g_ptr_array_add(times, time);
    }

    g_string_append(text, "libraries' choices against the fastest algorithm of each call "
                          "(time of the choice / fastest):\n");
    g_string_append_printf(text, "%-*s  %*s  %*s  %-*s  %*s", w_kind, "collective", w_p, "P",
                           w_bytes, "bytes", w_best, "fastest", w_time, "time");
    for (guint l = 0; l < nlib; l++) {
        const char *library = g_ptr_array_index(summary->libraries, l);
        g_string_append_printf(text, "  %*s", MAX(5, (int)strlen(library)), library);
    }
    g_string_append_c(text, '\n');

    struct tally *tallies = g_new0(struct tally, nlib);
    for (guint i = 0; i < summary->calls->len; i++) {
        const struct call *c = g_ptr_array_index(summary->calls, i);
        /* "%*s" pads by bytes: pad the UTF-8 cells (µs) by characters */
        const char *size = g_ptr_array_index(sizes, i), *time = g_ptr_array_index(times, i);
        g_string_append_printf(text, "%-*s  %*d  %*s%s  %-*s  %*s%s", w_kind,
                               coll_kind_name(c->kind), w_p, c->nranks,
                               w_bytes - (int)g_utf8_strlen(size, -1), "", size, w_best,
                               c->best != NULL ? c->best : "-",
                               w_time - (int)g_utf8_strlen(time, -1), "", time);
        for (guint l = 0; l < nlib; l++) {
            const char *library = g_ptr_array_index(summary->libraries, l);
            const struct choice *choice = g_hash_table_lookup(c->choices, library);
            int width = MAX(5, (int)strlen(library));
            if (choice == NULL || !isfinite(c->best_time) || c->best_time <= 0) {
                g_string_append_printf(text, "  %*s", width, "-");
                continue;
            }
            double ratio = choice->time / c->best_time;
            g_string_append_printf(text, "  %*.3f", width, ratio);
            struct tally *t = &tallies[l];
            t->compared++;
            if (ratio < 1 + FASTEST_TOLERANCE)
                t->fastest++;
            if (t->worst_call == NULL || ratio > t->worst) {
                t->worst = ratio;
                t->worst_call = c;
            }
        }
        g_string_append_c(text, '\n');
    }
    write_per_collective(summary, text);
    for (guint l = 0; l < nlib; l++) {
        const char *library = g_ptr_array_index(summary->libraries, l);
        const struct tally *t = &tallies[l];
        if (t->worst_call == NULL) {
            g_string_append_printf(text, "%s: no call compared\n", library);
            continue;
        }
        const struct call *w = t->worst_call;
        const struct choice *choice = g_hash_table_lookup(w->choices, library);
        g_autofree gchar *size = report_format_bytes(w->bytes);
        /* The same algorithm slower than itself: the library runs it with parameters of its own
         * (MPICH's radix-2 k-dissemination barrier against the registry's radix 4). */
        gboolean same = g_strcmp0(choice->served, w->best) == 0;
        g_string_append_printf(text,
                               "%s: within 0.1%% of the fastest at %u of %u calls; worst %.3f "
                               "(%s P=%d %s: %s%s, fastest %s%s)\n",
                               library, t->fastest, t->compared, t->worst, coll_kind_name(w->kind),
                               w->nranks, w->kind == COLL_BARRIER ? "-" : size, choice->served,
                               same ? " with the library's parameters" : "", w->best,
                               same ? " with the registry's defaults" : "");
    }
    g_free(tallies);
    g_ptr_array_free(sizes, TRUE);
    g_ptr_array_free(times, TRUE);
}
