/*
 * model_predict.c — the API of model_predict.h over the prediction formulas of
 * models/predict/: one table of rows per collective, found by the collective's name, then the
 * algorithm's; parameter checks; the context a formula is evaluated in.
 *
 * Where the formulas live (one file per collective, as src/coll/ has one folder each):
 *   predict/predict_core.h/.c     the shared machinery: context, message primitives, fans,
 *                                 trees, pipelines, rank clocks; row type and flags
 *   predict/predict_barrier.c     barrier
 *   predict/predict_bcast.c       bcast
 *   predict/predict_scatter.c     scatter, scatterv
 *   predict/predict_gather.c      gather, gatherv
 *   predict/predict_allgather.c   allgather, allgatherv
 *   predict/predict_alltoall.c    alltoall, alltoallv, alltoallw
 *   predict/predict_reduce.c      reduce
 *   predict/predict_allreduce.c   allreduce
 *   predict/predict_reduce_scatter.c  reduce_scatter, reduce_scatter_block
 *   predict/predict_scan.c        scan, exscan
 *
 * model_predict_exact() says where COLLSIM equals collsim's simulated time (CM02, no
 * overheads, all ranks starting together); tests/coll/check_timing.c checks every
 * registry row at p = 5, 8, 12, 16, eager and rendezvous sizes, to 1e-6 relative where
 * exact (with SimGrid's surf/precision lowered to 1e-15: its default 1e-9 s rounds event
 * times), within stated bounds elsewhere. Each formula's comment says which it is.
 *
 * Invariants: model_predict_entries() lists the pairs in one fixed order (`collsim list
 * models` prints it): the collectives in the order of `tables`, each with its rows in table
 * order, then the node-aware (smp) rows in the order of `node_aware_order`. A (collective,
 * algorithm) pair has at most one row.
 */
#include <math.h>
#include <string.h>

#include "model_predict.h"

#include "model_network.h"
#include "predict/predict_core.h"

/* ---------------------------------------------------------------- the tables */

struct collective_table {
    const char *collective;
    const struct predict_row *rows;
    const gsize *count;
};

#define TABLE(name) {#name, predict_rows_##name, &predict_rows_##name##_count}

/* In listing order. */
static const struct collective_table tables[] = {
    TABLE(barrier),   TABLE(bcast),          TABLE(scatter),
    TABLE(scatterv),  TABLE(gather),         TABLE(gatherv),
    TABLE(allgather), TABLE(allgatherv),     TABLE(alltoall),
    TABLE(alltoallv), TABLE(alltoallw),      TABLE(reduce),
    TABLE(allreduce), TABLE(reduce_scatter), TABLE(reduce_scatter_block),
    TABLE(scan),      TABLE(exscan),
};

#undef TABLE

/* The node-aware rows are listed last, in this order of their collectives: the order of the
 * single table before models/predict/, which `collsim list models` has printed since. */
static const char *const node_aware_order[] = {
    "barrier", "bcast", "reduce", "allreduce", "allgather", "gather", "scatter",
};

/* 17 names: a linear search is as quick as an index would be, and keeps `tables` the one list. */
static const struct collective_table *
find_table(const char *collective)
{
    for (gsize t = 0; t < G_N_ELEMENTS(tables); t++)
        if (strcmp(tables[t].collective, collective) == 0)
            return &tables[t];
    return NULL;
}

static const struct predict_row *
find_row(const char *collective, const char *algorithm)
{
    if (collective == NULL || algorithm == NULL)
        return NULL;
    const struct collective_table *table = find_table(collective);
    if (table == NULL)
        return NULL;
    for (gsize i = 0; i < *table->count; i++)
        if (strcmp(table->rows[i].algorithm, algorithm) == 0)
            return &table->rows[i];
    return NULL;
}

static void
add_entry(struct model_predict_entry *entries, gsize *n, const struct predict_row *row)
{
    entries[(*n)++] =
        (struct model_predict_entry){row->collective, row->algorithm, row->formula,
                                     (row->flags & (APPROXIMATE | APPROXIMATE_NON_POF2)) != 0};
}

