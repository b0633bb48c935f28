/*
 * core_own.c — collsim's own discrete-event core (core.h, CORE_COLLSIM).
 *
 * Why: under SimGrid every message costs several simcalls (each a round trip through
 * SimGrid's maestro) and a stack of SimGrid objects; here an actor is a coroutine and an
 * operation is a function call, while the timing stays SimGrid's (sim/core/model.h keeps its
 * network and CPU models) and the platform is SimGrid's or the same flat cluster built by
 * collsim (sim/core/platform.h).
 *
 * Same results as SimGrid, by construction:
 *  - rounds: the ready actors run one after the other, in the order they became ready; each
 *    runs until its next operation that SimGrid makes a simcall, then the next one runs. An
 *    operation's effect is applied when its actor runs it, which is where SimGrid handles the
 *    simcall in the same round (simcalls are handled in the order the actors ran); an
 *    operation that does not block puts its actor back at the end of the next round's list,
 *    as SimGrid's answer does. Every function below yields exactly where the SimGrid call of
 *    the same name makes a simcall, and as many times.
 *  - time: as SimGrid's engine loop: run the rounds until no actor is ready, then the next
 *    date is the earliest of the timers and of the models' completions, the clock advances by
 *    the difference (now + delta, as SimGrid adds it), the due timers fire, then the finished
 *    actions answer their waiters, CPU model first, network second; so again after every
 *    round, where an action can end (read with nothing left) or be cancelled without the clock
 *    moving.
 *  - mailboxes: SimGrid's rendez-vous rules. A put meets the oldest waiting get (or waits);
 *    a get meets the oldest waiting put (or waits); a mailbox with a permanent receiver starts
 *    every put at once, and a get takes the oldest of those started puts first (reading what
 *    remains of its flow, as SimGrid does: model_action_remains). A put and the get it meets
 *    are one transfer, shared by both handles.
 *  - an actor that ends cancels the transfers it started or posted and never waited for,
 *    oldest first (a running one stays on its links until the round is over); its mailboxes
 *    keep it as their permanent receiver (SimGrid 3.32's actor clean-up).
 *
 * Coroutines: Boost.Context's fcontext (libboost-context), the switch SimGrid itself offers.
 * Either all actors take turns on one stack of the run's size, above a guard page, the frames
 * of a stopped actor copied aside (shared stacks: image_save), or each actor has a stack of
 * the run's size, a slot of a mapping shared by 256 actors, with a guard page below it when
 * the run is small enough for the kernel's mapping limit (SimGrid's contexts/guard-size,
 * which collsim sets as it sets it for SimGrid's core).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/core/core_backend.h"
#include "sim/core/core_cfg.h"
#include "sim/core/dlist.h"
#include "sim/core/fcontext.h"
#include "sim/core/model.h"
#include "sim/core/page_batch.h"
#include "sim/core/timer_heap.h"

/* ---------------------------------------------------------------- coroutines */

/* ---------------------------------------------------------------- objects */

/* What a model action stands for when it finishes. */
enum event_kind { EVENT_COMM, EVENT_ACTOR };

/* What a blocked actor waits for. */
enum block_kind {
    BLOCK_NONE,
    BLOCK_COMM,  /* core_comm_wait / wait_any: answered by a transfer's end or a timer */
    BLOCK_SLEEP, /* a sleep or a computation: answered by its model action */
    BLOCK_COND,  /* a condition: answered by a notification or its timeout action */
    BLOCK_BARRIER,
    BLOCK_MUTEX,
};

enum comm_state {
    COMM_INITED,  /* a prepared put, not started */
    COMM_WAITING, /* queued in its mailbox for the other side */
    COMM_RUNNING, /* both sides known: its bytes flow */
    COMM_DONE,
    COMM_FAILED, /* cancelled */
};

struct waiter;

/* An actor's place in the lists of the transfers it started or posted (SimGrid's activity
 * list): unlinked when it waits for the transfer to its end, cancelled if it ends first. */
struct activity_link {
    struct activity_link *prev, *next;
    core_actor *actor; /* NULL when in no list */
    core_comm *comm;
};

struct core_comm {
    enum event_kind kind; /* EVENT_COMM: first, for the model's data pointer */
    enum comm_state state;
    core_comm *forward; /* a started prepared put: the transfer it became (SimGrid's
                         * s4u handle keeps its identity when its kernel comm is the
                         * get it met) */
    int refs;           /* handles held by actors, the mailbox queue, the action */
    gboolean is_send;   /* while queued: which side waits in the mailbox */
    core_mailbox *mbox; /* the mailbox it is queued in (or, INITED, to start in) */
    core_comm *queue_prev, *queue_next; /* in its mailbox's queue or done list */
    enum { QUEUED_NOWHERE, QUEUED_WAITING, QUEUED_DONE } queued;
    core_actor *src, *dst;
    void *src_payload;
    void **dst_payload;
    long bytes;
    model_action *action;
    struct waiter *waiters_head, *waiters_tail;
    struct activity_link src_link, dst_link;
};

/* One actor's registration on one transfer of its current wait (SimGrid's simcall list). */
struct waiter {
    struct waiter *prev, *next;
    core_comm *comm;
    core_actor *actor;
    ssize_t index;
};

struct core_mailbox {
    gchar *name;
    core_actor *receiver; /* the permanent receiver, or NULL */
    /* threaded through the transfers (no allocation per message): the waiting puts or the
     * waiting gets (never both), and the puts started for the permanent receiver */
    core_comm *queue_head, *queue_tail;
    core_comm *done_head, *done_tail;
};

struct core_actor {
    enum event_kind kind; /* EVENT_ACTOR: first, for the model's data pointer */
    fcontext_t context;   /* where it resumes */
    void *stack_map;      /* its stack's slot (guard page included); NULL on the shared stack */
    void *stack;          /* the usable stack */
    gsize stack_bytes;
    /* shared stacks: its frames while another actor's are on the stack (the `image_bytes`
     * below the stack's top), and how low its frames on the stack went when it left the stack
     * for a stack of its own making (core_stack_left) */
    char *image;
    guint32 image_bytes, image_cap;
    const char *left_at;
    unsigned valgrind_stack; /* its registration with valgrind */
    void (*fn)(void *);
    void *data;
    core_host *host;
    model_cpu *cpu;
    gboolean daemon;
    gboolean started;
    gboolean ended;
    int exec_turns;           /* own_execute's turns left for the scheduler to play (4 to 1) */
    core_actor *next_ready;   /* its successor in the round it is ready for */
    struct host_state *where; /* its host's CPU and number */
    /* the route to the host it last sent to (a rank mostly sends to few peers in turn; the
     * table of every route is a cache miss or more away once there are thousands of hosts) */
    const struct host_state *last_route_to;
    const struct route *last_route;
    enum block_kind blocked;
    gboolean answered;      /* its operation has been answered; it runs again soon */
    ssize_t answer;         /* what its blocking operation returns */
    model_action *action;   /* its sleep, computation or condition timeout in the model */
    double exec_flops;      /* the computation own_execute's turns start */
    model_action *detector; /* SimGrid's endless sleep on its CPU while it waits for one
                             * transfer, a computation or a condition (model_wait_start) */
    struct waiter *waits;   /* its registrations (BLOCK_COMM), `nwaits` of them */
    gsize nwaits, waits_cap;
    timer_heap_handle *timer;              /* its wait's timeout, until it fires or the wait ends */
    core_cond *cond;                       /* BLOCK_COND: the condition it sleeps on */
    core_mutex *waited_mutex;              /* BLOCK_COND: the mutex it gave back to sleep */
    struct activity_link *activities;      /* transfers it started or posted, not yet waited, */
    struct activity_link *activities_tail; /* oldest first (its end cancels them in order) */
#ifdef CORE_ASAN
    void *fake_stack;
#endif
};

struct core_mutex {
    core_actor *owner;
    GQueue acquisitions; /* core_actor *, in request order (owners included) */
};

