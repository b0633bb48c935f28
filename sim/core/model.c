/*
 * model.c — the resources, the actions and the lazy event loop of collsim's own models
 * (model.h says what they model and why they exist; model_lmm.c shares the rates).
 *
 * Each part (CPUs, network) works as a SimGrid 3.32 model with the "Lazy" optimisation:
 *  - model_next solves what changed, then gives every action of the modified resources a
 *    heap date: its remains are first brought up to `now` at the rate it had, then it is due
 *    at now + remains / rate (a sleep at its start + duration); a flow paying its latency
 *    keeps its latency date;
 *  - model_advance pops every heap entry within the surf precision of the new date: a flow's
 *    latency entry enables its variable, any other entry finishes its action;
 *  - finished actions stay in the solver (their resources still count them) until
 *    model_pop_finished frees them, as SimGrid frees them when it handles ended actions.
 * The heap orders by (date, stamp), the stamp renewed at each insertion or update: the order in
 * which boost's stable pairing heap releases SimGrid's actions.
 *
 * Storage: resources and actions come from chunks owned by the model_sys (actions from one
 * free list per element count), so nothing is allocated per event once the pools are warm;
 * a link takes 32 bytes and a CPU 40.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/core/dlist.h"
#include "sim/core/model_private.h"
#include "sim/core/page_batch.h"

#define RESOURCES_PER_CHUNK 4096
#define ACTIONS_PER_CHUNK 256

struct model_sys {
    struct model_net_config config;
    struct model_factor_piece *lat_pieces;
    struct model_factor_piece *bw_pieces;
    double remains_precision; /* below this, what remains of an action is nothing */
    struct model_part cpu;
    struct model_part net;
    gsize running;
    GPtrArray *chunks; /* every block of storage, freed with the sys */
    struct model_link *links;
    guint links_left;
    struct model_cpu *cpus;
    guint cpus_left;
    struct model_action **free_actions; /* by capacity */
    guint32 n_capacities;
};

void
model_net_config_cm02(struct model_net_config *config)
{
    *config = (struct model_net_config){
        .latency_factor = 1.0,
        .bandwidth_factor = 1.0,
        .weight_S = 0.0,
        .tcp_gamma = 4194304.0,
        .crosstraffic = TRUE,
        .maxmin_precision = 1e-5,
        .surf_precision = 1e-9,
    };
}

/* ---------------------------------------------------------------- storage */

/* Storage for `size` bytes of records, each cleared when handed out (clearing a chunk at once
 * would write all its pages: 160 KiB of CPUs for a run of one host). `populated`: the chunk
 * is written at once (a chunk of actions is threaded into its free list), so its pages are
 * asked for in one call. */
static gpointer
chunk_new(model_sys *sys, gsize size, gboolean populated)
{
    gpointer chunk = populated ? core_alloc_populated(size) : g_malloc(size);
    g_ptr_array_add(sys->chunks, chunk);
    return chunk;
}

static void
cnst_init(struct model_cnst *cnst, double bound, gboolean fatpipe)
{
    cnst->bound = bound;
    cnst->enabled = NULL;
    cnst->modified_pos = MODEL_NOWHERE;
    cnst->n_elems = 0;
    cnst->fatpipe = fatpipe;
}

static int
compare_pieces(const void *a, const void *b)
{
    double x = ((const struct model_factor_piece *)a)->from_bytes;
    double y = ((const struct model_factor_piece *)b)->from_bytes;
    return (x > y) - (x < y);
}

static struct model_factor_piece *
sorted_pieces(const struct model_factor_piece *pieces, gsize n)
{
    if (n == 0)
        return NULL;
    struct model_factor_piece *copy = g_memdup2(pieces, n * sizeof *pieces);
    qsort(copy, n, sizeof *copy, compare_pieces);
    return copy;
}

