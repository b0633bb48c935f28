/*
 * tune_table.c — the measured points of `collsim tune` and their fastest algorithms
 * (tune_table.h), the rule plan both library writers serialise (tune_plan.h), and the
 * PREFIX-times.csv file that holds every candidate's time.
 *
 * Invariants: deterministic — points sorted by (kind, P, bytes), candidates in the order they
 * were added (registry order), ties to the first; no hash table is walked.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sim/report/report.h"
#include "sim/tune/tune_plan.h"
#include "sim/tune/tune_rules.h"
#include "src/coll/coll_kinds.h"
#include "src/coll/coll_registry.h"

const char *
tune_library_name(enum tune_library library)
{
    return library == TUNE_LIBRARY_OMPI ? "ompi" : library == TUNE_LIBRARY_MPICH ? "mpich" : "?";
}

GQuark
tune_rules_error_quark(void)
{
    return g_quark_from_static_string("collsim-tune-rules-error");
}

struct tune_table *
tune_table_new(void)
{
    struct tune_table *table = g_new0(struct tune_table, 1);
    table->points = g_ptr_array_new();
    return table;
}

static void
point_free(struct tune_point *point)
{
    for (guint i = 0; i < point->candidates->len; i++)
        g_free(g_array_index(point->candidates, struct tune_candidate, i).algorithm);
    g_array_free(point->candidates, TRUE);
    g_free(point);
}

void
tune_table_free(struct tune_table *table)
{
    if (table == NULL)
        return;
    for (guint i = 0; i < table->points->len; i++)
        point_free(g_ptr_array_index(table->points, i));
    g_ptr_array_free(table->points, TRUE);
    g_free(table);
}

static int
compare_point_keys(enum coll_kind ka, int pa, guint64 ba, enum coll_kind kb, int pb, guint64 bb)
{
    if (ka != kb)
        return ka < kb ? -1 : 1;
    if (pa != pb)
        return pa < pb ? -1 : 1;
    return (ba > bb) - (ba < bb);
}

static gint
compare_points(gconstpointer a, gconstpointer b)
{
    const struct tune_point *x = *(const struct tune_point *const *)a;
    const struct tune_point *y = *(const struct tune_point *const *)b;
    return compare_point_keys(x->kind, x->nranks, x->bytes, y->kind, y->nranks, y->bytes);
}

const struct tune_point *
tune_table_find(const struct tune_table *table, enum coll_kind kind, int nranks, guint64 bytes)
{
    /* a linear walk: tables hold thousands of points at most, and it works before sorting */
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *p = g_ptr_array_index(table->points, i);
        if (p->kind == kind && p->nranks == nranks && p->bytes == bytes)
            return p;
    }
    return NULL;
}

void
tune_table_add(struct tune_table *table, enum coll_kind kind, int nranks, guint64 bytes,
               guint type_size, const char *algorithm, double time)
{
    struct tune_point *point = (struct tune_point *)tune_table_find(table, kind, nranks, bytes);
    if (point == NULL) {
        point = g_new0(struct tune_point, 1);
        point->kind = kind;
        point->nranks = nranks;
        point->bytes = bytes;
        point->type_size = type_size;
        point->candidates = g_array_new(FALSE, FALSE, sizeof(struct tune_candidate));
        g_ptr_array_add(table->points, point);
    }
    struct tune_candidate c = {.algorithm = g_strdup(algorithm), .time = time};
    g_array_append_val(point->candidates, c);
}

void
tune_table_finish(struct tune_table *table)
{
    g_ptr_array_sort(table->points, compare_points);
}

static gboolean
competes(const struct tune_point *point, const struct tune_candidate *c, enum tune_library library,
         const struct tune_mapping *mapping)
{
    if (library >= TUNE_LIBRARY_COUNT || mapping == NULL)
        return TRUE;
    const char *id = mapping->library_id(library, point->kind, c->algorithm, mapping->data);
    if (id == NULL || *id == '\0')
        return FALSE;
    /* Open MPI's rules file holds numbers only: an algorithm of another component (a catalogue
     * id such as "basic") cannot be selected by it */
    for (const char *d = id; library == TUNE_LIBRARY_OMPI && *d != '\0'; d++)
        if (!g_ascii_isdigit(*d))
            return FALSE;
    return TRUE;
}

