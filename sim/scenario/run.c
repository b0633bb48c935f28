/*
 * run.c — `collsim run FILE.ini`: every point of a scenario's sweep as a fresh simulation.
 *
 * SimGrid starts once per process, so each point runs in a forked child (bench_run_point);
 * the child writes its result, serialised as a GVariant, to a private temporary file and
 * exits; the parent reads it back and reports points strictly in sweep order, however many
 * children run at once (-j). A child that dies (a crash the engine could not report, a kill)
 * becomes an ERROR row instead of ending the sweep, and every finished row is already in the
 * CSV and JSON files. The same sweep serves `collsim check` (run_sweep).
 *
 * With --certify FILE (or [output] certificates) and --against FILE, each distinct reduction
 * point then gets its order certificate (order.h), again one child per point since a witness
 * is a simulation of its own; the table, CSV, JSON and digest are those of the sweep alone.
 *
 * Exit codes: 0 every point ran and checked ok (or unchecked); 1 some point FAILed its check or
 * ended in an error, or a certificate failed or shows an order MPI forbids, or the table, CSV
 * or JSON could not be written (a full disk: the run stops there, each file keeping the
 * complete rows it had); 2 a bad scenario, override or command line (nothing ran); 3 an order
 * differs from the --against file. The highest applicable code wins.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "sim/bench/bench.h"
#include "sim/bench/point.h"
#include "sim/engine/proc.h"
#include "sim/order/order.h"
#include "sim/report/plot.h"
#include "sim/report/progress_lines.h"
#include "sim/report/report.h"
#include "sim/report/shard.h"
#include "sim/scenario/run.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/point_outputs.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"
#include "sim/cli/decide.h"

#define RUN_EXIT_FAILED 1
#define RUN_EXIT_USAGE 2
#define RUN_EXIT_CHANGED 3
/* a child that could not hand its bytes back (any code its work does not use) */
#define RUN_EXIT_CHILD_LOST 125

/* ---------------------------------------------------------------- children */

/*
 * Work that runs in a forked child for item `index` of a pool: returns the bytes to hand back
 * to the parent (NULL for none) and sets *exit_code, the child's exit status.
 */
typedef GBytes *(*child_work_fn)(guint index, gpointer data, int *exit_code);
/*
 * In the parent, strictly in index order, once item `index` has finished: `bytes` is what its
 * child handed back (NULL if it left nothing), `status` how the child ended, `wall_seconds`
 * how long it ran. FALSE (with `error`) stops the pool.
 */
typedef gboolean (*child_done_fn)(guint index, GBytes *bytes, const struct sim_proc_status *status,
                                  double wall_seconds, gpointer data, GError **error);

struct child_pool {
    const char *const *simgrid_cfg; /* extra SimGrid items for every child, or NULL */
    child_work_fn work;
    child_done_fn done;
    gpointer data;
};

/* A child at work. */
struct running_child {
    pid_t pid;
    gchar *result_path;
    gint64 started; /* monotonic µs, for the wall time of the item */
};

/*
 * Hand `items` (NULL-terminated "--cfg=..." strings) to the engine of this child. They travel
 * in COLLSIM_SIMGRID_CFG, which the engine reads for every simulation, rather than in the
 * points: how the host runs a simulation (its context factory) is not part of the experiment,
 * and the points' own items (the network model) stay untouched. Appended last, they win.
 */
static void
child_add_simgrid_cfg(const char *const *items)
{
    if (items == NULL || items[0] == NULL)
        return;
    g_autofree gchar *joined = g_strjoinv(" ", (gchar **)items);
    const char *before = g_getenv("COLLSIM_SIMGRID_CFG");
    g_autofree gchar *value = before != NULL && *before != '\0'
                                  ? g_strconcat(before, " ", joined, NULL)
                                  : g_strdup(joined);
    g_setenv("COLLSIM_SIMGRID_CFG", value, TRUE);
}

/* What one child works on. */
struct child_item {
    const struct child_pool *pool;
    guint index;
    const char *result_path;
};

/* In the child: do the work, write its bytes; sim_proc leaves without the parent's atexit work. */
static int
child_main(gpointer data)
{
    const struct child_item *item = data;
    const struct child_pool *pool = item->pool;
    guint index = item->index;
    const char *result_path = item->result_path;
    child_add_simgrid_cfg(pool->simgrid_cfg);
    int exit_code = 0;
    GBytes *bytes = pool->work(index, pool->data, &exit_code);
    gboolean written = TRUE;
    if (bytes != NULL) {
        gsize size = 0;
        gconstpointer data = g_bytes_get_data(bytes, &size);
        written = g_file_set_contents(result_path, data, (gssize)size, NULL);
        g_bytes_unref(bytes);
    }
    fflush(NULL);
    return written ? exit_code : RUN_EXIT_CHILD_LOST;
}

