/*
 * order.c — reduction order certificates (order.h) and the `collsim order` command.
 *
 *   collsim order COLLECTIVE ALGORITHM -n P[,P...] [--count N] [--root R] [--commutative]
 *                 [--segment-bytes B] [--radix K] [--tree] [--expressions] [--certificate]
 *                 [--against FILE] [--picture FILE [--picture-rank R]]
 *
 * Each (collective, algorithm, P) point runs as its own simulation in a forked child (SimGrid
 * starts once per process, and a fatal MPI error ends the process); the child writes the
 * point's text — the certificate line, then one indented line per defined element when
 * expressions are shown — to a pipe, and the parent prints the points in request order.
 * The same text, saved to a file, is what --against reads back.
 *
 * Exit codes: 0 every order is acceptable (rank order, or any permutation for an op declared
 * commutative); 1 a non-commutative witness saw another order, or a result is broken (an
 * algorithm bug); 2 bad arguments; 3 some point differs from the --against file;
 * 4 a simulation ended badly. The highest applicable code wins.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/engine/engine.h"
#include "sim/engine/proc.h"
#include "sim/order/order.h"
#include "sim/order/order_picture.h"
#include "src/coll/coll_entry.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"
#include "sim/order/witness_expr.h"

GQuark
order_error_quark(void)
{
    return g_quark_from_static_string("collsim-order-error-quark");
}

/* Expressions are printed up to this many ranks unless asked for (they grow as P log P). */
#define ORDER_SHOW_RANKS_MAX 16

enum {
    ORDER_EXIT_OK = 0,
    ORDER_EXIT_ORDER = 1,
    ORDER_EXIT_USAGE = 2,
    ORDER_EXIT_CHANGED = 3,
    ORDER_EXIT_FAILED = 4,
};

/* ---------------------------------------------------------------- the request */

gboolean
order_request_check(const struct order_request *request, GError **error)
{
    const char *kind = coll_kind_name(request->kind);
    if (!coll_kind_reduces(request->kind)) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "%s does not reduce; order certificates exist for reduce, allreduce, "
                    "reduce_scatter, reduce_scatter_block, scan and exscan",
                    kind);
        return FALSE;
    }
    if (request->algorithm == NULL ||
        coll_registry_find(request->kind, request->algorithm) == NULL) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "%s has no algorithm named '%s' (see collsim list algorithms)", kind,
                    request->algorithm != NULL ? request->algorithm : "");
        return FALSE;
    }
    if (request->nranks < 1 || request->nranks > ORDER_MAX_RANKS) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "the number of ranks must be between 1 and %d (got %d)", ORDER_MAX_RANKS,
                    request->nranks);
        return FALSE;
    }
    if (request->count < 0) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "the count must not be negative (got %d)", request->count);
        return FALSE;
    }
    if ((long long)request->count * request->nranks > G_MAXINT / 8) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST, "count x ranks is too large (%d x %d)",
                    request->count, request->nranks);
        return FALSE;
    }
    if (request->params.segment_bytes < 0 || request->params.radix < 0 ||
        request->params.radix == 1) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "segment bytes must be positive and the radix at least 2");
        return FALSE;
    }
    if (request->kind == COLL_REDUCE && (request->root < 0 || request->root >= request->nranks)) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                    "the root must be a rank, 0 to %d (got %d)", request->nranks - 1,
                    request->root);
        return FALSE;
    }
    return TRUE;
}

static gboolean
is_reduce_scatter(enum coll_kind kind)
{
    return kind == COLL_REDUCE_SCATTER || kind == COLL_REDUCE_SCATTER_BLOCK;
}

/* Elements each rank sends: the whole vector, which for reduce_scatter is every block. */
static int
send_count(const struct order_request *request)
{
    return is_reduce_scatter(request->kind) ? request->count * request->nranks : request->count;
}

const char *
order_unmet_requirement(const struct order_request *request)
{
    const struct coll_algorithm *row = coll_registry_find(request->kind, request->algorithm);
    if (row == NULL)
        return NULL;
    /* the call as the entry points (src/coll/<collective>/mpi_<collective>.c) describe it to
     * the selector */
    struct coll_call call = {
        .kind = request->kind,
        .comm_size = request->nranks,
        .count = send_count(request),
        .bytes = (size_t)send_count(request) * sizeof(gint64),
        .commutative = request->commutative,
        .contiguous = 1,
        /* block placement fills hosts with consecutive ranks; another may not (the run
         * would refuse: the certificate records the fallback instead) */
        .node_blocks = request->placement == NULL || strcmp(request->placement, "block") == 0,
    };
    return coll_select_unmet(row, &call);
}

/* ---------------------------------------------------------------- the witness run */

/* Shared by the simulated ranks of one run (they live in this process). */
static struct order_request witness_request;
static gint64 **witness_results; /* [rank] -> its recvbuf, or NULL if it has not finished */