struct core_cond {
    GQueue sleeping; /* core_actor * */
};

struct core_barrier {
    unsigned expected;
    GPtrArray *arrived; /* core_actor *, in arrival order */
};

/* One host's side of the models: its CPU, and its number in the route keys. */
struct host_state {
    model_cpu *cpu;
    guint32 number;
};

/* A route of the models, in one allocation: SimGrid's latency, then the links there and,
 * for cross traffic, back. */
struct route {
    double latency;
    guint32 n, nback;
    model_link *links[]; /* n there, then nback back */
};

#define STACKS_BATCH 1024  /* stacks whose top pages are asked for in one call */
#define ACTORS_PER_BLOCK 256

/* The first own.n_unmade: actors whose context is not made yet and their stacks' top pages
 * (outside `own`, which each run clears: 16 KiB written for nothing) */
static core_actor *unmade[STACKS_BATCH];
static void *unmade_pages[STACKS_BATCH];

static struct {
    gboolean ready;
    double now;
    model_sys *sys;
    struct model_net_config net;
    struct model_factor_piece *lat_pieces, *bw_pieces;
    gsize stack_bytes;
    gboolean guard;
    /* shared stacks: the one stack (usable part), and the actor whose frames are on it */
    gboolean shared;
    char *shared_low, *shared_top;
    core_actor *on_stack;
    unsigned shared_valgrind;
    core_actor *to_run; /* the next round, in order, chained by next_ready */
    core_actor *to_run_tail;
    core_actor *running;  /* NULL: the scheduler's own stack */
    fcontext_t scheduler; /* where a yielding actor goes back to */
#ifdef CORE_ASAN
    const void *scheduler_bottom;
    size_t scheduler_size;
    void *scheduler_fake_stack;
#endif
    GPtrArray *actors;     /* every actor created, for the end of the run */
    guint live;            /* actors not ended */
    guint daemons;         /* of which daemons */
    GHashTable *mailboxes; /* name -> core_mailbox * (lookup only) */
    GHashTable *links;     /* core_link id -> model_link * (lookup only) */
    /* the same on the flat cluster, whose ids are dense: indexed by id (a hash lookup was
     * three cache misses a message once there are thousands of hosts) */
    model_link **flat_links;
    struct host_state *hosts; /* by core_host_index: a CPU once an actor is there */
    GHashTable *routes;    /* (src << 32 | dst) host numbers -> struct route * (lookup only) */
    timer_heap *timers;    /* core_actor * whose wait times out then */
    guint n_unmade;           /* actors whose context is not made yet (actors_make_contexts) */
    gboolean flat;            /* on collsim's flat cluster (routes by arithmetic: flat_route) */
    core_actor *actor_block;
    guint actor_block_left;
} own;

/* ---------------------------------------------------------------- the network configuration */

/* "65472:0.94;15424:0.69;..." into pieces sorted by size (smpi/bw-factor, smpi/lat-factor). */
static struct model_factor_piece *
parse_pieces(const char *text, gsize *count)
{
    *count = 0;
    if (text == NULL || *text == '\0')
        return NULL;
    gchar **items = g_strsplit(text, ";", -1);
    GArray *pieces = g_array_new(FALSE, FALSE, sizeof(struct model_factor_piece));
    for (gchar **item = items; *item != NULL; item++) {
        gchar **parts = g_strsplit(*item, ":", 2);
        if (parts[0] != NULL && parts[1] != NULL) {
            struct model_factor_piece piece = {g_ascii_strtod(parts[0], NULL),
                                               g_ascii_strtod(parts[1], NULL)};
            g_array_append_val(pieces, piece);
        }
        g_strfreev(parts);
    }
    g_strfreev(items);
    /* ascending sizes: the factor of the last piece not above a message's size applies */
    for (guint i = 1; i < pieces->len; i++)
        for (guint j = i; j > 0; j--) {
            struct model_factor_piece *a = &g_array_index(pieces, struct model_factor_piece, j - 1);
            struct model_factor_piece *b = &g_array_index(pieces, struct model_factor_piece, j);
            if (a->from_bytes <= b->from_bytes)
                break;
            struct model_factor_piece t = *a;
            *a = *b;
            *b = t;
        }
    *count = pieces->len;
    return (struct model_factor_piece *)(void *)g_array_free(pieces, FALSE);
}

static void
read_network_config(void)
{
    gchar *model = core_cfg_string("network/model");
    model_net_config_cm02(&own.net);
    own.net.latency_factor = core_cfg_double("network/latency-factor");
    own.net.bandwidth_factor = core_cfg_double("network/bandwidth-factor");
    own.net.weight_S = core_cfg_double("network/weight-S");
    own.net.tcp_gamma = core_cfg_double("network/TCP-gamma");
    own.net.crosstraffic = core_cfg_boolean("network/crosstraffic");
    own.net.maxmin_precision = core_cfg_double("maxmin/precision");
    own.net.surf_precision = core_cfg_double("surf/precision");
    if (g_strcmp0(model, "SMPI") == 0) {
        gchar *lat = core_cfg_string("smpi/lat-factor");
        gchar *bw = core_cfg_string("smpi/bw-factor");
        own.lat_pieces = parse_pieces(lat, &own.net.n_lat_pieces);
        own.bw_pieces = parse_pieces(bw, &own.net.n_bw_pieces);
        own.net.lat_pieces = own.lat_pieces;
        own.net.bw_pieces = own.bw_pieces;
        g_free(lat);
        g_free(bw);
    }
    g_free(model);
}

/* ---------------------------------------------------------------- resources and routes */

static model_link *
link_of(const struct core_link *link)
{
    gpointer key = (gpointer)link->id;
    model_link *m = own.flat ? own.flat_links[link->id] : g_hash_table_lookup(own.links, key);
    if (m == NULL) {
        m = model_link_new(own.sys, link->bandwidth, link->latency,
                           link->sharing == PLATFORM_FATPIPE ? MODEL_FATPIPE : MODEL_SHARED);
        if (own.flat)
            own.flat_links[link->id] = m;
        else
            g_hash_table_insert(own.links, key, m);
    }
    return m;
}

static struct host_state *
host_state_of(core_host *host)
{
    struct host_state *h = &own.hosts[core_host_index(host)];
    if (h->cpu == NULL) {
        h->cpu = model_cpu_new(own.sys, core_host_speed(host), core_host_core_count(host));
        h->number = (guint32)core_host_index(host) + 1;
    }
    return h;
}

/* The key packs two host numbers: mix all of its bits (a murmur3 finalizer), or hosts of one
 * rack would share buckets. The key is the pointer's value, so a lookup reads no key. */
static guint
route_key_hash(gconstpointer key)
{
    guint64 k = (guint64)(guintptr)key;
    k ^= k >> 33;
    k *= G_GUINT64_CONSTANT(0xff51afd7ed558ccd);
    k ^= k >> 33;
    k *= G_GUINT64_CONSTANT(0xc4ceb9fe1a85ec53);
    k ^= k >> 33;
    return (guint)k;
}

static const struct route *
route_lookup(const core_actor *src, const core_actor *dst)
{
    gpointer key = (gpointer)(guintptr)((guint64)src->where->number << 32 | dst->where->number);
    struct route *r = g_hash_table_lookup(own.routes, key);
    if (r != NULL)
        return r;
    GArray *links = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    GArray *back = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    double latency, back_latency;
    core_route(src->host, dst->host, links, &latency);
    if (own.net.crosstraffic)
        core_route(dst->host, src->host, back, &back_latency);
    r = g_malloc(sizeof *r + sizeof(model_link *) * (links->len + back->len));
    r->latency = latency;
    r->n = links->len;
    r->nback = back->len;
    for (guint i = 0; i < links->len; i++)
        r->links[i] = link_of(&g_array_index(links, struct core_link, i));
    for (guint i = 0; i < back->len; i++)
        r->links[links->len + i] = link_of(&g_array_index(back, struct core_link, i));
    g_array_free(links, TRUE);
    g_array_free(back, TRUE);
    g_hash_table_insert(own.routes, key, r);
    return r;
}

