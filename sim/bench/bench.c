/*
 * bench.c — the built-in benchmark program: one point of a sweep, simulated, timed, checked.
 *
 * One process runs one point (SimGrid starts once per process). The ranks are actors of this
 * process and share its memory on purpose (no privatisation): they read the point from one
 * shared description, create nothing the others could see differently, and leave their
 * outputs in a shared array so the reference check runs once, after the simulation, walking
 * the ranks in order with a running fold — O(P · count) for the reductions, the size of the
 * outputs for data movement, never a per-rank recomputation of everything.
 *
 * Timing: before every call all ranks meet on a barrier of the core, which costs no simulated
 * time and sends no message, so each call starts at the same instant on every rank with the
 * network idle; a call's time on a rank is MPI_Wtime() after minus before.
 *
 * The op and (for the witnesses) the datatype are created once, before the simulation, and
 * shared by every rank: collsim's handles are process-wide objects anyway, one op is what
 * the reference fold needs after the run, and P copies would cost memory at a million ranks.
 * Ops are created with the point's commute flag, so a false claim of commutativity shows up
 * as a failed check.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <gmodule.h>

#include "sim/bench/bench.h"
#include "sim/engine/program_check.h"
#include "sim/bench/bench_inputs.h"
#include "sim/bench/bench_ops.h"
#include "sim/engine/compute.h"
#include "sim/engine/memory_estimate.h"
#include "sim/engine/payload_scratch.h"
#include "sim/bench/exact_sum.h"
#include "models/model_predict.h"
#include "sim/engine/rank.h"
#include "src/coll/coll_registry.h"
#include "src/coll_decision.h"
#include "src/coll/coll_select.h"
#include "src/errhandler.h"
#include "src/op.h"

/* The route between the hosts of ranks 0 and 1, measured by rank 0 during the run. */
struct bench_route {
    gboolean known;
    double latency;   /* seconds, the whole route */
    double bandwidth; /* bytes/s, its bottleneck */
    int links;
    double host_speed; /* flop/s of rank 0's host */
};

/* Where a rank's result lies: `first` items into `buffer`. */
struct bench_output {
    void *buffer;
    gsize first;
};

/* Everything the ranks share; one per process. */
struct bench_run {
    const struct run_point *point;
    const struct bench_datatype *type;
    MPI_Datatype dt;
    MPI_Op op; /* MPI_OP_NULL for data movement */
    enum bench_pattern pattern;
    int nranks;
    int count;             /* items of the point (see point.h for what they count) */
    gboolean keep_outputs; /* check after the run */
    core_barrier *barrier;
    double *time;              /* per rank: mean over the timed calls */
    guint64 *messages, *bytes; /* per rank: sums over the timed calls */
    struct bench_output *output;
    gchar **error; /* per rank: the MPI error that stopped it, or NULL */
    struct bench_route route;
    /* what the selection picks for the point's call when no algorithm is forced (a library's
     * decision may pick a node-aware one), or NULL */
    const struct coll_algorithm *selected;
};

static struct bench_run *current;

/* ---------------------------------------------------------------- collective shapes */

/* Items rank i receives in MPI_Reduce_scatter: the vector split as evenly as it goes. */
static int
scatter_count(int count, int nranks, int i)
{
    return count / nranks + (i < count % nranks);
}

static int
scatter_first(int count, int nranks, int i)
{
    return i * (count / nranks) + MIN(i, count % nranks);
}

/* Items of the vector each rank contributes to the point's reduction. */
static gsize
vector_items(const struct bench_run *run)
{
    gsize n = (gsize)run->count, p = (gsize)run->nranks;
    return run->point->kind == COLL_REDUCE_SCATTER_BLOCK ? n / p * p : n;
}

/* The call as the entry points describe it (src/coll/<collective>/mpi_<collective>.c), for
 * coll_select_unmet. */
static void
describe_point_call(const struct run_point *point, const struct bench_datatype *type, int count,
                    gboolean commutative, struct coll_call *call)
{
    int p = point->nranks;
    *call = (struct coll_call){.kind = point->kind,
                               .comm_size = p,
                               .count = count,
                               .bytes = (size_t)count * type->size,
                               .commutative = commutative,
                               .contiguous = 1,
                               /* block placement fills hosts with consecutive ranks; other
                                * placements may not, so a node-aware non-commutative
                                * reduction falls back rather than fail inside the run */
                               .node_blocks = point->placement == SIM_PLACEMENT_BLOCK};
    switch (point->kind) {
    case COLL_BARRIER:
        call->count = 0;
        call->bytes = 0;
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        call->count = count / p * p;
        call->bytes = (size_t)call->count * type->size;
        break;
    case COLL_ALLGATHERV:
    case COLL_ALLTOALLV:
    case COLL_ALLTOALLW:
        /* the total of the counts; bytes stay one (mean) block */
        call->count = (int)MIN((gint64)count * p, (gint64)INT_MAX);
        break;
    default:
        break;
    }
}

/* ---------------------------------------------------------------- static checks */

static gchar *
invalid_program(const struct run_point *point, const char **key)
{
    *key = "program";
    /* before loading: a name collsim lacks would otherwise bind to libsimgrid's own MPI; the
     * functions it refuses at their call are not noted here, once per point */
    GError *refusal = NULL;
    if (!program_check(point->program, point->program, NULL, &refusal)) {
        gchar *why = g_strdup(refusal->message);
        g_error_free(refusal);
        return why;
    }
    gchar *path = g_canonicalize_filename(point->program, NULL);
    GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
    gchar *why = NULL;
    gpointer symbol = NULL;
    if (module == NULL)
        why = g_strdup_printf("cannot load program %s: %s", point->program, g_module_error());
    else if (!g_module_symbol(module, "main", &symbol) || symbol == NULL)
        why = g_strdup_printf("program %s has no main() function", point->program);
    else if (point->expected_output != NULL &&
             !g_file_test(point->expected_output, G_FILE_TEST_IS_REGULAR))
        why = g_strdup_printf("expected output %s: no such file", point->expected_output);
    /* left open: loading it again for the run is then free, and its code stays mapped */
    g_free(path);
    return why;
}