const struct tune_candidate *
tune_point_fastest(const struct tune_point *point, enum tune_library library,
                   const struct tune_mapping *mapping, const struct tune_candidate **second)
{
    const struct tune_candidate *best = NULL, *next = NULL;
    for (guint i = 0; i < point->candidates->len; i++) {
        const struct tune_candidate *c =
            &g_array_index(point->candidates, struct tune_candidate, i);
        if (!competes(point, c, library, mapping))
            continue;
        /* strictly faster only: an equal time leaves the earlier (registry order) in front */
        if (best == NULL || c->time < best->time) {
            next = best;
            best = c;
        } else if (next == NULL || c->time < next->time) {
            next = c;
        }
    }
    if (second != NULL)
        *second = next;
    return best;
}

/* ---------------------------------------------------------------- the plan */

static void
plan_comm_clear(struct tune_plan_comm *comm)
{
    for (guint i = 0; i < comm->rules->len; i++)
        g_string_free(g_array_index(comm->rules, struct tune_plan_rule, i).note, TRUE);
    g_array_free(comm->rules, TRUE);
}

void
tune_plan_free(GArray *plan)
{
    if (plan == NULL)
        return;
    for (guint c = 0; c < plan->len; c++) {
        struct tune_plan_collective *coll = &g_array_index(plan, struct tune_plan_collective, c);
        for (guint i = 0; i < coll->comms->len; i++)
            plan_comm_clear(&g_array_index(coll->comms, struct tune_plan_comm, i));
        g_array_free(coll->comms, TRUE);
    }
    g_array_free(plan, TRUE);
}

static void
append_time(GString *s, double seconds)
{
    g_string_append_printf(s, "%.4g us", seconds * 1e6);
}

/* Rules of one (collective, P): the points of the table at that P, ascending in bytes. */
static void
plan_comm(struct tune_plan_comm *comm, GPtrArray *points, enum tune_library library,
          const struct tune_mapping *mapping, tune_plan_key key)
{
    comm->rules = g_array_new(FALSE, FALSE, sizeof(struct tune_plan_rule));
    for (guint i = 0; i < points->len; i++) {
        const struct tune_point *p = g_ptr_array_index(points, i);
        const struct tune_candidate *best = tune_point_fastest(p, library, mapping, NULL);
        guint64 k = key(p->kind, p->nranks, p->bytes, p->type_size);
        struct tune_plan_rule *last =
            comm->rules->len > 0
                ? &g_array_index(comm->rules, struct tune_plan_rule, comm->rules->len - 1)
                : NULL;
        gchar *size = g_strdup_printf("%" G_GUINT64_FORMAT " B", p->bytes);
        if (best == NULL) {
            /* no algorithm of the library served: the rule before (if any) goes on */
            if (last != NULL)
                g_string_append_printf(last->note, "; %s: none of its algorithms", size);
            g_free(size);
            continue;
        }
        const char *id = mapping->library_id(library, p->kind, best->algorithm, mapping->data);
        if (last != NULL && (last->key == k || strcmp(last->id, id) == 0)) {
            if (last->key == k && strcmp(last->id, id) != 0)
                g_string_append_printf(last->note,
                                       "; %s (same size key %" G_GUINT64_FORMAT
                                       ", cannot be told apart): %s was fastest",
                                       size, k, best->algorithm);
            else
                g_string_append_printf(last->note, "; %s also", size);
            g_free(size);
            continue;
        }
        struct tune_plan_rule rule = {
            .key = k,
            .id = id,
            .algorithm = best->algorithm,
            .bytes = p->bytes,
            .note = g_string_new(NULL),
        };
        g_string_append_printf(rule.note, "%s fastest at %s (", best->algorithm, size);
        append_time(rule.note, best->time);
        g_string_append(rule.note, ")");
        g_array_append_val(comm->rules, rule);
        g_free(size);
    }
}