/*
 * On collsim's flat cluster a route is two links (or a host's loopback) found by arithmetic:
 * it is built for each transfer in one buffer instead of kept in own.routes, which a run of a
 * million ranks filled with two million routes, each a lookup that missed, two arrays
 * allocated and freed, an allocation kept and a table growing to hold it (150 MB of a
 * broadcast over 2^20 ranks). The links come in the same order, so they are made in the same
 * order.
 */
static union {
    struct route route;
    char bytes[sizeof(struct route) + 4 * sizeof(model_link *)];
} flat_route_buffer;

static const struct route *
flat_route(const core_actor *src, const core_actor *dst)
{
    struct route *r = &flat_route_buffer.route;
    struct core_link links[2];
    r->n = (guint32)core_route_flat(src->host, dst->host, links, &r->latency);
    for (guint32 i = 0; i < r->n; i++)
        r->links[i] = link_of(&links[i]);
    r->nback = 0;
    if (own.net.crosstraffic) {
        double back_latency;
        r->nback = (guint32)core_route_flat(dst->host, src->host, links, &back_latency);
        for (guint32 i = 0; i < r->nback; i++)
            r->links[r->n + i] = link_of(&links[i]);
    }
    return r;
}

/* The route of a transfer, valid until the next call. */
static const struct route *
route_of(core_actor *src, const core_actor *dst)
{
    if (own.flat)
        return flat_route(src, dst);
    if (src->last_route_to != dst->where) {
        src->last_route = route_lookup(src, dst);
        src->last_route_to = dst->where;
    }
    return src->last_route;
}

/* ---------------------------------------------------------------- the scheduler */

static void actor_main(transfer_t t);

static void stack_bring(core_actor *actor);

static void
switch_to_actor(core_actor *actor)
{
    if (own.shared)
        stack_bring(actor);
    own.running = actor;
#ifdef CORE_ASAN
    __sanitizer_start_switch_fiber(&own.scheduler_fake_stack, actor->stack, actor->stack_bytes);
#endif
    transfer_t t = jump_fcontext(actor->context, actor);
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(own.scheduler_fake_stack, NULL, NULL);
#endif
    /* back on the scheduler's stack: the actor stopped at t.fctx (or ended) */
    core_actor *stopped = t.data;
    if (stopped != NULL)
        stopped->context = t.fctx;
    own.running = NULL;
}

/* The calling actor stops; it goes on when the scheduler switches to it again. */
static void
suspend(void)
{
    core_actor *me = own.running;
#ifdef CORE_ASAN
    __sanitizer_start_switch_fiber(&me->fake_stack, own.scheduler_bottom, own.scheduler_size);
#endif
    transfer_t t = jump_fcontext(own.scheduler, me);
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(me->fake_stack, &own.scheduler_bottom, &own.scheduler_size);
#endif
    own.scheduler = t.fctx;
}

static void
make_ready(core_actor *actor)
{
    actor->next_ready = NULL;
    if (own.to_run_tail != NULL)
        own.to_run_tail->next_ready = actor;
    else
        own.to_run = actor;
    own.to_run_tail = actor;
}

/* An operation SimGrid answers at once: the actor runs again in the next round. */
static void
yield_answered(void)
{
    make_ready(own.running);
    suspend();
}

/* An operation that blocks until answer(), unless answer() came already. */
static void
block(enum block_kind kind)
{
    core_actor *me = own.running;
    if (!me->answered)
        me->blocked = kind;
    suspend();
    me->answered = FALSE;
}

static void
answer(core_actor *actor, ssize_t value)
{
    actor->blocked = BLOCK_NONE;
    actor->answered = TRUE;
    actor->answer = value;
    make_ready(actor);
}

/* ---------------------------------------------------------------- activity lists */

static void
activity_add(core_actor *actor, struct activity_link *link)
{
    link->actor = actor;
    DLIST_APPEND(actor->activities, actor->activities_tail, link, prev, next);
}

static void
activity_remove(struct activity_link *link)
{
    if (link->actor == NULL)
        return;
    DLIST_UNLINK(link->actor->activities, link->actor->activities_tail, link, prev, next);
    link->actor = NULL;
}

/* ---------------------------------------------------------------- transfers */

/* Transfers are made and dropped at the rate of messages: a free list of them, chained
 * through their `forward` field (unused while free). */
static core_comm *free_comms;

static core_comm *
comm_new(void)
{
    core_comm *comm = free_comms;
    if (comm != NULL) {
        free_comms = comm->forward;
        memset(comm, 0, sizeof *comm);
    } else {
        comm = g_new0(core_comm, 1);
    }
    comm->kind = EVENT_COMM;
    comm->refs = 1;
    comm->src_link.comm = comm;
    comm->dst_link.comm = comm;
    return comm;
}

static void
comm_unref(core_comm *comm)
{
    if (--comm->refs > 0)
        return;
    g_assert(comm->waiters_head == NULL && comm->action == NULL);
    activity_remove(&comm->src_link);
    activity_remove(&comm->dst_link);
    if (comm->forward != NULL)
        comm_unref(comm->forward);
    comm->forward = free_comms;
    free_comms = comm;
}

/* The transfer a handle stands for. */
static core_comm *
resolve(core_comm *handle)
{
    return handle->forward != NULL ? handle->forward : handle;
}

/* Both sides are known: the bytes start to flow (SimGrid's CommImpl::start). */
static void
comm_start_flow(core_comm *comm)
{
    const struct route *r = route_of(comm->src, comm->dst);
    comm->state = COMM_RUNNING;
    comm->refs++; /* the action's */
    comm->action = model_flow_start(own.sys, own.now, r->links, r->n, r->links + r->n, r->nback,
                                    r->latency, (double)comm->bytes, comm);
}

static void
waiter_unlink(struct waiter *w)
{
    core_comm *comm = w->comm;
    DLIST_UNLINK(comm->waiters_head, comm->waiters_tail, w, prev, next);
}

/* The actor's wait is over: leave every transfer it was registered on, drop its timer (as
 * SimGrid removes a wait's timeout from its heap when the wait ends otherwise). */
static void
waits_clear(core_actor *actor)
{
    for (gsize i = 0; i < actor->nwaits; i++)
        waiter_unlink(&actor->waits[i]);
    actor->nwaits = 0;
    if (actor->timer != NULL) {
        timer_heap_erase(own.timers, actor->timer);
        actor->timer = NULL;
    }
}

/* A transfer reached its end: hand over the payload, answer the waiters in the order they
 * registered (SimGrid's CommImpl::finish). */
static void
comm_finish(core_comm *comm)
{
    if (comm->state == COMM_DONE && comm->dst_payload != NULL)
        *comm->dst_payload = comm->src_payload;
    while (comm->waiters_head != NULL) {
        struct waiter *w = comm->waiters_head;
        core_actor *actor = w->actor;
        ssize_t index = w->index;
        waits_clear(actor);
        /* the waiter waited for it to its end: it leaves the waiter's activity list */
        if (comm->src_link.actor == actor)
            activity_remove(&comm->src_link);
        if (comm->dst_link.actor == actor)
            activity_remove(&comm->dst_link);
        answer(actor, index);
    }
}

/* SimGrid frees the sleep a waiter blocked in, as the awaited action ends (before the
 * answers): the sender's first, then the receiver's. */
static void
detector_drop(core_actor *actor)
{
    if (actor != NULL && actor->detector != NULL) {
        model_action_free(own.sys, actor->detector);
        actor->detector = NULL;
    }
}

static void
comm_flow_done(core_comm *comm)
{
    comm->action = NULL;
    if (comm->state == COMM_RUNNING)
        comm->state = COMM_DONE;
    for (struct waiter *w = comm->waiters_head; w != NULL; w = w->next)
        if (w->actor == comm->src && w->actor->nwaits == 1)
            detector_drop(w->actor);
    for (struct waiter *w = comm->waiters_head; w != NULL; w = w->next)
        if (w->actor == comm->dst && w->actor->nwaits == 1)
            detector_drop(w->actor);
    comm->refs++;     /* keep it through the answers */
    comm_unref(comm); /* the action's */
    comm_finish(comm);
    comm_unref(comm);
}