void
order_witness_begin(const struct order_request *request)
{
    if (witness_results != NULL) {
        for (int r = 0; r < witness_request.nranks; r++)
            g_free(witness_results[r]);
        g_free(witness_results);
    }
    witness_request = *request;
    witness_results = g_new0(gint64 *, request->nranks);
    witness_expr_reset();
    /* leaves first, so that r<i> is handle i + 1 whatever order the ranks start in */
    for (int r = 0; r < request->nranks; r++)
        witness_expr_leaf(r);
}

int
order_witness_rank(MPI_Comm comm)
{
    const struct order_request *q = &witness_request;
    int rank, size, rc;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (size != q->nranks || witness_results == NULL)
        return MPI_ERR_COMM;
    int nsend = send_count(q);
    int nrecv = q->count; /* reduce_scatter: one block */
    gint64 *send = g_new(gint64, MAX(nsend, 1));
    gint64 *recv = g_new0(gint64, MAX(nrecv, 1)); /* 0: undefined until written */
    gint64 leaf = witness_expr_leaf(rank);
    for (int k = 0; k < nsend; k++)
        send[k] = leaf;
    MPI_Op op;
    rc = MPI_Op_create(witness_expr_op, q->commutative, &op);
    if (rc != MPI_SUCCESS)
        goto out_free;
    int *counts = g_new(int, size); /* Reduce_scatter: one block of q->count per rank */
    for (int r = 0; r < size; r++)
        counts[r] = q->count;
    struct coll_args args = {.sendbuf = send, .recvbuf = recv, .count = q->count,
                             .datatype = MPI_INT64_T, .op = op, .root = q->root,
                             .recvcount = q->count, .recvcounts = counts};
    if (!coll_kind_reduces(q->kind))
        rc = MPI_ERR_OP;
    else if (q->nonblocking)
        rc = coll_entry_call_nonblocking(q->kind, &args, comm);
    else
        rc = coll_kind_call(q->kind, &args, comm);
    g_free(counts);
    MPI_Op_free(&op);
    if (rc == MPI_SUCCESS) {
        witness_results[rank] = recv;
        recv = NULL;
    }
out_free:
    g_free(send);
    g_free(recv);
    return rc;
}

/* Which ranks rank `rank` must hold the fold of; FALSE if its result is not defined. */
static gboolean
expected_leaves(const struct order_request *q, int rank, int *first, int *last)
{
    return coll_kind_fold_span(q->kind, rank, q->root, q->nranks, first, last);
}

/* ORDER_RANK, or whether a result that is not in rank order is at least a permutation. */
static enum order_verdict
judge(gint64 handle, int first, int last)
{
    if (witness_expr_is_range(handle, first, last))
        return ORDER_RANK;
    if (!witness_expr_valid(handle) || witness_expr_size(handle) != (guint)(last - first + 1))
        return ORDER_BROKEN;
    GArray *leaves = witness_expr_leaves(handle);
    gboolean *seen = g_new0(gboolean, last - first + 1);
    enum order_verdict verdict = ORDER_PERMUTED;
    for (guint i = 0; i < leaves->len; i++) {
        int leaf = g_array_index(leaves, gint, i);
        if (leaf < first || leaf > last || seen[leaf - first]) {
            verdict = ORDER_BROKEN;
            break;
        }
        seen[leaf - first] = TRUE;
    }
    g_free(seen);
    g_array_free(leaves, TRUE);
    return verdict;
}

void
order_witness_finish(const char *served, const char *fallback_reason,
                     struct order_certificate *cert)
{
    const struct order_request *q = &witness_request;
    memset(cert, 0, sizeof *cert);
    cert->request = *q;
    cert->served = served;
    cert->fallback_reason = g_strdup(fallback_reason);
    cert->verdict = ORDER_RANK;
    cert->bad_rank = cert->bad_element = -1;
    cert->applications = witness_expr_applications();
    cert->op_calls = witness_expr_op_calls();
    cert->invalid = witness_expr_invalid();
    cert->same = q->kind == COLL_ALLREDUCE ? 1 : -1;
    cert->elements = g_array_new(FALSE, FALSE, sizeof(struct order_element));
    static const guint8 no_hash[WITNESS_EXPR_HASH_BYTES];
    GChecksum *digest = g_checksum_new(G_CHECKSUM_SHA256);
    for (int r = 0; r < q->nranks; r++) {
        struct order_element e = {.rank = r};
        if (!expected_leaves(q, r, &e.first, &e.last))
            continue;
        for (e.element = 0; e.element < q->count; e.element++) {
            e.handle = witness_results != NULL && witness_results[r] != NULL
                           ? witness_results[r][e.element]
                           : WITNESS_EXPR_UNDEFINED;
            e.verdict = judge(e.handle, e.first, e.last);
            if (e.verdict > cert->verdict) {
                cert->verdict = e.verdict;
                cert->bad_rank = e.rank;
                cert->bad_element = e.element;
            }
            cert->depth = MAX(cert->depth, witness_expr_depth(e.handle));
            const guint8 *hash = witness_expr_hash(e.handle);
            g_checksum_update(digest, hash != NULL ? hash : no_hash, WITNESS_EXPR_HASH_BYTES);
            /* hash-consing makes equal expressions equal handles */
            if (cert->same == 1 && r > 0 &&
                g_array_index(cert->elements, struct order_element, e.element).handle != e.handle)
                cert->same = 0;
            g_array_append_val(cert->elements, e);
        }
    }
    cert->digest_hex = g_strdup(g_checksum_get_string(digest));
    g_checksum_free(digest);
}