/* ---------------------------------------------------------------- public API */

void
model_predict_params_init(struct model_predict_params *params)
{
    g_return_if_fail(params != NULL);
    memset(params, 0, sizeof *params);
    params->ranks = 1;
    params->bytes = 0.0;
    /* the default network preset's generated cluster: two links, its model, no overheads
     * (the caller adds the run's) */
    const struct model_network *net = model_network_default();
    model_predict_route(net->simgrid_model, net->link_latency, net->link_bandwidth, 2,
                        &params->alpha, &params->beta);
    params->gamma = model_predict_gamma(1.0 / 8.0, 1e10);
    params->segment_bytes = MODEL_PREDICT_SEGMENT_BYTES;
    params->radix = MODEL_PREDICT_RADIX;
    params->root = 0;
    params->eager_threshold = (double)net->eager_threshold;
    params->crosstraffic = net->crosstraffic ? MODEL_PREDICT_CROSSTRAFFIC : 0.0;
    params->send_overhead = 0.0;
    params->recv_overhead = 0.0;
    params->gap = 0.0;
    params->mode = MODEL_PREDICT_COLLSIM;
}

double
model_predict_message_time(double n, double alpha, double beta, double eager_threshold)
{
    if (n <= eager_threshold)
        return alpha + MAX(n, 1.0) * beta;
    return 2.0 * alpha + (n + 1.0) * beta;
}

static gboolean
finite_nonneg(double x)
{
    return isfinite(x) && x >= 0.0;
}

static gboolean
params_valid(const struct predict_row *row, const struct model_predict_params *p)
{
    if (p->ranks < 1 || !finite_nonneg(p->bytes) || !finite_nonneg(p->alpha) ||
        !finite_nonneg(p->beta) || !finite_nonneg(p->gamma))
        return FALSE;
    if (p->mode != MODEL_PREDICT_COLLSIM && p->mode != MODEL_PREDICT_TEXTBOOK)
        return FALSE;
    if (p->mode == MODEL_PREDICT_COLLSIM &&
        (isnan(p->eager_threshold) || p->eager_threshold < 0 || !finite_nonneg(p->crosstraffic)))
        return FALSE;
    if ((row->flags & NEEDS_SEGMENT) && !(isfinite(p->segment_bytes) && p->segment_bytes > 0))
        return FALSE;
    if ((row->flags & NEEDS_RADIX) && p->radix < 2)
        return FALSE;
    if ((row->flags & ROOTED) && (p->root < 0 || p->root >= p->ranks))
        return FALSE;
    return TRUE;
}

gboolean
model_predict_time(const char *collective, const char *algorithm,
                   const struct model_predict_params *params, double *seconds)
{
    g_return_val_if_fail(params != NULL, FALSE);
    g_return_val_if_fail(seconds != NULL, FALSE);
    const struct predict_row *row = find_row(collective, algorithm);
    if (row == NULL || !params_valid(row, params))
        return FALSE;
    if (params->ranks == 1) {
        *seconds = 0.0;
        return TRUE;
    }
    gboolean textbook = params->mode == MODEL_PREDICT_TEXTBOOK;
    if (!textbook && (row->flags & RETURNS_AT_ZERO) && params->bytes == 0) {
        *seconds = 0.0; /* the algorithms return at once when there is nothing to move */
        return TRUE;
    }
    struct ctx c = {
        .p = params->ranks,
        .n = params->bytes,
        /* COLLSIM: every message on the critical path also pays the sender's o_s and the
         * receiver's o_r (approximate where a rank sends or receives several in a row) */
        .a = params->alpha +
             (textbook ? 0.0 : params->send_overhead + params->recv_overhead),
        .an = params->alpha,
        .os = textbook ? 0.0 : params->send_overhead,
        .orr = textbook ? 0.0 : params->recv_overhead,
        .b = params->beta,
        .g = params->gamma,
        .x = textbook ? 0.0 : params->crosstraffic,
        .eager = textbook ? INFINITY : params->eager_threshold,
        .seg = params->segment_bytes,
        .radix = params->radix,
        .root = (row->flags & ROOTED) ? params->root : 0,
        .textbook = textbook,
    };
    *seconds = row->time(&c);
    return TRUE;
}