gchar *
bench_point_invalid(const struct run_point *point, const char **key)
{
    if (point->nranks < 1) {
        *key = "ranks";
        return g_strdup_printf("%d ranks: at least one is needed", point->nranks);
    }
    if (point->program != NULL)
        return invalid_program(point, key);
    if (point->iterations < 1 || point->warmup < 0) {
        *key = "iterations";
        return g_strdup_printf("%d timed calls after %d warm-up calls: at least one timed call "
                               "and no negative warm-up",
                               point->iterations, point->warmup);
    }
    const char *dt_name = point->datatype != NULL ? point->datatype : "byte";
    const struct bench_datatype *type = bench_datatype_find(dt_name);
    if (type == NULL) {
        *key = "datatype";
        return g_strdup_printf("unknown datatype '%s' (see collsim list ops)", dt_name);
    }
    if (coll_kind_reduces((int)point->kind)) {
        struct bench_op op;
        GError *error = NULL;
        if (point->op == NULL) {
            *key = "op";
            return g_strdup_printf("%s needs an op", coll_kind_mpi_name(point->kind));
        }
        if (!bench_op_resolve(point->op, type, &op, &error)) {
            *key = "op";
            gchar *why = g_strdup(error->message);
            g_error_free(error);
            return why;
        }
    }
    gchar *inputs_why = bench_inputs_invalid(point);
    if (inputs_why != NULL) {
        *key = "inputs";
        return inputs_why;
    }
    if (point->algorithm != NULL && strcmp(point->algorithm, COLL_SELECT_REPRODUCIBLE) != 0 &&
        !coll_decision_is_library(point->algorithm)) {
        const struct coll_algorithm *row = coll_registry_find(point->kind, point->algorithm);
        *key = "algorithms";
        if (row == NULL)
            return g_strdup_printf("%s has no algorithm named '%s' (see collsim list algorithms)",
                                   coll_kind_mpi_name(point->kind), point->algorithm);
        if (point->params.segment_bytes < 0 || point->params.radix < 0 || point->params.radix == 1)
            return g_strdup_printf("%s: segment_bytes must be positive and radix at least 2",
                                   point->algorithm);
    }
    if (coll_kind_has(point->kind, COLL_TRAIT_ROOTED) &&
        (point->root < 0 || point->root >= point->nranks)) {
        *key = "root";
        return g_strdup_printf("root %d is not one of the %d ranks", point->root, point->nranks);
    }
    if (point->in_place && !coll_kind_has(point->kind, COLL_TRAIT_IN_PLACE)) {
        *key = "in_place";
        return g_strdup_printf("%s does not take MPI_IN_PLACE", coll_kind_mpi_name(point->kind));
    }
    *key = "sizes";
    if (point->bytes % type->size != 0)
        return g_strdup_printf("%" G_GUINT64_FORMAT " bytes is not a whole number of %s "
                               "(%" G_GSIZE_FORMAT " bytes each)",
                               point->bytes, type->name, type->size);
    guint64 count = point->bytes / type->size;
    if (count > INT_MAX)
        return g_strdup_printf("%" G_GUINT64_FORMAT " bytes make %" G_GUINT64_FORMAT
                               " items of %s, more than an int count holds",
                               point->bytes, count, type->name);
    /* the v-variants place block i at displacement i * count, an int */
    if (coll_kind_has(point->kind, COLL_TRAIT_MOVES_BLOCKS) && point->nranks > 1 &&
        count * (guint64)(point->nranks - 1) > INT_MAX)
        return g_strdup_printf("%d blocks of %" G_GUINT64_FORMAT " items overflow an int "
                               "displacement",
                               point->nranks, count);
    *key = NULL;
    return NULL;
}

/* ---------------------------------------------------------------- one rank */

/* A rank's buffers for one collective. */
struct bench_buffers {
    void *send;
    void *recv;
    int *counts, *displs; /* v-variants and reduce_scatter */
    MPI_Datatype *types;  /* alltoallw */
    gboolean refill;      /* in place: the input is overwritten by each call */
    void *input;          /* where this rank's input lies (NULL: it contributes none) */
    gsize input_items;
};

/*
 * A buffer of `items` items for one role of a rank. Sizes-only runs (payload none) read no
 * payload, so every rank shares one scratch region per role (sim/engine/payload_scratch.h):
 * memory O(largest buffer), not O(P x bytes).
 */
static void *
items_alloc(const struct bench_run *run, gsize items, enum sim_scratch_role role)
{
    if (run->point->payload == SIM_PAYLOAD_NONE)
        return sim_scratch_get(role, MAX(items, 1) * run->type->extent);
    return g_malloc0_n(MAX(items, 1), run->type->extent);
}

static void *
item_at(const struct bench_run *run, void *buf, gsize index)
{
    return (char *)buf + index * run->type->extent;
}

/* Items [0, count) of a rank's contribution to a reduction: the op's exact pattern, or the
 * point's order-sensitive inputs. */
static void
fill_reduction_input(const struct bench_run *run, int rank, gsize count, void *buf)
{
    const struct run_point *point = run->point;
    if (point->inputs == POINT_INPUTS_EXACT)
        bench_fill(run->type, run->pattern, rank, run->nranks, 0, count, buf);
    else
        bench_inputs_fill(run->type, point->inputs, point->inputs_seed, rank, run->nranks, 0, count,
                          buf);
}

/* Write this rank's inputs (again, for in-place calls, whose input the call overwrites). */
static void
fill_inputs(const struct bench_run *run, int me, struct bench_buffers *b)
{
    /* sizes only: nothing reads the inputs, and they lie in shared scratch */
    if (b->input == NULL || run->point->payload == SIM_PAYLOAD_NONE)
        return;
    if (coll_kind_reduces(run->point->kind))
        fill_reduction_input(run, me, b->input_items, b->input);
    else
        bench_fill(run->type, run->pattern, me, run->nranks, 0, b->input_items, b->input);
}

/* Items of rank me's result of a reduction (the whole vector, or its block of it). */
static gsize
result_items(const struct bench_run *run, int me)
{
    gsize n = (gsize)run->count, p = (gsize)run->nranks;
    if (run->point->kind == COLL_REDUCE_SCATTER)
        return (gsize)scatter_count(run->count, run->nranks, me);
    return run->point->kind == COLL_REDUCE_SCATTER_BLOCK ? n / p : n;
}

/*
 * A reduction's buffers: the vector to contribute, and where the result lands on the ranks
 * that receive one. In place, the receive buffer holds the vector first (refilled before each
 * call).
 */
static void
setup_reduction(const struct bench_run *run, int me, gboolean in_place, struct bench_buffers *b)
{
    const struct run_point *point = run->point;
    gsize vector = vector_items(run);
    gboolean receives = !coll_kind_has(point->kind, COLL_TRAIT_TO_ROOT) || me == point->root;
    b->refill = in_place && receives;
    if (coll_kind_has(point->kind, COLL_TRAIT_VECTOR)) {
        b->counts = g_new(int, run->nranks);
        for (int i = 0; i < run->nranks; i++)
            b->counts[i] = scatter_count(run->count, run->nranks, i);
    }
    if (!b->refill)
        b->send = items_alloc(run, vector, SIM_SCRATCH_SEND);
    if (receives)
        b->recv = items_alloc(run, b->refill ? vector : result_items(run, me), SIM_SCRATCH_RECV);
    b->input = b->refill ? b->recv : b->send;
    b->input_items = vector;
}

/*
 * A collective that moves blocks of n items: every rank's counts, displacements and types
 * (the v and w forms read them), the data a sender offers (one block, or one per rank when it
 * scatters), the blocks a rank receives (coll_kind_blocks_received). In place, Scatter's root
 * keeps its block where it is; the others' input starts in the receive buffer: the whole of
 * it when they scatter, their own block otherwise.
 */