/* A mailbox's two lists of transfers, oldest first. */
static void
mailbox_append(core_mailbox *mbox, core_comm *comm, gboolean done)
{
    if (done)
        DLIST_APPEND(mbox->done_head, mbox->done_tail, comm, queue_prev, queue_next);
    else
        DLIST_APPEND(mbox->queue_head, mbox->queue_tail, comm, queue_prev, queue_next);
    comm->queued = done ? QUEUED_DONE : QUEUED_WAITING;
}

static void
mailbox_unlink(core_mailbox *mbox, core_comm *comm)
{
    if (comm->queued == QUEUED_DONE)
        DLIST_UNLINK(mbox->done_head, mbox->done_tail, comm, queue_prev, queue_next);
    else
        DLIST_UNLINK(mbox->queue_head, mbox->queue_tail, comm, queue_prev, queue_next);
    comm->queued = QUEUED_NOWHERE;
}

/* Cancel an unfinished transfer (its poster ended): out of its mailbox, or its flow stopped.
 * A stopped flow stays on its links until the round is over, when SimGrid handles its failed
 * action as an ended one (handle_ended: its waiters are answered then). */
static void
comm_cancel(core_comm *comm)
{
    if (comm->state == COMM_WAITING && comm->mbox != NULL) {
        if (comm->queued == QUEUED_WAITING) {
            mailbox_unlink(comm->mbox, comm);
            comm_unref(comm); /* the queue's */
        }
        comm->mbox = NULL;
        comm->state = COMM_FAILED;
    } else if (comm->state == COMM_RUNNING && comm->action != NULL) {
        model_action_cancel(own.sys, comm->action);
        comm->state = COMM_FAILED;
    }
}

/* SimGrid's CommImpl::isend on `mbox` for a transfer made by `me`: the transfer, with one
 * reference for the caller. */
/* A put or a get that found no partner waits in the mailbox's queue, which holds the transfer's
 * first reference, until the other side comes. */
static void
comm_queue_waiting(core_comm *comm, core_mailbox *mbox, gboolean is_send)
{
    comm->is_send = is_send;
    comm->mbox = mbox;
    comm->state = COMM_WAITING;
    mailbox_append(mbox, comm, FALSE);
}

static core_comm *
comm_send(core_actor *me, core_mailbox *mbox, void *payload, long bytes)
{
    core_comm *comm;
    core_comm *get = NULL;
    if (mbox->queue_head != NULL && !mbox->queue_head->is_send) {
        get = mbox->queue_head;
        mailbox_unlink(mbox, get);
    }
    if (get != NULL) {
        /* the oldest waiting get: one transfer for both; the queue's reference becomes
         * the sender's handle */
        comm = get;
        comm->mbox = NULL;
    } else {
        comm = comm_new();
        comm->refs++; /* the sender's handle */
        if (mbox->receiver != NULL) {
            comm->dst = mbox->receiver;
            mailbox_append(mbox, comm, TRUE); /* the list's (the first reference) */
        } else
            comm_queue_waiting(comm, mbox, TRUE);
    }
    comm->src = me;
    comm->src_payload = payload;
    comm->bytes = bytes;
    activity_add(me, &comm->src_link);
    if (comm->dst != NULL)
        comm_start_flow(comm);
    return comm;
}

/* ---------------------------------------------------------------- timers */

/* Fire the timers due at the clock, in the heap's order; TRUE if one fired. */
static gboolean
timers_fire(void)
{
    gboolean fired = FALSE;
    while (timer_heap_next(own.timers) >= 0 && own.now >= timer_heap_next(own.timers)) {
        core_actor *actor = timer_heap_pop(own.timers);
        actor->timer = NULL; /* popped: waits_clear must not erase it */
        fired = TRUE;
        waits_clear(actor);
        answer(actor, -1);
    }
    return fired;
}

/* ---------------------------------------------------------------- actors */

/*
 * Stacks come from mappings of STACKS_PER_MAP stacks each (one system call for many, and
 * one memory mapping where the kernel limits their number), each stack above its guard page
 * when guards are on. A stack is only paid for the pages its actor touches (MAP_NORESERVE),
 * and goes back to a free list when its actor ends.
 */
#define STACKS_PER_MAP 256

static GPtrArray *free_stacks; /* void *: the lowest address of a free stack's slot */

static void *
stack_take(gsize slot_bytes, gsize guard)
{
    if (free_stacks == NULL)
        free_stacks = g_ptr_array_new();
    if (free_stacks->len == 0) {
        char *map = core_stacks_map(slot_bytes, STACKS_PER_MAP, free_stacks, "actor stacks");
        if (guard > 0) {
            static void *guards[STACKS_PER_MAP]; /* not on the stack: an actor may be here */
            for (gsize i = 0; i < STACKS_PER_MAP; i++)
                guards[i] = map + i * slot_bytes; /* stacks grow down, onto the guard */
            core_pages_guard_each(guards, STACKS_PER_MAP, guard);
        }
    }
    return g_ptr_array_steal_index(free_stacks, free_stacks->len - 1);
}

/*
 * Every actor writes its stack's top page at once (make_fcontext, then its first frames): the
 * top pages of up to STACKS_BATCH new actors are asked of the kernel in one call, then their
 * contexts made, before any of them runs (page_batch.h: on the development VM a fault costs
 * 12-20 µs, a page asked for 1 µs and its first write 6-12 µs).
 */
static void
actors_make_contexts(void)
{
    if (own.n_unmade == 0)
        return;
    core_pages_populate_each(unmade_pages, own.n_unmade, (gsize)sysconf(_SC_PAGESIZE));
    for (guint i = 0; i < own.n_unmade; i++) {
        core_actor *actor = unmade[i];
        actor->context = make_fcontext((char *)actor->stack + actor->stack_bytes,
                                       actor->stack_bytes, actor_main);
    }
    own.n_unmade = 0;
}

static void
actor_context_later(core_actor *actor, gsize page)
{
    if (own.n_unmade == STACKS_BATCH)
        actors_make_contexts();
    unmade_pages[own.n_unmade] = (char *)actor->stack + actor->stack_bytes - page;
    unmade[own.n_unmade++] = actor;
}

/* A zeroed actor record, from blocks whose pages are asked for at once. Records are never
 * given back: the run's end reads them all (own.actors). */
static core_actor *
actor_record_new(void)
{
    if (own.actor_block_left == 0) {
        own.actor_block = core_alloc_populated(ACTORS_PER_BLOCK * sizeof(core_actor));
        own.actor_block_left = ACTORS_PER_BLOCK;
    }
    own.actor_block_left--;
    core_actor *actor = own.actor_block++;
    memset(actor, 0, sizeof *actor);
    return actor;
}

/*
 * An actor's first stops are shallow (its start, about 200 bytes), its later ones in an MPI
 * call deeper (1.2 to 1.7 KiB in a collective) and of a few sizes. Shallow images come from
 * malloc, which reuses them for other records once their actors grow; deeper ones, with room
 * for a few frames more, from blocks of IMAGE_BLOCK bytes carved in sizes of IMAGE_GRAIN, each
 * size with its free list (a broadcast at 2^18 ranks spent 12 % of its time in malloc with
 * every image from it, 9 % so).
 */
#define IMAGE_GRAIN 64
#define IMAGE_SHALLOW 512   /* and less: from malloc */
#define IMAGE_ROOM 128      /* above a deeper image's size */
#define IMAGE_SIZES 128     /* images of up to 8 KiB from the blocks; larger ones from malloc */
#define IMAGE_BLOCK ((gsize)1 << 20)

static struct {
    char *bump;
    gsize left;
    void *free[IMAGE_SIZES]; /* each free image holds the next in its first bytes */
    GPtrArray *blocks;
} images;