void
order_certificate_clear(struct order_certificate *cert)
{
    g_free(cert->fallback_reason);
    g_free(cert->digest_hex);
    if (cert->elements != NULL)
        g_array_free(cert->elements, TRUE);
    memset(cert, 0, sizeof *cert);
}

static int
witness_rank_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rc = order_witness_rank(MPI_COMM_WORLD);
    MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : 1;
}

gboolean
order_certify(const struct order_request *request, struct order_certificate *cert, GError **error)
{
    memset(cert, 0, sizeof *cert);
    if (!order_request_check(request, error))
        return FALSE;
    const struct coll_algorithm *row = coll_registry_find(request->kind, request->algorithm);
    const char *unmet = order_unmet_requirement(request);
    char why[256];
    coll_select_reset();
    /* forcing an algorithm that cannot serve is refused: let the decision table choose */
    if (unmet == NULL &&
        !coll_select_force(request->kind, row->name, &request->params, why, sizeof why)) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST, "%s", why);
        return FALSE;
    }
    order_witness_begin(request);

    static char *argv[] = {"collsim-order", NULL};
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = request->nranks;
    config.program = witness_rank_main;
    config.argc = 1;
    config.argv = argv;
    config.privatize = FALSE; /* the rank program is collsim's own code */
    config.compute_scale = 0; /* only the order matters, not the time */
    config.platform_file = request->platform;
    if (request->placement != NULL && !sim_placement_parse(request->placement, &config, error))
        return FALSE;
    struct sim_outcome outcome;
    if (!sim_engine_run(&config, &outcome, error))
        return FALSE;
    const char *served = NULL;
    for (guint i = 0; outcome.served != NULL && i < outcome.served->len; i++) {
        const struct sim_served *s = &g_array_index(outcome.served, struct sim_served, i);
        if (s->kind == (int)request->kind)
            served = s->algorithm;
    }
    if (outcome.served != NULL)
        g_array_free(outcome.served, TRUE);
    coll_select_reset();
    if (outcome.exit_code != 0) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_RUN,
                    "%s %s P=%d: the witness simulation ended with exit code %d",
                    coll_kind_name(request->kind), request->algorithm, request->nranks,
                    outcome.exit_code);
        return FALSE;
    }
    if (served == NULL) {
        g_set_error(error, ORDER_ERROR, ORDER_ERROR_RUN,
                    "%s %s P=%d: no algorithm reported serving the call",
                    coll_kind_name(request->kind), request->algorithm, request->nranks);
        return FALSE;
    }
    order_witness_finish(served, unmet, cert);
    cert->request.algorithm = row->name;
    return TRUE;
}

gboolean
order_certificate_acceptable(const struct order_certificate *cert)
{
    if (cert->invalid > 0 || cert->verdict == ORDER_BROKEN)
        return FALSE;
    return cert->verdict == ORDER_RANK || cert->request.commutative;
}

/* ---------------------------------------------------------------- the line */

gchar *
order_certificate_line(const struct order_certificate *cert)
{
    const struct order_request *q = &cert->request;
    GString *line = g_string_new(NULL);
    g_string_append_printf(line, "%s %s P=%d count=%d", coll_kind_name(q->kind), q->algorithm,
                           q->nranks, q->count);
    if (q->capped_from > 0)
        g_string_append_printf(line, " capped_from=%d", q->capped_from);
    if (q->kind == COLL_REDUCE)
        g_string_append_printf(line, " root=%d", q->root);
    if (q->nonblocking)
        g_string_append(line, " form=nonblocking");
    if (q->platform != NULL)
        g_string_append_printf(line, " platform=%s", q->platform);
    if (q->placement != NULL)
        g_string_append_printf(line, " placement=%s", q->placement);
    const struct coll_algorithm *row = coll_registry_find(q->kind, q->algorithm);
    if (row != NULL && (row->caps & COLL_SEGMENTED))
        g_string_append_printf(line, " segment_bytes=%d",
                               q->params.segment_bytes > 0 ? q->params.segment_bytes
                                                           : row->defaults.segment_bytes);
    if (row != NULL && (row->caps & COLL_RADIX))
        g_string_append_printf(line, " radix=%d",
                               q->params.radix > 0 ? q->params.radix : row->defaults.radix);
    g_string_append_printf(line, " op=%s", q->commutative ? "commutative" : "noncommutative");
    if (cert->fallback_reason != NULL)
        g_string_append_printf(line, " fallback: %s (%s)", cert->served, cert->fallback_reason);
    switch (cert->verdict) {
    case ORDER_RANK:
        g_string_append(line, " order=rank");
        break;
    case ORDER_PERMUTED:
        g_string_append_printf(line, " order=NOT-RANK(rank=%d,element=%d)", cert->bad_rank,
                               cert->bad_element);
        break;
    case ORDER_BROKEN:
        g_string_append_printf(line, " order=BROKEN(rank=%d,element=%d)", cert->bad_rank,
                               cert->bad_element);
        break;
    }
    g_string_append_printf(
        line, " depth=%u applications=%" G_GUINT64_FORMAT " op_calls=%" G_GUINT64_FORMAT,
        cert->depth, cert->applications, cert->op_calls);
    if (cert->invalid > 0)
        g_string_append_printf(line, " invalid=%" G_GUINT64_FORMAT, cert->invalid);
    if (cert->same >= 0)
        g_string_append_printf(line, " same=%s", cert->same ? "yes" : "no");
    g_string_append_printf(line, " sha256=%s", cert->digest_hex);
    return g_string_free(line, FALSE);
}