static void
setup_blocks(const struct bench_run *run, int me, gboolean in_place, struct bench_buffers *b)
{
    const struct run_point *point = run->point;
    gsize n = (gsize)run->count, p = (gsize)run->nranks;
    gboolean scatters = coll_kind_has(point->kind, COLL_TRAIT_SCATTERS);
    gboolean sends = !coll_kind_has(point->kind, COLL_TRAIT_ROOTED | COLL_TRAIT_SCATTERS) ||
                     me == point->root;
    gboolean recv_in_place = coll_kind_has(point->kind, COLL_TRAIT_IN_PLACE_RECVBUF);
    gsize offered = scatters ? p * n : n;
    gsize received = (gsize)coll_kind_blocks_received(point->kind, me, point->root, run->nranks);
    b->counts = g_new(int, p);
    b->displs = g_new(int, p);
    b->types = g_new(MPI_Datatype, p);
    for (gsize i = 0; i < p; i++) {
        b->counts[i] = run->count;
        b->displs[i] = (int)(i * n);
        b->types[i] = run->dt;
    }
    b->refill = in_place && !recv_in_place;
    if (sends && !b->refill)
        b->send = items_alloc(run, offered, SIM_SCRATCH_SEND);
    if (received > 0 && !(in_place && recv_in_place))
        b->recv = items_alloc(run, received * n, SIM_SCRATCH_RECV);
    if (sends) {
        b->input = b->refill ? item_at(run, b->recv, scatters ? 0 : (gsize)me * n) : b->send;
        b->input_items = offered;
    }
}

/*
 * The payload buffers of the rank that holds the most (payload data; none shares scratch),
 * for the memory check: the root and a non-root rank, whichever holds more. Algorithm
 * temporaries are not counted (the estimate is a floor).
 */
static guint64
payload_bytes_per_rank(const struct bench_run *run)
{
    const struct run_point *point = run->point;
    if (point->payload == SIM_PAYLOAD_NONE || coll_kind_has(point->kind, COLL_TRAIT_NO_DATA))
        return 0;
    guint64 n = (guint64)run->count * run->type->extent, p = (guint64)run->nranks, most = 0;
    if (coll_kind_reduces(point->kind))
        return 2 * (guint64)vector_items(run) * run->type->extent;
    if (!coll_kind_has(point->kind, COLL_TRAIT_MOVES_BLOCKS))
        return n;
    int ranks[] = {point->root, (point->root + 1) % run->nranks};
    for (gsize i = 0; i < G_N_ELEMENTS(ranks); i++) {
        gboolean scatters = coll_kind_has(point->kind, COLL_TRAIT_SCATTERS);
        gboolean sends = !coll_kind_has(point->kind, COLL_TRAIT_ROOTED | COLL_TRAIT_SCATTERS) ||
                         ranks[i] == point->root;
        guint64 received =
            (guint64)coll_kind_blocks_received(point->kind, ranks[i], point->root, run->nranks);
        most = MAX(most, (sends ? (scatters ? p * n : n) : 0) + received * n);
    }
    return most;
}

/* Allocate this rank's buffers and say where its result will lie. */
static void
setup_buffers(const struct bench_run *run, int me, struct bench_buffers *b,
              struct bench_output *out)
{
    const struct run_point *point = run->point;
    /* the rooted collectives take MPI_IN_PLACE at the root only */
    gboolean in_place = point->in_place &&
                        (!coll_kind_has(point->kind, COLL_TRAIT_ROOTED) || me == point->root);
    *b = (struct bench_buffers){0};
    *out = (struct bench_output){0};
    if (coll_kind_reduces(point->kind)) {
        setup_reduction(run, me, in_place, b);
    } else if (coll_kind_has(point->kind, COLL_TRAIT_MOVES_BLOCKS)) {
        setup_blocks(run, me, in_place, b);
    } else if (!coll_kind_has(point->kind, COLL_TRAIT_NO_DATA)) {
        /* Bcast: one buffer, the root's input */
        b->recv = items_alloc(run, (gsize)run->count, SIM_SCRATCH_RECV);
        if (me == point->root) {
            b->input = b->recv;
            b->input_items = (gsize)run->count;
        }
    }
    out->buffer = b->recv;
    if (in_place && coll_kind_has(point->kind, COLL_TRAIT_IN_PLACE_RECVBUF)) {
        out->buffer = b->send;
        out->first = (gsize)me * (gsize)run->count;
    }
    fill_inputs(run, me, b);
}

static void
free_buffers(struct bench_buffers *b, const struct bench_output *kept)
{
    if (sim_scratch_contains(b->send))
        b->send = NULL;
    if (sim_scratch_contains(b->recv))
        b->recv = NULL;
    if (kept == NULL || b->send != kept->buffer)
        g_free(b->send);
    if (kept == NULL || b->recv != kept->buffer)
        g_free(b->recv);
    g_free(b->counts);
    g_free(b->displs);
    g_free(b->types);
}

/* One call of the point's collective through its MPI entry point (the kind's `call`). */
static int
call_collective(const struct bench_run *run, int me, struct bench_buffers *b)
{
    const struct run_point *point = run->point;
    const struct coll_kind_desc *kind = coll_kind_info(point->kind);
    int n = run->count;
    struct coll_args a = {.buffer = b->recv, .sendbuf = b->send, .recvbuf = b->recv,
                          .count = n, .datatype = run->dt, .op = run->op, .root = point->root,
                          .sendcount = n, .sendcounts = b->counts, .sdispls = b->displs,
                          .sendtype = run->dt, .sendtypes = b->types, .recvcount = n,
                          .recvcounts = b->counts, .rdispls = b->displs, .recvtype = run->dt,
                          .recvtypes = b->types};
    /* the rooted collectives take MPI_IN_PLACE at the root only */
    gboolean in_place = point->in_place && (!(kind->traits & COLL_TRAIT_ROOTED) ||
                                            me == point->root);
    if (in_place && (kind->traits & COLL_TRAIT_IN_PLACE_RECVBUF))
        a.recvbuf = MPI_IN_PLACE;
    else if (in_place)
        a.sendbuf = MPI_IN_PLACE;
    if (point->kind == COLL_REDUCE_SCATTER_BLOCK)
        a.recvcount = n / run->nranks;
    if (point->kind != COLL_ALLTOALLW)
        return kind->call(kind->kind, &a, MPI_COMM_WORLD);
    /* alltoallw displacements are in bytes */
    int *bytes_displs = g_new(int, run->nranks);
    for (int i = 0; i < run->nranks; i++)
        bytes_displs[i] = (int)((gsize)b->displs[i] * run->type->extent);
    a.sdispls = a.rdispls = bytes_displs;
    int rc = kind->call(kind->kind, &a, MPI_COMM_WORLD);
    g_free(bytes_displs);
    return rc;
}