static char *
image_take(gsize bytes, guint32 *cap)
{
    if (bytes <= IMAGE_SHALLOW) {
        *cap = (guint32)bytes;
        return g_malloc(bytes);
    }
    gsize size = (bytes + IMAGE_ROOM + IMAGE_GRAIN - 1) / IMAGE_GRAIN;
    *cap = (guint32)(size * IMAGE_GRAIN);
    if (size > IMAGE_SIZES)
        return g_malloc(*cap);
    char *image = images.free[size - 1];
    if (image != NULL) {
        images.free[size - 1] = *(void **)image;
        return image;
    }
    if (images.left < *cap) {
        if (images.blocks == NULL)
            images.blocks = g_ptr_array_new_with_free_func(g_free);
        images.bump = g_malloc(IMAGE_BLOCK);
        images.left = IMAGE_BLOCK;
        g_ptr_array_add(images.blocks, images.bump);
    }
    image = images.bump;
    images.bump += *cap;
    images.left -= *cap;
    return image;
}

static void
image_give(char *image, guint32 cap)
{
    gsize size = cap / IMAGE_GRAIN;
    if (image == NULL)
        return;
    if (cap <= IMAGE_SHALLOW || size > IMAGE_SIZES) {
        g_free(image);
        return;
    }
    *(void **)image = images.free[size - 1];
    images.free[size - 1] = image;
}

static void
images_free_all(void)
{
    if (images.blocks != NULL)
        g_ptr_array_free(images.blocks, TRUE);
    memset(&images, 0, sizeof images);
}

/*
 * Shared stacks: every actor runs on one stack. When another actor's turn comes, the frames of
 * the one on the stack are copied aside (its image: the stack from where it stopped up to the
 * top, 1.2 to 1.7 KiB for a rank in a collective call) and the next one's image is copied back to
 * the same addresses, which is all its saved context refers to. A stopped actor then costs the
 * bytes its frames take, not a page of its own, and each actor may use the whole stack, above
 * its guard page, whatever the number of actors. Copies are made only when another actor
 * needs the stack: an actor that runs twice in a row is not copied.
 *
 * While an actor is stopped, what its frames hold is not at its address: the transport
 * reaches it through core_actor_memory.
 */
static void
image_save(core_actor *actor)
{
    const char *low = (const char *)actor->context;
    if (low < own.shared_low || low >= own.shared_top)
        low = actor->left_at; /* it stopped on a stack of its own making (core_stack_left) */
    g_assert(low >= own.shared_low && low < own.shared_top);
    gsize bytes = (gsize)(own.shared_top - low);
    if (bytes > actor->image_cap) {
        image_give(actor->image, actor->image_cap);
        actor->image = image_take(bytes, &actor->image_cap);
    }
    memcpy(actor->image, low, bytes);
    actor->image_bytes = (guint32)bytes;
}

static void
stack_bring(core_actor *actor)
{
    if (own.on_stack == actor)
        return;
    if (own.on_stack != NULL)
        image_save(own.on_stack);
    own.on_stack = actor;
    if (actor->context == NULL) {
        actor->context = make_fcontext(own.shared_top, own.stack_bytes, actor_main);
    } else {
        CORE_STACK_WRITABLE(own.shared_top - actor->image_bytes, actor->image_bytes);
        memcpy(own.shared_top - actor->image_bytes, actor->image, actor->image_bytes);
    }
}

/* The shared stack has a guard page at each end: below, for an overflow; above, for a read
 * past the top (a count too large for a local variable of main), which must fault whatever
 * the kernel mapped next to it, so that the rank's report says so every time (without it,
 * the run went on with garbage about one run in six, when another mapping lay above). */
static void
shared_stack_map(void)
{
    gsize page = (gsize)sysconf(_SC_PAGESIZE);
    char *map = mmap(NULL, own.stack_bytes + 2 * page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED || mprotect(map, page, PROT_NONE) != 0 ||
        mprotect(map + page + own.stack_bytes, page, PROT_NONE) != 0) {
        fprintf(stderr, "collsim: cannot map the actors' stack (%" G_GSIZE_FORMAT " bytes)\n",
                own.stack_bytes + 2 * page);
        _exit(1);
    }
    own.shared_low = map + page;
    own.shared_top = own.shared_low + own.stack_bytes;
    own.shared_valgrind = CORE_STACK_REGISTER(own.shared_low, own.shared_top);
}

/* The shared stack and every image go back (a run's end, or a run set up and never run). */
static void
shared_stack_release(void)
{
    if (own.shared_low != NULL) {
        gsize page = (gsize)sysconf(_SC_PAGESIZE);
        CORE_STACK_DEREGISTER(own.shared_valgrind);
        munmap(own.shared_low - page, own.stack_bytes + 2 * page);
        own.shared_low = own.shared_top = NULL;
    }
    images_free_all();
}

static void *
own_actor_memory(core_actor *owner, void *addr, gsize bytes)
{
    guintptr a = (guintptr)addr;
    if (owner == own.on_stack || bytes == 0 ||
        a >= (guintptr)own.shared_top || a + bytes <= (guintptr)own.shared_low)
        return addr;
    guintptr low = (guintptr)own.shared_top - owner->image_bytes;
    if (a < low || a + bytes > (guintptr)own.shared_top)
        return NULL;
    return owner->image + (a - low);
}

static gboolean
own_shared_stack_overlaps(const void *addr, gsize bytes)
{
    guintptr a = (guintptr)addr;
    return bytes > 0 && a < (guintptr)own.shared_top &&
           a + bytes > (guintptr)own.shared_low;
}

static void
own_stack_left(const void *resumer)
{
    own.running->left_at = resumer;
}

static void
actor_free_stack(core_actor *actor)
{
    if (own.shared) {
        if (own.on_stack == actor)
            own.on_stack = NULL;
        image_give(actor->image, actor->image_cap);
        actor->image = NULL;
        actor->image_bytes = actor->image_cap = 0;
        return;
    }
    if (actor->context == NULL && actor->stack_map != NULL)
        actors_make_contexts(); /* ended before it ever ran: no batch may name its stack */
    if (actor->stack_map != NULL) {
        CORE_STACK_DEREGISTER(actor->valgrind_stack);
        g_ptr_array_add(free_stacks, actor->stack_map);
    }
    actor->stack_map = NULL;
}

/* What SimGrid 3.32 does when an actor ends: its unwaited transfers are cancelled, oldest
 * first (a running flow is then freed after the round, in that order: comm_cancel). (Its
 * mailboxes keep it as their permanent receiver: SimGrid never records them in the actor's
 * list, so what is put into them still flows to its host.) */
static void
actor_cleanup(core_actor *actor)
{
    actor->ended = TRUE;
    own.live--;
    if (actor->daemon)
        own.daemons--;
    while (actor->activities != NULL) {
        struct activity_link *link = actor->activities;
        core_comm *comm = link->comm;
        activity_remove(link);
        comm->refs++;
        comm_cancel(comm);
        comm_unref(comm);
    }
}

static void
actor_main(transfer_t t)
{
    own.scheduler = t.fctx;
    core_actor *me = t.data;
#ifdef CORE_ASAN
    __sanitizer_finish_switch_fiber(NULL, &own.scheduler_bottom, &own.scheduler_size);
#endif
    me->fn(me->data);
    actor_cleanup(me);
    /* never resumed: the scheduler frees the stack once it is off it */
#ifdef CORE_ASAN
    __sanitizer_start_switch_fiber(NULL, own.scheduler_bottom, own.scheduler_size);
#endif
    jump_fcontext(own.scheduler, NULL);
    g_assert_not_reached();
}