model_sys *
model_sys_new(const struct model_net_config *config)
{
    g_return_val_if_fail(config != NULL, NULL);
    model_sys *sys = g_new0(model_sys, 1);
    sys->config = *config;
    sys->lat_pieces = sorted_pieces(config->lat_pieces, config->n_lat_pieces);
    sys->bw_pieces = sorted_pieces(config->bw_pieces, config->n_bw_pieces);
    sys->config.lat_pieces = sys->lat_pieces;
    sys->config.bw_pieces = sys->bw_pieces;
    sys->remains_precision = config->maxmin_precision * config->surf_precision;
    model_lmm_init(&sys->cpu, config->maxmin_precision);
    model_lmm_init(&sys->net, config->maxmin_precision);
    sys->chunks = g_ptr_array_new_with_free_func(g_free);
    return sys;
}

static void heap_free(struct model_heap *heap);

void
model_sys_free(model_sys *sys)
{
    if (sys == NULL)
        return;
    model_lmm_clear(&sys->cpu);
    model_lmm_clear(&sys->net);
    heap_free(&sys->cpu.heap);
    heap_free(&sys->net.heap);
    g_ptr_array_free(sys->chunks, TRUE);
    g_free(sys->free_actions);
    g_free(sys->lat_pieces);
    g_free(sys->bw_pieces);
    g_free(sys);
}

model_link *
model_link_new(model_sys *sys, double bandwidth, double latency, enum model_sharing sharing)
{
    g_return_val_if_fail(sys != NULL && bandwidth > 0 && latency >= 0, NULL);
    /* the latency is the caller's to sum along routes; the link keeps its bandwidth */
    if (sys->links_left == 0) {
        sys->links = chunk_new(sys, RESOURCES_PER_CHUNK * sizeof *sys->links, FALSE);
        sys->links_left = RESOURCES_PER_CHUNK;
    }
    model_link *link = sys->links++;
    sys->links_left--;
    memset(link, 0, sizeof *link);
    cnst_init(&link->cnst, bandwidth, sharing == MODEL_FATPIPE);
    return link;
}

model_cpu *
model_cpu_new(model_sys *sys, double speed, int cores)
{
    g_return_val_if_fail(sys != NULL && speed > 0 && cores >= 1, NULL);
    if (sys->cpus_left == 0) {
        sys->cpus = chunk_new(sys, RESOURCES_PER_CHUNK * sizeof *sys->cpus, FALSE);
        sys->cpus_left = RESOURCES_PER_CHUNK;
    }
    model_cpu *cpu = sys->cpus++;
    sys->cpus_left--;
    memset(cpu, 0, sizeof *cpu);
    cnst_init(&cpu->cnst, cores * speed, FALSE);
    cpu->speed = speed;
    return cpu;
}

static gsize
action_size(guint32 capacity)
{
    return sizeof(struct model_action) + capacity * sizeof(struct model_elem);
}

static struct model_action *
action_new(model_sys *sys, struct model_part *part, guint32 capacity, double now, double cost,
           void *data)
{
    if (capacity >= sys->n_capacities) {
        guint32 n = MAX(capacity + 1, 2 * sys->n_capacities);
        sys->free_actions = g_renew(struct model_action *, sys->free_actions, n);
        memset(sys->free_actions + sys->n_capacities, 0,
               (n - sys->n_capacities) * sizeof *sys->free_actions);
        sys->n_capacities = n;
    }
    if (sys->free_actions[capacity] == NULL) {
        gsize size = action_size(capacity);
        char *chunk = chunk_new(sys, ACTIONS_PER_CHUNK * size, TRUE);
        for (guint i = ACTIONS_PER_CHUNK; i-- > 0;) {
            struct model_action *a = (struct model_action *)(chunk + i * size);
            a->free_next = sys->free_actions[capacity];
            sys->free_actions[capacity] = a;
        }
    }
    struct model_action *a = sys->free_actions[capacity];
    sys->free_actions[capacity] = a->free_next;
    memset(a, 0, sizeof *a);
    a->capacity = capacity;
    a->part = part;
    a->var_bound = -1.0;
    a->remains = cost;
    a->start_time = now;
    a->last_update = now;
    a->rate_factor = 1.0;
    a->max_duration = MODEL_NO_MAX_DURATION;
    a->heap_index = MODEL_NOWHERE;
    a->heap_kind = MODEL_HEAP_UNSET;
    a->state = MODEL_STARTED;
    a->data = data;
    sys->running++;
    return a;
}