/*
 * α, β and the host speed come from the platform the run loaded: rank 0 asks SimGrid. The
 * formulas know one α and one β, so there is no prediction when ranks share a host (messages
 * inside a node cost another α and β) or when ranks are not all the same distance apart (a
 * fat tree, a torus, a dragonfly: rank 0's routes to ranks 1, P/2 and P-1 differ).
 */
static void
measure_route(struct bench_run *run)
{
    core_host *h0 = sim_rank_by_world(0)->host;
    run->route.host_speed = core_host_speed(h0);
    if (run->nranks < 2)
        return;
    GHashTable *hosts = g_hash_table_new(g_direct_hash, g_direct_equal);
    gboolean shared = FALSE;
    for (int r = 0; r < run->nranks && !shared; r++)
        shared = !g_hash_table_add(hosts, sim_rank_by_world(r)->host);
    g_hash_table_destroy(hosts);
    if (shared)
        return;
    GArray *links = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    core_route(h0, sim_rank_by_world(1)->host, links, &run->route.latency);
    run->route.links = (int)links->len;
    run->route.bandwidth = core_route_bandwidth(links);
    run->route.known = run->route.links > 0;
    int others[] = {run->nranks / 2, run->nranks - 1};
    for (size_t i = 0; i < G_N_ELEMENTS(others) && run->route.known; i++) {
        double latency;
        g_array_set_size(links, 0);
        core_route(h0, sim_rank_by_world(others[i])->host, links, &latency);
        run->route.known = (int)links->len == run->route.links &&
                           latency == run->route.latency &&
                           core_route_bandwidth(links) == run->route.bandwidth;
    }
    g_array_free(links, TRUE);
}

static int
bench_rank_main(int argc, char **argv)
{
    struct bench_run *run = current;
    const struct run_point *point = run->point;
    int me;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    /* an MPI error must end in a result, not in the fatal handler's exit of the process */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    /* SimGrid objects exist only inside the run; ranks run one at a time, so the first one
     * here creates the barrier for all */
    if (run->barrier == NULL)
        run->barrier = core_barrier_new((unsigned)run->nranks);
    if (me == 0)
        measure_route(run);

    struct bench_buffers b;
    struct bench_output out;
    setup_buffers(run, me, &b, &out);
    struct sim_rank *self = sim_rank_self();
    double total = 0;
    guint64 messages = 0, bytes = 0;
    int rc = MPI_SUCCESS;
    /* a node-aware algorithm learns the node layout in its first call on a communicator
     * (as MPICH's and HAN's do); that set-up is not the collective's time */
    int warmup = point->warmup;
    const struct coll_algorithm *row =
        point->algorithm != NULL ? coll_registry_find(point->kind, point->algorithm) : NULL;
    if (row == NULL)
        row = run->selected;
    if (row != NULL && (row->caps & COLL_NODE_AWARE) && warmup == 0)
        warmup = 1;
    for (int it = 0; it < warmup + point->iterations && rc == MPI_SUCCESS; it++) {
        if (b.refill && it > 0)
            fill_inputs(run, me, &b);
        /* the last call's messages must all have left: queued ones go only while I am in MPI */
        sim_p2p_drain_port(self);
        core_barrier_wait(run->barrier);
        sim_after_yield();
        guint64 messages0 = self->messages_sent, bytes0 = self->bytes_sent;
        double start = MPI_Wtime();
        rc = call_collective(run, me, &b);
        double elapsed = MPI_Wtime() - start;
        if (it >= warmup) {
            total += elapsed;
            messages += self->messages_sent - messages0;
            bytes += self->bytes_sent - bytes0;
        }
    }
    run->time[me] = total / point->iterations;
    run->messages[me] = messages;
    run->bytes[me] = bytes;
    if (rc != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0;
        MPI_Error_string(rc, text, &len);
        run->error[me] =
            g_strdup_printf("rank %d: %s failed: %s", me, coll_kind_mpi_name(point->kind), text);
    }
    gboolean keep = run->keep_outputs && rc == MPI_SUCCESS && out.buffer != NULL;
    if (keep)
        run->output[me] = out;
    free_buffers(&b, keep ? &out : NULL);
    MPI_Finalize();
    return rc == MPI_SUCCESS ? 0 : COLLSIM_EXIT_MPI_ERROR;
}

/* ---------------------------------------------------------------- the reference check */

/* Compare `n` items of rank's output (from item `first` on) with `expected`; FALSE and the
 * detail at the first difference. `element` numbers the items as the rank's buffer does. */
static gboolean
compare_items(const struct bench_run *run, int rank, gsize element, const void *got,
              const void *expected, gsize n, gchar **detail)
{
    /* Integer items are equal exactly when their bytes are: one memcmp for the common case
     * (float items are not: -0.0 == 0.0, NaN != NaN; padded items neither). */
    if (bench_type_bitwise_equal(run->type) && memcmp(got, expected, n * run->type->extent) == 0)
        return TRUE;
    for (gsize k = 0; k < n; k++) {
        const char *g = (const char *)got + k * run->type->extent;
        const char *e = (const char *)expected + k * run->type->extent;
        if (bench_item_equal(run->type, g, e))
            continue;
        GString *s = g_string_new(NULL);
        g_string_printf(s, "rank %d element %" G_GSIZE_FORMAT ": got ", rank, element + k);
        bench_item_format(run->type, g, s);
        g_string_append(s, ", expected ");
        bench_item_format(run->type, e, s);
        *detail = g_string_free(s, FALSE);
        return FALSE;
    }
    return TRUE;
}

static void *
output_of(const struct bench_run *run, int rank)
{
    const struct bench_output *o = &run->output[rank];
    return (char *)o->buffer + o->first * run->type->extent;
}

/* acc := acc ∘ next in MPI's operand order (lower ranks on the left); `next` is clobbered. */
static void
fold_into(const struct bench_run *run, void **acc, void **next, gsize n)
{
    collsim_op_apply(run->op, *acc, *next, (int)n, run->dt);
    void *t = *acc;
    *acc = *next;
    *next = t;
}

/*
 * The sequential reference of rank r's reduction result: items [*first, *first + *count) of
 * the fold of ranks 0..*last in rank order (coll_kind_fold_span; Reduce_scatter(_block): the
 * rank's own block of the fold). FALSE where the result is not defined.
 */
static gboolean
result_slice(const struct bench_run *run, int r, int *last, gsize *first, gsize *count)
{
    const struct run_point *point = run->point;
    int p = run->nranks, lowest;
    if (!coll_kind_fold_span(point->kind, r, point->root, p, &lowest, last))
        return FALSE;
    *first = 0;
    *count = vector_items(run);
    if (point->kind == COLL_REDUCE_SCATTER) {
        *first = (gsize)scatter_first(run->count, p, r);
        *count = (gsize)scatter_count(run->count, p, r);
    } else if (point->kind == COLL_REDUCE_SCATTER_BLOCK) {
        *count /= (gsize)p;
        *first = (gsize)r * *count;
    }
    return TRUE;
}