static core_actor *
own_actor_create(const char *name, core_host *host, void (*fn)(void *), void *data)
{
    (void)name;
    core_actor *actor = actor_record_new();
    actor->kind = EVENT_ACTOR;
    actor->fn = fn;
    actor->data = data;
    actor->host = host;
    actor->where = host_state_of(host);
    actor->cpu = actor->where->cpu;
    actor->stack_bytes = own.stack_bytes;
    if (own.shared) {
        /* its context is made on the stack when it first runs (stack_bring) */
        actor->stack = own.shared_low;
    } else {
        gsize page = (gsize)sysconf(_SC_PAGESIZE);
        gsize guard = own.guard ? page : 0;
        actor->stack_map = stack_take(actor->stack_bytes + guard, guard);
        actor->stack = (char *)actor->stack_map + guard;
        actor->valgrind_stack =
            CORE_STACK_REGISTER(actor->stack, (char *)actor->stack + actor->stack_bytes);
        actor_context_later(actor, page);
    }
    g_ptr_array_add(own.actors, actor);
    own.live++;
    make_ready(actor);
    return actor;
}

/* The finished model actions answer what waited for them: CPU model first, then network.
 * SimGrid does this after every round of its actors as well as after each clock step: an
 * action can end without the clock moving (a flow found with nothing left when its receiver
 * reads its remains). */
static void
handle_ended(void)
{
    void *data;
    while ((data = model_pop_finished(own.sys)) != NULL) {
        if (*(enum event_kind *)data == EVENT_COMM) {
            comm_flow_done(data);
            continue;
        }
        core_actor *actor = data;
        actor->action = NULL;
        detector_drop(actor);
        if (actor->blocked == BLOCK_COND) {
            /* a condition's timeout */
            g_queue_remove(&actor->cond->sleeping, actor);
            actor->cond = NULL;
            answer(actor, 1);
        } else {
            answer(actor, 0);
        }
    }
}

/*
 * Ask the memory for what the next switches will read first, while the actor before runs.
 * With thousands of ranks nothing of a stopped actor is in the caches any more, and each
 * switch stalled on it. The actor asked for is the one after `actor`, two switches ahead,
 * with the record of the one after it, so that reading `later`'s fields here does not stall
 * either (an 8-byte ring on the shared stack at P = 16384, 50 laps: 1.97 to 1.99 s two
 * switches ahead, 1.95 to 2.01 one ahead, 2.04 to 2.07 three ahead, 2.09 to 2.13 four; at
 * 65536, 40 laps: 6.88 to 6.89 s two ahead, 6.86 one ahead; runs in turn).
 *
 * What is asked for is what its switch reads: on the shared stack, its image, which the switch
 * copies back; on a stack of its own, its frames from where it stopped (fcontext's saved
 * registers first), 512 bytes of them: the frames of a rank stopped in an MPI call that it
 * returns through (an 8-byte ring at P = 16384 with a stack each, 50 laps: 2.04 to 2.12 s with
 * 512 bytes, 2.13 to 2.18 with 1 KiB, 2.76 to 2.80 with the registers alone; at 65536, 20
 * laps: 3.65 to 3.77 s, 3.75 to 3.86 with 768 bytes, 3.96 with 256, 4.73 with the registers).
 * And, to be written, the 256 bytes below where it stopped: the frames of what it calls once
 * resumed (sim_after_yield and the switch of its globals) went there, each store a miss (the
 * same ring at 16384: 1.81 to 1.88 s against 2.05 to 2.10 without, 2.01 to 2.06 with 512
 * bytes; at 65536: 3.38 to 3.40 s against 3.60 to 3.69). A rank of the shared stack that
 * stopped inside a flow (a nonblocking collective, sim/engine/flow.h) resumes on that flow's
 * own stack: its frames there are asked for the same way (with flow.c's own prefetch when the
 * rank resumes a flow, 8 Ibarriers in flight at P = 4096: 2.79 to 2.99 s against 3.34 to 3.58;
 * at 16384, 14.4 to 14.7 s against 16.4 to 16.7).
 *
 * Always inlined: a function that only prefetches has no effect GCC must keep, and at -O2 its
 * interprocedural analysis found prefetch_actor pure and deleted the call once the function
 * was no longer inlined into its caller, so that no prefetch was made at all (the shared-stack
 * ring above at 16384 ranks: 2.40 to 2.59 s then, 1.95 to 2.01 s since).
 */
static inline __attribute__((always_inline)) void
prefetch_actor(const core_actor *actor)
{
    const core_actor *later = actor->next_ready;
    if (later == NULL)
        return;
    const char *frames = (const char *)later->context;
    const char *top = NULL;
    if (own.shared) {
        /* its image (the first 4 KiB: more is a large local array) */
        for (guint32 at = 0; at < later->image_bytes && at < 4096; at += 64)
            __builtin_prefetch(later->image + at);
        __builtin_prefetch(later->data);
        /* stopped in a flow (a nonblocking collective's own stack, flow.h): it resumes there */
        if (frames != NULL && (frames < own.shared_low || frames >= own.shared_top))
            top = frames + 512;
    } else if (frames != NULL) {
        top = (const char *)later->stack + later->stack_bytes;
    }
    if (top != NULL)
        core_prefetch_frames(frames, top);
    if (later->next_ready != NULL)
        __builtin_prefetch(later->next_ready);
}

static void execute_turn(core_actor *actor);

/* Run every ready actor, round after round, until none is ready. */
static void
run_rounds(void)
{
    while (own.to_run != NULL) {
        actors_make_contexts();
        core_actor *next = own.to_run;
        own.to_run = own.to_run_tail = NULL;
        while (next != NULL) {
            core_actor *actor = next;
            next = actor->next_ready; /* read first: running it may make it ready again */
            if (actor->ended)
                continue;
            if (actor->exec_turns > 0) {
                execute_turn(actor);
                continue;
            }
            if (next != NULL)
                prefetch_actor(next);
            switch_to_actor(actor);
            if (actor->ended)
                actor_free_stack(actor);
        }
        handle_ended();
        /* SimGrid kills the daemons once they are the only actors left */
        if (own.live > 0 && own.live == own.daemons) {
            for (guint i = 0; i < own.actors->len; i++) {
                core_actor *d = g_ptr_array_index(own.actors, i);
                if (d->ended)
                    continue;
                if (d->action != NULL) {
                    model_action_free(own.sys, d->action);
                    d->action = NULL;
                }
                detector_drop(d);
                d->exec_turns = 0;
                if (d->blocked == BLOCK_COND && d->cond != NULL)
                    g_queue_remove(&d->cond->sleeping, d);
                waits_clear(d);
                actor_cleanup(d);
                actor_free_stack(d);
            }
            own.to_run = own.to_run_tail = NULL;
        }
    }
}

static void
own_run(void)
{
    double elapsed;
    do {
        run_rounds();
        double timer = timer_heap_next(own.timers);
        double delta = timer >= 0 ? timer - own.now : -1.0;
        double next = model_next(own.sys, own.now);
        if (next >= 0 && (delta < 0 || next < delta))
            delta = next;
        if (delta < 0) {
            elapsed = -1.0;
        } else {
            own.now += delta;
            core_trace_step(own.now, delta);
            model_advance(own.sys, own.now, delta);
            elapsed = delta;
        }
        gboolean again;
        do {
            again = timers_fire();
            handle_ended();
        } while (again);
    } while (elapsed > -1.0 || own.to_run != NULL);
    /* what is left is blocked forever (a deadlock the engine reports) or ended */
    for (guint i = 0; i < own.actors->len; i++)
        actor_free_stack(g_ptr_array_index(own.actors, i));
    shared_stack_release();
}

/* ---------------------------------------------------------------- the core's operations */