/* ---------------------------------------------------------------- the event queue */

/*
 * The events of a part (actions ending, latencies paid) come out in (date, stamp) order, a
 * total order: stamps are unique and grow with every insertion. Most insertions come in that
 * order already: a sleep, a latency or a message of one size started at a later time ends
 * later, so that the dissemination barrier's and the ring's events all arrived in increasing
 * order (and a linear Alltoall's in two such streams). Such entries go to a lane, a queue taken
 * from the front: the entry joins the lane whose last entry is the latest not after it. The
 * others go to the 4-ary heap. The next event is the first of the heap and the lanes' fronts,
 * so the order is the heap's alone would give: only the cost changes (sifts through a heap of
 * 2^16 entries were 8 % of a barrier at that many ranks, each level writing the index of an
 * action out of the cache).
 *
 * An action in a lane has heap_index LANE_BIT | lane << LANE_SHIFT | its position's low bits;
 * taking it out before its turn leaves a hole (action NULL) that the front skips.
 */
#define HEAP_ARITY 4
#define LANE_BIT 0x80000000u
#define LANE_SHIFT 28
#define LANE_POSITION 0x0fffffffu /* a ring holds at most this many + 1 entries */

static inline gboolean
heap_before(const struct model_heap_entry *a, const struct model_heap_entry *b)
{
    return a->date < b->date || (a->date == b->date && a->stamp < b->stamp);
}

/* ---- the 4-ary heap (half the depth of a binary one, an entry's four children in two cache
 * lines); any shape releases the same order */

static inline void
heap_place(struct model_heap *heap, guint32 i, struct model_heap_entry entry)
{
    heap->items[i] = entry;
    entry.action->heap_index = i;
}

static void
heap_sift_up(struct model_heap *heap, guint32 i)
{
    struct model_heap_entry entry = heap->items[i];
    while (i > 0) {
        guint32 parent = (i - 1) / HEAP_ARITY;
        if (!heap_before(&entry, &heap->items[parent]))
            break;
        heap_place(heap, i, heap->items[parent]);
        i = parent;
    }
    heap_place(heap, i, entry);
}

static void
heap_sift_down(struct model_heap *heap, guint32 i)
{
    struct model_heap_entry entry = heap->items[i];
    for (;;) {
        guint32 first = HEAP_ARITY * i + 1;
        if (first >= heap->n)
            break;
        guint32 last = MIN(first + HEAP_ARITY, heap->n), child = first;
        for (guint32 c = first + 1; c < last; c++)
            if (heap_before(&heap->items[c], &heap->items[child]))
                child = c;
        if (!heap_before(&heap->items[child], &entry))
            break;
        heap_place(heap, i, heap->items[child]);
        i = child;
    }
    heap_place(heap, i, entry);
}

static void
tree_insert(struct model_heap *heap, struct model_heap_entry entry)
{
    if (heap->n == heap->cap) {
        heap->cap = heap->cap > 0 ? 2 * heap->cap : 256;
        heap->items = g_renew(struct model_heap_entry, heap->items, heap->cap);
    }
    heap_place(heap, heap->n++, entry);
    heap_sift_up(heap, entry.action->heap_index);
}

static void
tree_take(struct model_heap *heap, struct model_action *a)
{
    guint32 i = a->heap_index;
    a->heap_index = MODEL_NOWHERE;
    struct model_heap_entry last = heap->items[--heap->n];
    if (last.action == a)
        return;
    heap_place(heap, i, last);
    heap_sift_up(heap, i);
    heap_sift_down(heap, last.action->heap_index);
}

/* ---- the lanes */

/* The lane's first entry still there (holes in front are dropped), or NULL if none is. */
static struct model_heap_entry *
lane_front(struct model_lane *lane)
{
    while (lane->len > 0) {
        struct model_heap_entry *entry = &lane->ring[lane->head & lane->mask];
        if (entry->action != NULL)
            return entry;
        lane->head++;
        lane->len--;
    }
    return NULL;
}