/* A rank's result against items [first, first + count) of the fold so far; FALSE stops. */
typedef gboolean fold_visit(const struct bench_run *run, int rank, gsize first, gsize count,
                            void *state);

/*
 * Once rank j's contribution is in the running fold (ranks 0..j), visit every rank whose
 * result is that fold, in rank order: rank j (Scan), rank j + 1 (Exscan), and after the last
 * contribution every rank whose result folds them all. So the ranks are visited in the same
 * order whatever the kind, and the whole check stays O(P · count).
 */
static gboolean
visit_results_at(const struct bench_run *run, int j, fold_visit *visit, void *state)
{
    int p = run->nranks;
    int lo = j < p - 1 ? j : 0, hi = j < p - 1 ? j + 1 : p - 1;
    for (int r = lo; r <= hi; r++) {
        int last;
        gsize first, count;
        if (result_slice(run, r, &last, &first, &count) && last == j &&
            !visit(run, r, first, count, state))
            return FALSE;
    }
    return TRUE;
}

struct fold_check {
    void **acc;
    gchar **detail;
};

static gboolean
compare_with_fold(const struct bench_run *run, int rank, gsize first, gsize count, void *state)
{
    struct fold_check *check = state;
    return compare_items(run, rank, 0, output_of(run, rank), item_at(run, *check->acc, first),
                         count, check->detail);
}

static gboolean
check_reduction(const struct bench_run *run, gchar **detail)
{
    int p = run->nranks;
    gsize n = vector_items(run);
    void *acc = items_alloc(run, n, SIM_SCRATCH_TEMP);
    void *next = items_alloc(run, n, SIM_SCRATCH_TEMP);
    struct fold_check check = {&acc, detail};
    gboolean ok = TRUE;
    bench_fill(run->type, run->pattern, 0, p, 0, n, acc);
    for (int j = 0; j < p && ok; j++) {
        if (j > 0) {
            bench_fill(run->type, run->pattern, j, p, 0, n, next);
            fold_into(run, &acc, &next, n);
        }
        ok = visit_results_at(run, j, compare_with_fold, &check);
    }
    g_free(acc);
    g_free(next);
    return ok;
}

/* The running maxima of an accuracy measurement and the digest of what was measured. */
struct accuracy {
    double max_ulps, max_rel_error;
    GChecksum *results;
    gchar *detail; /* the first result that is not sane (not finite) */
};

/* Rank's items [first, first + n) against the correctly rounded values of `sums`. */
static void
measure_items(const struct bench_run *run, int rank, gsize first, const void *got,
              const struct exact_sum *sums, gsize n, struct accuracy *acc)
{
    gboolean is_float = run->type->ctype == BENCH_CT_FLOAT;
    g_checksum_update(acc->results, got, (gssize)(n * run->type->size));
    for (gsize k = 0; k < n; k++) {
        double ulps, relative, value;
        if (is_float) {
            float g = ((const float *)got)[k];
            exact_sum_error_float(g, exact_sum_float(&sums[k]), &ulps, &relative);
            value = g;
        } else {
            double g = ((const double *)got)[k];
            exact_sum_error_double(g, exact_sum_double(&sums[k]), &ulps, &relative);
            value = g;
        }
        if (!isfinite(value) && acc->detail == NULL)
            acc->detail = g_strdup_printf("rank %d element %" G_GSIZE_FORMAT ": got %g, not a "
                                          "finite number",
                                          rank, first + k, value);
        /* NAN (a NaN result) wins over every number, so it is not lost in the maximum */
        if (!(ulps <= acc->max_ulps))
            acc->max_ulps = ulps;
        if (!(relative <= acc->max_rel_error))
            acc->max_rel_error = relative;
    }
}

/* Allreduce: the first rank whose result differs from rank 0's in any bit, or -1. */
static int
first_different_rank(const struct bench_run *run, gsize n, gsize *element)
{
    gsize size = run->type->size;
    const char *reference = output_of(run, 0);
    for (int r = 1; r < run->nranks; r++) {
        const char *got = output_of(run, r);
        for (gsize k = 0; k < n; k++) {
            if (memcmp(got + k * size, reference + k * size, size) != 0) {
                *element = k;
                return r;
            }
        }
    }
    return -1;
}

struct accuracy_state {
    const struct exact_sum *sums;
    struct accuracy *acc;
};

static gboolean
measure_with_sums(const struct bench_run *run, int rank, gsize first, gsize count, void *state)
{
    struct accuracy_state *measure = state;
    measure_items(run, rank, 0, output_of(run, rank), measure->sums + first, count, measure->acc);
    return TRUE;
}

/*
 * Non-exact inputs: every defined result element against the correctly rounded exact sum of
 * the contributions it stands for, walking the ranks in order with one exact accumulator per
 * element (O(P · count) additions, as the exact check). The check is ok when the results are
 * sane: finite, and for Allreduce bitwise identical on every rank.
 */
static gboolean
measure_accuracy(const struct bench_run *run, struct point_result *result, gchar **detail)
{
    const struct run_point *point = run->point;
    int p = run->nranks;
    gsize n = vector_items(run);
    struct exact_sum *sums = g_new(struct exact_sum, MAX(n, 1));
    for (gsize k = 0; k < n; k++)
        exact_sum_init(&sums[k]);
    void *contribution = items_alloc(run, n, SIM_SCRATCH_TEMP);
    struct accuracy acc = {.results = g_checksum_new(G_CHECKSUM_SHA256)};
    gboolean is_float = run->type->ctype == BENCH_CT_FLOAT;

    struct accuracy_state state = {sums, &acc};
    for (int j = 0; j < p; j++) {
        fill_reduction_input(run, j, n, contribution);
        for (gsize k = 0; k < n; k++)
            exact_sum_add(&sums[k], is_float ? (double)((float *)contribution)[k]
                                             : ((double *)contribution)[k]);
        visit_results_at(run, j, measure_with_sums, &state);
    }

    gboolean ok = acc.detail == NULL;
    *detail = g_steal_pointer(&acc.detail);
    if (point->kind == COLL_ALLREDUCE) {
        gsize element = 0;
        int rank = first_different_rank(run, n, &element);
        result->identical = rank < 0 ? POINT_IDENTITY_IDENTICAL : POINT_IDENTITY_DIFFERENT;
        if (rank >= 0 && ok) {
            GString *s = g_string_new(NULL);
            g_string_printf(s, "rank %d element %" G_GSIZE_FORMAT ": got ", rank, element);
            bench_item_format(run->type, item_at(run, output_of(run, rank), element), s);
            g_string_append(s, ", rank 0 holds ");
            bench_item_format(run->type, item_at(run, output_of(run, 0), element), s);
            g_string_append(s, " (allreduce results must be identical on every rank)");
            *detail = g_string_free(s, FALSE);
            ok = FALSE;
        }
    }
    result->max_ulps = acc.max_ulps;
    result->max_rel_error = acc.max_rel_error;
    result->results_sha256 = g_strdup(g_checksum_get_string(acc.results));
    g_checksum_free(acc.results);
    for (gsize k = 0; k < n; k++)
        exact_sum_clear(&sums[k]);
    g_free(sums);
    g_free(contribution);
    return ok;
}