gchar *
order_line_key(const char *line)
{
    if (line == NULL || *line == '\0' || g_ascii_isspace(*line) || *line == '#')
        return NULL;
    const char *op = strstr(line, " op=");
    if (op == NULL)
        return NULL;
    const char *end = op + 4;
    while (*end != '\0' && *end != ' ')
        end++;
    return g_strndup(line, (gsize)(end - line));
}

/* ---------------------------------------------------------------- a point's text */

struct order_show {
    gboolean expressions; /* force the expressions at any P */
    gboolean tree;
    const char *picture; /* --picture FILE (one point only), or NULL */
    int picture_rank;    /* --picture-rank R, or -1 for the default */
};

gchar *
order_point_text(const struct order_certificate *cert, gboolean expressions, gboolean tree)
{
    GString *out = g_string_new(NULL);
    gchar *line = order_certificate_line(cert);
    g_string_append_printf(out, "%s\n", line);
    g_free(line);
    if (!expressions && cert->request.nranks > ORDER_SHOW_RANKS_MAX)
        return g_string_free(out, FALSE);
    for (guint i = 0; i < cert->elements->len; i++) {
        const struct order_element *e = &g_array_index(cert->elements, struct order_element, i);
        gchar *text = witness_expr_text(e->handle);
        g_string_append_printf(out, "  rank %d element %d depth=%u %s\n", e->rank, e->element,
                               witness_expr_depth(e->handle), text);
        g_free(text);
        if (tree) {
            gchar *drawing = witness_expr_tree(e->handle, "      ");
            g_string_append(out, drawing);
            g_free(drawing);
        }
    }
    return g_string_free(out, FALSE);
}

/* One point saved as text: its certificate line and its elements' "depth=D EXPR". */
struct saved_point {
    gchar *key;
    gchar *line;
    GPtrArray *labels; /* "rank R element K" */
    GPtrArray *bodies; /* "depth=D EXPR", same index */
};

static void
saved_point_free(gpointer data)
{
    struct saved_point *p = data;
    g_free(p->key);
    g_free(p->line);
    g_ptr_array_free(p->labels, TRUE);
    g_ptr_array_free(p->bodies, TRUE);
    g_free(p);
}

/*
 * Read points back from `order` output: lines at column 0 are certificates, "  rank "
 * lines their elements; other indented lines (trees), blank lines and # comments are
 * skipped. FALSE with a message naming `origin` and the line for anything else.
 */
static gboolean
parse_points(const char *text, const char *origin, GPtrArray *points, GError **error)
{
    gchar **lines = g_strsplit(text, "\n", -1);
    struct saved_point *current = NULL;
    gboolean ok = TRUE;
    for (guint n = 0; lines[n] != NULL; n++) {
        const char *l = lines[n];
        if (*l == '\0' || *l == '#')
            continue;
        if (!g_ascii_isspace(*l)) {
            gchar *key = order_line_key(l);
            if (key == NULL) {
                g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                            "%s:%u: not a certificate line (collective algorithm P=.. count=.. "
                            "op=.. ...)",
                            origin, n + 1);
                ok = FALSE;
                break;
            }
            current = g_new0(struct saved_point, 1);
            current->key = key;
            current->line = g_strdup(l);
            current->labels = g_ptr_array_new_with_free_func(g_free);
            current->bodies = g_ptr_array_new_with_free_func(g_free);
            g_ptr_array_add(points, current);
            continue;
        }
        int rank, element, consumed = 0;
        if (sscanf(l, "  rank %d element %d %n", &rank, &element, &consumed) != 2 || consumed == 0)
            continue; /* a tree line */
        if (current == NULL) {
            g_set_error(error, ORDER_ERROR, ORDER_ERROR_REQUEST,
                        "%s:%u: an element line before any certificate line", origin, n + 1);
            ok = FALSE;
            break;
        }
        g_ptr_array_add(current->labels, g_strdup_printf("rank %d element %d", rank, element));
        g_ptr_array_add(current->bodies, g_strdup(l + consumed));
    }
    g_strfreev(lines);
    return ok;
}

/* ---------------------------------------------------------------- comparison */

static const struct saved_point *
find_saved(GPtrArray *points, const char *key)
{
    for (guint i = 0; i < points->len; i++) {
        const struct saved_point *p = points->pdata[i];
        if (strcmp(p->key, key) == 0)
            return p;
    }
    return NULL;
}