/* The lane an entry dated `date` may join at its end (the latest last entry not after it;
 * an empty lane, any date), or -1. */
static int
lane_for(const struct model_heap *heap, double date)
{
    int best = -1;
    double best_tail = -INFINITY;
    for (int l = 0; l < MODEL_LANES; l++) {
        const struct model_lane *lane = &heap->lanes[l];
        if (lane->len > LANE_POSITION)
            continue; /* full */
        double tail = lane->len > 0 ? lane->tail_date : -INFINITY;
        if (tail <= date && (best < 0 || tail > best_tail)) {
            best = l;
            best_tail = tail;
        }
    }
    return best;
}

static void
lane_append(struct model_heap *heap, int l, struct model_heap_entry entry)
{
    struct model_lane *lane = &heap->lanes[l];
    if (lane->ring == NULL || lane->len == lane->mask + 1) {
        /* a position keeps its ring index, its low bits, in the bigger ring */
        guint32 size = lane->ring == NULL ? 256 : 2 * (lane->mask + 1);
        struct model_heap_entry *ring = g_new(struct model_heap_entry, size);
        for (guint32 k = 0; k < lane->len; k++) {
            guint32 at = lane->head + k;
            ring[at & (size - 1)] = lane->ring[at & lane->mask];
        }
        g_free(lane->ring);
        lane->ring = ring;
        lane->mask = size - 1;
    }
    guint32 at = lane->head + lane->len++;
    lane->ring[at & lane->mask] = entry;
    lane->tail_date = entry.date;
    entry.action->heap_index = LANE_BIT | (guint32)l << LANE_SHIFT | (at & LANE_POSITION);
}

static inline gboolean
in_lane(guint32 heap_index)
{
    return heap_index != MODEL_NOWHERE && (heap_index & LANE_BIT) != 0;
}

/* ---- the queue */

/* The next entry (the earliest of the heap's top and the lanes' fronts), or NULL. */
static struct model_heap_entry *
heap_first(struct model_heap *heap)
{
    struct model_heap_entry *first = heap->n > 0 ? &heap->items[0] : NULL;
    for (int l = 0; l < MODEL_LANES; l++) {
        struct model_heap_entry *front = lane_front(&heap->lanes[l]);
        if (front != NULL && (first == NULL || heap_before(front, first)))
            first = front;
    }
    return first;
}

static void
heap_take(struct model_heap *heap, struct model_action *a)
{
    if (!in_lane(a->heap_index)) {
        tree_take(heap, a);
        return;
    }
    struct model_lane *lane = &heap->lanes[(a->heap_index & ~LANE_BIT) >> LANE_SHIFT];
    lane->ring[a->heap_index & lane->mask].action = NULL;
    a->heap_index = MODEL_NOWHERE;
}

/* Insert or move `a` to `date`; either way it queues behind entries of the same date. */
static void
heap_set(struct model_heap *heap, struct model_action *a, double date, enum model_heap_kind kind)
{
    a->heap_kind = kind;
    struct model_heap_entry entry = {date, ++heap->stamp, a};
    if (in_lane(a->heap_index)) {
        heap_take(heap, a); /* a hole; it joins a lane or the heap anew below */
    } else if (a->heap_index != MODEL_NOWHERE) {
        guint32 i = a->heap_index;
        heap->items[i] = entry;
        heap_sift_up(heap, i);
        heap_sift_down(heap, a->heap_index);
        return;
    }
    int l = lane_for(heap, date);
    if (l >= 0)
        lane_append(heap, l, entry);
    else
        tree_insert(heap, entry);
}

static void
heap_remove(struct model_heap *heap, struct model_action *a)
{
    a->heap_kind = MODEL_HEAP_UNSET;
    if (a->heap_index != MODEL_NOWHERE)
        heap_take(heap, a);
}

static void
heap_free(struct model_heap *heap)
{
    g_free(heap->items);
    for (int l = 0; l < MODEL_LANES; l++)
        g_free(heap->lanes[l].ring);
}

/* ---------------------------------------------------------------- the action lists */