/* Every block each rank received against the fill of the block it comes from. */
static gboolean
check_movement(const struct bench_run *run, gchar **detail)
{
    const struct run_point *point = run->point;
    int p = run->nranks;
    gsize n = (gsize)run->count;
    void *expected = items_alloc(run, n, SIM_SCRATCH_TEMP);
    gboolean ok = TRUE;
    for (int r = 0; r < p && ok; r++) {
        char *got = output_of(run, r);
        int blocks = coll_kind_blocks_received(point->kind, r, point->root, p);
        for (int j = 0; j < blocks && ok; j++) {
            int from, from_block;
            coll_kind_block_source(point->kind, r, j, point->root, &from, &from_block);
            bench_fill(run->type, run->pattern, from, p, (guint64)from_block * n, n, expected);
            ok = compare_items(run, r, (gsize)j * n, item_at(run, got, (gsize)j * n), expected,
                               n, detail);
        }
    }
    g_free(expected);
    return ok;
}

/* ---------------------------------------------------------------- prediction */

static double
predict(const struct bench_run *run, const char *served, const struct coll_params *params)
{
    const struct run_point *point = run->point;
    const char *collective = coll_kind_name(point->kind);
    struct model_predict_params mp;
    model_predict_params_init(&mp);
    mp.ranks = run->nranks;
    mp.mode = MODEL_PREDICT_COLLSIM;
    gsize items = (gsize)run->count;
    if (point->kind == COLL_REDUCE_SCATTER_BLOCK)
        items = items / (gsize)run->nranks * (gsize)run->nranks;
    mp.bytes = point->kind == COLL_BARRIER ? 0 : (double)items * (double)run->type->size;
    mp.root = coll_kind_has(point->kind, COLL_TRAIT_ROOTED) ? point->root : 0;
    mp.eager_threshold = (double)point->transport.eager_threshold;
    mp.send_overhead = point->transport.send_overhead;
    mp.recv_overhead = point->transport.recv_overhead;
    mp.gap = point->transport.gap;
    if (params->segment_bytes > 0)
        mp.segment_bytes = params->segment_bytes;
    if (params->radix >= 2)
        mp.radix = params->radix;
    const struct model_network *network =
        point->network != NULL ? point->network : model_network_default();
    mp.crosstraffic = network->crosstraffic ? MODEL_PREDICT_CROSSTRAFFIC : 0.0;
    if (run->nranks > 1) {
        const char *model =
            point->network_model != NULL ? point->network_model : network->simgrid_model;
        if (!run->route.known ||
            !model_predict_route(model, run->route.latency / run->route.links, run->route.bandwidth,
                                 run->route.links, &mp.alpha, &mp.beta))
            return NAN;
    }
    mp.gamma = 0;
    if (run->op != MPI_OP_NULL) {
        double flops_per_byte = sim_compute_flops(run->op, run->dt, 1) / (double)run->type->size;
        mp.gamma = model_predict_gamma(flops_per_byte, run->route.host_speed);
        if (mp.gamma < 0)
            return NAN;
    }
    double seconds;
    if (!model_predict_time(collective, served, &mp, &seconds))
        return NAN;
    return seconds;
}

/* ---------------------------------------------------------------- running a point */

static const char *
exit_reason(int exit_code)
{
    switch (exit_code) {
    case COLLSIM_EXIT_MPI_ERROR:
        return "MPI error";
    case SIM_EXIT_DEADLOCK:
        return "deadlock";
    case SIM_EXIT_NO_FINALIZE:
        return "a rank returned without MPI_Finalize";
    case SIM_EXIT_CRASH:
        return "a rank crashed";
    default:
        return "a rank failed";
    }
}

static void
config_from_point(const struct run_point *point, struct sim_config *config, GPtrArray *cfg)
{
    sim_config_defaults(config);
    config->nranks = point->nranks;
    config->platform_file = point->platform;
    config->placement = point->placement;
    config->placement_seed = point->placement_seed;
    config->placement_file = point->placement_file;
    config->oversubscribe = point->oversubscribe;
    config->transport = point->transport;
    if (point->network != NULL)
        config->network = point->network;
    config->payload = point->payload;
    config->engine = point->engine;
    config->wall_limit = point->wall_limit;
    if (point->network_model != NULL)
        g_ptr_array_add(cfg, g_strdup_printf("--cfg=network/model:%s", point->network_model));
    g_ptr_array_add(cfg, NULL);
    config->simgrid_cfg = (gchar **)cfg->pdata;
}

void
bench_preload(const struct run_point *point)
{
    GPtrArray *cfg = g_ptr_array_new_with_free_func(g_free);
    struct sim_config config;
    config_from_point(point, &config, cfg);
    sim_engine_preload(&config);
    g_ptr_array_free(cfg, TRUE);
}

/* The algorithm that served most calls of the point's collective ("" if none did). */
static const char *
served_algorithm(const struct sim_outcome *outcome, enum coll_kind kind)
{
    const struct sim_served *best = NULL;
    for (guint i = 0; outcome->served != NULL && i < outcome->served->len; i++) {
        const struct sim_served *s = &g_array_index(outcome->served, struct sim_served, i);
        if (s->kind == (int)kind && (best == NULL || s->calls > best->calls))
            best = s;
    }
    return best != NULL ? best->algorithm : "";
}

/* A library's decision whose choice could not serve the point (a requirement unmet, or data it
 * needs in a sizes-only run) was served by collsim's fallback: say so, as for a forced one. */
static void
note_decision_fallback(const struct run_point *point, const struct bench_run *run,
                       gboolean commutative, struct point_result *result)
{
    const struct coll_decision *decision = coll_select_decision();
    if (point->algorithm == NULL || !coll_decision_is_library(point->algorithm) ||
        decision == NULL || result->served == NULL || result->served[0] == '\0')
        return;
    struct coll_call call;
    struct coll_decision_choice choice;
    describe_point_call(point, run->type, run->count, commutative, &call);
    call.sizes_only = point->payload == SIM_PAYLOAD_NONE;
    if (!coll_decision_choose(decision, &call, &choice) ||
        (choice.row != NULL && strcmp(choice.row->name, result->served) == 0))
        return;
    const char *unmet = choice.row != NULL ? coll_select_unmet(choice.row, &call) : NULL;
    result->fallback_reason =
        g_strdup_printf("%s's choice %s: %s", point->algorithm, choice.entry->collsim,
                        choice.row == NULL ? "not in this build"
                        : unmet != NULL    ? unmet
                                           : "did not serve the call");
}