static int
find_label(const struct saved_point *p, const char *label)
{
    for (guint i = 0; i < p->labels->len; i++)
        if (strcmp(p->labels->pdata[i], label) == 0)
            return (int)i;
    return -1;
}

/* Whether the two hold the same element expressions; TRUE when either holds none (a run at
 * large P prints only the line, whose sha256 covers every expression anyway). */
static gboolean
same_expressions(const struct saved_point *old, const struct saved_point *now)
{
    if (old->labels->len == 0 || now->labels->len == 0)
        return TRUE;
    if (old->labels->len != now->labels->len)
        return FALSE;
    for (guint i = 0; i < now->labels->len; i++)
        if (strcmp(old->labels->pdata[i], now->labels->pdata[i]) != 0 ||
            strcmp(old->bodies->pdata[i], now->bodies->pdata[i]) != 0)
            return FALSE;
    return TRUE;
}

/* Name what changed between `old` and `now` on stderr: the lines and the first element whose
 * expression differs. */
static void
report_change(const struct saved_point *old, const struct saved_point *now, const char *file,
              const char *command)
{
    size_t skip = strlen(now->key) + 1;
    fprintf(stderr, "collsim: %s: %s differs from %s\n", command, now->key, file);
    fprintf(stderr, "  old: %s\n  new: %s\n", strlen(old->line) > skip ? old->line + skip : "",
            strlen(now->line) > skip ? now->line + skip : "");
    if (old->labels->len == 0 || now->labels->len == 0) {
        fprintf(stderr, "  (no expressions to compare: %s; show them with --expressions)\n",
                old->labels->len == 0 ? "the file holds none for this point"
                                      : "this run did not print them");
        return;
    }
    for (guint i = 0; i < now->labels->len; i++) {
        int j = find_label(old, now->labels->pdata[i]);
        const char *was = j >= 0 ? old->bodies->pdata[j] : "(not defined)";
        if (strcmp(was, now->bodies->pdata[i]) != 0) {
            fprintf(stderr, "  first differing element: %s\n    old: %s\n    new: %s\n",
                    (char *)now->labels->pdata[i], was, (char *)now->bodies->pdata[i]);
            return;
        }
    }
    for (guint j = 0; j < old->labels->len; j++) {
        if (find_label(now, old->labels->pdata[j]) < 0) {
            fprintf(stderr, "  first differing element: %s\n    old: %s\n    new: (not defined)\n",
                    (char *)old->labels->pdata[j], (char *)old->bodies->pdata[j]);
            return;
        }
    }
    fprintf(stderr, "  (every expression is the same; only the summary differs)\n");
}

struct order_saved {
    gchar *origin;     /* the file's name, for messages */
    GPtrArray *points; /* struct saved_point *, in file order */
};

struct order_saved *
order_saved_parse(const char *text, const char *origin, GError **error)
{
    struct order_saved *saved = g_new0(struct order_saved, 1);
    saved->origin = g_strdup(origin);
    saved->points = g_ptr_array_new_with_free_func(saved_point_free);
    if (!parse_points(text, origin, saved->points, error)) {
        order_saved_free(saved);
        return NULL;
    }
    return saved;
}

void
order_saved_free(struct order_saved *saved)
{
    if (saved == NULL)
        return;
    g_free(saved->origin);
    g_ptr_array_free(saved->points, TRUE);
    g_free(saved);
}

enum order_comparison
order_saved_compare(const struct order_saved *saved, const char *point_text, const char *command)
{
    GPtrArray *now = g_ptr_array_new_with_free_func(saved_point_free);
    enum order_comparison result = ORDER_COMPARISON_UNREADABLE;
    if (parse_points(point_text, "(this run)", now, NULL) && now->len == 1) {
        const struct saved_point *p = now->pdata[0];
        const struct saved_point *old = find_saved(saved->points, p->key);
        result = ORDER_COMPARISON_SAME;
        if (old == NULL) {
            fflush(stdout);
            fprintf(stderr, "collsim: %s: %s is not in %s\n", command, p->key, saved->origin);
            result = ORDER_COMPARISON_NOT_SAVED;
        } else if (strcmp(old->line, p->line) != 0 || !same_expressions(old, p)) {
            fflush(stdout);
            report_change(old, p, saved->origin, command);
            result = ORDER_COMPARISON_CHANGED;
        }
    }
    g_ptr_array_free(now, TRUE);
    return result;
}

/* ---------------------------------------------------------------- running points */

struct point_run {
    gchar *text;   /* what the child wrote, or NULL */
    int exit_code; /* ORDER_EXIT_OK, _ORDER or _FAILED */
};

/* What a point's child works on. */
struct point_child {
    const struct order_request *request;
    const struct order_show *show;
};

/* The child of a point: its text goes to stdout, which the parent captures; stderr is the
 * parent's, for a failure's message. */