static gsize
own_setup(gsize stack_bytes, gboolean share_stack)
{
    shared_stack_release();
    memset(&own, 0, sizeof own);
    own.ready = TRUE;
    read_network_config();
    own.sys = model_sys_new(&own.net);
    gsize page = (gsize)sysconf(_SC_PAGESIZE);
    own.stack_bytes = (MAX(stack_bytes, CORE_OWN_MIN_STACK_BYTES) + page - 1) / page * page;
    own.guard = core_cfg_int("contexts/guard-size") > 0;
    own.shared = share_stack; /* only where core_stack_sharing_available (core.c) */
    if (own.shared)
        shared_stack_map();
    own.actors = g_ptr_array_new();
    own.mailboxes = g_hash_table_new(g_str_hash, g_str_equal);
    own.links = g_hash_table_new(g_direct_hash, g_direct_equal);
    own.hosts = g_new0(struct host_state, core_host_count());
    own.routes = g_hash_table_new_full(route_key_hash, NULL, NULL, g_free);
    own.flat = core_platform_is_flat();
    if (own.flat) /* calloc: the pages of hosts that never send are never touched */
        own.flat_links = g_new0(model_link *, core_flat_link_id_bound());
    own.timers = timer_heap_new();
    return own.stack_bytes;
}

static double
own_clock(void)
{
    return own.now;
}

static core_actor *
own_self(void)
{
    return own.running;
}

static void *
own_self_data(void)
{
    return own.running != NULL ? own.running->data : NULL;
}

static void
own_daemonize(void)
{
    core_actor *me = own.running;
    if (!me->daemon) {
        me->daemon = TRUE;
        own.daemons++;
    }
    yield_answered();
}

static void
own_exit(void)
{
    core_actor *me = own.running;
    actor_cleanup(me);
#ifdef CORE_ASAN
    __sanitizer_start_switch_fiber(NULL, own.scheduler_bottom, own.scheduler_size);
#endif
    jump_fcontext(own.scheduler, NULL);
    g_assert_not_reached();
}

static void
sleep_action(core_actor *me, double seconds)
{
    me->action = model_sleep_start(own.sys, own.now, me->cpu, seconds, me);
    block(BLOCK_SLEEP);
}

static void
own_sleep_for(double seconds)
{
    if (seconds <= 0)
        return; /* no simcall in SimGrid either */
    sleep_action(own.running, seconds);
}

static void
own_sleep_until(double date)
{
    if (date > own.now)
        own_sleep_for(date - own.now);
}

static void
own_yield(void)
{
    yield_answered();
}

/*
 * SimGrid's this_actor::execute: three setters (flops, host, priority) are a simcall each,
 * then the start, then the wait, which leaves a detector on the CPU: five turns of the actor,
 * in five rounds. The actor itself only needs the last: the scheduler plays the four before on
 * its turns (execute_turn), so that every model call comes in the same place of the same round
 * as if it had run them, without the four switches to it and back (on the shared stack, eight
 * copies of its frames: a reduction's operator charged at each step made a Scan of 8 bytes at
 * P = 16384 take 2.6 times a Barrier's wall time).
 */
static void
own_execute(double flops)
{
    core_actor *me = own.running;
    me->exec_flops = flops;
    me->exec_turns = 4;
    make_ready(me); /* the first setter's simcall, answered at once */
    suspend();
    me->answered = FALSE;
}

/* One of own_execute's turns after the first, played on the actor's behalf. */
static void
execute_turn(core_actor *actor)
{
    int turn = actor->exec_turns--;
    if (turn == 1) {
        actor->detector = model_wait_start(own.sys, own.now, actor->cpu);
        if (!actor->answered)
            actor->blocked = BLOCK_SLEEP;
        return;
    }
    if (turn == 2)
        actor->action = model_exec_start(own.sys, own.now, actor->cpu, actor->exec_flops, actor);
    make_ready(actor); /* a setter's or the start's simcall, answered at once */
}

static core_mailbox *
own_by_name(const char *name)
{
    core_mailbox *mbox = g_hash_table_lookup(own.mailboxes, name);
    if (mbox == NULL) {
        mbox = g_new0(core_mailbox, 1);
        mbox->name = g_strdup(name);
        g_hash_table_insert(own.mailboxes, mbox->name, mbox);
    }
    if (own.running != NULL)
        yield_answered();
    return mbox;
}

static void
own_set_receiver(const char *name)
{
    core_mailbox *mbox = own_by_name(name);
    core_actor *me = own.running;
    mbox->receiver = me;
    yield_answered();
}

static core_comm *
own_put_async(core_mailbox *mbox, void *payload, long bytes)
{
    core_comm *comm = comm_send(own.running, mbox, payload, bytes);
    yield_answered();
    return comm;
}

static core_comm *
own_put_init(core_mailbox *mbox, void *payload, long bytes)
{
    core_comm *comm = comm_new();
    comm->state = COMM_INITED;
    comm->mbox = mbox;
    comm->src = own.running; /* whoever starts it, it leaves from the preparer's host */
    comm->src_payload = payload;
    comm->bytes = bytes;
    return comm;
}

static core_comm *
own_get_async(core_mailbox *mbox, void **payload)
{
    core_actor *me = own.running;
    core_comm *comm = NULL;
    gboolean listed = TRUE; /* it goes to my activity list */
    if (mbox->receiver != NULL && mbox->done_head != NULL) {
        /* the oldest put already started for the permanent receiver; the queue's reference
         * becomes my handle. SimGrid's irecv reads what remains of its flow, which brings the
         * flow's lazy progress up to now (model_action_remains), and takes a flow with less
         * than 1e-12 bytes left as done, without listing it among my activities */
        comm = mbox->done_head;
        mailbox_unlink(mbox, comm);
        if (comm->action != NULL && model_action_remains(own.sys, comm->action, own.now) < 1e-12) {
            comm->state = COMM_DONE;
            listed = FALSE;
        }
    } else if (mbox->queue_head != NULL && mbox->queue_head->is_send) {
        comm = mbox->queue_head;
        mailbox_unlink(mbox, comm);
        comm->mbox = NULL;
        comm->dst = me;
        comm_start_flow(comm);
    } else {
        comm = comm_new();
        comm->refs++; /* my handle; the first is the queue's */
        comm_queue_waiting(comm, mbox, FALSE);
    }
    comm->dst = me;
    comm->dst_payload = payload;
    if (comm->state == COMM_DONE && payload != NULL)
        *payload = comm->src_payload;
    if (listed)
        activity_add(me, &comm->dst_link);
    yield_answered();
    return comm;
}

static gboolean
comm_over(const core_comm *comm)
{
    return comm->state == COMM_DONE || comm->state == COMM_FAILED;
}

/* The waiter saw the transfer end: it leaves its activity list, and its handle goes. */
static void
comm_seen_over(core_actor *me, core_comm *comm)
{
    if (comm->src_link.actor == me)
        activity_remove(&comm->src_link);
    if (comm->dst_link.actor == me)
        activity_remove(&comm->dst_link);
    if (comm->dst == me && comm->dst_payload != NULL && comm->state == COMM_DONE)
        *comm->dst_payload = comm->src_payload;
}

/* A prepared put starts (SimGrid's Comm::start): the handle forwards to its transfer. */
static void
comm_start_prepared(core_comm *handle)
{
    handle->forward = comm_send(handle->src, handle->mbox, handle->src_payload, handle->bytes);
    handle->mbox = NULL;
    handle->state = COMM_RUNNING;
}

static int
own_test(core_comm *handle)
{
    if (handle->state == COMM_INITED) {
        comm_start_prepared(handle);
        yield_answered();
    }
    core_comm *comm = resolve(handle);
    gboolean over = comm_over(comm);
    if (over)
        comm_seen_over(own.running, comm);
    yield_answered();
    if (over)
        comm_unref(handle);
    return over;
}

static void
register_wait(core_actor *me, core_comm **comms, size_t count)
{
    if (me->waits_cap < count) {
        g_free(me->waits);
        me->waits_cap = MAX(count, 2 * me->waits_cap);
        me->waits = g_new(struct waiter, me->waits_cap);
    }
    me->nwaits = count;
    for (size_t i = 0; i < count; i++) {
        struct waiter *w = &me->waits[i];
        core_comm *comm = resolve(comms[i]);
        w->comm = comm;
        w->actor = me;
        w->index = (ssize_t)i;
        DLIST_APPEND(comm->waiters_head, comm->waiters_tail, w, prev, next);
    }
}