/* What the selection picks for the call (run->selected, NULL if nothing can serve it: the
 * call then fails when it runs, with the reason), once choose_algorithm has set it up. */
static void
select_for_warmup(struct bench_run *run, gboolean commutative)
{
    struct coll_call call;
    struct coll_params params;
    const char *refusal = NULL;
    describe_point_call(run->point, run->type, run->count, commutative, &call);
    call.sizes_only = run->point->payload == SIM_PAYLOAD_NONE; /* as the entry points see it */
    run->selected = coll_select(&call, &params, &refusal);
}

/* Force the requested algorithm, unless it cannot serve the point's call. */
static gboolean
choose_algorithm(const struct run_point *point, const struct bench_datatype *type, int count,
                 gboolean commutative, struct point_result *result, GError **error)
{
    coll_select_reset();
    if (point->algorithm == NULL)
        return TRUE;
    if (strcmp(point->algorithm, COLL_SELECT_REPRODUCIBLE) == 0) {
        coll_select_set_reproducible(1);
        return TRUE;
    }
    if (coll_decision_is_library(point->algorithm)) {
        /* the point runs in its own child: the library's decision stays installed until it
         * ends, in place of the scenario's run.decision */
        struct coll_decision *decision = coll_decision_open(point->algorithm, 0, error);
        if (decision == NULL)
            return FALSE;
        coll_select_set_decision(decision);
        return TRUE;
    }
    const struct coll_algorithm *row = coll_registry_find(point->kind, point->algorithm);
    struct coll_call call;
    describe_point_call(point, type, count, commutative, &call);
    const char *unmet = coll_select_unmet(row, &call);
    if (unmet == NULL && (row->caps & COLL_READS_DATA) && point->payload == SIM_PAYLOAD_NONE) {
        result->fallback_reason = g_strdup_printf("%s (payload = data)", coll_reads_data_why(row));
        return TRUE;
    }
    if (unmet != NULL) {
        result->fallback_reason = g_strdup(unmet);
        return TRUE;
    }
    char why[256];
    if (!coll_select_force(point->kind, point->algorithm, &point->params, why, sizeof why)) {
        g_set_error(error, BENCH_ERROR, BENCH_ERROR_OP, "%s", why);
        return FALSE;
    }
    return TRUE;
}

static void
fail_point(struct point_result *result, int exit_code, const char *detail)
{
    result->exit_code = exit_code;
    result->check = POINT_CHECK_ERROR;
    g_free(result->check_detail);
    result->check_detail = g_strdup(detail);
}

static void
summarise_ranks(const struct bench_run *run, struct point_result *result)
{
    int p = run->nranks;
    guint64 messages = 0, bytes = 0;
    double sum = 0;
    result->time_max = run->time[0];
    result->time_min = run->time[0];
    for (int r = 0; r < p; r++) {
        result->time_max = MAX(result->time_max, run->time[r]);
        result->time_min = MIN(result->time_min, run->time[r]);
        sum += run->time[r];
        messages += run->messages[r];
        bytes += run->bytes[r];
    }
    result->time_mean = sum / p;
    guint64 iterations = (guint64)run->point->iterations;
    result->messages = (messages + iterations / 2) / iterations;
    result->bytes_moved = (bytes + iterations / 2) / iterations;
}

static void
run_collective(const struct run_point *point, struct point_result *result)
{
    const struct bench_datatype *type =
        bench_datatype_find(point->datatype != NULL ? point->datatype : "byte");
    struct bench_op bop;
    GError *error = NULL;
    gboolean reduces = coll_kind_reduces((int)point->kind);
    if (!bench_op_resolve(reduces ? point->op : NULL, type, &bop, &error)) {
        fail_point(result, 2, error->message);
        g_error_free(error);
        return;
    }
    struct bench_run run = {
        .point = point,
        .type = type,
        .op = MPI_OP_NULL,
        .pattern = bop.pattern,
        .nranks = point->nranks,
        .count = (int)(point->bytes / type->size),
        .keep_outputs = point->payload == SIM_PAYLOAD_DATA && point->check,
    };
    if (type->cls == BENCH_CLASS_WITNESS)
        witness_setup();
    run.dt = bench_datatype_handle(type);
    if (reduces && bop.kind == BENCH_OP_PREDEFINED)
        run.op = bop.predefined;
    else if (reduces)
        MPI_Op_create(bop.function, point->commutative, &run.op);
    int commutative = 1;
    if (reduces)
        MPI_Op_commutative(run.op, &commutative);

    GPtrArray *cfg = g_ptr_array_new_with_free_func(g_free);
    struct sim_config config;
    struct sim_outcome outcome = {0};
    static char *argv[] = {"collsim-bench", NULL};
    config_from_point(point, &config, cfg);
    config.program = bench_rank_main;
    config.argc = 1;
    config.argv = argv;
    config.privatize = FALSE;

    int p = point->nranks;
    run.time = g_new0(double, p);
    run.messages = g_new0(guint64, p);
    run.bytes = g_new0(guint64, p);
    run.output = g_new0(struct bench_output, p);
    run.error = g_new0(gchar *, p);
    current = &run;

    /* refuse at once what cannot fit, before any host or rank exists */
    struct sim_memory_need need = {.nranks = (guint64)p, .stack_kib = config.stack_kib,
                                   .shared_stack = sim_engine_stacks_shared(&config),
                                   .privatize = config.privatize,
                                   .payload_bytes = payload_bytes_per_rank(&run)};
    gboolean chosen = choose_algorithm(point, type, run.count, commutative, result, &error);
    if (chosen)
        select_for_warmup(&run, commutative);
    if (!chosen || !sim_memory_check(&need, &error) ||
        !sim_engine_run(&config, &outcome, &error)) {
        fail_point(result, 2, error->message);
        g_error_free(error);
        goto out;
    }
    result->exit_code = outcome.exit_code;
    result->served = g_strdup(served_algorithm(&outcome, point->kind));
    note_decision_fallback(point, &run, commutative, result);
    summarise_ranks(&run, result);
    for (int r = 0; r < p && result->exit_code == 0; r++)
        if (run.error[r] != NULL)
            result->exit_code = COLLSIM_EXIT_MPI_ERROR;
    if (result->exit_code != 0) {
        const char *detail = exit_reason(result->exit_code);
        for (int r = 0; r < p; r++) {
            if (run.error[r] != NULL) {
                detail = run.error[r];
                break;
            }
        }
        fail_point(result, result->exit_code, detail);
    } else if (!run.keep_outputs) {
        result->check = POINT_CHECK_SKIPPED;
    } else {
        gchar *detail = NULL;
        gboolean ok = point->kind == COLL_BARRIER ? TRUE
                      : point->inputs != POINT_INPUTS_EXACT
                          ? measure_accuracy(&run, result, &detail)
                      : reduces ? check_reduction(&run, &detail)
                                : check_movement(&run, &detail);
        result->check = ok ? POINT_CHECK_OK : POINT_CHECK_FAIL;
        result->check_detail = detail;
    }

    const struct coll_algorithm *row = coll_registry_find(point->kind, result->served);
    if (row != NULL) {
        struct coll_params params = row->defaults;
        struct coll_decision_choice choice;
        struct coll_call call;
        describe_point_call(point, type, run.count, commutative, &call);
        if (coll_select_forced(point->kind) == row) {
            if (point->params.segment_bytes > 0)
                params.segment_bytes = point->params.segment_bytes;
            if (point->params.radix > 0)
                params.radix = point->params.radix;
        } else if (coll_select_decision() != NULL &&
                   coll_decision_choose(coll_select_decision(), &call, &choice) &&
                   choice.row == row) {
            params = choice.params; /* a library's decision may set a segment or a radix */
        }
        result->predicted = predict(&run, row->name, &params);
    }
out:
    current = NULL;
    /* the barrier belongs to the engine, which lives until the process ends */
    for (int r = 0; r < p; r++) {
        g_free(run.output[r].buffer);
        g_free(run.error[r]);
    }
    g_free(run.output);
    g_free(run.error);
    g_free(run.time);
    g_free(run.messages);
    g_free(run.bytes);
    if (outcome.served != NULL)
        g_array_free(outcome.served, TRUE);
    g_ptr_array_free(cfg, TRUE);
    if (reduces && bop.kind != BENCH_OP_PREDEFINED)
        MPI_Op_free(&run.op);
    if (type->cls == BENCH_CLASS_WITNESS)
        witness_teardown();
    coll_select_reset();
}