static int
run_in_child(gpointer data)
{
    const struct point_child *child = data;
    struct order_certificate cert;
    GError *error = NULL;
    if (child->show->picture != NULL)
        order_picture_record_begin();
    if (!order_certify(child->request, &cert, &error)) {
        fprintf(stderr, "collsim: order: %s\n", error->message);
        g_error_free(error);
        return ORDER_EXIT_FAILED;
    }
    if (child->show->picture != NULL &&
        !order_picture_draw(&cert, child->show->picture_rank, child->show->picture, &error)) {
        fprintf(stderr, "collsim: order: %s\n", error->message);
        g_error_free(error);
        order_certificate_clear(&cert);
        order_picture_record_end();
        return ORDER_EXIT_FAILED;
    }
    order_picture_record_end();
    gchar *text = order_point_text(&cert, child->show->expressions, child->show->tree);
    int code = order_certificate_acceptable(&cert) ? ORDER_EXIT_OK : ORDER_EXIT_ORDER;
    size_t left = strlen(text);
    const char *p = text;
    while (left > 0) {
        ssize_t n = write(STDOUT_FILENO, p, left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            code = ORDER_EXIT_FAILED;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    /* freed before returning: a leak checker (valgrind) looks at the child's heap at its
     * _exit, after this frame is gone */
    g_free(text);
    order_certificate_clear(&cert);
    return code;
}

static void
run_point(const struct order_request *request, const struct order_show *show, struct point_run *run)
{
    static const struct sim_proc_options capture_stdout = {.stdout_to = SIM_PROC_CAPTURE};
    run->text = NULL;
    run->exit_code = ORDER_EXIT_FAILED;
    struct point_child data = {request, show};
    struct sim_proc_result child;
    GError *error = NULL;
    if (!sim_proc_run(run_in_child, &data, &capture_stdout, &child, &error)) {
        fprintf(stderr, "collsim: order: %s\n", error->message);
        g_error_free(error);
        return;
    }
    const struct sim_proc_status *status = &child.status;
    if (status->end == SIM_PROC_EXITED &&
        (status->exit_code == ORDER_EXIT_OK || status->exit_code == ORDER_EXIT_ORDER) &&
        child.out->len > 0) {
        run->exit_code = status->exit_code;
        run->text = g_string_free(g_steal_pointer(&child.out), FALSE);
        return;
    }
    if (status->end != SIM_PROC_EXITED)
        fprintf(stderr, "collsim: order: %s %s P=%d: the simulation died of signal %d\n",
                coll_kind_name(request->kind), request->algorithm, request->nranks, status->signal);
    else if (status->exit_code != ORDER_EXIT_FAILED)
        fprintf(stderr, "collsim: order: %s %s P=%d: the simulation ended with exit code %d\n",
                coll_kind_name(request->kind), request->algorithm, request->nranks,
                status->exit_code);
    sim_proc_result_clear(&child);
}

/* ---------------------------------------------------------------- the command */

static int order_usage(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int
order_usage(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "collsim: order: %s\n", msg);
    g_free(msg);
    return ORDER_EXIT_USAGE;
}

/* "8" or "2,3,5,8" -> rank counts. FALSE for anything else. */
static gboolean
parse_rank_list(const char *text, GArray *out)
{
    gchar **parts = g_strsplit(text, ",", -1);
    gboolean ok = parts[0] != NULL;
    for (gchar **p = parts; ok && *p != NULL; p++) {
        gchar *end = NULL;
        gint64 v = g_ascii_strtoll(*p, &end, 10);
        if (**p == '\0' || end == NULL || *end != '\0' || v < 1 || v > ORDER_MAX_RANKS) {
            ok = FALSE;
            break;
        }
        gint P = (gint)v;
        g_array_append_val(out, P);
    }
    g_strfreev(parts);
    return ok;
}

static const enum coll_kind reducing_kinds[] = {
    COLL_REDUCE, COLL_ALLREDUCE, COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER_BLOCK,
    COLL_SCAN,   COLL_EXSCAN,
};

/*
 * Expand COLLECTIVE ALGORITHM over the rank counts into checked requests: by collective,
 * then algorithm in registry order, then P. FALSE after printing one message.
 */
static gboolean
expand_requests(const char *collective, const char *algorithm, GArray *ranks, int count, int root,
                gboolean commutative, struct coll_params params, GArray *requests)
{
    gboolean all_kinds = strcmp(collective, "all") == 0;
    enum coll_kind only = COLL_REDUCE;
    if (!all_kinds && !coll_kind_from_name(collective, &only)) {
        order_usage("unknown collective '%s' (reduce, allreduce, reduce_scatter, "
                    "reduce_scatter_block, scan, exscan or all)",
                    collective);
        return FALSE;
    }
    if (!all_kinds && root >= 0 && only != COLL_REDUCE) {
        order_usage("--root applies to reduce only");
        return FALSE;
    }
    for (gsize k = 0; k < G_N_ELEMENTS(reducing_kinds); k++) {
        enum coll_kind kind = all_kinds ? reducing_kinds[k] : only;
        if (!all_kinds && k > 0)
            break;
        for (size_t a = 0; a < coll_registry_count(kind); a++) {
            const struct coll_algorithm *row = coll_registry_nth(kind, a);
            if (strcmp(algorithm, "all") != 0 && strcmp(algorithm, row->name) != 0)
                continue;
            for (guint i = 0; i < ranks->len; i++) {
                struct order_request q = {
                    .kind = kind,
                    .algorithm = row->name,
                    .nranks = g_array_index(ranks, gint, i),
                    .count = count,
                    .root = root >= 0 ? root : 0,
                    .commutative = commutative,
                    .params = params,
                };
                g_array_append_val(requests, q);
            }
        }
    }
    if (requests->len == 0 && !all_kinds && !coll_kind_reduces(only)) {
        order_usage("%s does not reduce; order certificates exist for reduce, allreduce, "
                    "reduce_scatter, reduce_scatter_block, scan and exscan",
                    collective);
        return FALSE;
    }
    if (requests->len == 0) {
        if (all_kinds)
            order_usage("no reduction collective has an algorithm named '%s' (see collsim list "
                        "algorithms)",
                        algorithm);
        else
            order_usage("%s has no algorithm named '%s' (see collsim list algorithms)",
                        coll_kind_mpi_name(only), algorithm);
        return FALSE;
    }
    for (guint i = 0; i < requests->len; i++) {
        GError *error = NULL;
        if (!order_request_check(&g_array_index(requests, struct order_request, i), &error)) {
            order_usage("%s", error->message);
            g_error_free(error);
            return FALSE;
        }
    }
    return TRUE;
}

struct order_options {
    gchar *ranks;
    gint count;
    gint root;
    gboolean commutative;
    gint segment_bytes;
    gint radix;
    gboolean tree;
    gboolean expressions;
    gboolean certificate;
    gchar *against;
    gchar *platform;
    gchar *placement;
    gboolean nonblocking;
    gchar *picture;
    gint picture_rank;
};

/* Run every request in order, print it, compare it; the command's exit code. */
static int
run_requests(GArray *requests, const struct order_options *opt, const struct order_saved *saved)
{
    struct order_show show = {opt->expressions, opt->tree, opt->picture, opt->picture_rank};
    int rc = ORDER_EXIT_OK;
    guint changed = 0;
    for (guint i = 0; i < requests->len; i++) {
        const struct order_request *q = &g_array_index(requests, struct order_request, i);
        struct point_run run;
        run_point(q, &show, &run);
        rc = MAX(rc, run.exit_code);
        if (run.text == NULL)
            continue;
        if (opt->certificate) {
            const char *nl = strchr(run.text, '\n');
            fwrite(run.text, 1, nl != NULL ? (size_t)(nl - run.text) + 1 : strlen(run.text),
                   stdout);
        } else {
            fputs(run.text, stdout);
        }
        if (saved != NULL) {
            enum order_comparison c = order_saved_compare(saved, run.text, "order");
            if (c == ORDER_COMPARISON_CHANGED || c == ORDER_COMPARISON_NOT_SAVED)
                changed++;
        }
        g_free(run.text);
    }
    fflush(stdout);
    if (changed > 0) {
        fprintf(stderr, "collsim: order: %u of %u points differ from %s\n", changed, requests->len,
                opt->against);
        rc = MAX(rc, ORDER_EXIT_CHANGED);
    }
    return rc;
}

int
command_order(int argc, char **argv)
{
    struct order_options opt = {.count = 1, .root = -1, .picture_rank = -1};
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_STRING, &opt.ranks,
         "Number of simulated ranks, or a list (2,3,5,8)", "P"},
        {"count", 0, 0, G_OPTION_ARG_INT, &opt.count,
         "Elements per rank (reduce_scatter: per block; default 1)", "N"},
        {"root", 0, 0, G_OPTION_ARG_INT, &opt.root, "Root of reduce (default 0)", "R"},
        {"commutative", 0, 0, G_OPTION_ARG_NONE, &opt.commutative,
         "Declare the witness op commutative: every algorithm runs and shows its true order", NULL},
        {"segment-bytes", 0, 0, G_OPTION_ARG_INT, &opt.segment_bytes,
         "Segment size of the pipelined algorithms (default: the registry's)", "B"},
        {"radix", 0, 0, G_OPTION_ARG_INT, &opt.radix,
         "Radix of the k-nomial algorithms (default: the registry's)", "K"},
        {"tree", 0, 0, G_OPTION_ARG_NONE, &opt.tree,
         "Draw each expression's bracketing as an indented tree", NULL},
        {"expressions", 0, 0, G_OPTION_ARG_NONE, &opt.expressions,
         "Print the expressions at any P (default: up to 16 ranks)", NULL},
        {"certificate", 0, 0, G_OPTION_ARG_NONE, &opt.certificate,
         "Print only the certificate line of each point", NULL},
        {"against", 0, 0, G_OPTION_ARG_FILENAME, &opt.against,
         "Compare with certificates saved from an earlier run; name every point that changed",
         "FILE"},
        {"platform", 0, 0, G_OPTION_ARG_STRING, &opt.platform,
         "Run on this platform (a file or flat:hosts=4,cores=8 ...; default: one core per "
         "host): node-aware algorithms combine by node",
         "SPEC"},
        {"placement", 0, 0, G_OPTION_ARG_STRING, &opt.placement,
         "Rank placement: block (default), cyclic, random:SEED, hostfile:FILE", "POLICY"},
        {"nonblocking", 0, 0, G_OPTION_ARG_NONE, &opt.nonblocking,
         "Certify the nonblocking form: MPI_I<collective>, then MPI_Wait", NULL},
        {"picture", 0, 0, G_OPTION_ARG_FILENAME, &opt.picture,
         "Draw the reduction tree of one point's result to FILE (.png, .svg or .pdf)", "FILE"},
        {"picture-rank", 0, 0, G_OPTION_ARG_INT, &opt.picture_rank,
         "Whose result --picture draws (default: the rank folding the most ranks, lowest first)",
         "R"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context =
        g_option_context_new("COLLECTIVE ALGORITHM - certify the reduction order of algorithms");
    g_option_context_set_summary(
        context,
        "Runs the collective with a witness op: rank i contributes the symbol r<i> and every\n"
        "application of the op is recorded, so each result is a bracketed expression of the\n"
        "symbols. Prints, per point, one certificate line (leaf order, depth, applications,\n"
        "a hash over every result) and, for up to 16 ranks, every expression.\n"
        "COLLECTIVE and ALGORITHM may be 'all'. An algorithm that needs a "
        "commutative op\nis not run with the non-commutative witness: the line records the "
        "fallback.");
    g_option_context_set_description(
        context, "Exit status: 0 rank order (or a commutative op), 1 another order or a broken\n"
                 "result, 2 bad arguments, 3 differences from --against FILE, 4 a failed run.");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = ORDER_EXIT_OK;
    (void)argc; /* argv ends with NULL, as main's does */
    gchar **args = g_strdupv(argv);
    GArray *ranks = g_array_new(FALSE, FALSE, sizeof(gint));
    GArray *requests = g_array_new(FALSE, FALSE, sizeof(struct order_request));
    struct order_saved *saved = NULL;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        rc = order_usage("%s", error->message);
        goto out;
    }
    /* args: "order" COLLECTIVE ALGORITHM */
    guint nargs = g_strv_length(args);
    if (nargs < 3) {
        rc = order_usage("which collective and algorithm? (collsim order allreduce "
                         "recursive_doubling -n 8)");
        goto out;
    }
    if (nargs > 3) {
        rc = order_usage("unexpected argument '%s'", args[3]);
        goto out;
    }
    if (opt.ranks == NULL) {
        rc = order_usage("how many ranks? (-n P, or a list -n 2,3,5)");
        goto out;
    }
    if (!parse_rank_list(opt.ranks, ranks)) {
        rc = order_usage("-n wants rank counts from 1 to %d, comma-separated (got '%s')",
                         ORDER_MAX_RANKS, opt.ranks);
        goto out;
    }
    if (opt.count < 0) {
        rc = order_usage("--count must not be negative (got %d)", opt.count);
        goto out;
    }
    if (opt.segment_bytes < 0 || opt.radix < 0 || opt.radix == 1) {
        rc = order_usage("--segment-bytes must be positive and --radix at least 2");
        goto out;
    }
    struct coll_params params = {opt.segment_bytes, opt.radix};
    if (opt.placement != NULL) {
        struct sim_config probe;
        sim_config_defaults(&probe);
        if (!sim_placement_parse(opt.placement, &probe, &error)) {
            rc = order_usage("--placement: %s", error->message);
            goto out;
        }
    }
    if (!expand_requests(args[1], args[2], ranks, opt.count, opt.root, opt.commutative, params,
                         requests)) {
        rc = ORDER_EXIT_USAGE;
        goto out;
    }
    for (guint i = 0; i < requests->len; i++) {
        g_array_index(requests, struct order_request, i).platform = opt.platform;
        g_array_index(requests, struct order_request, i).placement = opt.placement;
        g_array_index(requests, struct order_request, i).nonblocking = opt.nonblocking;
    }
    if (opt.picture == NULL && opt.picture_rank != -1) {
        rc = order_usage("--picture-rank goes with --picture FILE");
        goto out;
    }
    if (opt.picture != NULL) {
        if (requests->len != 1) {
            rc = order_usage("--picture draws one point: give one collective, one algorithm "
                             "and one P (got %u points)",
                             requests->len);
            goto out;
        }
        if (!order_picture_check(&g_array_index(requests, struct order_request, 0), opt.picture,
                                 opt.picture_rank, &error)) {
            rc = order_usage("%s", error->message);
            goto out;
        }
    }
    if (opt.against != NULL) {
        gchar *text = NULL;
        if (!g_file_get_contents(opt.against, &text, NULL, &error)) {
            rc = order_usage("--against: %s", error->message);
            goto out;
        }
        saved = order_saved_parse(text, opt.against, &error);
        g_free(text);
        if (saved == NULL) {
            rc = order_usage("--against: %s", error->message);
            goto out;
        }
    }
    rc = run_requests(requests, &opt, saved);
out:
    g_clear_error(&error);
    order_saved_free(saved);
    g_array_free(requests, TRUE);
    g_array_free(ranks, TRUE);
    g_strfreev(args);
    g_free(opt.ranks);
    g_free(opt.against);
    g_free(opt.platform);
    g_free(opt.placement);
    g_free(opt.picture);
    g_option_context_free(context);
    return rc;
}