void
model_modified_push_back(struct model_part *part, struct model_action *a)
{
    a->in_modified = TRUE;
    DLIST_APPEND(part->mod_head, part->mod_tail, a, mod_prev, mod_next);
}

static void
modified_push_front(struct model_part *part, struct model_action *a)
{
    a->in_modified = TRUE;
    DLIST_PREPEND(part->mod_head, part->mod_tail, a, mod_prev, mod_next);
}

static void
modified_unlink(struct model_part *part, struct model_action *a)
{
    if (!a->in_modified)
        return;
    DLIST_UNLINK(part->mod_head, part->mod_tail, a, mod_prev, mod_next);
    a->in_modified = FALSE;
}

static void
ended_append(struct model_ended *list, struct model_action *a)
{
    DLIST_APPEND(list->head, list->tail, a, fin_prev, fin_next);
}

static void
ended_unlink(struct model_ended *list, struct model_action *a)
{
    DLIST_UNLINK(list->head, list->tail, a, fin_prev, fin_next);
}

/* Out of the list or count its state puts it in (SimGrid's action leaves its state set). */
static void
leave_state(model_sys *sys, struct model_action *a)
{
    if (a->state == MODEL_STARTED)
        sys->running--;
    else if (a->state == MODEL_FINISHED)
        ended_unlink(&a->part->finished, a);
    else if (a->state == MODEL_FAILED)
        ended_unlink(&a->part->failed, a);
}

/* Finished (again): to the back of the finished list. */
static void
finish(model_sys *sys, struct model_action *a)
{
    a->remains = 0.0;
    leave_state(sys, a);
    a->state = MODEL_FINISHED;
    ended_append(&a->part->finished, a);
}

static void
action_free(model_sys *sys, struct model_action *a)
{
    struct model_part *part = a->part;
    leave_state(sys, a);
    model_lmm_free_variable(part, a);
    heap_remove(&part->heap, a);
    modified_unlink(part, a);
    a->free_next = sys->free_actions[a->capacity];
    sys->free_actions[a->capacity] = a;
}

/* ---------------------------------------------------------------- progress */

static inline double
rate(const struct model_action *a)
{
    return a->value * a->rate_factor;
}

/* Bring `a` up to `now` at the rate it had since its last update. A flow with nothing left
 * finishes here, as SimGrid's network actions do. */
static void
catch_up(model_sys *sys, struct model_action *a, double now)
{
    double delta = now - a->last_update;
    if (a->remains > 0) {
        a->remains -= a->last_value * delta;
        if (a->remains < sys->remains_precision)
            a->remains = 0.0;
    }
    if (a->part == &sys->net && a->remains <= 0 && a->var_penalty > 0) {
        finish(sys, a);
        heap_remove(&a->part->heap, a);
    }
    a->last_update = now;
    a->last_value = rate(a);
}

static double
part_next(model_sys *sys, struct model_part *part, double now)
{
    model_lmm_solve(part);
    while (part->mod_head != NULL) {
        struct model_action *a = part->mod_head;
        modified_unlink(part, a);
        if (a->state != MODEL_STARTED)
            continue;
        /* a flow still paying its latency keeps that date (SimGrid also skips an action whose
         * own priority is not positive: every action here has priority 1, flows included,
         * whatever their variable's penalty) */
        if (a->heap_kind == MODEL_HEAP_LATENCY)
            continue;
        catch_up(sys, a, now);
        double date = -1;
        enum model_heap_kind kind = MODEL_HEAP_NORMAL;
        double share = rate(a);
        if (share > 0) {
            catch_up(sys, a, now); /* SimGrid reads the remains through an update, again */
            double to_completion = a->remains > 0 ? a->remains / share : 0.0;
            date = now + to_completion;
        }
        if (a->max_duration != MODEL_NO_MAX_DURATION &&
            (date <= -1 || a->start_time + a->max_duration < date)) {
            date = a->start_time + a->max_duration;
            kind = MODEL_HEAP_MAX_DURATION;
        }
        if (date > -1)
            heap_set(&part->heap, a, date, kind);
    }
    const struct model_heap_entry *first = heap_first(&part->heap);
    return first != NULL ? first->date - now : -1.0;
}