/* ---------------------------------------------------------------- program points */

/* Read all of fd from its start. */
static gchar *
read_all(int fd)
{
    GString *text = g_string_new(NULL);
    char buf[4096];
    ssize_t n;
    lseek(fd, 0, SEEK_SET);
    while ((n = read(fd, buf, sizeof buf)) > 0)
        g_string_append_len(text, buf, n);
    return g_string_free(text, FALSE);
}

/* NULL if equal, else "line N: got '...', expected '...'". */
static gchar *
first_difference(const char *got, const char *expected)
{
    if (strcmp(got, expected) == 0)
        return NULL;
    gchar **g = g_strsplit(got, "\n", -1), **e = g_strsplit(expected, "\n", -1);
    guint i = 0;
    while (g[i] != NULL && e[i] != NULL && strcmp(g[i], e[i]) == 0)
        i++;
    gchar *detail;
    if (g[i] == NULL || e[i] == NULL)
        detail = g_strdup_printf("line %u: got %s%s%s, expected %s%s%s", i + 1, g[i] ? "'" : "",
                                 g[i] ? g[i] : "end of output", g[i] ? "'" : "", e[i] ? "'" : "",
                                 e[i] ? e[i] : "end of output", e[i] ? "'" : "");
    else
        detail = g_strdup_printf("line %u: got '%s', expected '%s'", i + 1, g[i], e[i]);
    g_strfreev(g);
    g_strfreev(e);
    return detail;
}

static void
run_program(const struct run_point *point, struct point_result *result)
{
    gchar *path = g_canonicalize_filename(point->program, NULL);
    /* never closed: SimGrid may reference the program's code until the process ends */
    GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
    gpointer program = NULL;
    GError *error = NULL;
    GPtrArray *cfg = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *args = g_ptr_array_new();
    result->served = g_strdup("");
    if (module == NULL || !g_module_symbol(module, "main", &program) || program == NULL) {
        gchar *why = g_strdup_printf("cannot run %s: %s", point->program,
                                     module == NULL ? g_module_error() : "no main() function");
        fail_point(result, 2, why);
        g_free(why);
        goto out;
    }
    struct sim_config config;
    config_from_point(point, &config, cfg);
    config.program = (sim_rank_main)program;
    config.privatize = TRUE;
    config.privatize_anchor = program;
    g_ptr_array_add(args, path);
    for (gchar **a = point->program_args; a != NULL && *a != NULL; a++)
        g_ptr_array_add(args, *a);
    config.argc = (int)args->len;
    g_ptr_array_add(args, NULL);
    config.argv = (char **)args->pdata;

    /* the program's standard output goes to a memory file for the run */
    fflush(stdout);
    int capture = memfd_create("collsim-program-output", 0);
    int saved = capture >= 0 ? dup(STDOUT_FILENO) : -1;
    if (capture < 0 || saved < 0 || dup2(capture, STDOUT_FILENO) < 0) {
        gchar *why = g_strdup_printf("cannot capture the program's output: %s", g_strerror(errno));
        fail_point(result, 2, why);
        g_free(why);
        if (capture >= 0)
            close(capture);
        if (saved >= 0)
            close(saved);
        goto out;
    }
    struct sim_outcome outcome = {0};
    gboolean ran = sim_engine_run(&config, &outcome, &error);
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    result->output = read_all(capture);
    close(capture);
    if (!ran) {
        fail_point(result, 2, error->message);
        g_error_free(error);
        goto out;
    }
    result->exit_code = outcome.exit_code;
    result->time_max = result->time_min = result->time_mean = outcome.simulated_time;
    result->messages = outcome.messages;
    result->bytes_moved = outcome.bytes;
    if (outcome.served != NULL)
        g_array_free(outcome.served, TRUE);
    if (outcome.exit_code != 0) {
        gchar *why =
            g_strdup_printf("exit code %d (%s)", outcome.exit_code, exit_reason(outcome.exit_code));
        fail_point(result, outcome.exit_code, why);
        g_free(why);
        goto out;
    }
    result->check = POINT_CHECK_OK;
    if (point->expected_output != NULL) {
        gchar *expected = NULL;
        if (!g_file_get_contents(point->expected_output, &expected, NULL, &error)) {
            fail_point(result, 0, error->message);
            g_error_free(error);
            goto out;
        }
        result->check_detail = first_difference(result->output, expected);
        if (result->check_detail != NULL)
            result->check = POINT_CHECK_FAIL;
        g_free(expected);
    }
out:
    g_ptr_array_free(args, TRUE);
    g_ptr_array_free(cfg, TRUE);
    g_free(path);
}

void
bench_run_point(const struct run_point *point, struct point_result *result)
{
    gint64 wall_start = g_get_monotonic_time();
    point_result_clear(result);
    const char *key;
    gchar *invalid = bench_point_invalid(point, &key);
    if (invalid != NULL) {
        fail_point(result, 2, invalid);
        g_free(invalid);
    } else if (point->program != NULL) {
        run_program(point, result);
    } else {
        run_collective(point, result);
    }
    if (result->served == NULL)
        result->served = g_strdup("");
    result->wall_seconds = (double)(g_get_monotonic_time() - wall_start) / 1e6;
}