GArray *
tune_plan_build(const struct tune_table *table, enum tune_library library,
                const struct tune_mapping *mapping, tune_plan_has has, tune_plan_key key)
{
    GArray *plan = g_array_new(FALSE, FALSE, sizeof(struct tune_plan_collective));
    const GPtrArray *points = table->points;
    guint i = 0;
    while (i < points->len) {
        const struct tune_point *first = g_ptr_array_index(points, i);
        enum coll_kind kind = first->kind;
        struct tune_plan_collective coll = {
            .kind = kind, .comms = g_array_new(FALSE, FALSE, sizeof(struct tune_plan_comm))};
        while (i < points->len &&
               ((const struct tune_point *)g_ptr_array_index(points, i))->kind == kind) {
            int p = ((const struct tune_point *)g_ptr_array_index(points, i))->nranks;
            GPtrArray *at_p = g_ptr_array_new();
            for (; i < points->len; i++) {
                const struct tune_point *q = g_ptr_array_index(points, i);
                if (q->kind != kind || q->nranks != p)
                    break;
                g_ptr_array_add(at_p, (gpointer)q);
            }
            if (!has(kind)) {
                g_ptr_array_free(at_p, TRUE);
                continue;
            }
            struct tune_plan_comm comm = {.nranks = p};
            plan_comm(&comm, at_p, library, mapping, key);
            g_ptr_array_free(at_p, TRUE);
            if (comm.rules->len == 0)
                plan_comm_clear(&comm);
            else
                g_array_append_val(coll.comms, comm);
        }
        if (coll.comms->len > 0)
            g_array_append_val(plan, coll);
        else
            g_array_free(coll.comms, TRUE);
    }
    return plan;
}

/* ---------------------------------------------------------------- PREFIX-times.csv */

#define TIMES_HEADER "collective,ranks,bytes,type_size,algorithm,time_s"

gboolean
tune_table_write_times(const struct tune_table *table, const char *path, GError **error)
{
    GString *text = g_string_new(TIMES_HEADER "\n");
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *p = g_ptr_array_index(table->points, i);
        for (guint c = 0; c < p->candidates->len; c++) {
            const struct tune_candidate *cand =
                &g_array_index(p->candidates, struct tune_candidate, c);
            char time[G_ASCII_DTOSTR_BUF_SIZE];
            report_format_double_exact(cand->time, time, sizeof time);
            g_string_append_printf(text, "%s,%d,%" G_GUINT64_FORMAT ",%u,%s,%s\n",
                                   coll_kind_name(p->kind), p->nranks, p->bytes, p->type_size,
                                   cand->algorithm, time);
        }
    }
    gboolean ok = g_file_set_contents(path, text->str, (gssize)text->len, error);
    g_string_free(text, TRUE);
    return ok;
}

struct tune_table *
tune_table_load_times(const char *path, GError **error)
{
    gchar *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, error))
        return NULL;
    struct tune_table *table = tune_table_new();
    gchar **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    gboolean ok = lines[0] != NULL && strcmp(lines[0], TIMES_HEADER) == 0;
    if (!ok)
        g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                    "%s:1: not a collsim tune times file (header " TIMES_HEADER ")", path);
    for (guint n = 1; ok && lines[n] != NULL; n++) {
        if (lines[n][0] == '\0')
            continue;
        gchar **f = g_strsplit(lines[n], ",", -1);
        enum coll_kind kind;
        guint64 ranks = 0, bytes = 0, type_size = 0;
        gchar *end = NULL;
        double time = 0;
        ok = g_strv_length(f) == 6 && coll_kind_from_name(f[0], &kind) &&
             g_ascii_string_to_unsigned(f[1], 10, 1, G_MAXINT, &ranks, NULL) &&
             g_ascii_string_to_unsigned(f[2], 10, 0, G_MAXUINT64, &bytes, NULL) &&
             g_ascii_string_to_unsigned(f[3], 10, 1, G_MAXUINT, &type_size, NULL) &&
             (time = g_ascii_strtod(f[5], &end), end != f[5] && *end == '\0');
        if (ok)
            tune_table_add(table, kind, (int)ranks, bytes, (guint)type_size, f[4], time);
        else
            g_set_error(error, TUNE_RULES_ERROR, TUNE_RULES_ERROR_SYNTAX,
                        "%s:%u: not a row collective,ranks,bytes,type_size,algorithm,time_s", path,
                        n + 1);
        g_strfreev(f);
    }
    g_strfreev(lines);
    if (!ok) {
        tune_table_free(table);
        return NULL;
    }
    tune_table_finish(table);
    return table;
}