double
model_next(model_sys *sys, double now)
{
    g_return_val_if_fail(sys != NULL, -1.0);
    double delay = -1.0;
    struct model_part *parts[] = {&sys->cpu, &sys->net};
    for (gsize i = 0; i < G_N_ELEMENTS(parts); i++) {
        double next = part_next(sys, parts[i], now);
        if ((delay < 0.0 || next < delay) && next >= 0.0)
            delay = next;
    }
    return delay;
}

/* The part's earliest event if it is due now, taken out of the queue (its kind kept for the
 * caller to read), or NULL. */
static struct model_action *
take_due(const model_sys *sys, struct model_part *part, double now)
{
    const struct model_heap_entry *first = heap_first(&part->heap);
    if (first == NULL || fabs(first->date - now) >= sys->config.surf_precision)
        return NULL;
    struct model_action *a = first->action;
    heap_take(&part->heap, a);
    return a;
}

void
model_advance(model_sys *sys, double now, double delta)
{
    g_return_if_fail(sys != NULL);
    (void)delta; /* the lazy models date their events; SimGrid's ignore it too */
    struct model_action *a;
    while ((a = take_due(sys, &sys->cpu, now)) != NULL)
        finish(sys, a);
    struct model_part *net = &sys->net;
    while ((a = take_due(sys, net, now)) != NULL) {
        if (a->heap_kind == MODEL_HEAP_LATENCY) {
            model_lmm_set_penalty(net, a, a->paid_penalty);
            heap_remove(&net->heap, a);
            a->last_update = now;
        } else {
            finish(sys, a);
            heap_remove(&net->heap, a);
        }
    }
}

void *
model_pop_finished(model_sys *sys)
{
    g_return_val_if_fail(sys != NULL, NULL);
    struct model_part *parts[] = {&sys->cpu, &sys->net};
    for (gsize i = 0; i < G_N_ELEMENTS(parts); i++) {
        struct model_action *a = parts[i]->failed.head;
        if (a == NULL)
            a = parts[i]->finished.head;
        if (a != NULL) {
            void *data = a->data;
            action_free(sys, a);
            return data;
        }
    }
    return NULL;
}

gsize
model_running(const model_sys *sys)
{
    g_return_val_if_fail(sys != NULL, 0);
    return sys->running;
}

double
model_action_remains(model_sys *sys, model_action *action, double now)
{
    g_return_val_if_fail(sys != NULL && action != NULL, 0.0);
    if (action->state == MODEL_STARTED)
        catch_up(sys, action, now);
    return action->remains;
}

void
model_action_cancel(model_sys *sys, model_action *action)
{
    g_return_if_fail(sys != NULL && action != NULL);
    leave_state(sys, action);
    action->state = MODEL_FAILED;
    ended_append(&action->part->failed, action);
    heap_remove(&action->part->heap, action);
    modified_unlink(action->part, action);
}

void
model_action_free(model_sys *sys, model_action *action)
{
    g_return_if_fail(sys != NULL && action != NULL);
    action_free(sys, action);
}

/* ---------------------------------------------------------------- starting actions */

/* SMPI's piecewise factors: the factor of the last piece starting strictly below `bytes`. */
static double
piecewise(const struct model_factor_piece *pieces, gsize n, double bytes)
{
    double factor = 1.0;
    for (gsize i = 0; i < n; i++) {
        if (bytes <= pieces[i].from_bytes)
            return factor;
        factor = pieces[i].factor;
    }
    return factor;
}