/* Wait for the first of `count` transfers (SimGrid's wait_any: the first already over in
 * array order, else the first to end); `timeout` < 0: none. The index, or -1. */
static ssize_t
wait_first(core_comm **comms, size_t count, double timeout, gboolean detector)
{
    core_actor *me = own.running;
    ssize_t over = -1;
    for (size_t i = 0; i < count && over < 0; i++)
        if (comm_over(resolve(comms[i])))
            over = (ssize_t)i;
    if (over >= 0) {
        comm_seen_over(me, resolve(comms[over]));
        answer(me, over);
        block(BLOCK_COMM);
        return over;
    }
    register_wait(me, comms, count);
    if (timeout >= 0)
        me->timer = timer_heap_push(own.timers, own.now + timeout, me);
    if (detector)
        me->detector = model_wait_start(own.sys, own.now, me->cpu);
    block(BLOCK_COMM);
    if (me->answer >= 0)
        comm_seen_over(me, resolve(comms[me->answer]));
    return me->answer;
}

static void
own_wait(core_comm *handle)
{
    if (handle->state == COMM_INITED)
        comm_start_prepared(handle);    /* SimGrid starts and waits in one simcall */
    wait_first(&handle, 1, -1.0, TRUE); /* a wait for one transfer sleeps on its CPU too */
    comm_unref(handle);
}

static ssize_t
own_wait_any(core_comm **comms, size_t count)
{
    ssize_t index = wait_first(comms, count, -1.0, FALSE);
    if (index >= 0)
        comm_unref(comms[index]);
    return index;
}

static ssize_t
own_wait_any_until(core_comm **comms, size_t count, double timeout)
{
    ssize_t index = wait_first(comms, count, timeout, FALSE);
    if (index >= 0)
        comm_unref(comms[index]);
    return index;
}

static void
own_unref(core_comm *comm)
{
    comm_unref(comm);
}

/* ---- mutex, condition, barrier: what SimGrid's calls do, simcall for simcall */

static core_mutex *
own_mutex_new(void)
{
    core_mutex *mutex = g_new0(core_mutex, 1);
    g_queue_init(&mutex->acquisitions);
    return mutex;
}

/* SimGrid's MutexImpl::lock_async then wait: granted if free or already mine. */
static void
mutex_acquire(core_actor *me, core_mutex *mutex)
{
    if (mutex->owner == NULL)
        mutex->owner = me;
    else
        g_queue_push_tail(&mutex->acquisitions, me);
    if (mutex->owner == me)
        answer(me, 0);
    block(BLOCK_MUTEX);
}

static void
own_lock(core_mutex *mutex)
{
    mutex_acquire(own.running, mutex);
}

/* SimGrid's MutexImpl::unlock: the oldest acquisition gets it (even a stale one of the
 * owner's own, as a re-lock by its owner leaves behind), else it is free. */
static void
mutex_release(core_mutex *mutex)
{
    core_actor *next = g_queue_pop_head(&mutex->acquisitions);
    mutex->owner = next;
    if (next != NULL && next->blocked == BLOCK_MUTEX)
        answer(next, 0);
}

static core_cond *
own_cond_new(void)
{
    core_cond *cond = g_new0(core_cond, 1);
    g_queue_init(&cond->sleeping);
    if (own.running != NULL)
        yield_answered(); /* SimGrid creates it in a simcall */
    return cond;
}

static gboolean
cond_sleep(core_cond *cond, core_mutex *mutex, double timeout)
{
    core_actor *me = own.running;
    mutex_release(mutex);
    me->cond = cond;
    me->waited_mutex = mutex;
    if (timeout >= 0)
        me->action = model_sleep_start(own.sys, own.now, me->cpu, timeout, me);
    else
        me->detector = model_wait_start(own.sys, own.now, me->cpu);
    g_queue_push_tail(&cond->sleeping, me);
    block(BLOCK_COND);
    return me->answer != 0;
}

static void
own_cond_wait(core_cond *cond, core_mutex *mutex)
{
    cond_sleep(cond, mutex, -1.0);
}

static gboolean
own_cond_wait_for(core_cond *cond, core_mutex *mutex, double timeout)
{
    core_actor *me = own.running;
    /* sg_cond_wait_for locks the mutex it already holds (a unique_lock), waits, re-locks
     * after a timeout, and unlocks when the lock goes out of scope */
    mutex_acquire(me, mutex);
    gboolean timed_out = cond_sleep(cond, mutex, MAX(timeout, 0.0));
    if (timed_out)
        mutex_acquire(me, mutex);
    mutex_release(mutex);
    yield_answered();
    return timed_out;
}

static void
own_notify(core_cond *cond)
{
    core_actor *sleeper = g_queue_pop_head(&cond->sleeping);
    if (sleeper != NULL) {
        if (sleeper->action != NULL) {
            model_action_free(own.sys, sleeper->action);
            sleeper->action = NULL;
        }
        detector_drop(sleeper);
        sleeper->cond = NULL;
        /* its wait becomes a lock of the mutex (SimGrid's lock_async), granted at once: the
         * only actor that waits on a condition is the one that holds its mutex */
        core_mutex *mutex = sleeper->waited_mutex;
        if (mutex->owner == NULL)
            mutex->owner = sleeper;
        else
            g_queue_push_tail(&mutex->acquisitions, sleeper);
        answer(sleeper, 0);
    }
    yield_answered();
}

static core_barrier *
own_barrier_new(unsigned count)
{
    core_barrier *barrier = g_new0(core_barrier, 1);
    barrier->expected = count;
    barrier->arrived = g_ptr_array_new();
    return barrier;
}

static void
own_barrier_wait(core_barrier *barrier)
{
    core_actor *me = own.running;
    g_ptr_array_add(barrier->arrived, me);
    if (barrier->arrived->len == barrier->expected) {
        /* the earlier arrivals in arrival order, then the last one */
        for (guint i = 0; i + 1 < barrier->arrived->len; i++)
            answer(g_ptr_array_index(barrier->arrived, i), 0);
        g_ptr_array_set_size(barrier->arrived, 0);
        answer(me, 0);
    }
    block(BLOCK_BARRIER);
}

/* Only reads: a crash handler asks (core_running_stack). */
static gboolean
own_running_stack(const char **low, const char **top)
{
    const core_actor *actor = own.running;
    if (actor == NULL)
        return FALSE;
    if (own.shared) {
        *low = own.shared_low;
        *top = own.shared_top;
    } else {
        *low = actor->stack;
        *top = (const char *)actor->stack + actor->stack_bytes;
    }
    return TRUE;
}

const struct core_backend core_backend_own = {
    .setup = own_setup,
    .actor_memory = own_actor_memory,
    .stack_left = own_stack_left,
    .shared_stack_overlaps = own_shared_stack_overlaps,
    .running_stack = own_running_stack,
    .run = own_run,
    .clock = own_clock,
    .actor_create = own_actor_create,
    .actor_self = own_self,
    .actor_self_data = own_self_data,
    .actor_daemonize = own_daemonize,
    .actor_exit = own_exit,
    .sleep_for = own_sleep_for,
    .sleep_until = own_sleep_until,
    .yield = own_yield,
    .execute = own_execute,
    .mailbox_by_name = own_by_name,
    .mailbox_set_receiver = own_set_receiver,
    .put_async = own_put_async,
    .put_init = own_put_init,
    .get_async = own_get_async,
    .comm_test = own_test,
    .comm_wait = own_wait,
    .comm_wait_any = own_wait_any,
    .comm_wait_any_until = own_wait_any_until,
    .comm_unref = own_unref,
    .mutex_new = own_mutex_new,
    .mutex_lock = own_lock,
    .cond_new = own_cond_new,
    .cond_wait = own_cond_wait,
    .cond_wait_for = own_cond_wait_for,
    .cond_notify_one = own_notify,
    .barrier_new = own_barrier_new,
    .barrier_wait = own_barrier_wait,
};