static gboolean
start_child(const struct child_pool *pool, guint index, struct running_child *slot, GError **error)
{
    gchar *path = NULL;
    int fd = g_file_open_tmp("collsim-point-XXXXXX", &path, error);
    if (fd < 0)
        return FALSE;
    close(fd);
    struct child_item item = {pool, index, path};
    pid_t pid;
    if (!sim_proc_start(child_main, &item, NULL, &pid, error)) {
        g_unlink(path);
        g_free(path);
        return FALSE;
    }
    *slot =
        (struct running_child){.pid = pid, .result_path = path, .started = g_get_monotonic_time()};
    return TRUE;
}

/* A finished child's bytes (NULL if it left none), its wall time; removes its file. */
static GBytes *
collect_child(struct running_child *slot, const struct sim_proc_status *status,
              double *wall_seconds)
{
    gchar *data = NULL;
    gsize length = 0;
    GBytes *bytes = NULL;
    if (status->end == SIM_PROC_EXITED &&
        g_file_get_contents(slot->result_path, &data, &length, NULL) && length > 0)
        bytes = g_bytes_new_take(g_steal_pointer(&data), length);
    g_free(data);
    *wall_seconds = (double)(g_get_monotonic_time() - slot->started) / 1e6;
    g_unlink(slot->result_path);
    g_clear_pointer(&slot->result_path, g_free);
    return bytes;
}

/*
 * Run items 0 .. total-1, each in its own child, at most `jobs` at once, and hand them to
 * pool->done in index order. FALSE when the pool itself failed (fork, waitpid) or done said
 * stop; children still running are then stopped.
 */
static gboolean
run_children(const struct child_pool *pool, guint total, int jobs, GError **error)
{
    struct running_child *running = g_new0(struct running_child, total);
    GBytes **results = g_new0(GBytes *, total);
    struct sim_proc_status *statuses = g_new0(struct sim_proc_status, total);
    double *walls = g_new0(double, total);
    gboolean *finished = g_new0(gboolean, total);
    guint next_to_start = 0, next_to_report = 0, active = 0;
    gboolean ok = TRUE;
    while (ok && next_to_report < total) {
        while (active < (guint)jobs && next_to_start < total) {
            if (!start_child(pool, next_to_start, &running[next_to_start], error)) {
                ok = FALSE;
                break;
            }
            next_to_start++;
            active++;
        }
        if (!ok)
            break;
        struct sim_proc_status status;
        pid_t pid;
        if (!sim_proc_wait_any(&pid, &status, error)) {
            ok = FALSE;
            break;
        }
        for (guint i = next_to_report; i < next_to_start; i++) {
            if (!finished[i] && running[i].pid == pid) {
                results[i] = collect_child(&running[i], &status, &walls[i]);
                statuses[i] = status;
                finished[i] = TRUE;
                active--;
                break;
            }
        }
        while (ok && next_to_report < total && finished[next_to_report]) {
            guint i = next_to_report++;
            ok = pool->done(i, results[i], &statuses[i], walls[i], pool->data, error);
            g_clear_pointer(&results[i], g_bytes_unref);
        }
    }
    /* a failure leaves children behind: stop them */
    for (guint i = next_to_report; i < next_to_start; i++) {
        if (!finished[i] && running[i].pid > 0) {
            sim_proc_stop(running[i].pid);
            g_unlink(running[i].result_path);
            g_free(running[i].result_path);
        }
        g_clear_pointer(&results[i], g_bytes_unref);
    }
    g_free(finished);
    g_free(walls);
    g_free(statuses);
    g_free(results);
    g_free(running);
    return ok;
}

/* ---------------------------------------------------------------- the sweep */

struct sweep {
    const struct scenario *scenario;
    run_point_sink sink;
    gpointer sink_data;
};