gboolean
model_predict_exact(const char *collective, const char *algorithm,
                    const struct model_predict_params *params)
{
    g_return_val_if_fail(params != NULL, FALSE);
    const struct predict_row *row = find_row(collective, algorithm);
    if (row == NULL || !params_valid(row, params) || params->mode != MODEL_PREDICT_COLLSIM)
        return FALSE;
    if (params->ranks == 1 || ((row->flags & RETURNS_AT_ZERO) && params->bytes == 0))
        return TRUE;
    /* gatherv/scatterv binomial still exchange sizes when there is no data: not modelled */
    if (params->bytes == 0 && strcmp(collective, "barrier") != 0)
        return FALSE;
    gboolean pof2 = is_pof2(params->ranks);
    if ((row->flags & APPROXIMATE) || ((row->flags & APPROXIMATE_NON_POF2) && !pof2))
        return FALSE;
    /* overheads and the gap are folded into α: exact only without them */
    if (params->send_overhead > 0 || params->recv_overhead > 0 || params->gap > 0)
        return FALSE;
    return (row->flags & (SYMMETRIC | ONE_WAY)) || params->crosstraffic == 0.0;
}

gboolean
model_predict_known(const char *collective, const char *algorithm)
{
    return find_row(collective, algorithm) != NULL;
}

const char *
model_predict_formula(const char *collective, const char *algorithm)
{
    const struct predict_row *row = find_row(collective, algorithm);
    return row != NULL ? row->formula : NULL;
}

const struct model_predict_entry *
model_predict_entries(gsize *count)
{
    static struct model_predict_entry *entries;
    static gsize n_entries;
    static gsize initialized;
    if (g_once_init_enter(&initialized)) {
        gsize total = 0;
        for (gsize t = 0; t < G_N_ELEMENTS(tables); t++)
            total += *tables[t].count;
        entries = g_new(struct model_predict_entry, total);
        /* every collective's own rows, then the node-aware ones */
        for (gsize t = 0; t < G_N_ELEMENTS(tables); t++)
            for (gsize i = 0; i < *tables[t].count; i++)
                if (!(tables[t].rows[i].flags & NODE_AWARE))
                    add_entry(entries, &n_entries, &tables[t].rows[i]);
        for (gsize k = 0; k < G_N_ELEMENTS(node_aware_order); k++) {
            const struct collective_table *table = find_table(node_aware_order[k]);
            for (gsize i = 0; i < *table->count; i++)
                if (table->rows[i].flags & NODE_AWARE)
                    add_entry(entries, &n_entries, &table->rows[i]);
        }
        g_assert(n_entries == total); /* every node-aware row's collective is in the order */
        g_once_init_leave(&initialized, 1);
    }
    if (count != NULL)
        *count = n_entries;
    return entries;
}

gboolean
model_predict_route(const char *network_model, double link_latency, double link_bandwidth,
                    int links, double *alpha, double *beta)
{
    g_return_val_if_fail(alpha != NULL && beta != NULL, FALSE);
    if (network_model == NULL || links < 1 || !(link_latency >= 0.0) || !isfinite(link_latency) ||
        !(link_bandwidth > 0.0) || !isfinite(link_bandwidth))
        return FALSE;
    double latency_factor, bandwidth_factor;
    if (g_ascii_strcasecmp(network_model, "CM02") == 0) {
        latency_factor = 1.0;
        bandwidth_factor = 1.0;
    } else if (g_ascii_strcasecmp(network_model, "LV08") == 0) {
        latency_factor = 13.01;
        bandwidth_factor = 0.97;
    } else {
        return FALSE;
    }
    *alpha = latency_factor * links * link_latency;
    *beta = 1.0 / (bandwidth_factor * link_bandwidth);
    return TRUE;
}

double
model_predict_gamma(double flops_per_byte, double host_speed)
{
    if (!(host_speed > 0.0) || !(flops_per_byte >= 0.0))
        return -1.0;
    return flops_per_byte / host_speed;
}