model_action *
model_flow_start(model_sys *sys, double now, model_link *const *route, gsize n,
                 model_link *const *back, gsize nback, double latency, double bytes, void *data)
{
    g_return_val_if_fail(sys != NULL && (n == 0 || route != NULL), NULL);
    g_return_val_if_fail(n > 0 || latency > 0, NULL);
    const struct model_net_config *cfg = &sys->config;
    struct model_part *net = &sys->net;
    if (!cfg->crosstraffic)
        nback = 0;
    g_return_val_if_fail(nback == 0 || back != NULL, NULL);
    struct model_action *a = action_new(sys, net, (guint32)(n + nback), now, bytes, data);

    double penalty = latency;
    if (cfg->weight_S > 0)
        for (gsize i = 0; i < n; i++)
            penalty = penalty + cfg->weight_S / route[i]->cnst.bound;
    a->paid_penalty = penalty;

    double bw_factor = cfg->n_bw_pieces > 0 ? piecewise(cfg->bw_pieces, cfg->n_bw_pieces, bytes)
                                            : cfg->bandwidth_factor;
    a->rate_factor = bw_factor;
    double user_bound = -1.0;
    for (gsize i = 0; i < n; i++)
        if (user_bound == -1.0 || route[i]->cnst.bound < user_bound)
            user_bound = route[i]->cnst.bound;
    double lat_factor = cfg->n_lat_pieces > 0 ? piecewise(cfg->lat_pieces, cfg->n_lat_pieces, bytes)
                                              : cfg->latency_factor;
    double paid_latency = latency * lat_factor;

    if (paid_latency > 0) {
        /* not sharing until the latency is paid (at once done for a route without links) */
        a->var_penalty = 0.0;
        heap_set(&net->heap, a, paid_latency + a->last_update,
                 n == 0 ? MODEL_HEAP_NORMAL : MODEL_HEAP_LATENCY);
    } else {
        a->var_penalty = 1.0;
    }

    /* TCP's window caps the rate at gamma / (2 x the unscaled latency) */
    double bound;
    if (user_bound < 0) {
        bound = latency > 0 ? cfg->tcp_gamma / (2.0 * latency) : -1.0;
    } else if (latency > 0) {
        double window = cfg->tcp_gamma / (2.0 * latency);
        bound = window < user_bound ? window : user_bound;
    } else {
        bound = user_bound;
    }
    model_lmm_set_bound(net, a, bound);

    for (gsize i = 0; i < n; i++)
        model_lmm_expand(net, a, &route[i]->cnst, 1.0);
    for (gsize i = 0; i < nback; i++)
        model_lmm_expand(net, a, &back[i]->cnst, 0.05);
    return a;
}

model_action *
model_exec_start(model_sys *sys, double now, model_cpu *cpu, double flops, void *data)
{
    g_return_val_if_fail(sys != NULL && cpu != NULL, NULL);
    struct model_action *a = action_new(sys, &sys->cpu, 1, now, flops, data);
    /* one core: penalty 1, at most one core's speed */
    a->var_penalty = 1.0;
    a->var_bound = cpu->speed;
    model_lmm_expand(&sys->cpu, a, &cpu->cnst, 1.0);
    return a;
}

/* A sleep is made as an execution, then taken out of the sharing: it still marks the CPU
 * modified, so the executions there are rescheduled as in SimGrid. */
static struct model_action *
sleep_new(model_sys *sys, double now, model_cpu *cpu, double max_duration, void *data)
{
    struct model_action *a = action_new(sys, &sys->cpu, 1, now, 1.0, data);
    a->var_penalty = 1.0;
    a->var_bound = cpu->speed;
    model_lmm_expand(&sys->cpu, a, &cpu->cnst, 1.0);
    a->max_duration = max_duration;
    if (max_duration == MODEL_NO_MAX_DURATION) {
        a->state = MODEL_IGNORED;
        sys->running--;
    }
    model_lmm_set_penalty(&sys->cpu, a, 0.0);
    modified_push_front(&sys->cpu, a);
    return a;
}

model_action *
model_sleep_start(model_sys *sys, double now, model_cpu *cpu, double seconds, void *data)
{
    g_return_val_if_fail(sys != NULL && cpu != NULL && seconds >= 0, NULL);
    if (seconds > 0)
        seconds = seconds < sys->config.surf_precision ? sys->config.surf_precision : seconds;
    return sleep_new(sys, now, cpu, seconds, data);
}

model_action *
model_wait_start(model_sys *sys, double now, model_cpu *cpu)
{
    g_return_val_if_fail(sys != NULL && cpu != NULL, NULL);
    return sleep_new(sys, now, cpu, MODEL_NO_MAX_DURATION, NULL);
}