static GBytes *
sweep_work(guint index, gpointer data, int *exit_code)
{
    const struct sweep *sweep = data;
    struct point_result result = {0};
    const struct run_point *point = sweep->scenario->points->pdata[index];
    GError *error = NULL;
    trace_point_begin(point);
    bench_run_point(point, &result);
    /* the parent names the missing file after the sweep (trace_points_missing) */
    if (!trace_point_finish(point, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        g_error_free(error);
    }
    GBytes *bytes = point_result_serialize(&result);
    point_result_clear(&result);
    *exit_code = 0;
    return bytes;
}

/* A child that left no readable result becomes an ERROR result. */
static gboolean
sweep_done(guint index, GBytes *bytes, const struct sim_proc_status *status, double wall_seconds,
           gpointer data, GError **error)
{
    const struct sweep *sweep = data;
    struct point_result result = {0};
    gboolean exited = status->end == SIM_PROC_EXITED;
    gboolean parsed = exited && status->exit_code == 0 && bytes != NULL &&
                      point_result_deserialize(bytes, &result);
    if (!parsed) {
        result = (struct point_result){0};
        point_result_clear(&result);
        result.exit_code = !exited ? 128 + status->signal : 6;
        result.check = POINT_CHECK_ERROR;
        result.served = g_strdup("");
        const struct run_point *point = sweep->scenario->points->pdata[index];
        if (!exited)
            result.check_detail =
                g_strdup_printf("the simulation process died (%s)", g_strsignal(status->signal));
        else if (status->exit_code == SIM_EXIT_LIMIT && point->wall_limit > 0)
            result.check_detail =
                g_strdup_printf("stopped at the wall-time limit of %g s ([run] wall_limit)",
                                point->wall_limit);
        else
            result.check_detail = g_strdup_printf(
                "the simulation process left no result (exit status %d)", status->exit_code);
    }
    result.wall_seconds = wall_seconds;
    gboolean ok =
        sweep->sink(sweep->scenario->points->pdata[index], &result, sweep->sink_data, error);
    point_result_clear(&result);
    return ok;
}

gboolean
run_sweep(const struct scenario *scenario, int jobs, const char *const *simgrid_cfg,
          run_point_sink sink, gpointer data, GError **error)
{
    struct sweep sweep = {scenario, sink, data};
    struct child_pool pool = {simgrid_cfg, sweep_work, sweep_done, &sweep};
    /* SimGrid once here rather than once in every point's process, judged with the items
     * the children will have */
    g_autofree gchar *saved = g_strdup(g_getenv("COLLSIM_SIMGRID_CFG"));
    child_add_simgrid_cfg(simgrid_cfg);
    for (guint i = 0; i < scenario->points->len; i++)
        bench_preload(scenario->points->pdata[i]);
    if (saved != NULL)
        g_setenv("COLLSIM_SIMGRID_CFG", saved, TRUE);
    else
        g_unsetenv("COLLSIM_SIMGRID_CFG");
    return run_children(&pool, scenario->points->len, jobs, error);
}

/* ---------------------------------------------------------------- order certificates */

/*
 * The witness of a point reduces at most this many elements per rank (per block for
 * Reduce_scatter): its expressions take O(P x count) nodes and the certificate file holds
 * them, while the order of most algorithms depends on the count only up to a few elements per
 * rank. A larger count is certified at this one and the line says `capped_from=N`.
 */
#define RUN_CERTIFICATE_MAX_COUNT 64

/* What --certify and --against work on: one entry per distinct reduction point. */
struct certification {
    GArray *requests;    /* struct order_request, sweep order, no two the same */
    GPtrArray *notes;    /* gchar *: "# ..." for each point that cannot be certified */
    GArray *entries;     /* int, the file's order: k >= 0 request k, k < 0 note -k-1 */
    GPtrArray *texts;    /* gchar *: each request's order_point_text (NULL: failed) */
    GStringChunk *names; /* algorithm names the requests point to */
    guint failed;        /* requests whose witness simulation ended badly */
    guint unacceptable;  /* certificates showing an order MPI does not allow */
};

/* What the sweep keeps of each point for the certificates: the algorithm that served it. */
struct run_sink_data {
    struct report *report;
    GPtrArray *served; /* gchar *, by point index */
    struct plot_data *plot; /* --plot, or NULL */
    struct progress_lines *lines; /* progress lines on a stderr that is no terminal, or NULL */
};

static gboolean
report_sink(const struct run_point *point, const struct point_result *result, gpointer data,
            GError **error)
{
    struct run_sink_data *sink = data;
    g_ptr_array_add(sink->served, g_strdup(result->served != NULL ? result->served : ""));
    if (sink->plot != NULL)
        plot_data_add(sink->plot, point, result);
    gboolean ok = report_add(sink->report, point, result, error);
    progress_lines_point(sink->lines);
    return ok;
}

/* A point's certificate request; FALSE (with *note) when the point cannot have one. */
static gboolean
certificate_request(const struct run_point *point, const char *served, GStringChunk *names,
                    struct order_request *q, gchar **note)
{
    *note = NULL;
    /* the reproducible mode is a request, not an algorithm: certify what it pinned */
    gboolean named = point->algorithm != NULL &&
                     strcmp(point->algorithm, COLL_SELECT_REPRODUCIBLE) != 0 &&
                     !coll_decision_is_library(point->algorithm);
    const char *algorithm = named ? point->algorithm : served;
    int p = point->nranks;
    /* Reduce_scatter: MPI_Reduce_scatter's blocks differ by one at most; the witness gives
     * every rank the largest, ceil(count/P) */
    int count = point->count;
    if (point->kind == COLL_REDUCE_SCATTER)
        count = p > 0 ? (int)(((gint64)point->count + p - 1) / p) : 0;
    else if (point->kind == COLL_REDUCE_SCATTER_BLOCK)
        count = p > 0 ? point->count / p : 0;
    *q = (struct order_request){
        .kind = point->kind,
        .algorithm = algorithm != NULL && *algorithm != '\0'
                         ? g_string_chunk_insert_const(names, algorithm)
                         : NULL,
        .nranks = p,
        .count = MIN(count, RUN_CERTIFICATE_MAX_COUNT),
        .capped_from = count > RUN_CERTIFICATE_MAX_COUNT ? count : 0,
        .root = point->kind == COLL_REDUCE ? point->root : 0,
        .commutative = point->commutative,
        .params = point->params,
    };
    GError *error = NULL;
    if (q->algorithm == NULL)
        g_set_error_literal(&error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                            "the point served no algorithm");
    else if (order_request_check(q, &error))
        return TRUE;
    *note =
        g_strdup_printf("# %s %s P=%d count=%d: not certified (%s)", coll_kind_name(point->kind),
                        q->algorithm != NULL ? q->algorithm : "default", p, count, error->message);
    g_error_free(error);
    return FALSE;
}

/* What makes two requests the same certificate, as text (for a set of those seen). */
static gchar *
request_identity(const struct order_request *q)
{
    return g_strdup_printf("%d %s %d %d %d %d %d %d %d", (int)q->kind, q->algorithm, q->nranks,
                           q->count, q->capped_from, q->root, q->commutative,
                           q->params.segment_bytes, q->params.radix);
}

/* The distinct requests of the sweep's reduction points, in sweep order. */
static void
certification_plan(const struct scenario *scenario, GPtrArray *served, struct certification *c)
{
    c->requests = g_array_new(FALSE, FALSE, sizeof(struct order_request));
    c->notes = g_ptr_array_new_with_free_func(g_free);
    c->entries = g_array_new(FALSE, FALSE, sizeof(int));
    c->texts = g_ptr_array_new_with_free_func(g_free);
    c->names = g_string_chunk_new(256);
    /* membership only: never iterated */
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (guint i = 0; i < scenario->points->len; i++) {
        const struct run_point *point = scenario->points->pdata[i];
        if (point->program != NULL || !coll_kind_reduces(point->kind))
            continue;
        struct order_request q;
        gchar *note = NULL;
        if (!certificate_request(point, i < served->len ? served->pdata[i] : "", c->names, &q,
                                 &note)) {
            if (!g_hash_table_add(seen, note))
                continue; /* the set owns it */
            g_ptr_array_add(c->notes, g_strdup(note));
            int entry = -(int)c->notes->len;
            g_array_append_val(c->entries, entry);
            continue;
        }
        if (g_hash_table_add(seen, request_identity(&q))) {
            int entry = (int)c->requests->len;
            g_array_append_val(c->requests, q);
            g_array_append_val(c->entries, entry);
        }
    }
    g_hash_table_destroy(seen);
}

static void
certification_clear(struct certification *c)
{
    g_array_free(c->requests, TRUE);
    g_ptr_array_free(c->notes, TRUE);
    g_array_free(c->entries, TRUE);
    g_ptr_array_free(c->texts, TRUE);
    g_string_chunk_free(c->names);
}

enum { CERTIFICATE_OK = 0, CERTIFICATE_UNACCEPTABLE = 1, CERTIFICATE_FAILED = 2 };

static GBytes *
certificate_work(guint index, gpointer data, int *exit_code)
{
    const struct certification *c = data;
    const struct order_request *q = &g_array_index(c->requests, struct order_request, index);
    struct order_certificate cert;
    GError *error = NULL;
    if (!order_certify(q, &cert, &error)) {
        fprintf(stderr, "collsim: run: certificate: %s\n", error->message);
        g_error_free(error);
        *exit_code = CERTIFICATE_FAILED;
        return NULL;
    }
    gchar *text = order_point_text(&cert, FALSE, FALSE);
    *exit_code = order_certificate_acceptable(&cert) ? CERTIFICATE_OK : CERTIFICATE_UNACCEPTABLE;
    order_certificate_clear(&cert);
    return g_bytes_new_take(text, strlen(text));
}

static gboolean
certificate_done(guint index, GBytes *bytes, const struct sim_proc_status *status,
                 double wall_seconds, gpointer data, GError **error)
{
    struct certification *c = data;
    const struct order_request *q = &g_array_index(c->requests, struct order_request, index);
    (void)wall_seconds;
    (void)error;
    int code = status->end == SIM_PROC_EXITED ? status->exit_code : -1;
    if (bytes == NULL || (code != CERTIFICATE_OK && code != CERTIFICATE_UNACCEPTABLE)) {
        if (status->end != SIM_PROC_EXITED)
            fprintf(stderr,
                    "collsim: run: certificate of %s %s P=%d: the witness simulation "
                    "died (%s)\n",
                    coll_kind_name(q->kind), q->algorithm, q->nranks, g_strsignal(status->signal));
        else
            fprintf(stderr,
                    "collsim: run: certificate of %s %s P=%d: the witness simulation "
                    "failed\n",
                    coll_kind_name(q->kind), q->algorithm, q->nranks);
        c->failed++;
        g_ptr_array_add(c->texts, NULL);
        return TRUE;
    }
    gsize size = 0;
    const char *text = g_bytes_get_data(bytes, &size);
    g_ptr_array_add(c->texts, g_strndup(text, size));
    if (code == CERTIFICATE_UNACCEPTABLE) {
        const char *nl = memchr(text, '\n', size);
        fprintf(stderr, "collsim: run: certificate: an order MPI does not allow: %.*s\n",
                (int)(nl != NULL ? (gsize)(nl - text) : size), text);
        c->unacceptable++;
    }
    return TRUE;
}

/* The certificate file: a header, then every certified point, or a note on why a point is not,
 * in sweep order. */
static gchar *
certificate_file_text(const struct scenario *scenario, const struct certification *c)
{
    GString *out = g_string_new(NULL);
    g_string_append_printf(out,
                           "# collsim run --certify: reduction order certificates of scenario "
                           "%s, one per distinct reduction point in sweep order\n"
                           "# (witness counts capped at %d elements per rank; expressions shown "
                           "up to 16 ranks)\n",
                           scenario->name, RUN_CERTIFICATE_MAX_COUNT);
    if (c->requests->len == 0 && c->notes->len == 0)
        g_string_append(out, "# no point of this scenario reduces: nothing to certify\n");
    for (guint i = 0; i < c->entries->len; i++) {
        int entry = g_array_index(c->entries, int, i);
        const char *text = entry >= 0 ? c->texts->pdata[entry] : c->notes->pdata[-entry - 1];
        if (text == NULL)
            continue; /* a failed witness: said on stderr, and the exit code says it */
        g_string_append(out, text);
        if (entry < 0)
            g_string_append_c(out, '\n');
    }
    return g_string_free(out, FALSE);
}

/*
 * Certify every reduction point (in children, `jobs` at once), write the file of --certify,
 * compare with `saved`, the file of --against. Returns the exit code it adds: 0, RUN_EXIT_FAILED (a
 * witness failed, an order MPI forbids, a file that cannot be written or read) or
 * RUN_EXIT_CHANGED.
 */
static int
run_certificates(const struct scenario *scenario, GPtrArray *served, int jobs,
                 const char *certify_path, const struct order_saved *saved,
                 const char *against_path)
{
    GError *error = NULL;
    int rc = 0;
    struct certification c = {0};
    certification_plan(scenario, served, &c);
    struct child_pool pool = {NULL, certificate_work, certificate_done, &c};
    if (!run_children(&pool, c.requests->len, jobs, &error)) {
        fprintf(stderr, "collsim: run: certificates: %s\n", error->message);
        g_clear_error(&error);
        rc = RUN_EXIT_FAILED;
        goto out;
    }
    for (guint i = 0; i < c.notes->len; i++)
        fprintf(stderr, "collsim: run: %s\n", (const char *)c.notes->pdata[i] + 2);
    if (c.requests->len == 0 && c.notes->len == 0)
        fprintf(stderr, "collsim: run: no point of this scenario reduces: no certificate to %s\n",
                certify_path != NULL ? "write" : "compare");
    if (c.failed > 0 || c.unacceptable > 0)
        rc = RUN_EXIT_FAILED;
    if (certify_path != NULL) {
        gchar *text = certificate_file_text(scenario, &c);
        if (!g_file_set_contents(certify_path, text, -1, &error)) {
            fprintf(stderr, "collsim: run: --certify: %s\n", error->message);
            g_clear_error(&error);
            rc = RUN_EXIT_FAILED;
        }
        g_free(text);
    }
    if (saved != NULL) {
        guint changed = 0, compared = 0;
        for (guint i = 0; i < c.texts->len; i++) {
            if (c.texts->pdata[i] == NULL)
                continue;
            compared++;
            enum order_comparison k = order_saved_compare(saved, c.texts->pdata[i], "run");
            if (k == ORDER_COMPARISON_CHANGED || k == ORDER_COMPARISON_NOT_SAVED)
                changed++;
        }
        if (changed > 0) {
            fprintf(stderr,
                    "collsim: run: the order of %u of %u certified points differs from %s\n",
                    changed, compared, against_path);
            rc = MAX(rc, RUN_EXIT_CHANGED);
        }
    }
out:
    certification_clear(&c);
    return rc;
}

/* ---------------------------------------------------------------- the command */

struct run_options {
    gchar **overrides;
    gchar *decision;
    gchar *csv_path;
    gchar *json_path;
    gchar *certify_path;
    gchar *against_path;
    gint jobs;
    gboolean no_progress;
    gboolean quiet;
    gboolean wide;
    gchar *plot_path;
    gchar *trace_path;
    gchar *timeline_path;
    gchar *shard;
};

/* What --shard I/N changes in a run: the slice of points, the files, what they say. */
struct shard_run {
    struct shard_identity identity;
    struct scenario slice; /* the scenario with the slice's points (borrowed) */
    gchar *csv_path;
    gchar *json_path;
};

/*
 * Check --shard and what goes with it, and choose the files: -o and --json as given (the caller
 * names one per shard), the scenario's [output] csv/json with ".shard-I-of-N" (every shard
 * reads the same names). A shard must write one of them, since a merge reads nothing else;
 * --plot, --certify and --against cover the whole sweep and are refused (the scenario's own
 * [output] plot and certificates are left out, with a note). FALSE after printing why.
 */
static gboolean
shard_run_prepare(struct shard_run *shard, const struct run_options *opt,
                  const struct scenario *scenario)
{
    GError *error = NULL;
    struct shard_spec spec;
    if (!shard_spec_parse(opt->shard, &spec, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        g_error_free(error);
        return FALSE;
    }
    const char *whole = opt->plot_path != NULL      ? "--plot"
                        : opt->certify_path != NULL ? "--certify"
                        : opt->against_path != NULL ? "--against"
                                                    : NULL;
    if (whole != NULL) {
        fprintf(stderr,
                "collsim: run: %s covers the whole sweep and cannot go with --shard: use it on "
                "an unsharded run\n",
                whole);
        return FALSE;
    }
    shard->csv_path = opt->csv_path != NULL        ? g_strdup(opt->csv_path)
                      : scenario->csv_path != NULL ? shard_output_path(scenario->csv_path, &spec)
                                                   : NULL;
    shard->json_path = opt->json_path != NULL ? g_strdup(opt->json_path)
                       : scenario->json_path != NULL
                           ? shard_output_path(scenario->json_path, &spec)
                           : NULL;
    if (shard->csv_path == NULL && shard->json_path == NULL) {
        fprintf(stderr, "collsim: run: --shard %s writes no file for collsim merge: give "
                        "-o FILE.csv or --json FILE.json (or [output] csv/json in the scenario)\n",
                opt->shard);
        return FALSE;
    }
    if (scenario->plot_path != NULL || scenario->certificates_path != NULL)
        fprintf(stderr, "collsim: run: --shard: the scenario's [output] plot and certificates "
                        "cover the whole sweep; this shard writes neither\n");
    if (!shard_identity_init(&shard->identity, &spec, scenario,
                             (const char *const *)opt->overrides, &error)) {
        fprintf(stderr, "collsim: run: --shard: %s\n", error->message);
        g_error_free(error);
        return FALSE;
    }
    shard->slice = *scenario;
    shard->slice.points = shard_select_points(scenario->points, &spec);
    return TRUE;
}

static void
shard_run_clear(struct shard_run *shard)
{
    shard_identity_clear(&shard->identity);
    if (shard->slice.points != NULL)
        g_ptr_array_free(shard->slice.points, TRUE);
    g_free(shard->csv_path);
    g_free(shard->json_path);
}

/* --against FILE read before anything runs; NULL after printing a message. */
static struct order_saved *
load_against(const char *path)
{
    GError *error = NULL;
    gchar *text = NULL;
    struct order_saved *saved = NULL;
    if (g_file_get_contents(path, &text, NULL, &error))
        saved = order_saved_parse(text, path, &error);
    g_free(text);
    if (saved == NULL) {
        fprintf(stderr, "collsim: run: --against: %s\n", error->message);
        g_error_free(error);
    }
    return saved;
}

struct scenario *
scenario_command_load(const GOptionEntry *entries, const struct scenario_command_help *help,
                      char **argv, const char *command, const int *jobs, gchar ***overrides)
{
    GOptionContext *context = g_option_context_new(help->parameter);
    g_option_context_set_summary(context, help->summary);
    g_option_context_set_description(context, help->description);
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    struct scenario *scenario = NULL;
    gchar **args = g_strdupv(argv);
    if (!g_option_context_parse_strv(context, &args, &error)) {
        fprintf(stderr, "collsim: %s: %s\n", command, error->message);
    } else if (g_strv_length(args) != 2) {
        fprintf(stderr, "collsim: %s: which scenario? (collsim %s FILE.ini)\n", command, command);
    } else if (*jobs < 1) {
        fprintf(stderr, "collsim: %s: --jobs must be at least 1 (got %d)\n", command, *jobs);
    } else if ((scenario = scenario_load(args[1], (const char *const *)*overrides, &error)) ==
               NULL) {
        /* GLib quotes an invalid value as it is: keep the message itself valid UTF-8 */
        gchar *shown = g_utf8_make_valid(error->message, -1);
        fprintf(stderr, "collsim: %s\n", shown);
        g_free(shown);
    } else {
        /* every point (a forked child) inherits it; scenario_free uninstalls it */
        coll_select_set_decision(scenario->decision);
    }
    g_clear_error(&error);
    g_strfreev(args);
    g_option_context_free(context);
    return scenario;
}

int
collsim_command_run(int argc, char **argv)
{
    struct run_options opt = {.jobs = 1};
    GOptionEntry entries[] = {
        SCENARIO_OPTION_SET(&opt.overrides),
        {"decision", 0, 0, G_OPTION_ARG_STRING, &opt.decision,
         "Choose algorithms as a library's default decision does: ompi, mpich, mvapich2, impi, "
         "collsim or FILE.rules (wins over the scenario's run.decision)",
         "LIB"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt.csv_path,
         "Write one CSV row per point to FILE as points finish", "FILE"},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &opt.json_path,
         "Write the points as JSON to FILE (rewritten complete after each point)", "FILE"},
        {"certify", 0, 0, G_OPTION_ARG_FILENAME, &opt.certify_path,
         "Write the reduction order certificate of every reduction point to FILE", "FILE"},
        {"against", 0, 0, G_OPTION_ARG_FILENAME, &opt.against_path,
         "Compare the points' order certificates with FILE (from --certify); name each change",
         "FILE"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs,
         "Simulate up to N points at once (default 1; results are the same for any N)", "N"},
        {"no-progress", 0, 0, G_OPTION_ARG_NONE, &opt.no_progress,
         "No progress bar (on a terminal) nor progress lines (elsewhere)", NULL},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt.quiet,
         "No table on standard output, no progress lines (files and exit code only)", NULL},
        {"wide", 0, 0, G_OPTION_ARG_NONE, &opt.wide,
         "Every column in the table (the default table fits 100 columns)", NULL},
        {"plot", 0, 0, G_OPTION_ARG_FILENAME, &opt.plot_path,
         "Draw time against P and size, and the winner map, to FILE (.png, .svg, .pdf)", "FILE"},
        {"trace", 0, 0, G_OPTION_ARG_FILENAME, &opt.trace_path,
         "A trace per point, FILE-INDEX-LABEL.json (Perfetto) or .paje (ViTE)", "FILE"},
        {"timeline", 0, 0, G_OPTION_ARG_FILENAME, &opt.timeline_path,
         "A timeline picture per point, FILE-INDEX-LABEL.png, .svg or .pdf", "FILE"},
        {"shard", 0, 0, G_OPTION_ARG_STRING, &opt.shard,
         "Run only slice I of N of the points (point k goes to k mod N + 1) into a CSV/JSON "
         "for collsim merge",
         "I/N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    static const struct scenario_command_help help = {
        "FILE.ini - run a scenario's sweep",
        "Runs every point of the scenario (a collective, an algorithm, a number of ranks and a\n"
        "message size; or an MPI program on a number of ranks) as a fresh simulation, checks\n"
        "the results against a sequential reference in rank order, and prints one table row\n"
        "per point, then a SHA-256 digest of every simulated output. The keys of a scenario\n"
        "file are documented in scenarios/README.md.\n"
        "With --certify or --against, each reduction point's order certificate (as collsim\n"
        "order prints it; at most " G_STRINGIFY(
            RUN_CERTIFICATE_MAX_COUNT) " elements per rank) is computed after the sweep.",
        "Exit status: 0 all points ok, 1 a check failed, a simulation ended in an\n"
        "error, a certificate shows an order MPI forbids or an output could not be\n"
        "written (a full disk: the files keep their complete rows), 2 a bad scenario,\n"
        "override or option (nothing ran), 3 an order differs from --against FILE.",
    };
    GError *error = NULL;
    int rc = 0;
    struct scenario *scenario = NULL;
    struct report *report = NULL;
    struct plot_data *plot = NULL;
    struct progress_lines *lines = NULL;
    struct order_saved *saved = NULL;
    GPtrArray *served = g_ptr_array_new_with_free_func(g_free);
    struct shard_run shard = {0};
    gchar *digest = NULL;
    (void)argc;
    scenario = scenario_command_load(entries, &help, argv, "run", &opt.jobs, &opt.overrides);
    if (scenario == NULL) {
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (opt.decision != NULL && !decide_option_install(opt.decision, &error)) {
        fprintf(stderr, "collsim: run: --decision: %s\n", error->message);
        g_clear_error(&error);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (opt.shard != NULL && !shard_run_prepare(&shard, &opt, scenario)) {
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    /* a shard runs its slice of the sweep; every point keeps its index in the whole one */
    const struct scenario *swept = opt.shard != NULL ? &shard.slice : scenario;
    const char *certify_path =
        opt.certify_path != NULL ? opt.certify_path : scenario->certificates_path;
    if (opt.shard != NULL)
        certify_path = NULL;
    if (opt.against_path != NULL && (saved = load_against(opt.against_path)) == NULL) {
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    const char *plot_path = opt.plot_path != NULL ? opt.plot_path : scenario->plot_path;
    if (opt.shard != NULL)
        plot_path = NULL;
    if (plot_path != NULL && !plot_check(plot_path, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (!trace_points_setup(opt.trace_path != NULL ? opt.trace_path : scenario->trace_path,
                            opt.trace_path != NULL ? "--trace" : "[output] trace",
                            opt.timeline_path != NULL ? opt.timeline_path
                                                      : scenario->timeline_path,
                            opt.timeline_path != NULL ? "--timeline" : "[output] timeline",
                            scenario->points->len, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    /* a progress bar only for a person watching: a terminal, outside CI */
    gboolean progress = !opt.no_progress && isatty(STDERR_FILENO) && g_getenv("CI") == NULL &&
                        swept->points->len > 1;
    struct report_options ropt = {
        .table = opt.quiet ? NULL : stdout,
        .csv_path = opt.csv_path != NULL ? opt.csv_path : scenario->csv_path,
        .json_path = opt.json_path != NULL ? opt.json_path : scenario->json_path,
        .progress = progress,
        .scenario = scenario->name,
        .compact = !opt.wide,
        .points = swept->points,
    };
    if (opt.shard != NULL) {
        ropt.csv_path = shard.csv_path;
        ropt.json_path = shard.json_path;
        ropt.shard = &shard.identity;
    }
    report = report_open(&ropt, swept->points->len, &error);
    if (report == NULL) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    plot = plot_path != NULL ? plot_data_new() : NULL;
    /* elsewhere (a log, CI), plain lines now and then; --quiet silences them too */
    if (!opt.no_progress && !opt.quiet && !isatty(STDERR_FILENO))
        lines = progress_lines_new(stderr, swept->points->len);
    struct run_sink_data sink = {report, served, plot, lines};
    if (!run_sweep(swept, opt.jobs, NULL, report_sink, &sink, &error) ||
        (digest = report_finish(report, &error)) == NULL) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_FAILED;
        goto out;
    }
    rc = report_failures(report) > 0 ? RUN_EXIT_FAILED : 0;
    if (trace_points_missing(swept->points, "collsim: run: ") > 0)
        rc = RUN_EXIT_FAILED;
    if (plot != NULL && !plot_write(plot, plot_path, scenario->name, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_FAILED;
        goto out;
    }
    if (certify_path != NULL || saved != NULL) {
        fflush(stdout);
        int certificates_rc =
            run_certificates(scenario, served, opt.jobs, certify_path, saved, opt.against_path);
        rc = MAX(rc, certificates_rc);
    }
out:
    shard_run_clear(&shard);
    g_free(digest);
    plot_data_free(plot);
    progress_lines_free(lines);
    if (report != NULL)
        report_free(report);
    if (scenario != NULL)
        scenario_free(scenario);
    order_saved_free(saved);
    g_ptr_array_free(served, TRUE);
    g_clear_error(&error);
    g_strfreev(opt.overrides);
    g_free(opt.csv_path);
    g_free(opt.json_path);
    g_free(opt.certify_path);
    g_free(opt.against_path);
    g_free(opt.plot_path);
    g_free(opt.trace_path);
    g_free(opt.timeline_path);
    trace_points_reset();
    g_free(opt.shard);
    g_free(opt.decision);
    return rc;
}
