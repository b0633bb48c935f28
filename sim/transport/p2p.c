/*
 * p2p.c — MPI point-to-point communication on SimGrid mailboxes.
 *
 * Matching is done here, in shared memory, with MPI's rules: a send looks for the first
 * matching posted receive of its destination (context, source, tag), else joins the
 * destination's unexpected queue; a receive looks for the first matching unexpected message,
 * else joins the posted receives. Both are FIFO, so MPI's non-overtaking order holds. The
 * posted receives are kept per (context, source), wildcard sources apart, each stamped with
 * its posting order: the first match is the older of the first match in the sender's queue
 * and the first in the wildcard queue, found without walking the receives of other sources
 * (a linear alltoall posts P of them).
 *
 * SimGrid only moves bytes and tells time:
 *  - every message puts one transfer into its destination's inbox mailbox, whose permanent
 *    receiver is the destination, so the transfer flows at once: the whole message when it is
 *    eager (at most eager_threshold bytes), an empty envelope (the RTS) when it is not;
 *  - a rendezvous message's data waits in a pooled mailbox until its receiver, having seen
 *    the envelope and matched it, posts the get: data flows once the receive is posted.
 *
 * Inbox pairing invariant: SimGrid pairs the k-th get on a mailbox with the k-th put into it
 * (a put finds the oldest pending get, or queues; a get takes the oldest queued put, or
 * waits). Senders and the receiver keep the same two FIFOs (`unfetched_head`,
 * `pending_gets_head`) and update them in the same scheduling slice as the SimGrid call, so every
 * get handle is known to belong to one message before it completes. A receiver therefore
 * waits on exactly the transfers its requests need, and is woken by the first of them.
 *
 * NICs: every host has two ports, its NIC for messages to other hosts and its memory bus for
 * messages between its own ranks, shared by the ranks it holds. A port starts messages one at
 * a time, oldest first, the next max(g, wire bytes / rate) after the previous one started
 * (LogGP's gap and per-byte gap), so back-to-back sends overlap their latencies while their
 * bytes follow each other. A message that finds its port busy waits in the port's queue,
 * prepared with core_put_init() by its sender; the scheduler actor starts it when the
 * port frees (see "NICs and the scheduler" below). The sender never touches a transfer the
 * scheduler is starting (`starting`): SimGrid would start it a second time.
 *
 * Leaving matching: a matched probe (MPI_Mprobe) takes a message out of its receiver's
 * unexpected queue into an MPI_Message, and MPI_Cancel takes out a send's message that no
 * receive has taken yet (or a receive no message has matched). A message out of the queue is
 * never seen by another receive or probe; a withdrawn one still lands (its transfer may be on
 * the wire) and is dropped there. A buffered send (MPI_Bsend) is eager whatever its size.
 *
 * All simulated ranks live in one process and SimGrid runs one actor at a time, so none of
 * this needs locks; every SimGrid call that may yield is followed by sim_after_yield().
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "mpi.h"
#include "sim/transport/wait_set.h"
#include "src/callsite.h"
#include "src/coll_check.h"
#include "src/comm.h"
#include "src/datatype.h"
#include "src/handles.h"
#include "src/op.h"
#include "src/errhandler.h"
#include "sim/core/core.h"
#include "sim/core/core_cfg.h"
#include "sim/core/dlist.h"
#include "sim/engine/flow.h"
#include "sim/engine/payload_scratch.h"
#include "sim/engine/rank.h"
#include "sim/trace/recorder.h"
#include "sim/transport/p2p_observe.h"

/* Tags at or below this are reserved for collsim's own traffic (see src/comm.c). */
#define P2P_TAG_UB MPI_TAG_UB_VALUE

/* REQ_COLL: a nonblocking collective, running on a flow of its owner (see "Nonblocking
 * collectives" below). */
/* REQ_ARRIVAL: a blocked MPI_Probe's wish to be woken when a message is queued for its rank
 * (complete once the rank's generation moves past `posted_order`), waited for together with
 * the rank's parked flows. */
/* REQ_GREQUEST: a generalized request (MPI-3.1 §12.2), complete once the program calls
 * MPI_Grequest_complete; see "Generalized requests" below. */
enum req_kind { REQ_SEND, REQ_RECV, REQ_COLL, REQ_PERSISTENT, REQ_ARRIVAL, REQ_GREQUEST };

/* A transfer a blocked rank may wait for, and what its completion means. */
enum wait_kind { WAIT_INBOX, WAIT_RV_GET, WAIT_PUT };

/* What a request waits for after an advance: nothing (it is complete), any new arrival into
 * the inbox (unmatched, or matched to a message still in its sender's queue), or one transfer.
 * NEED_UNKNOWN: not advanced yet by the current wait. */
enum need_kind { NEED_UNKNOWN, NEED_DONE, NEED_ARRIVALS, NEED_TRANSFER };

struct wait_need {
    enum need_kind kind;
    core_comm *comm;          /* NEED_TRANSFER: the transfer, its meaning, its subject */
    enum wait_kind wait;
    gpointer what;
};

struct sim_inbox_get {
    core_comm *comm;         /* NULL once completed and consumed */
    void *payload;
    struct sim_msg *msg;    /* NULL while pending (no put paired yet) */
    gboolean listed;        /* already in the wait set being built */
    struct sim_inbox_get *pending_next; /* in its rank's pending gets */
};

/* What travels through an inbox: an MPI message (or its rendezvous envelope), or the
 * clear-to-send a receiver returns for a rendezvous message it has matched. */
enum msg_kind { MSG_MPI, MSG_CTS };

struct sim_msg {
    enum msg_kind kind;
    guint32 context;
    int src_world;
    int src_local;          /* sender's rank in the communicator: status.MPI_SOURCE */
    int dst_world;
    int tag;
    int refs;
    int scount;             /* rendezvous: the sender's count (sbuf, stype below) */
    /* Flags, one byte each and together: a message in flight is 256 bytes, four cache lines
     * (320 and five with a word each). */
    bool eager;
    bool placed;            /* eager: the payload went straight into the receive it matched
                             * when sent (no packed copy) */
    bool inbox_arrived;
    bool landed_counted;    /* counted in its sender's unreaped_landed (reap_sent) */
    bool data_arrived;      /* rendezvous data transfer finished */
    bool delivered;
    bool carries_data;      /* payload mode data, or collsim's own traffic (always real) */
    bool announced;         /* its inbox transfer is on the wire (not queued at a port) */
    bool starting;          /* the scheduler is starting the transfer put_init() prepared: the
                             * sender must not touch `wire` (SimGrid would start it twice) */
    bool cts_arrived;       /* rendezvous: that clear-to-send has reached the sender */
    bool cancelled;         /* MPI_Cancel took it out of matching before any receive did */
    bool reaped;            /* its inbox transfer has landed and its sender has let it go */
    bool unexpected;        /* in its destination's unexpected messages (lists below) */
    bool reap_passed;       /* passed over, not landed, by a reaping walk of its sender's */
    gsize bytes;
    MPI_Datatype basic;     /* the send's basic type (predefined: never freed), NULL if mixed */
    struct sim_msg *of;     /* MSG_CTS: the rendezvous message it clears */
    void *data;             /* eager: packed copy of the payload (data mode): `small` up to
                             * its size, else allocated */
    guint8 small[16];       /* a small payload's copy (no allocation per 8-byte message) */
    const void *lent;       /* eager, sent inside MPI_Sendrecv: the sender's buffer, read in
                             * place until the receive matches or the call returns (lend) */
    const void *sbuf;       /* rendezvous: the sender's buffer, valid until its send completes */
    MPI_Datatype stype;
    struct collsim_request *sreq;   /* rendezvous sender's request */
    struct collsim_request *rreq;   /* the receive it matched, once matched */
    struct sim_inbox_get *inbox;    /* the destination's get of the inbox transfer */
    core_mailbox *rv_mbox;           /* rendezvous data mailbox until the get is posted */
    core_comm *rv_get;
    void *rv_payload;
    core_comm *wire;         /* its inbox transfer, held by the rank that sent it until reaped */
    struct sim_msg *cts;    /* rendezvous: the clear-to-send its receiver returned, once sent */
    guint64 serial;         /* MPI message: its number among all sent (found again by cancel) */
    /* while unexpected at its destination: its place in the destination's list of unexpected
     * messages and in the list of those from its source in its context */
    struct sim_msg *unx_prev, *unx_next;
    struct sim_msg *src_prev, *src_next;
    struct unexpected_bucket *unx_bucket;
    /* its place in its sender's unreaped messages, its destination's unfetched ones, its
     * port's waiting ones */
    struct sim_msg *unreaped_next, *unfetched_next, *port_next;
};

/* A live request starts with this (handles.h: every registered object begins with the magic
 * of its kind, so that a handle of another kind is told apart without reading past it). */
#define COLLSIM_REQUEST_MAGIC 0x52657175u /* "Requ" */

struct collsim_request {
    uint32_t magic;
    enum req_kind kind;
    gboolean complete;
    /* blocking wait bookkeeping (see transport_wait), in the first cache line with the flag
     * and the last advance's answer: a wake-up of a rank with W collectives in flight reads
     * those of W requests and nothing else of them */
    int wait_slot;           /* index in its owner's current blocking wait, or -1 */
    gboolean wait_due;       /* to be advanced again by that wait */
    enum need_kind wait_need; /* what its last advance in that wait left it waiting for */
    /* what its last advance anywhere found (a send or receive not complete), valid while
     * need_fresh: nothing it looks at has changed since (request_touch clears it) */
    gboolean need_fresh;
    struct wait_need last_need;
    gboolean user_freed;     /* MPI_Request_free called while active */
    int owner_world;
    MPI_Comm comm;
    guint32 context;
    MPI_Status status;
    struct sim_msg *msg;
    /* receive */
    void *buf;
    int count;
    MPI_Datatype dt;
    gsize arrived_bytes;     /* the size of the message it matched (above its room: truncated) */
    /* a receive: the basic type of the message it matched (MPI_ERR_TYPE's report); a send the
     * program made with MPI_Isend & co., or a persistent send: its buffer's watch (see "Send
     * buffers left alone"), or NULL. One place: a request, which every message makes two of,
     * fits in six cache lines (a seventh cost 3 % of a ring's wall time at 16384 ranks). */
    union {
        MPI_Datatype arrived_basic;
        struct send_watch *watch;
        struct coll_watch *coll_watch; /* a nonblocking collective's (see "Send buffers...") */
    };
    int source;              /* local rank or MPI_ANY_SOURCE */
    int source_world;        /* world rank of source, or MPI_ANY_SOURCE */
    int tag;
    guint64 posted_order;    /* its rank in its owner's posting order */
    /* while posted and unmatched: its place among its owner's receives from the same source
     * in the same context (that bucket), or among those from any source (bucket NULL) */
    struct collsim_request *posted_prev, *posted_next;
    struct posted_bucket *posted_bucket;
    /* rendezvous send: the data put (started once the clear-to-send has arrived) */
    core_comm *put;
    /* send: where its message went, to find it again while unmatched (MPI_Cancel) */
    int sent_dst_world;
    guint64 sent_serial;
    /* the last request array it was in (check_request_array): its call's stamp and index */
    guint64 array_stamp;
    int array_index;
    const char *call;        /* the MPI call that made it (a collective, a persistent or a
                              * watched send's) */
    gboolean in_flow;        /* made by a collective's flow: not the program's to complete */
    gboolean unseen;         /* a blocking call's own, never the program's: not a handle */
    /* What only one kind has, read only once the kind is known: a request, which every
     * message makes two of, fits in five cache lines (six, and 72 bytes more per message in
     * flight, when each kind had its own). */
    union {
        /* REQ_COLL: its work and the flow running it (while the flow is parked, its rank's
         * flow_parking lists the requests its blocking step waits for) */
        struct {
            int (*job)(void *data);
            void *job_data;
            struct sim_flow *flow;
            guint64 flow_seq;  /* its place among its rank's collectives started (list order) */
            gboolean p2p_flow; /* running MPI_Isendrecv(_replace): a point-to-point request,
                                * whose status is its receive's, that can be freed */
        };
        /* REQ_PERSISTENT: how each MPI_Start starts an operation, and the one started (NULL
         * while inactive); see "Persistent requests" */
        struct {
            int (*start)(struct collsim_request *self, MPI_Request *op);
            int (*start_coll)(void *data, MPI_Request *op);
            void *start_data;
            void (*free_data)(void *data);
            int p2p_mode; /* enum persistent_mode of a point-to-point one */
            struct collsim_request *active;
        };
        /* REQ_GREQUEST: the program's callbacks and their argument */
        struct {
            MPI_Grequest_query_function *query_fn;
            MPI_Grequest_free_function *free_fn;
            MPI_Grequest_cancel_function *cancel_fn;
            void *extra_state;
        };
    };
};

#if GLIB_SIZEOF_VOID_P == 8
/* Every message makes a request on each side and a message record, all read at its wake-ups
 * (at scale, from memory): keep them within five and four cache lines. */
G_STATIC_ASSERT(sizeof(struct collsim_request) <= 5 * 64);
G_STATIC_ASSERT(sizeof(struct sim_msg) <= 4 * 64);
#endif

/* Outside the request, which every message makes: only a program's nonblocking sends have one. */
struct send_watch {
    const guint8 *buf;
    gsize len;
    guint64 digest;
    const void *site;
};

/*
 * A nonblocking collective's: the program's buffers it reads, digested at the call; those it
 * writes, digested whenever its flow parks and compared when it resumes (skipping the pieces
 * a message landed in meanwhile: struct flow_landings), then digested when it ends (`ended`)
 * and compared when the program completes it. Written buffers are cut into pieces of at least
 * COLL_WATCH_PIECE bytes, so that a message landing in one block leaves the others checked.
 */
#define COLL_WATCH_SPANS 16
#define COLL_WATCH_PIECE 4

struct coll_watch {
    const char *call; /* the MPI call (the request's own name goes with its job) */
    const void *site;
    int n;
    gboolean ended;
    int tampered;          /* 1 + the written piece the program changed while parked, or 0 */
    guint64 landings_seen; /* its rank's flow_landed when its flow last parked */
    struct {
        const guint8 *buf;
        gsize len;
        guint64 digest;
        gsize offset, whole; /* where the piece lies in the program's buffer, and its size */
        gboolean writes;
    } span[];
};

/*
 * The receive buffers that messages for a rank's flows landed in lately, in a ring: a parked
 * collective's pieces that one of them covers are skipped when it resumes (all of them if the
 * ring went round). Made when the rank's first collective is watched: ranks without one pay
 * nothing for it. How many landed so far is the rank's flow_landed (beside its list of
 * collectives, which every park reads: the ring is read only when something landed).
 */
#define FLOW_LANDINGS 8

struct flow_landings {
    struct {
        uintptr_t lo, hi;
    } at[FLOW_LANDINGS];
};

/*
 * Where a rank's parked flows are, so that a wake-up reads one table instead of every
 * collective in flight, its step's request array (on the flow's stack) and each request:
 * the requests each parked flow waits for (not complete when it parked), grouped by flow in
 * the order the flows started (that of the rank's list of collectives), each group in the
 * step's order; and the flows started inside another flow that have never run.
 */
struct parked_entry {
    guint64 seq;                    /* its flow's flow_seq */
    struct collsim_request *coll;
    struct collsim_request *req;
    int mode;                       /* enum wait_mode of the flow's step */
};

struct flow_parking {
    guint64 started;                /* collectives the rank has started: the last flow_seq */
    guint64 finished;               /* and those whose flow returned */
    gboolean nested_finished;       /* one started inside a flow returned in this pass */
    SMALL_VEC(struct parked_entry, 8) parked;
    SMALL_VEC(struct collsim_request *, 2) unstepped; /* oldest first */
};

static void request_touch(struct collsim_request *req);
static void describe_request(const struct collsim_request *req, GString *out);
static void rendezvous_respond(struct sim_rank *me, struct sim_msg *msg);
static void rendezvous_start_data(struct sim_rank *me, struct sim_msg *msg);

/* ---------------------------------------------------------------- record pools */

/*
 * Every message makes and drops a send request, a receive request, a message record and an
 * inbox get: free lists of each keep the allocator out of that path (and its memory warm). A
 * record comes back zeroed. Under AddressSanitizer records go back to the allocator, so that
 * a use after release is still caught.
 */
struct pool {
    void *head;     /* the first free record; each holds the next in its first bytes */
    guint count;
};

#define POOL_KEEP 65536 /* records kept per pool; more go back to the allocator */

#if defined(__SANITIZE_ADDRESS__)
#define POOL_BYPASS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_BYPASS 1
#endif
#endif

static void *
pool_take(struct pool *pool, gsize size)
{
#ifndef POOL_BYPASS
    void *record = pool->head;
    if (record != NULL) {
        pool->head = *(void **)record;
        pool->count--;
        memset(record, 0, size);
        return record;
    }
#else
    (void)pool;
#endif
    return g_malloc0(size);
}

static void
pool_give(struct pool *pool, void *record)
{
#ifndef POOL_BYPASS
    if (pool->count < POOL_KEEP) {
        *(void **)record = pool->head;
        pool->head = record;
        pool->count++;
        return;
    }
#else
    (void)pool;
#endif
    g_free(record);
}

static struct pool request_pool, msg_pool, get_pool;
static struct pool watch_pool; /* struct send_watch: a malloc per MPI_Isend was 4 % of its time */

/* ---------------------------------------------------------------- rendezvous mailbox pool */

static GPtrArray *rv_pool;      /* free mailboxes */
static guint rv_created;

static core_mailbox *
rv_mailbox_take(void)
{
    if (rv_pool == NULL)
        rv_pool = g_ptr_array_new();
    if (rv_pool->len > 0)
        return g_ptr_array_steal_index_fast(rv_pool, rv_pool->len - 1);
    char name[32];
    g_snprintf(name, sizeof name, "rv-%u", rv_created++);
    return core_mailbox_by_name(name);
}

static void
rv_mailbox_release(core_mailbox *mbox)
{
    g_ptr_array_add(rv_pool, mbox);
}

/* ---------------------------------------------------------------- messages */

static void
msg_unref(struct sim_msg *msg)
{
    if (--msg->refs > 0)
        return;
    if (msg->cts != NULL)
        msg_unref(msg->cts);
    if (msg->data != msg->small)
        g_free(msg->data);
    collsim_datatype_unref(msg->stype);
    if (msg->inbox != NULL) {
        if (msg->inbox->comm != NULL)
            core_comm_unref(msg->inbox->comm);
        pool_give(&get_pool, msg->inbox);
    }
    pool_give(&msg_pool, msg);
}

/* Room for a packed copy of msg's payload: its own `small` bytes when they are enough. */
static void *
msg_data_room(struct sim_msg *msg)
{
    return msg->bytes <= sizeof msg->small ? msg->small : g_malloc(msg->bytes);
}

/* A message that holds its sender's buffer (lend, below) takes its own copy of it. */
static void
lend_return(struct sim_msg *msg)
{
    msg->data = msg_data_room(msg);
    memcpy(msg->data, msg->lent, msg->bytes);
    msg->lent = NULL;
}

static gboolean
envelope_matches(guint32 context, int source_world, int tag, const struct sim_msg *msg)
{
    return msg->context == context &&
           (source_world == MPI_ANY_SOURCE || source_world == msg->src_world) &&
           (tag == MPI_ANY_TAG || tag == msg->tag);
}

/* Receive capacity in bytes of a receive request. */
static gsize
req_capacity(const struct collsim_request *req)
{
    return collsim_datatype_packed_size(req->count, req->dt);
}

static const struct sim_p2p_observer *observer; /* p2p_observe.h; NULL: off */

/* With COLLSIM_CHECK_NEED_CACHE set (make check sets it), every answer given from a request's
 * last one is checked against a full advance, which must find the same (a state change
 * without request_touch would diverge silently: the run ends with a message instead). Read
 * once a run (sim_p2p_start). */
static gboolean check_need_cache;
/* With COLLSIM_CHECK_WAIT_SET set (make check sets it), each pass of a blocking wait ends by
 * checking its set of transfers against its requests (wait_set_check). */
static gboolean check_wait_set;
/* With COLLSIM_CHECK_REAP_RESUME set (make check sets it), a reaping walk that starts where the
 * last one's passing over ended first checks that a walk from the head would pass over exactly
 * those messages (reap_resume_check). */
static gboolean check_reap_resume;
static gpointer observer_data;

void
sim_p2p_set_observer(const struct sim_p2p_observer *o, gpointer data)
{
    observer = o;
    observer_data = data;
}

/* A message starts: tell the observer its payload, packed. */
static void
observe_sent(const struct sim_msg *msg, const void *buf, int count, MPI_Datatype dt)
{
    void *packed = NULL;
    if (msg->carries_data && msg->bytes > 0 && msg->data == NULL) {
        packed = g_malloc(msg->bytes);
        collsim_datatype_pack(buf, count, dt, packed);
    }
    observer->sent(observer_data, msg->src_world, msg->dst_world, msg->serial,
                   msg->data != NULL ? msg->data : packed, msg->carries_data ? msg->bytes : 0);
    g_free(packed);
}

/*
 * Whether `bytes` of `dt` at `buf` may lie among the program's privatized globals, where only
 * the running rank's copy is visible. A non-contiguous layout is not bounded here: it may.
 */
static gboolean
maybe_global(const void *buf, MPI_Datatype dt, gsize bytes)
{
    if (!sim_globals_private())
        return FALSE;
    return !collsim_datatype_is_contiguous(dt) || sim_globals_overlap(buf, bytes);
}

/*
 * Where another rank's buffer is now. On a shared stack (core.h: core_actor_memory) a stopped
 * rank's local variables are in the copy of its frames; NULL when the buffer lies partly on the
 * stack and partly elsewhere (an MPI_BOTTOM layout mixing both), which no one address reaches.
 */
static void *
rank_buffer(int owner_world, const void *buf, int count, MPI_Datatype dt)
{
    uintptr_t lo, hi;
    if (!core_stacks_shared() || !collsim_buffer_span(buf, (MPI_Aint)count, dt, &lo, &hi))
        return (void *)buf;
    void *at = core_actor_memory(sim_rank_by_world(owner_world)->actor, (void *)lo, hi - lo);
    if (at == NULL)
        return NULL;
    return (void *)((uintptr_t)buf + ((uintptr_t)at - lo));
}

/* Whether a send buffer may lie on the shared stack, where its owner's frames move aside
 * whenever it stops: a rendezvous then takes a packed copy when it is sent (its sender may not
 * change it before the send completes anyway), so that no other rank reads it there. */
static gboolean
send_on_shared_stack(const void *buf, int count, MPI_Datatype dt)
{
    uintptr_t lo, hi;
    return core_stacks_shared() && collsim_buffer_span(buf, (MPI_Aint)count, dt, &lo, &hi) &&
           core_shared_stack_overlaps((const void *)lo, hi - lo);
}

/* The collectives watched now, in the whole run: while there are none (blocking programs),
 * a message's delivery does not read its request's in_flow, a cache line of its own. */
static guint coll_watches_live;

/* MPI wrote count items of dt at buf for one of the owner's flows: the pieces of its
 * collectives' watched buffers there are not the program's doing (coll_watch_resume skips
 * them). */
static void
flow_wrote(struct sim_rank *owner, const void *buf, MPI_Aint count, MPI_Datatype dt)
{
    struct flow_landings *landings = owner->flow_landings;
    uintptr_t lo, hi;
    if (landings == NULL || !collsim_buffer_span(buf, count, dt, &lo, &hi))
        return;
    guint64 k = owner->flow_landed++ % FLOW_LANDINGS;
    landings->at[k].lo = lo;
    landings->at[k].hi = hi;
}

/* A message lands in a receive that a flow posted. */
static void
flow_receive_written(const struct collsim_request *rreq)
{
    if (G_LIKELY(coll_watches_live == 0) || !rreq->in_flow)
        return;
    flow_wrote(sim_rank_by_world(rreq->owner_world), rreq->buf, (MPI_Aint)rreq->count,
               rreq->dt);
}

/* A nonblocking reduction wrote its result, made aside, into the program's buffer: other
 * operations in flight into the same buffer (several reductions writing one result) see it
 * as a message of theirs, not as the program's write. */
void
sim_p2p_result_written(const void *buf, int count, MPI_Datatype dt)
{
    struct sim_rank *me = sim_rank_self();
    if (coll_watches_live > 0 && me != NULL)
        flow_wrote(me, buf, (MPI_Aint)count, dt);
}

/*
 * Move the message's payload into the matched receive buffer, once. Called by whichever side
 * first learns that the data has arrived, so the sender's buffer is still valid.
 */
static void
msg_deliver(struct sim_msg *msg)
{
    if (msg->delivered || msg->rreq == NULL)
        return;
    struct collsim_request *req = msg->rreq;
    gsize capacity = req_capacity(req);
    gsize bytes = MIN(msg->bytes, capacity);
    const struct sim_rank *self = sim_rank_self();
    int here = self != NULL ? self->world_rank : -1;
    gboolean moves = msg->carries_data && bytes > 0 && !sim_scratch_contains(req->buf);
    void *rbuf = req->buf;
    if (moves && here != req->owner_world) {
        rbuf = rank_buffer(req->owner_world, req->buf, req->count, req->dt);
        if (rbuf == NULL) {
            /* out of my reach: the receiver unpacks a packed copy itself (request_finish) */
            if (msg->lent != NULL) {
                lend_return(msg);
            } else if (msg->data == NULL) {
                msg->data = g_malloc(msg->bytes);
                collsim_datatype_pack(msg->sbuf, msg->scount, msg->stype, msg->data);
            }
            return;
        }
    }
    msg->delivered = TRUE;
    req->status.MPI_SOURCE = msg->src_local;
    req->status.MPI_TAG = msg->tag;
    req->status.collsim_bytes = bytes;
    req->arrived_bytes = msg->bytes;
    req->arrived_basic = msg->basic;
    /* an empty message's signature is empty: a prefix of any (MPI-3.1 3.3.1); the same basic
     * type, every message's case, is answered here */
    MPI_Datatype wanted = req->dt->basic;
    req->status.MPI_ERROR =
        msg->bytes > capacity ? MPI_ERR_TRUNCATE
        : msg->bytes > 0 && msg->basic != wanted && !collsim_basic_types_match(msg->basic, wanted)
            ? MPI_ERR_TYPE
            : MPI_SUCCESS;
    if (!moves)
        return;
    flow_receive_written(req);
    if (msg->eager || msg->data != NULL) {
        /* a packed copy on the heap (eager, or a rendezvous sent from a shared stack), or the
         * lent buffer itself, in packed order and readable from any rank (lend) */
        if (!msg->placed)
            collsim_datatype_unpack(msg->lent != NULL ? msg->lent : msg->data, bytes, rbuf,
                                    req->count, req->dt);
        return;
    }
    /* a rendezvous, delivered by whichever side saw the data land first: the other side's
     * buffer may be among its privatized globals, visible only under its own copy of them */
    gboolean staged =
        (here != msg->src_world && maybe_global(msg->sbuf, msg->stype, msg->bytes)) ||
        (here != req->owner_world && maybe_global(req->buf, req->dt, bytes));
    if (!staged && collsim_datatype_is_contiguous(msg->stype)) {
        /* the sender's data is already in packed order: one copy */
        collsim_datatype_unpack(msg->sbuf, bytes, rbuf, req->count, req->dt);
        return;
    }
    void *packed = g_malloc(msg->bytes);
    if (staged)
        sim_globals_show(msg->src_world);
    collsim_datatype_pack(msg->sbuf, msg->scount, msg->stype, packed);
    if (staged)
        sim_globals_show(req->owner_world);
    collsim_datatype_unpack(packed, bytes, rbuf, req->count, req->dt);
    if (staged)
        sim_globals_show(here);
    g_free(packed);
}

/*
 * An eager message whose receive is already posted when it is sent: copy the payload straight
 * into the receive buffer, which is MPI's to write until the receive completes, instead of
 * into a copy of the message's own that the receive would copy again. Only from a contiguous
 * send buffer, which is already in packed order (non-contiguous ones keep the packed copy),
 * and not into a buffer that may be among the receiver's privatized globals, which are not
 * the ones visible now (the sender's are). Delivery (msg_deliver) still sets the status when
 * the data arrives in simulated time.
 */
static gboolean
eager_place(struct sim_msg *msg, struct collsim_request *rreq, const void *buf, MPI_Datatype dt)
{
    gsize bytes = rreq != NULL ? MIN(msg->bytes, req_capacity(rreq)) : 0;
    if (rreq == NULL || !collsim_datatype_is_contiguous(dt) ||
        maybe_global(rreq->buf, rreq->dt, bytes))
        return FALSE;
    if (!sim_scratch_contains(rreq->buf)) {
        void *rbuf = rank_buffer(rreq->owner_world, rreq->buf, rreq->count, rreq->dt);
        if (rbuf == NULL)
            return FALSE;
        collsim_datatype_unpack(buf, bytes, rbuf, rreq->count, rreq->dt);
        flow_receive_written(rreq);
    }
    msg->placed = TRUE;
    return TRUE;
}

/*
 * An eager message sent inside MPI_Sendrecv whose receive is not posted yet: instead of a
 * packed copy that the receive would copy again, the message keeps the sender's buffer, which
 * stays as it is until the call returns (the sender is blocked in it), and the receive copies
 * from it when it matches (match_pair); if it has not matched by the time the call returns,
 * the copy is taken then (lend_end). One copy instead of two, and no allocation, for the
 * common case of exchanges (recursive doubling, rings). Only a buffer that any rank may read
 * in place: contiguous, not among the privatized globals (and globals private at all, so that
 * no other rank shares it) and not on the shared stack; sizes-only scratch moves nothing.
 */
static gboolean
lendable(const void *buf, int count, MPI_Datatype dt, gsize bytes)
{
    return sim_globals_private() && collsim_datatype_is_contiguous(dt) &&
           !sim_globals_overlap(buf, bytes) && !send_on_shared_stack(buf, count, dt);
}

/* The receive matching a lent message is its running owner's: copy now (as eager_place). */
static void
lend_match(struct sim_msg *msg, struct collsim_request *rreq)
{
    if (msg->lent == NULL)
        return; /* every match comes here: the common case first */
    const struct sim_rank *self = sim_rank_self();
    if (self == NULL || self->world_rank != rreq->owner_world)
        return;
    gsize bytes = MIN(msg->bytes, req_capacity(rreq));
    if (bytes > 0 && !sim_scratch_contains(rreq->buf)) {
        collsim_datatype_unpack(msg->lent, bytes, rreq->buf, rreq->count, rreq->dt);
        flow_receive_written(rreq);
    }
    msg->lent = NULL;
    msg->placed = TRUE;
}

/* The sender's call returns: a message still holding its buffer takes its copy now. */
static void
lend_end(struct sim_msg *msg)
{
    if (msg->lent != NULL)
        lend_return(msg);
    msg_unref(msg);
}

/* ---------------------------------------------------------------- inbox bookkeeping */

/* The request whose progress an inbox transfer decides: the receive an MPI message matched,
 * or the rendezvous send a clear-to-send releases. */
static struct collsim_request *
inbox_subject(const struct sim_msg *msg)
{
    return msg->kind == MSG_CTS ? msg->of->sreq : msg->rreq;
}

/* Whether the arrival of msg asks its receiver to act at once (a rendezvous envelope, or a
 * clear-to-send): the progress engine serves those whatever request the rank waits for. */
static gboolean
is_handshake(const struct sim_msg *msg)
{
    return msg->kind == MSG_CTS || !msg->eager;
}

/* A get now carries msg: if msg is a handshake, keep the get where every wait will see it. */
static void
inbox_paired(struct sim_rank *me, struct sim_inbox_get *get, struct sim_msg *msg)
{
    get->msg = msg;
    msg->inbox = get;
    if (is_handshake(msg))
        g_queue_push_tail(&me->handshake_gets, get);
}

/* Record that `msg` is being put into `dst`'s inbox; must directly precede the put. */
static void
inbox_announce(struct sim_rank *dst, struct sim_msg *msg)
{
    struct sim_inbox_get *get;
    FIFO_POP(dst->pending_gets_head, dst->pending_gets_tail, get, pending_next);
    dst->generation++;
    if (get != NULL) {
        inbox_paired(dst, get, msg);
    } else {
        FIFO_PUSH(dst->unfetched_head, dst->unfetched_tail, msg, unfetched_next);
    }
    request_touch(inbox_subject(msg));
}

/* Issue gets for every message already put into my inbox, in order. */
static void
inbox_fetch_all(struct sim_rank *me)
{
    for (;;) {
        struct sim_msg *msg;
        FIFO_POP(me->unfetched_head, me->unfetched_tail, msg, unfetched_next);
        if (msg == NULL)
            break;
        struct sim_inbox_get *get = pool_take(&get_pool, sizeof *get);
        inbox_paired(me, get, msg);
        request_touch(inbox_subject(msg));
        get->comm = core_get_async(me->inbox, &get->payload);
        sim_after_yield();
    }
}

/* Make sure a get is waiting for the next message into my inbox. */
static void
inbox_ensure_pending(struct sim_rank *me)
{
    inbox_fetch_all(me);
    if (me->pending_gets_head != NULL)
        return;
    struct sim_inbox_get *get = pool_take(&get_pool, sizeof *get);
    FIFO_PUSH(me->pending_gets_head, me->pending_gets_tail, get, pending_next);
    get->comm = core_get_async(me->inbox, &get->payload);
    sim_after_yield();
}

/*
 * A send's reaping (reap_sent without `all`) takes only messages whose inbox transfer has
 * landed or was done at its launch; every other one it passes over, up to REAP_PASSED_OVER of
 * them, each a record out of the caches. Each rank counts its unreaped messages of the first
 * kind, so that a send with none to take walks none: with 64 messages in flight per rank at
 * P = 4096, the walk was a third of the wall time; and a walk ends once it has taken them all
 * (8 Ibarriers in flight at P = 4096: the walk was 12 % of the time, passing over the other
 * collectives' messages after the last one it took). The walk takes what it took before, in
 * the same order; it only leaves out what it would have passed over. A message becomes one a
 * send may reap in two places, its arrival (inbox_get_finished) and a launch that finds its
 * transfer done (port_launch); a third would have to call count_landed too, or its message
 * would wait for the next walk that something else starts (and a walk could end before it).
 */
static void
count_landed(struct sim_msg *msg)
{
    if (msg->landed_counted || msg->reaped)
        return;
    msg->landed_counted = TRUE;
    struct sim_rank *sender = sim_rank_by_world(msg->src_world);
    sender->unreaped_landed++;
    if (msg->reap_passed)
        sender->reap_resume = FALSE; /* the next walk must look at it again */
}

/* A get of my inbox finished: its message's inbox transfer has arrived. */
static void
inbox_get_finished(struct sim_inbox_get *get)
{
    get->comm = NULL;
    g_assert(get->msg != NULL);
    struct sim_msg *msg = get->msg;
    msg->inbox_arrived = TRUE;
    count_landed(msg);
    if (RECORDER_ON() && msg->kind == MSG_MPI && msg->eager)
        recorder_message_arrived(msg->serial);
    struct sim_rank *me = sim_rank_self();
    if (is_handshake(msg))
        g_queue_remove(&me->handshake_gets, get);
    if (msg->kind == MSG_CTS) {
        /* my rendezvous send puts its data on the wire now */
        rendezvous_start_data(me, msg->of);
        request_touch(msg->of->sreq);
        return;
    }
    /* a matched rendezvous envelope is answered at once, whatever request this rank waits
     * for: an MPI library's progress engine serves every handshake it sees */
    if (!msg->eager && msg->rreq != NULL)
        rendezvous_respond(sim_rank_self(), msg);
    request_touch(msg->rreq);
    if (msg->cancelled)
        msg_unref(msg); /* the receiving side's reference: no receive will ever take it */
}

/* ---------------------------------------------------------------- NICs and the scheduler */

/*
 * A port injects one message at a time, oldest first: a host's NIC for messages to other
 * hosts, its memory bus for messages between its own ranks. A message leaves at
 * max(its posting, the previous start + max(g, previous wire bytes / rate)), so a rank's
 * back-to-back sends overlap their latencies while their bytes follow each other on the wire,
 * as a NIC's DMA engine does (LogGP's gap and per-byte gap). The ranks of one host share both.
 */
struct sim_port {
    core_host *host;
    gboolean memory;          /* the memory bus (no gap) rather than the NIC */
    double rate;              /* bytes/s of injection; 0 until the first launch measures it */
    double free_at;           /* when the next message may start */
    struct sim_msg *waiting_head, *waiting_tail; /* oldest first, through port_next */
    gboolean scheduled;       /* it has an entry in the scheduler's heap */
};

/* A port with waiting messages, due at `when`; ties are broken by the order of scheduling. */
struct port_event {
    double when;
    guint64 seq;
    struct sim_port *port;
};

/*
 * The scheduler is one actor that starts queued messages when their port frees. A message is
 * created with core_put_init() by the rank that sends it, so SimGrid routes it from that
 * rank's host whoever starts it. The scheduler sleeps on a condition until its next event;
 * a rank queuing an earlier event wakes it.
 */
static struct {
    core_actor *actor;
    core_mutex *mutex;
    core_cond *cond;
    GArray *heap;             /* struct port_event, a min-heap on (when, seq) */
    guint64 seq;
    gboolean waiting;         /* in core_cond_wait(_for) */
    double wake_at;           /* the end of that wait (INFINITY: none) */
} sched;

static struct sim_port **ports_by_host; /* by core_host_index: [2] (NIC, memory) once used */

static gboolean
event_less(const struct port_event *x, const struct port_event *y)
{
    return x->when < y->when || (x->when == y->when && x->seq < y->seq);
}

static void
event_push(struct port_event ev)
{
    g_array_append_val(sched.heap, ev);
    struct port_event *h = (struct port_event *)(void *)sched.heap->data;
    guint i = sched.heap->len - 1;
    while (i > 0 && event_less(&ev, &h[(i - 1) / 2])) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = ev;
}

static struct port_event
event_pop(void)
{
    struct port_event *h = (struct port_event *)(void *)sched.heap->data;
    struct port_event top = h[0], last = h[sched.heap->len - 1];
    guint n = sched.heap->len - 1, i = 0;
    for (;;) {
        guint child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && event_less(&h[child + 1], &h[child]))
            child++;
        if (!event_less(&h[child], &last))
            break;
        h[i] = h[child];
        i = child;
    }
    h[i] = last;
    g_array_set_size(sched.heap, n);
    return top;
}

/* Bytes on the wire of a message's inbox transfer. Never empty: SimGrid completes a zero-byte
 * transfer the moment its receiver picks it up, latency or not, so an empty message (or an
 * envelope) travels as one byte. */
static long
inbox_wire_bytes(const struct sim_msg *msg)
{
    return msg->kind == MSG_MPI && msg->eager && msg->bytes > 0 ? (long)msg->bytes : 1;
}

/* The injection rate of a port: the bandwidth of the first link of the route (the NIC's own
 * link, or the node's loopback), or the route's when SimGrid gives no links, times the
 * network model's constant bandwidth factor (SMPI's piecewise factors are not applied),
 * divided by 1.05 under SimGrid's cross traffic. */
static double
port_rate(const struct sim_port *port, const core_host *dst)
{
    GArray *links = g_array_new(FALSE, FALSE, sizeof(struct core_link));
    double latency;
    core_route(port->host, dst, links, &latency);
    double rate = 0.0;
    if (links->len > 0)
        rate = g_array_index(links, struct core_link, 0).bandwidth;
    if (!(rate > 0.0))
        rate = core_route_bandwidth(links);
    g_array_free(links, TRUE);
    /* the rate the network model really gives a flow there (LV08: 0.97 of the link's), and
     * room for the 5 % of reverse traffic SimGrid's cross-traffic model adds to every flow: a
     * NIC injecting faster than its flows drain would make consecutive messages share the
     * link and a pipeline collapse towards store-and-forward */
    rate *= core_cfg_double("network/bandwidth-factor");
    if (core_cfg_boolean("network/crosstraffic"))
        rate /= 1.05;
    return rate > 0.0 ? rate : INFINITY;
}

/* Put msg's inbox transfer on the wire now (the whole message if eager, else its envelope or
 * its clear-to-send). */
static void
port_launch(struct sim_port *port, struct sim_msg *msg)
{
    struct sim_rank *dst = sim_rank_by_world(msg->dst_world);
    if (port->rate == 0.0) {
        port->rate = port_rate(port, dst->host);
        sim_after_yield();
    }
    double gap = port->memory ? 0.0 : sim_engine_config()->transport.gap;
    /* a launch below the clock resolution early still starts, for the NIC, when it was due */
    double start = MAX(core_clock(), port->free_at);
    port->free_at = start + MAX(gap, (double)inbox_wire_bytes(msg) / port->rate);
    inbox_announce(dst, msg);
    msg->announced = TRUE;
    if (msg->wire == NULL) {
        msg->wire = core_put_async(dst->inbox, msg, inbox_wire_bytes(msg));
    } else {
        /* core_comm_test() starts the transfer put_init() prepared, as the rank that prepared it;
         * until it returns, the s4u object says "starting" and a wait by the sender would
         * start a second copy of the transfer */
        msg->starting = TRUE;
        if (core_comm_test(msg->wire)) {
            msg->wire = NULL; /* already done (a route without latency): the handle is gone */
            count_landed(msg);
        }
        msg->starting = FALSE;
    }
    sim_after_yield();
}

static void
port_schedule(struct sim_port *port)
{
    struct port_event ev = {port->free_at, sched.seq++, port};
    port->scheduled = TRUE;
    event_push(ev);
    if (sched.waiting && ev.when < sched.wake_at) {
        sched.waiting = FALSE;
        core_cond_notify_one(sched.cond); /* a simcall: other actors may run meanwhile */
        sim_after_yield();
    }
}

/* Keep the calling rank busy for `seconds` (an overhead): below the clock resolution, a
 * sleep would never end, so such a time is rounded up to it. */
static void
busy_for(double seconds)
{
    if (seconds > 0) {
        core_sleep_for(MAX(seconds, SIM_CLOCK_RESOLUTION));
        sim_after_yield();
    }
}

/* Hand a prepared message to the port of its route: it leaves now if the port is free. */
static void
port_submit(struct sim_rank *me, struct sim_msg *msg)
{
    struct sim_rank *dst = sim_rank_by_world(msg->dst_world);
    struct sim_port *port = dst->host == me->host ? me->shm : me->nic;
    msg->refs++; /* held by my unreaped queue until its inbox transfer is reaped */
    FIFO_PUSH(me->unreaped_head, me->unreaped_tail, msg, unreaped_next);
    if (port->waiting_head == NULL && core_clock() >= port->free_at) {
        port_launch(port, msg);
        return;
    }
    msg->wire = core_put_init(dst->inbox, msg, inbox_wire_bytes(msg));
    FIFO_PUSH(port->waiting_head, port->waiting_tail, msg, port_next);
    if (!port->scheduled)
        port_schedule(port);
}

static void
scheduler_actor(void *data)
{
    (void)data;
    core_actor_daemonize();
    core_mutex_lock(sched.mutex);
    for (;;) {
        if (sched.heap->len == 0) {
            sched.waiting = TRUE;
            sched.wake_at = INFINITY;
            core_cond_wait(sched.cond, sched.mutex);
            sched.waiting = FALSE;
            continue;
        }
        double now = core_clock();
        struct port_event top = g_array_index(sched.heap, struct port_event, 0);
        /* SimGrid cannot time a wait shorter than its clock resolution (such a wait never
         * ends): an event closer than that is due now, and port_launch keeps its exact time */
        if (top.when - now >= SIM_CLOCK_RESOLUTION) {
            sched.waiting = TRUE;
            sched.wake_at = top.when;
            core_cond_wait_for(sched.cond, sched.mutex, top.when - now);
            sched.waiting = FALSE;
            /* woken early by a new event, or a rounding error short: look again */
            if (top.when - core_clock() >= SIM_CLOCK_RESOLUTION)
                continue;
            if (sched.heap->len == 0 ||
                g_array_index(sched.heap, struct port_event, 0).seq != top.seq)
                continue;
        }
        top = event_pop();
        struct sim_port *port = top.port;
        port->scheduled = FALSE;
        struct sim_msg *msg;
        FIFO_POP(port->waiting_head, port->waiting_tail, msg, port_next);
        if (msg != NULL)
            port_launch(port, msg);
        if (port->waiting_head != NULL)
            port_schedule(port);
    }
}

void
sim_p2p_start(core_host *host)
{
    check_need_cache = g_getenv("COLLSIM_CHECK_NEED_CACHE") != NULL;
    check_wait_set = g_getenv("COLLSIM_CHECK_WAIT_SET") != NULL;
    check_reap_resume = g_getenv("COLLSIM_CHECK_REAP_RESUME") != NULL;
    memset(&sched, 0, sizeof sched);
    sched.heap = g_array_new(FALSE, FALSE, sizeof(struct port_event));
    sched.mutex = core_mutex_new();
    sched.cond = core_cond_new();
    sched.wake_at = INFINITY;
    ports_by_host = g_new0(struct sim_port *, core_host_count());
    sched.actor = core_actor_create("collsim-nic-scheduler", host, scheduler_actor, NULL);
}

/* The NIC and memory ports of a host, created on first use (in rank order). */
static struct sim_port *
host_ports(core_host *host)
{
    struct sim_port **slot = &ports_by_host[core_host_index(host)];
    struct sim_port *ports = *slot;
    if (ports == NULL) {
        ports = g_new0(struct sim_port, 2);
        for (int i = 0; i < 2; i++) {
            ports[i].host = host;
            ports[i].memory = i == 1;
        }
        *slot = ports;
    }
    return ports;
}

/* Release the inbox transfers of my messages that have landed, oldest first; with `all`,
 * wait for every one, letting the scheduler start those still queued. SimGrid keeps a transfer
 * in its sender's activity list until the sender waits for it, so a long run must reap.
 * Without `all`, up to REAP_PASSED_OVER messages not landed yet are passed over, not waited
 * for: when a rank's nonblocking collectives run side by side, its oldest message may wait
 * for a receiver busy with another one, and everything sent behind it stayed (8 Ibarriers in
 * flight at P = 16384 kept 1.3 million messages, 80 a rank). The bound keeps each send's
 * reaping short when thousands wait for a receiver that computes. */
#define REAP_PASSED_OVER 16

/*
 * A walk passes over the messages not landed at the head of the queue before it reaches one it
 * may take; the next walk would pass over the same ones, unless one of them has landed since
 * (count_landed says so: a message becomes one a walk may take nowhere else, its `starting`
 * being over before its rank walks again). So the next walk starts where the last one's
 * passing over ended, with its count: what it takes, in which order, and where it stops are
 * the same as from the head. With W collectives in flight, a rank's oldest messages wait for
 * receivers busy with the others, and every send walked past them: 17 % of the time of 16
 * Ibarriers in flight at P = 4096.
 */
/* Its inbox transfer still queued at its port, or being started. */
static gboolean
wire_queued(const struct sim_msg *msg)
{
    return msg->wire != NULL && (!msg->announced || msg->starting);
}

/* A message a walk without `all` passes over: its inbox transfer queued or not arrived. */
static gboolean
reap_passes_over(const struct sim_msg *msg)
{
    return msg->wire != NULL && (wire_queued(msg) || !msg->inbox_arrived);
}

static void
reap_resume_check(const struct sim_rank *me)
{
    int passed = 0;
    const struct sim_msg *msg = me->unreaped_head;
    for (; msg != NULL && reap_passes_over(msg); msg = msg->unreaped_next) {
        passed++;
        if (msg == me->reap_before)
            break;
    }
    if (msg != me->reap_before || passed != me->reap_passed_over)
        g_error("COLLSIM_CHECK_REAP_RESUME: rank %d's reaping walk would resume after %d "
                "messages passed over, where a walk from the head passes over %d",
                me->world_rank, me->reap_passed_over, passed);
}

/* The walk ends after passing over `passed_over` messages, the last `before`: the next one may
 * start there unless one of them landed meanwhile (count_landed cleared reap_resume). */
static void
reap_walk_end(struct sim_rank *me, struct sim_msg *before, int passed_over)
{
    me->reap_before = before;
    me->reap_passed_over = passed_over;
    me->reap_resume = me->reap_resume && before != NULL;
}

static void
reap_sent(struct sim_rank *me, gboolean all)
{
    if (!all && me->unreaped_landed == 0)
        return;
    struct sim_msg *before = NULL; /* the last message kept, whose successor is msg */
    struct sim_msg *msg = me->unreaped_head;
    int passed_over = 0;
    if (!all && me->reap_resume) {
        if (G_UNLIKELY(check_reap_resume))
            reap_resume_check(me);
        before = me->reap_before;
        passed_over = me->reap_passed_over;
        msg = before->unreaped_next;
    }
    me->reap_resume = !all; /* until a message passed over lands */
    while (msg != NULL) {
        gboolean queued = wire_queued(msg);
        if (!all && reap_passes_over(msg)) {
            if (++passed_over > REAP_PASSED_OVER) {
                reap_walk_end(me, before, passed_over - 1);
                return;
            }
            msg->reap_passed = TRUE;
            before = msg; /* not landed: passed over */
            msg = msg->unreaped_next;
            continue;
        }
        if (queued) {
            /* still queued at its port, or being started: sleep until the port frees (the
             * scheduler starts it) */
            struct sim_rank *dst = sim_rank_by_world(msg->dst_world);
            const struct sim_port *port = dst->host == me->host ? me->shm : me->nic;
            if (port->free_at - core_clock() >= SIM_CLOCK_RESOLUTION)
                core_sleep_until(port->free_at);
            else
                core_yield(); /* due now: the scheduler runs in this round */
            sim_after_yield();
            continue;
        }
        if (msg->wire != NULL) {
            core_comm_wait(msg->wire);
            sim_after_yield();
            msg->wire = NULL;
        }
        /* out of the queue (the wait let others run, never this rank: the queue is as it was) */
        struct sim_msg *after = msg->unreaped_next;
        if (before == NULL)
            me->unreaped_head = after;
        else
            before->unreaped_next = after;
        if (after == NULL)
            me->unreaped_tail = before;
        msg->unreaped_next = NULL;
        msg->reaped = TRUE;
        if (msg->landed_counted)
            me->unreaped_landed--;
        msg_unref(msg);
        msg = after;
        if (!all && me->unreaped_landed == 0) {
            reap_walk_end(me, before, passed_over);
            return; /* what follows would only be passed over */
        }
    }
    if (!all)
        reap_walk_end(me, before, passed_over);
}

/* ---------------------------------------------------------------- unexpected messages */

/*
 * A rank's unexpected messages are kept in sending order twice: in one list, which a receive
 * from any source and a probe scan, and in one list per (context, source), which a receive
 * naming its source scans. A rank gathering from thousands of others (the root of a linear
 * gather, a program collecting results) receives each message in O(1) instead of scanning all
 * the others; the order, hence matching, is MPI's either way.
 */
static gint64 posted_key(guint32 context, int source_world);

/* The bucket of a source's unexpected messages, or NULL: as posted_find, the rank's first
 * bucket while it holds that source's messages, else the table's. */
static struct unexpected_bucket *
unexpected_find(struct sim_rank *rank, gint64 key)
{
    if (rank->unexpected_first.head != NULL && rank->unexpected_first.key == key)
        return &rank->unexpected_first;
    return source_table_lookup(&rank->unexpected_by_source, key);
}

static void
unexpected_push(struct sim_rank *rank, struct sim_msg *msg)
{
    msg->unexpected = TRUE;
    DLIST_APPEND(rank->unexpected_head, rank->unexpected_tail, msg, unx_prev, unx_next);
    gint64 key = posted_key(msg->context, msg->src_world);
    struct unexpected_bucket *bucket = unexpected_find(rank, key);
    if (bucket == NULL && rank->unexpected_first.head == NULL) {
        bucket = &rank->unexpected_first; /* free: it takes this source */
        bucket->key = key;
    } else if (bucket == NULL) {
        bucket = g_new0(struct unexpected_bucket, 1);
        bucket->key = key;
        source_table_insert(&rank->unexpected_by_source, key, bucket);
    } else if (bucket == rank->unexpected_spare) {
        rank->unexpected_spare = NULL;
    }
    msg->unx_bucket = bucket;
    DLIST_APPEND(bucket->head, bucket->tail, msg, src_prev, src_next);
}

/* Take msg out of rank's unexpected messages; FALSE if it was not there. */
static gboolean
unexpected_remove(struct sim_rank *rank, struct sim_msg *msg)
{
    if (!msg->unexpected)
        return FALSE;
    msg->unexpected = FALSE;
    DLIST_UNLINK(rank->unexpected_head, rank->unexpected_tail, msg, unx_prev, unx_next);
    struct unexpected_bucket *bucket = msg->unx_bucket;
    DLIST_UNLINK(bucket->head, bucket->tail, msg, src_prev, src_next);
    msg->unx_bucket = NULL;
    if (bucket->head == NULL && bucket != &rank->unexpected_first) {
        /* one empty bucket kept, as posted_unlink does */
        if (rank->unexpected_spare != NULL)
            g_free(source_table_remove(&rank->unexpected_by_source,
                                       rank->unexpected_spare->key));
        rank->unexpected_spare = bucket;
    }
    return TRUE;
}

/* The first unexpected message matching (context, source, tag), in sending order, or NULL. */
static struct sim_msg *
unexpected_first_match(struct sim_rank *rank, guint32 context, int source_world, int tag)
{
    if (source_world == MPI_ANY_SOURCE) {
        for (struct sim_msg *msg = rank->unexpected_head; msg != NULL; msg = msg->unx_next)
            if (envelope_matches(context, source_world, tag, msg))
                return msg;
        return NULL;
    }
    struct unexpected_bucket *bucket = unexpected_find(rank, posted_key(context, source_world));
    for (struct sim_msg *msg = bucket != NULL ? bucket->head : NULL; msg != NULL;
         msg = msg->src_next)
        if (tag == MPI_ANY_TAG || tag == msg->tag)
            return msg;
    return NULL;
}

/* ---------------------------------------------------------------- posted receives */

static gint64
posted_key(guint32 context, int source_world)
{
    return (gint64)(((guint64)context << 32) | (guint32)source_world);
}

/* The bucket of a source's posted receives, or NULL: the rank's first bucket while it holds
 * that source's receives, else the table's (where an emptied bucket may wait, posted_unlink). */
static struct posted_bucket *
posted_find(struct sim_rank *me, gint64 key)
{
    if (me->posted_first.head != NULL && me->posted_first.key == key)
        return &me->posted_first;
    return source_table_lookup(&me->posted_by_source, key);
}

static void
posted_push(struct sim_rank *me, struct collsim_request *req)
{
    req->posted_order = me->posted_count++;
    if (req->source_world == MPI_ANY_SOURCE) {
        req->posted_bucket = NULL;
        DLIST_APPEND(me->posted_any_head, me->posted_any_tail, req, posted_prev, posted_next);
        return;
    }
    gint64 key = posted_key(req->context, req->source_world);
    struct posted_bucket *bucket = posted_find(me, key);
    if (bucket == NULL && me->posted_first.head == NULL) {
        bucket = &me->posted_first; /* free: it takes this source */
        bucket->key = key;
    } else if (bucket == NULL) {
        bucket = g_new0(struct posted_bucket, 1);
        bucket->key = key;
        source_table_insert(&me->posted_by_source, key, bucket);
    } else if (bucket == me->posted_spare) {
        me->posted_spare = NULL;
    }
    req->posted_bucket = bucket;
    DLIST_APPEND(bucket->head, bucket->tail, req, posted_prev, posted_next);
}

/* Take a posted receive out of its list; drop its bucket once empty. */
static void
posted_unlink(struct sim_rank *me, struct collsim_request *req)
{
    struct posted_bucket *bucket = req->posted_bucket;
    if (bucket == NULL) {
        DLIST_UNLINK(me->posted_any_head, me->posted_any_tail, req, posted_prev, posted_next);
        return;
    }
    DLIST_UNLINK(bucket->head, bucket->tail, req, posted_prev, posted_next);
    req->posted_bucket = NULL;
    if (bucket->head == NULL && bucket != &me->posted_first) {
        /* a rank that receives from one source after another (a ring, a tree's parent) finds
         * its bucket again instead of a table insertion and removal per receive; one empty
         * bucket at most, so that a rank that received from every other keeps no more */
        if (me->posted_spare != NULL)
            g_free(source_table_remove(&me->posted_by_source, me->posted_spare->key));
        me->posted_spare = bucket;
    }
}

/* First receive from `head` on matching msg's envelope, or NULL. */
static struct collsim_request *
posted_first_match(struct collsim_request *head, const struct sim_msg *msg)
{
    for (struct collsim_request *candidate = head; candidate != NULL;
         candidate = candidate->posted_next)
        if (envelope_matches(candidate->context, candidate->source_world, candidate->tag, msg))
            return candidate;
    return NULL;
}

/* Take dst's first posted receive (in posting order) matching msg, or NULL. */
static struct collsim_request *
posted_take_match(struct sim_rank *dst, const struct sim_msg *msg)
{
    struct collsim_request *specific = NULL;
    struct posted_bucket *bucket = posted_find(dst, posted_key(msg->context, msg->src_world));
    if (bucket != NULL)
        specific = posted_first_match(bucket->head, msg);
    struct collsim_request *wildcard = posted_first_match(dst->posted_any_head, msg);
    struct collsim_request *req = specific;
    if (wildcard != NULL && (specific == NULL || wildcard->posted_order < specific->posted_order))
        req = wildcard;
    if (req != NULL)
        posted_unlink(dst, req);
    return req;
}

/* ---------------------------------------------------------------- posting */

/* The object of a request that is gone: no handle may reach it any more. */
static void
request_destroy(struct collsim_request *req)
{
    req->magic = 0;
    if (!req->unseen)
        collsim_handle_remove(req);
    collsim_datatype_unref(req->dt);
    if (req->kind == REQ_SEND || req->kind == REQ_PERSISTENT) {
        if (req->watch != NULL)
            pool_give(&watch_pool, req->watch);
    } else if (req->kind == REQ_COLL && req->coll_watch != NULL) {
        g_free(req->coll_watch);
        coll_watches_live--;
    }
    pool_give(&request_pool, req);
}

static struct collsim_request *
request_new(enum req_kind kind, MPI_Comm comm, guint32 context)
{
    struct collsim_request *req = pool_take(&request_pool, sizeof *req);
    req->magic = COLLSIM_REQUEST_MAGIC;
    req->kind = kind;
    req->comm = comm;
    req->context = context;
    struct sim_rank *me = sim_rank_self();
    req->owner_world = me->world_rank;
    req->in_flow = me->running_flow != NULL;
    if (!req->in_flow)
        me->live_requests++;
    /* the handle table is what lets a program's request be checked without reading it; a
     * blocking call's own requests never reach the program and stay out of it (a table that
     * holds every message's two requests costs a few cache misses a message at scale) */
    req->unseen = me->requests_unseen;
    if (!req->unseen)
        collsim_handle_add(req);
    req->wait_slot = -1;
    req->status.MPI_SOURCE = MPI_ANY_SOURCE;
    req->status.MPI_TAG = MPI_ANY_TAG;
    return req;
}

static struct collsim_request *
request_complete_null(enum req_kind kind, MPI_Comm comm)
{
    struct collsim_request *req = request_new(kind, comm, 0);
    req->complete = TRUE;
    req->status.MPI_SOURCE = MPI_PROC_NULL;
    req->status.MPI_TAG = MPI_ANY_TAG;
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->status.collsim_bytes = 0;
    return req;
}

static void
match_pair(struct sim_msg *msg, struct collsim_request *rreq)
{
    msg->rreq = rreq;
    rreq->msg = msg;
    lend_match(msg, rreq);
    if (!msg->eager)
        sim_rank_by_world(rreq->owner_world)->handshakes++; /* until it answers the envelope */
}

/* How a send's message travels: by its size (eager up to the threshold), always by rendezvous
 * (MPI_Ssend: completion implies the match), or always eager (a buffered send: the copy into
 * the attached buffer completes it, whatever its size). */
enum send_protocol { PROTOCOL_BY_SIZE, PROTOCOL_RENDEZVOUS, PROTOCOL_EAGER };

static struct collsim_request *start_send_protocol(const void *buf, int count, MPI_Datatype dt,
                                                   int dest, int tag, MPI_Comm comm,
                                                   guint32 context, enum send_protocol protocol,
                                                   struct sim_msg **lent);

/*
 * Start a send. `synchronous` forces the rendezvous protocol (MPI_Ssend), whose completion
 * implies that the receive has matched.
 */
static struct collsim_request *
start_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
           guint32 context, gboolean synchronous)
{
    return start_send_protocol(buf, count, dt, dest, tag, comm, context,
                               synchronous ? PROTOCOL_RENDEZVOUS : PROTOCOL_BY_SIZE, NULL);
}

/* `lent`: the caller blocks until its return and may lend the buffer (lend); then *lent is
 * the message, with a reference for lend_end, or NULL. */
static struct collsim_request *
start_send_protocol(const void *buf, int count, MPI_Datatype dt, int dest, int tag,
                    MPI_Comm comm, guint32 context, enum send_protocol protocol,
                    struct sim_msg **lent)
{
    static guint64 serials;
    struct sim_rank *me = sim_rank_self();
    const struct sim_config *config = sim_engine_config();
    if (dest == MPI_PROC_NULL)
        return request_complete_null(REQ_SEND, comm);

    struct collsim_request *sreq = request_new(REQ_SEND, comm, context);
    struct sim_msg *msg = pool_take(&msg_pool, sizeof *msg);
    msg->context = context;
    msg->src_world = me->world_rank;
    msg->src_local = collsim_comm_my_rank(comm);
    msg->dst_world = collsim_comm_peer_world_rank(comm, dest);
    msg->tag = tag;
    msg->bytes = collsim_datatype_packed_size(count, dt);
    msg->basic = collsim_datatype_basic(dt);
    msg->eager = protocol == PROTOCOL_EAGER ||
                 (protocol == PROTOCOL_BY_SIZE && msg->bytes <= config->transport.eager_threshold);
    msg->serial = ++serials;
    sreq->sent_dst_world = msg->dst_world;
    sreq->sent_serial = msg->serial;
    /* A sizes-only run moves no payload: payload buffers are shared scratch, and a message
     * sent from scratch carries its size alone. What a rank sends from its own memory still
     * arrives (an algorithm's control data such as the node layout, a program's values), as
     * does communicator construction, which sends real addresses. */
    msg->carries_data = config->payload == SIM_PAYLOAD_DATA ||
                        (collsim_comm_is_internal(comm) && tag <= COLLSIM_TAG_INTERNAL_MAX) ||
                        (msg->bytes > 0 && !sim_scratch_contains(buf));
    msg->refs = 1;
    sreq->msg = msg;

    busy_for(model_transport_send_cost(&config->transport, msg->bytes));

    struct sim_rank *dst = sim_rank_by_world(msg->dst_world);
    struct collsim_request *rreq = posted_take_match(dst, msg);
    if (msg->eager) {
        if (msg->carries_data && msg->bytes > 0 && !eager_place(msg, rreq, buf, dt)) {
            if (lent != NULL && rreq == NULL && lendable(buf, count, dt, msg->bytes)) {
                msg->lent = buf;
                msg->refs++;
                *lent = msg;
            } else {
                msg->data = msg_data_room(msg);
                collsim_datatype_pack(buf, count, dt, msg->data);
            }
        }
        sreq->complete = TRUE;
        sreq->status.MPI_ERROR = MPI_SUCCESS;
        sreq->msg = NULL;
    } else {
        msg->sbuf = buf;
        msg->scount = count;
        msg->stype = collsim_datatype_ref(dt); /* the program may free it meanwhile */
        if (msg->carries_data && msg->bytes > 0 && send_on_shared_stack(buf, count, dt)) {
            msg->data = g_malloc(msg->bytes);
            collsim_datatype_pack(buf, count, dt, msg->data);
        }
        msg->sreq = sreq;
        msg->refs = 2;
    }
    if (observer != NULL)
        observe_sent(msg, buf, count, dt);

    if (rreq != NULL) {
        match_pair(msg, rreq);
        request_touch(rreq);
    } else
        unexpected_push(dst, msg);
    dst->generation++;

    me->messages_sent++;
    me->bytes_sent += msg->bytes;
    if (RECORDER_ON())
        recorder_message_sent(msg->serial, msg->src_world, msg->dst_world, msg->bytes,
                              msg->eager);

    /* the data of a rendezvous will flow through its own mailbox once the receiver has matched
     * it and its clear-to-send has come back */
    if (!msg->eager) {
        msg->rv_mbox = rv_mailbox_take();
        me->handshakes++; /* until its clear-to-send comes back */
    }
    port_submit(me, msg);
    reap_sent(me, FALSE);
    return sreq;
}

static struct collsim_request *
start_recv(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
           guint32 context)
{
    struct sim_rank *me = sim_rank_self();
    if (source == MPI_PROC_NULL)
        return request_complete_null(REQ_RECV, comm);
    struct collsim_request *req = request_new(REQ_RECV, comm, context);
    req->buf = buf;
    req->count = count;
    req->dt = collsim_datatype_ref(dt); /* the program may free it before the end (§4.1.9) */
    req->source = source;
    req->source_world =
        source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : collsim_comm_peer_world_rank(comm, source);
    req->tag = tag;

    struct sim_msg *msg = unexpected_first_match(me, context, req->source_world, tag);
    if (msg != NULL) {
        unexpected_remove(me, msg);
        match_pair(msg, req);
        if (!msg->eager && msg->inbox_arrived)
            rendezvous_respond(me, msg); /* its envelope is already here */
        return req;
    }
    posted_push(me, req);
    return req;
}

/* ---------------------------------------------------------------- progress */


/* A wait's transfers (wait_set.h): the entries' `what` is a struct sim_inbox_get *, struct
 * sim_msg * or struct collsim_request *, their kind an enum wait_kind. wait_set_append adds
 * with no duplicate check (the inbox gets waiting for arrivals are paired with no message, and
 * the port's transfer is a put). */
static void listen_inbox(struct sim_rank *me, struct wait_set *set, gboolean arrivals);

static void
wait_set_add(struct wait_set *set, core_comm *comm, enum wait_kind kind, gpointer what)
{
    for (guint i = set->start; i < wait_set_len(set); i++)
        if (set->comms.v[i] == comm)
            return;
    wait_set_append(set, comm, kind, what);
}

/* Both sides of a rendezvous transfer have been posted and it has finished: its mailbox may
 * serve another message; the side that has not seen it yet is told. */
static void
rendezvous_data_arrived(struct sim_msg *msg)
{
    if (msg->data_arrived)
        return;
    msg->data_arrived = TRUE;
    if (RECORDER_ON())
        recorder_message_arrived(msg->serial);
    rv_mailbox_release(msg->rv_mbox);
    msg->rv_mbox = NULL;
    request_touch(msg->sreq);
    request_touch(msg->rreq);
}

static void
transfer_finished(enum wait_kind kind, gpointer what)
{
    switch (kind) {
    case WAIT_INBOX:
        inbox_get_finished(what);
        break;
    case WAIT_RV_GET: {
        /* the sender's request learns it here too (only a live one: until the data has
         * arrived, neither side can have completed) */
        struct sim_msg *msg = what;
        msg->rv_get = NULL;
        rendezvous_data_arrived(msg);
        request_touch(msg->rreq);
        break;
    }
    case WAIT_PUT: {
        struct collsim_request *req = what;
        req->put = NULL;
        rendezvous_data_arrived(req->msg);
        request_touch(req);
        break;
    }
    }
}

static void
request_finish(struct collsim_request *req)
{
    struct sim_msg *msg = req->msg;
    req->complete = TRUE;
    if (req->kind == REQ_RECV) {
        if (msg->rv_get != NULL) {
            /* the sender saw the data land first; my handle of it is done: release it */
            core_comm_wait(msg->rv_get);
            sim_after_yield();
            msg->rv_get = NULL;
        }
        msg_deliver(msg);
        if (observer != NULL)
            observer->received(observer_data, msg->src_world, msg->dst_world, msg->serial);
        double overhead =
            model_transport_recv_cost(&sim_engine_config()->transport, msg->bytes);
        req->msg = NULL;
        msg_unref(msg);
        busy_for(overhead);
    } else {
        if (req->put != NULL) {
            /* the receiver saw the data land first; my handle of it is done: release it */
            core_comm_wait(req->put);
            sim_after_yield();
            req->put = NULL;
        }
        msg_deliver(msg);
        req->status.MPI_ERROR = MPI_SUCCESS;
        req->msg = NULL;
        msg_unref(msg);
    }
}

static struct wait_need
need_transfer(core_comm *comm, enum wait_kind wait, gpointer what)
{
    return (struct wait_need){NEED_TRANSFER, comm, wait, what};
}

/* Answer the envelope of a rendezvous message I matched, once: return its clear-to-send (a
 * one-byte message into its sender's inbox, through my port like any other: the handshake's
 * second half) and post the receive of its data. */
static void
rendezvous_respond(struct sim_rank *me, struct sim_msg *msg)
{
    if (msg->cts != NULL)
        return;
    me->handshakes--;
    struct sim_msg *cts = pool_take(&msg_pool, sizeof *cts);
    cts->kind = MSG_CTS;
    cts->of = msg;
    cts->src_world = me->world_rank;
    cts->dst_world = msg->src_world;
    cts->refs = 1; /* held by msg */
    msg->cts = cts;
    port_submit(me, cts);
    msg->rv_get = core_get_async(msg->rv_mbox, &msg->rv_payload);
    sim_after_yield();
}

/* The clear-to-send of my rendezvous message has arrived: its data leaves, once. */
static void
rendezvous_start_data(struct sim_rank *me, struct sim_msg *msg)
{
    struct collsim_request *sreq = msg->sreq;
    if (msg->cts_arrived)
        return;
    msg->cts_arrived = TRUE;
    me->handshakes--;
    sreq->put = core_put_async(msg->rv_mbox, msg, (long)msg->bytes);
    sim_after_yield();
}

static struct wait_need request_advance_afresh(struct sim_rank *me,
                                               struct collsim_request *req);

/*
 * Move one request as far as it can go without blocking; say what it waits for now. A send
 * or receive that nothing has touched since its last advance is where that advance left it,
 * and advancing it again would do nothing: its last answer is given without reading its
 * message (a rank with W collectives in flight asks again about W requests at each wake-up).
 */
static struct wait_need
request_advance(struct sim_rank *me, struct collsim_request *req)
{
    if (req->need_fresh && !req->complete) {
        if (G_UNLIKELY(check_need_cache)) {
            struct wait_need again = request_advance_afresh(me, req);
            if (again.kind != req->last_need.kind || again.comm != req->last_need.comm ||
                again.wait != req->last_need.wait || again.what != req->last_need.what)
                g_error("COLLSIM_CHECK_NEED_CACHE: rank %d's %s request changed with no "
                        "request_touch",
                        me->world_rank, req->kind == REQ_SEND ? "send" : "receive");
        }
        return req->last_need;
    }
    /* a touch during the advance (it may yield) leaves the answer stale */
    req->need_fresh = req->kind == REQ_SEND || req->kind == REQ_RECV;
    struct wait_need need = request_advance_afresh(me, req);
    if (need.kind == NEED_DONE)
        req->need_fresh = FALSE;
    else if (req->need_fresh)
        req->last_need = need;
    return need;
}

static struct wait_need
request_advance_afresh(struct sim_rank *me, struct collsim_request *req)
{
    static const struct wait_need done = {NEED_DONE, NULL, WAIT_INBOX, NULL};
    static const struct wait_need arrivals = {NEED_ARRIVALS, NULL, WAIT_INBOX, NULL};
    if (req->complete)
        return done;
    if (req->kind == REQ_COLL)
        return arrivals; /* only its flow completes it; never in a transport wait */
    if (req->kind == REQ_GREQUEST)
        return arrivals; /* only MPI_Grequest_complete completes it: a blocked rank never will,
                          * and the deadlock report names it (describe_request) */
    if (req->kind == REQ_ARRIVAL) {
        if (me->generation == req->posted_order)
            return arrivals;
        req->complete = TRUE;
        return done;
    }
    struct sim_msg *msg = req->msg;
    if (req->kind == REQ_SEND) {
        /* rendezvous: the data leaves once the receiver's clear-to-send has arrived, and the
         * send completes once the data has been received */
        if (msg->data_arrived) {
            request_finish(req);
            return done;
        }
        if (!msg->cts_arrived) {
            if (msg->cts == NULL || !msg->cts->announced)
                return arrivals;
            if (msg->cts->inbox == NULL)
                inbox_fetch_all(me);
            return need_transfer(msg->cts->inbox->comm, WAIT_INBOX, msg->cts->inbox);
        }
        return need_transfer(req->put, WAIT_PUT, req);
    }
    if (msg == NULL || !msg->announced)
        return arrivals; /* not matched, or still in its sender's queue: wait for arrivals */
    if (!msg->inbox_arrived) {
        if (msg->inbox == NULL)
            inbox_fetch_all(me);
        return need_transfer(msg->inbox->comm, WAIT_INBOX, msg->inbox);
    }
    if (!msg->eager && !msg->data_arrived) {
        rendezvous_respond(me, msg); /* matched, its envelope here: clear the sender */
        return need_transfer(msg->rv_get, WAIT_RV_GET, msg);
    }
    request_finish(req);
    return done;
}

/*
 * Non-blocking check of every handle in `set`, recording those that finished. (SimGrid 3.32
 * keeps a tested handle in the actor's activity list, which each later completion scans, and
 * its zero-timeout waits drop every handle on timeout; so blocking calls always wait, and
 * only MPI_Test and MPI_Iprobe test.)
 */
static void
wait_set_test(struct wait_set *set)
{
    for (guint i = 0; i < wait_set_count(set); i++) {
        int done = core_comm_test(wait_set_comms(set)[i]);
        sim_after_yield();
        const struct wait_entry *entry = wait_set_entry(set, i);
        if (done)
            transfer_finished(entry->kind, entry->what);
    }
}

enum wait_mode { WAIT_ALL, WAIT_ANY, WAIT_SOME };

/*
 * Wait until the requests satisfy `mode` (all complete / at least one complete), or with
 * !blocking only make what progress can be made now, by advancing every request again after
 * each event: the reference behaviour, which transport_wait() reproduces step for step in
 * blocking waits. `reqs` may hold NULL entries (inactive). Returns the number of complete
 * active requests.
 */
static int
progress_rescan(struct collsim_request **reqs, int n, enum wait_mode mode, gboolean blocking,
                const char *call)
{
    struct sim_rank *me = sim_rank_self();
    struct wait_set set;
    wait_set_init(&set);
    int done;
    for (;;) {
        int active = 0;
        gboolean need_arrivals = FALSE;
        guint64 generation = me->generation;
        done = 0;
        wait_set_truncate(&set, 0);
        for (int i = 0; i < n; i++) {
            if (reqs[i] == NULL)
                continue;
            active++;
            struct wait_need need = request_advance(me, reqs[i]);
            if (need.kind == NEED_DONE)
                done++;
            else if (need.kind == NEED_TRANSFER)
                wait_set_add(&set, need.comm, need.wait, need.what);
            else
                need_arrivals = TRUE;
        }
        if (active == 0 || (mode == WAIT_ALL ? done == active : done > 0))
            break;
        if (!blocking) {
            /* a polling loop answers the handshakes that have arrived, as a blocking wait does */
            for (GList *l = me->handshake_gets.head; l != NULL && me->handshakes > 0; l = l->next) {
                struct sim_inbox_get *get = l->data;
                if (get->comm != NULL)
                    wait_set_add(&set, get->comm, WAIT_INBOX, get);
            }
            wait_set_test(&set);
            done = 0;
            for (int i = 0; i < n; i++)
                if (reqs[i] != NULL && request_advance(me, reqs[i]).kind == NEED_DONE)
                    done++;
            break;
        }
        listen_inbox(me, &set, need_arrivals);
        /* issuing gets let other ranks run: if one of them matched or queued a message for
         * us meanwhile, what we wait for may have changed; look at the requests again */
        if (me->generation != generation)
            continue;
        me->blocked_in = call;
        me->blocked_nreqs = 0;
        for (int i = 0; i < n && me->blocked_nreqs < SIM_BLOCKED_REQS_SHOWN; i++)
            if (reqs[i] != NULL && !reqs[i]->complete)
                me->blocked_reqs[me->blocked_nreqs++] = reqs[i];
        ssize_t index = core_comm_wait_any(wait_set_comms(&set), wait_set_count(&set));
        sim_after_yield();
        me->blocked_in = NULL;
        g_assert(index >= 0);
        const struct wait_entry *entry = wait_set_entry(&set, (guint)index);
        transfer_finished(entry->kind, entry->what);
    }
    wait_set_free(&set);
    return done;
}

/*
 * Blocking waits over many requests (a linear alltoall waits for 2P of them) must not
 * rescan every request after every event, which costs O(k) per event and O(k²) per wait.
 * transport_wait() takes the same steps as progress_rescan() -- the same SimGrid calls in the
 * same order, the same wait set in the same order, hence the same simulation -- but advances
 * again only the requests that are due:
 *
 *  - A request whose advance found it waiting (for arrivals, or for one transfer) stays in
 *    that state, and a rescan would leave it alone and add the same transfer to the set,
 *    until something it looks at changes: its match, its message's announcement, inbox get,
 *    inbox or data arrival, the end of its put. Every such change, by this rank or another,
 *    touches the request (request_touch), which makes it due in its owner's wait. Touching
 *    too often only costs an advance that changes nothing; missing a touch would diverge.
 *  - A rescan visits the requests in order, and an advance may yield, letting other ranks
 *    run. A request touched meanwhile is advanced in the same pass if the scan has not
 *    reached it yet, in the next pass otherwise: due slots ahead of the cursor are in a
 *    min-heap, those behind it wait in `deferred` for the next pass.
 *  - The wait set keeps one entry per request waiting for a transfer, in slot order (what
 *    the rescan builds), updated when an advance changes it; the inbox gets that wait for
 *    arrivals and the port's transfer are appended for one core_comm_wait_any only.
 *  - The first incomplete requests, named by deadlock reports, come from a union-find over
 *    slots that skips the complete ones.
 */
typedef SMALL_VEC(int, WAIT_INLINE) slot_vec;

struct sim_wait {
    struct collsim_request **reqs;
    int n;
    int active;             /* non-NULL requests */
    int complete;           /* requests whose last advance found them complete */
    int awaiting_arrivals;  /* requests whose last advance found them NEED_ARRIVALS */
    int cursor;             /* the current pass has advanced the slots below it */
    slot_vec due;           /* min-heap: slots to advance, at or after the cursor */
    int sweep;              /* the first pass's next slot: every request from it on is due
                             * (a heap of all n slots made each pass O(n log n): a Waitany
                             * over 16383 receives, called 16383 times, was 60 % heap) */
    slot_vec deferred;      /* slots touched behind the cursor, due in the next pass */
    struct wait_set set;    /* the NEED_TRANSFER requests' transfers, by slot (wait_set.h) */
    slot_vec open;          /* union-find, leads to the first incomplete slot >= i */
};

static void
due_push(slot_vec *heap, int slot)
{
    small_vec_push(heap, slot);
    int *h = heap->v;
    guint i = heap->len - 1;
    while (i > 0 && h[(i - 1) / 2] > slot) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = slot;
}

static int
due_pop(slot_vec *heap)
{
    int *h = heap->v;
    int top = h[0];
    int last = h[heap->len - 1];
    guint n = heap->len - 1;
    guint i = 0;
    for (;;) {
        guint child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && h[child + 1] < h[child])
            child++;
        if (last <= h[child])
            break;
        h[i] = h[child];
        i = child;
    }
    h[i] = last;
    heap->len = n;
    return top;
}

/* Something request_advance() looks at changed: advance the request again if it is in its
 * owner's blocking wait. */
static void
request_touch(struct collsim_request *req)
{
    if (req == NULL)
        return;
    req->need_fresh = FALSE;
    if (req->wait_slot < 0 || req->wait_due)
        return;
    struct sim_wait *wait = sim_rank_by_world(req->owner_world)->wait;
    req->wait_due = TRUE;
    if (req->wait_slot < wait->cursor)
        small_vec_push(&wait->deferred, req->wait_slot);
    else
        due_push(&wait->due, req->wait_slot);
}

static int
open_find(slot_vec *open, int slot)
{
    int *next = open->v;
    while (next[slot] != slot) {
        next[slot] = next[next[slot]];
        slot = next[slot];
    }
    return slot;
}

/* Record what the request in `slot` waits for after being advanced. */
static void
wait_note(struct sim_wait *wait, int slot, struct wait_need need)
{
    struct collsim_request *req = wait->reqs[slot];
    enum need_kind old = req->wait_need;
    req->wait_need = need.kind;
    wait->awaiting_arrivals += (need.kind == NEED_ARRIVALS) - (old == NEED_ARRIVALS);
    if (need.kind == NEED_DONE && old != NEED_DONE) {
        wait->complete++;
        wait->open.v[slot] = slot + 1;
    }
    if (old != NEED_TRANSFER && need.kind != NEED_TRANSFER)
        return;
    struct wait_set *set = &wait->set;
    guint pos = wait_set_position(set, slot);
    if (old == NEED_TRANSFER && need.kind == NEED_TRANSFER) {
        set->comms.v[pos] = need.comm;
        set->entries.v[pos].kind = need.wait;
        set->entries.v[pos].what = need.what;
    } else if (old == NEED_TRANSFER) {
        wait_set_remove(set, pos);
    } else {
        wait_set_insert(set, pos, need.comm, need.wait, need.what, slot);
    }
}

/*
 * What a blocking wait listens to besides its requests' own transfers: with `arrivals` (a
 * request waits for a message not yet announced) or while a rendezvous handshake is owed or
 * awaited, a pending get for the next arrival; with handshakes, also every fetched get that
 * carries one, so that the rank answers envelopes and starts data whatever it waits for. Gets
 * already in the set are not added twice.
 */
static void
listen_inbox(struct sim_rank *me, struct wait_set *set, gboolean arrivals)
{
    if (!arrivals && me->handshakes <= 0)
        return;
    inbox_ensure_pending(me);
    for (struct sim_inbox_get *get = me->pending_gets_head; get != NULL; get = get->pending_next)
        wait_set_append(set, get->comm, WAIT_INBOX, get);
    if (me->handshakes <= 0 || g_queue_is_empty(&me->handshake_gets))
        return;
    guint present = wait_set_len(set);
    for (guint i = set->start; i < present; i++)
        if (set->entries.v[i].kind == WAIT_INBOX)
            ((struct sim_inbox_get *)set->entries.v[i].what)->listed = TRUE;
    for (GList *l = me->handshake_gets.head; l != NULL; l = l->next) {
        struct sim_inbox_get *get = l->data;
        if (!get->listed && get->comm != NULL)
            wait_set_append(set, get->comm, WAIT_INBOX, get);
    }
    for (guint i = set->start; i < present; i++)
        if (set->entries.v[i].kind == WAIT_INBOX)
            ((struct sim_inbox_get *)set->entries.v[i].what)->listed = FALSE;
}

/*
 * Start a blocking wait over `reqs`, every request due. NULL when a request is given twice
 * (erroneous in MPI, but progress_rescan() copes with it).
 */
static struct sim_wait *
wait_begin(struct sim_rank *me, struct collsim_request **reqs, int n)
{
    if (me->wait == NULL) {
        me->wait = g_new0(struct sim_wait, 1);
        small_vec_init(&me->wait->due);
        small_vec_init(&me->wait->deferred);
        wait_set_init(&me->wait->set);
        small_vec_init(&me->wait->open);
    }
    struct sim_wait *wait = me->wait;
    for (int i = 0; i < n; i++) {
        if (reqs[i] != NULL && reqs[i]->wait_slot >= 0) {
            for (int j = 0; j < i; j++)
                if (reqs[j] != NULL)
                    reqs[j]->wait_slot = -1;
            return NULL;
        }
        if (reqs[i] != NULL)
            reqs[i]->wait_slot = i;
    }
    wait->reqs = reqs;
    wait->n = n;
    wait->active = 0;
    wait->complete = 0;
    wait->awaiting_arrivals = 0;
    wait->cursor = 0;
    wait->due.len = 0;
    wait->deferred.len = 0;
    wait_set_truncate(&wait->set, 0);
    small_vec_set_len(&wait->open, (guint)n + 1);
    for (int i = 0; i <= n; i++) {
        struct collsim_request *req = i < n ? reqs[i] : NULL;
        wait->open.v[i] = req != NULL || i == n ? i : i + 1;
        if (req == NULL)
            continue;
        wait->active++;
        req->wait_due = TRUE;
        req->wait_need = NEED_UNKNOWN;
    }
    wait->sweep = 0; /* all of them, in slot order */
    return wait;
}

static void
wait_end(struct sim_wait *wait)
{
    for (int i = 0; i < wait->n; i++) {
        if (wait->reqs[i] != NULL) {
            wait->reqs[i]->wait_slot = -1;
            wait->reqs[i]->wait_due = FALSE;
        }
    }
    wait->reqs = NULL;
    wait->n = 0;
}

static void
wait_free(struct sim_wait *wait)
{
    if (wait == NULL)
        return;
    small_vec_free(&wait->due);
    small_vec_free(&wait->deferred);
    wait_set_free(&wait->set);
    small_vec_free(&wait->open);
    g_free(wait);
}

/* The set holds, in slot order and once each, the transfers of exactly the requests whose last
 * advance answered NEED_TRANSFER; a wait that broke it would listen to the wrong transfers, or
 * take simultaneous ends in another order. */
static void
wait_set_check(const struct sim_rank *me, const struct sim_wait *wait)
{
    const struct wait_set *set = &wait->set;
    guint start = set->start, len = wait_set_len(set);
    int transfers = 0;
    for (int i = 0; i < wait->n; i++)
        transfers += wait->reqs[i] != NULL && wait->reqs[i]->wait_need == NEED_TRANSFER;
    gboolean ok = start <= len && len == set->entries.len && len - start == (guint)transfers;
    for (guint i = start; ok && i < len; i++) {
        int slot = set->entries.v[i].slot;
        ok = slot >= 0 && slot < wait->n && wait->reqs[slot] != NULL &&
             wait->reqs[slot]->wait_need == NEED_TRANSFER && set->comms.v[i] != NULL &&
             (i == start || set->entries.v[i - 1].slot < slot);
    }
    if (!ok)
        g_error("COLLSIM_CHECK_WAIT_SET: rank %d's wait over %d requests has a set of %u "
                "entries from %u, for %d transfers", me->world_rank, wait->n, len, start,
                transfers);
}

/* One pass of the rescan, over the due requests only, in slot order. */
static void
wait_pass(struct sim_rank *me, struct sim_wait *wait)
{
    for (;;) {
        /* the lower of the sweep's next request and the heap's top (never the same slot: a
         * request of the sweep is due until advanced, so a touch does not push it) */
        while (wait->sweep < wait->n && wait->reqs[wait->sweep] == NULL)
            wait->sweep++;
        int slot;
        if (wait->sweep < wait->n && (wait->due.len == 0 || wait->sweep < wait->due.v[0]))
            slot = wait->sweep++;
        else if (wait->due.len > 0)
            slot = due_pop(&wait->due);
        else
            break;
        struct collsim_request *req = wait->reqs[slot];
        wait->cursor = slot + 1;
        req->wait_due = FALSE;
        wait_note(wait, slot, request_advance(me, req));
    }
    wait->cursor = 0;
    for (guint i = 0; i < wait->deferred.len; i++)
        due_push(&wait->due, wait->deferred.v[i]);
    wait->deferred.len = 0;
    if (G_UNLIKELY(check_wait_set))
        wait_set_check(me, wait);
}

/*
 * Block until the point-to-point requests `reqs` satisfy `mode` (all complete / at least one
 * complete), or with !blocking make what progress can be made now. `reqs` may hold NULL
 * entries (inactive). Returns the number of complete active requests. The rank's flows do not
 * run meanwhile: progress_wait() below is the wait of MPI calls. A `deadline` >= 0 (simulated
 * seconds) also ends a blocking wait when the clock reaches it.
 */
static int
transport_wait_until(struct collsim_request **reqs, int n, enum wait_mode mode,
                     gboolean blocking, double deadline, const char *call)
{
    struct sim_rank *me = sim_rank_self();
    struct sim_wait *wait = blocking ? wait_begin(me, reqs, n) : NULL;
    if (wait == NULL)
        return progress_rescan(reqs, n, mode, blocking, call);
    for (;;) {
        guint64 generation = me->generation;
        wait_pass(me, wait);
        if (wait->active == 0 ||
            (mode == WAIT_ALL ? wait->complete == wait->active : wait->complete > 0))
            break;
        struct wait_set *set = &wait->set;
        guint requested = wait_set_len(set);
        listen_inbox(me, set, wait->awaiting_arrivals > 0);
        /* issuing gets let other ranks run: if one of them matched or queued a message for
         * us meanwhile, what we wait for may have changed; look at the requests again */
        if (me->generation != generation) {
            wait_set_truncate(set, requested);
            continue;
        }
        me->blocked_in = call;
        me->blocked_nreqs = 0;
        for (int i = open_find(&wait->open, 0); i < n && me->blocked_nreqs < SIM_BLOCKED_REQS_SHOWN;
             i = open_find(&wait->open, i + 1))
            me->blocked_reqs[me->blocked_nreqs++] = reqs[i];
        core_comm **comms = wait_set_comms(set);
        guint count = wait_set_count(set);
        ssize_t index = deadline < 0.0
                            ? core_comm_wait_any(comms, count)
                            : core_comm_wait_any_until(comms, count,
                                                      MAX(deadline - core_clock(), 0.0));
        sim_after_yield();
        me->blocked_in = NULL;
        if (index < 0) { /* the deadline: every transfer is still in flight, and still ours */
            wait_set_truncate(set, requested);
            break;
        }
        struct wait_entry entry = *wait_set_entry(set, (guint)index);
        wait_set_truncate(set, requested);
        transfer_finished(entry.kind, entry.what);
    }
    int complete = wait->complete;
    wait_end(wait);
    return complete;
}

static int
transport_wait(struct collsim_request **reqs, int n, enum wait_mode mode, gboolean blocking,
               const char *call)
{
    return transport_wait_until(reqs, n, mode, blocking, -1.0, call);
}

/* ---------------------------------------------------------------- nonblocking collectives */

/*
 * A nonblocking collective runs its algorithm -- the blocking one, unchanged -- on a flow of
 * its rank (flow.h). Progress happens inside the rank's MPI calls, as in an MPI library
 * without a progress thread:
 *
 *  - the call starts the flow, which runs until its first blocking step, so the first
 *    messages leave at the call;
 *  - a blocking step inside the flow advances its requests without waiting; while they are
 *    not done, the flow parks (remembering them) and yields back to the rank;
 *  - every MPI call that progresses (waits, tests, blocking point-to-point, blocking
 *    collectives) first resumes each parked flow, oldest first; when it must block, it blocks
 *    on the union of its own requests and the parked flows' ones (transport_wait, any mode),
 *    then resumes the flows again. So a rank blocked in any MPI call keeps every collective it
 *    started moving, as MPI's progress rule requires, and a rank computing outside MPI does
 *    not (its flows only move when it calls MPI again).
 *
 * With no flow in flight, and no nonblocking collective among the requests, the waits are
 * exactly transport_wait's.
 */

static void coll_request_finished(struct sim_rank *me, struct collsim_request *req);

/* Resume one parked flow; complete its request if it returned. The flow marks its blocking
 * calls' own requests unseen as the rank does (requests_unseen), from where it stopped: in a
 * wait, outside any such call's posting. */
static void
flow_step(struct sim_rank *me, struct collsim_request *req)
{
    struct flow_parking *parking = me->flow_parking;
    for (guint i = 0; i < parking->unstepped.len; i++)
        if (parking->unstepped.v[i] == req) {
            small_vec_remove(&parking->unstepped, i);
            break;
        }
    gboolean rank_unseen = me->requests_unseen;
    me->requests_unseen = FALSE;
    me->running_coll = req;
    gboolean ended = sim_flow_resume(req->flow);
    me->running_coll = NULL;
    me->requests_unseen = rank_unseen;
    if (ended)
        coll_request_finished(me, req);
}

/* The first parked entry of a flow started after the `seq`th. */
static guint
parked_after(const struct flow_parking *parking, guint64 seq)
{
    guint low = 0, high = parking->parked.len;
    while (low < high) {
        guint mid = low + (high - low) / 2;
        if (parking->parked.v[mid].seq <= seq)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

/* A flow parks in a step waiting for `reqs` (`mode`): its requests not complete yet join the
 * table, after those of the flows started before it. */
static void
parking_enter(struct sim_rank *me, struct collsim_request *self, struct collsim_request **reqs,
              int n, enum wait_mode mode)
{
    struct flow_parking *parking = me->flow_parking;
    guint at = parked_after(parking, self->flow_seq);
    for (int i = 0; i < n; i++) {
        if (reqs[i] == NULL || reqs[i]->complete)
            continue;
        struct parked_entry entry = {self->flow_seq, self, reqs[i], mode};
        small_vec_insert(&parking->parked, at, entry);
        at++;
    }
}

/* The flow resumes: its entries leave the table. */
static void
parking_leave(struct sim_rank *me, const struct collsim_request *self)
{
    struct flow_parking *parking = me->flow_parking;
    guint end = parked_after(parking, self->flow_seq);
    guint begin = parked_after(parking, self->flow_seq - 1);
    memmove(&parking->parked.v[begin], &parking->parked.v[end],
            (parking->parked.len - end) * sizeof parking->parked.v[0]);
    parking->parked.len -= end - begin;
}

/* The first flow started after the `seq`th whose parked step is done (its requests satisfy
 * its mode), if it started before `before` (NULL: any). The waits that include those
 * requests advance them meanwhile; a flow is resumed only to take the next step. */
static struct collsim_request *
parked_done_after(const struct flow_parking *parking, guint64 seq,
                  const struct collsim_request *before)
{
    guint i = parked_after(parking, seq);
    const struct parked_entry *v = parking->parked.v;
    while (i < parking->parked.len && (before == NULL || v[i].seq < before->flow_seq)) {
        gboolean all = TRUE, any = FALSE;
        guint j = i;
        for (; j < parking->parked.len && v[j].seq == v[i].seq; j++) {
            all = all && v[j].req->complete;
            any = any || v[j].req->complete;
        }
        if (v[i].mode == WAIT_ALL ? all : any)
            return v[i].coll;
        i = j;
    }
    return NULL;
}

/*
 * Resume every flow of the rank that can go on, oldest first, in one pass: a flow that a step
 * of an older one lets go on is resumed in the same pass, one older than the last resumed
 * waits for the next pass. A flow that finishes leaves the list. A flow is parked (its entries
 * in the table) or has never run (started inside another flow), so the pass reads the table,
 * not every collective in flight.
 */
static void
flows_pass(struct sim_rank *me)
{
    struct flow_parking *parking = me->flow_parking;
    guint64 after = 0;
    while (!g_queue_is_empty(&me->coll_requests)) {
        struct collsim_request *next = NULL;
        for (guint i = 0; i < parking->unstepped.len && next == NULL; i++)
            if (parking->unstepped.v[i]->flow_seq > after)
                next = parking->unstepped.v[i];
        struct collsim_request *parked = parked_done_after(parking, after, next);
        if (parked != NULL)
            next = parked;
        if (next == NULL)
            return;
        /* the pass ends with the newest flow: one started by its step waits for the next */
        gboolean newest = next == g_queue_peek_tail(&me->coll_requests);
        after = next->flow_seq;
        flow_step(me, next);
        if (newest)
            return;
    }
}

/*
 * Passes until no flow can go on. Only a collective started inside a flow (by an attribute
 * copy callback of MPI_Comm_idup, whose work runs on a flow, that starts one and waits for
 * it) makes a second pass: it is newer than the flow that waits for it, so it runs, and may
 * return, after that flow's turn; the rank's wait, blind to both, would block for good.
 */
static void
flows_run(struct sim_rank *me)
{
    struct flow_parking *parking = me->flow_parking;
    if (parking == NULL)
        return;
    do {
        parking->nested_finished = FALSE;
        flows_pass(me);
    } while (parking->unstepped.len > 0 || parking->nested_finished);
}

/* The flow's start: run the collective, then hand its result to the request. */
static int
coll_flow_main(gpointer data)
{
    struct collsim_request *req = data;
    return req->job(req->job_data);
}

static guint64 buffer_digest(const guint8 *p, gsize len);

/* The pieces a collective writes, digested as they are now (its flow parks, or it ends). */
static void
coll_watch_digest_written(struct coll_watch *watch)
{
    for (int i = 0; i < watch->n; i++)
        if (watch->span[i].writes)
            watch->span[i].digest = buffer_digest(watch->span[i].buf, watch->span[i].len);
}

static void
coll_request_finished(struct sim_rank *me, struct collsim_request *req)
{
    req->complete = TRUE;
    struct coll_watch *watch = req->coll_watch;
    if (watch != NULL && !watch->ended) {
        watch->ended = TRUE;
        coll_watch_digest_written(watch);
    }
    if (!req->p2p_flow) { /* an MPI_Isendrecv's flow left its receive's status there */
        req->status.MPI_SOURCE = MPI_ANY_SOURCE;
        req->status.MPI_TAG = MPI_ANY_TAG;
        req->status.collsim_bytes = 0;
    }
    req->status.MPI_ERROR = sim_flow_result(req->flow);
    sim_flow_free(req->flow);
    req->flow = NULL;
    g_queue_remove(&me->coll_requests, req);
    me->flow_parking->finished++;
    if (req->in_flow)
        me->flow_parking->nested_finished = TRUE;
}

static int
start_flow(int (*fn)(void *data), void *data, MPI_Comm comm, const char *call, gboolean p2p,
           MPI_Request *request)
{
    struct sim_rank *me = sim_rank_self();
    struct collsim_request *req = request_new(REQ_COLL, comm, 0);
    if (me->flow_parking == NULL) {
        me->flow_parking = g_new0(struct flow_parking, 1);
        small_vec_init(&me->flow_parking->parked);
        small_vec_init(&me->flow_parking->unstepped);
    }
    req->flow_seq = ++me->flow_parking->started;
    req->p2p_flow = p2p;
    req->call = call;
    req->job = fn;
    req->job_data = data;
    req->flow = sim_flow_new(coll_flow_main, req,
                             (gsize)sim_engine_stack_kib(sim_engine_config()) * 1024u);
    g_queue_push_tail(&me->coll_requests, req);
    *request = req;
    if (me->running_flow == NULL)
        flow_step(me, req);
    else
        small_vec_push(&me->flow_parking->unstepped, req);
    return MPI_SUCCESS;
}

int
sim_p2p_start_nonblocking(int (*fn)(void *data), void *data, MPI_Comm comm, const char *call,
                          MPI_Request *request)
{
    return start_flow(fn, data, comm, call, FALSE, request);
}

/* The request of the flow running now. */
static struct collsim_request *
flow_self(struct sim_rank *me)
{
    g_assert(me->running_coll != NULL && me->running_coll->flow == me->running_flow);
    return me->running_coll;
}

/* A flow parks: digest the buffers it writes, which nothing but a message may change until
 * it resumes. */
static void
coll_watch_park(const struct sim_rank *me, struct coll_watch *watch)
{
    watch->landings_seen = me->flow_landed;
    coll_watch_digest_written(watch);
}

/* Whether a message for one of the rank's flows landed on the piece since the flow parked
 * (or may have: the ring went round). */
static gboolean
landed_on(const struct sim_rank *me, guint64 since, uintptr_t lo, uintptr_t hi)
{
    if (me->flow_landed - since > FLOW_LANDINGS)
        return TRUE;
    const struct flow_landings *landings = me->flow_landings;
    for (guint64 n = since; n < me->flow_landed; n++) {
        guint64 k = n % FLOW_LANDINGS;
        if (landings->at[k].lo < hi && lo < landings->at[k].hi)
            return TRUE;
    }
    return FALSE;
}

static void
coll_watch_resume(const struct sim_rank *me, struct coll_watch *watch)
{
    for (int i = 0; i < watch->n && watch->tampered == 0; i++) {
        uintptr_t lo = (uintptr_t)watch->span[i].buf;
        if (watch->span[i].writes &&
            !landed_on(me, watch->landings_seen, lo, lo + watch->span[i].len) &&
            buffer_digest(watch->span[i].buf, watch->span[i].len) != watch->span[i].digest)
            watch->tampered = i + 1;
    }
}

/* A blocking step inside a flow: advance the requests (no transfer is waited for here); while
 * they do not satisfy `mode`, park and let the rank go on. */
static int
flow_wait(struct sim_rank *me, struct collsim_request **reqs, int n, enum wait_mode mode)
{
    struct collsim_request *self = flow_self(me);
    for (;;) {
        int active = 0;
        int done = 0;
        for (int i = 0; i < n; i++) {
            if (reqs[i] == NULL)
                continue;
            active++;
            if (request_advance(me, reqs[i]).kind == NEED_DONE)
                done++;
        }
        if (active == 0 || (mode == WAIT_ALL ? done == active : done > 0))
            return done;
        if (self->coll_watch != NULL)
            coll_watch_park(me, self->coll_watch);
        parking_enter(me, self, reqs, n, mode);
        sim_flow_yield();
        parking_leave(me, self);
        if (self->coll_watch != NULL)
            coll_watch_resume(me, self->coll_watch);
    }
}

/* The point-to-point requests the rank's parked flows wait for and that are not done. */
static void
flows_needs(struct sim_rank *me, GPtrArray *into)
{
    const struct flow_parking *parking = me->flow_parking;
    for (guint i = 0; parking != NULL && i < parking->parked.len; i++)
        if (!parking->parked.v[i].req->complete)
            g_ptr_array_add(into, parking->parked.v[i].req);
}

/* How many active requests of `reqs` are complete (a collective's flag is its flow's end). */
static int
count_complete(struct sim_rank *me, struct collsim_request **reqs, int n, int *active,
               GPtrArray *incomplete)
{
    int done = 0;
    *active = 0;
    for (int i = 0; i < n; i++) {
        if (reqs[i] == NULL)
            continue;
        (*active)++;
        gboolean complete = reqs[i]->kind == REQ_COLL
                                ? reqs[i]->complete
                                : request_advance(me, reqs[i]).kind == NEED_DONE;
        if (complete)
            done++;
        else if (incomplete != NULL && reqs[i]->kind != REQ_COLL)
            g_ptr_array_add(incomplete, reqs[i]);
    }
    return done;
}

/* progress_wait() when the rank has flows in flight or waits for a collective's request. */
static int
progress_with_flows(struct sim_rank *me, struct collsim_request **reqs, int n,
                    enum wait_mode mode, gboolean blocking, const char *call)
{
    GPtrArray *wanted = g_ptr_array_new();
    /* a collective's request completes only when its flow returns: while the requests are
     * all collectives' and no flow has returned, their count stands (a wait for W of them
     * would read them all at each wake-up) */
    gboolean only_collectives = TRUE;
    for (int i = 0; i < n; i++)
        only_collectives = only_collectives && (reqs[i] == NULL || reqs[i]->kind == REQ_COLL);
    only_collectives = only_collectives && me->flow_parking != NULL;
    guint64 finished_counted = G_MAXUINT64; /* none counted yet */
    int done = 0, active = 0;
    for (;;) {
        flows_run(me);
        g_ptr_array_set_size(wanted, 0);
        if (!only_collectives || me->flow_parking->finished != finished_counted) {
            done = count_complete(me, reqs, n, &active, wanted);
            if (only_collectives)
                finished_counted = me->flow_parking->finished;
        }
        if (active == 0 || (mode == WAIT_ALL ? done == active : done > 0))
            break;
        flows_needs(me, wanted);
        if (!blocking) {
            /* a test: whatever has arrived is taken in, then the flows move on with it */
            if (wanted->len > 0)
                transport_wait((struct collsim_request **)wanted->pdata, (int)wanted->len,
                               WAIT_ANY, FALSE, call);
            flows_run(me);
            done = count_complete(me, reqs, n, &active, NULL);
            break;
        }
        g_assert(wanted->len > 0); /* a flow parks only on requests that are not done */
        transport_wait((struct collsim_request **)wanted->pdata, (int)wanted->len, WAIT_ANY,
                       TRUE, call);
    }
    g_ptr_array_free(wanted, TRUE);
    return done;
}

/*
 * The wait of MPI calls: block until the requests satisfy `mode` (all complete / at least one
 * complete), or with !blocking make what progress can be made now, moving the rank's
 * nonblocking collectives meanwhile. `reqs` may hold NULL entries (inactive). Returns the
 * number of complete active requests.
 */
static int progress_wait_untraced(struct collsim_request **reqs, int n, enum wait_mode mode,
                                  gboolean blocking, const char *call);

static int
progress_wait(struct collsim_request **reqs, int n, enum wait_mode mode, gboolean blocking,
              const char *call)
{
    if (!RECORDER_ON() || !blocking)
        return progress_wait_untraced(reqs, n, mode, blocking, call);
    recorder_begin(RECORDER_WAIT, call, -1, NULL, 0, MPI_COMM_NULL);
    int complete = progress_wait_untraced(reqs, n, mode, blocking, call);
    recorder_end(RECORDER_WAIT);
    return complete;
}

static int
progress_wait_untraced(struct collsim_request **reqs, int n, enum wait_mode mode,
                       gboolean blocking, const char *call)
{
    struct sim_rank *me = sim_rank_self();
    if (me->running_flow != NULL)
        return blocking ? flow_wait(me, reqs, n, mode)
                        : transport_wait(reqs, n, mode, FALSE, call);
    gboolean collective = !g_queue_is_empty(&me->coll_requests);
    for (int i = 0; i < n && !collective; i++)
        collective = reqs[i] != NULL && reqs[i]->kind == REQ_COLL;
    if (collective)
        return progress_with_flows(me, reqs, n, mode, blocking, call);
    return transport_wait(reqs, n, mode, blocking, call);
}

/*
 * Computing for `seconds` (collsim_compute). Under the asynchronous progress model the rank's
 * nonblocking collectives move meanwhile: the rank waits, until the end of the computation,
 * on the transfers its parked flows wait for, and resumes each flow as soon as its step is
 * done, so a collective advances exactly as it would inside an MPI_Wait of the same length.
 * The CPU overheads of the messages those steps send and receive are the progress engine's,
 * not the computation's: they run inside the computation's interval (a step that starts just
 * before its end may end after it, and the computation with it). Under the default model, or
 * with no collective in flight, it is plain computing.
 */
void
sim_p2p_compute(double seconds)
{
    struct sim_rank *me = sim_rank_self();
    if (RECORDER_ON())
        recorder_begin(RECORDER_COMPUTE, "compute", -1, NULL, 0, MPI_COMM_NULL);
    if (sim_engine_config()->transport.progress != MODEL_PROGRESS_ASYNC ||
        me->running_flow != NULL || g_queue_is_empty(&me->coll_requests)) {
        core_sleep_for(seconds);
        sim_after_yield();
        if (RECORDER_ON())
            recorder_end(RECORDER_COMPUTE);
        return;
    }
    double deadline = core_clock() + seconds;
    GPtrArray *wanted = g_ptr_array_new();
    for (;;) {
        flows_run(me);
        double left = deadline - core_clock();
        if (left <= 0.0)
            break;
        g_ptr_array_set_size(wanted, 0);
        flows_needs(me, wanted);
        if (wanted->len == 0) {
            core_sleep_for(left);
            sim_after_yield();
            break;
        }
        transport_wait_until((struct collsim_request **)wanted->pdata, (int)wanted->len,
                             WAIT_ANY, TRUE, deadline, "collsim_compute");
    }
    g_ptr_array_free(wanted, TRUE);
    if (RECORDER_ON())
        recorder_end(RECORDER_COMPUTE);
}

/* ---------------------------------------------------------------- argument checks */

static int
check_comm(MPI_Comm comm, const char *call)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator");
    /* a shared object reaches a non-member only through a stray copy of the handle */
    if (collsim_comm_my_rank(comm) == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             sim_rank_self()->world_rank);
    return MPI_SUCCESS;
}

static int
check_buffer(MPI_Comm comm, const void *buf, int count, MPI_Datatype dt, const char *call)
{
    if (count < 0)
        return collsim_error(comm, MPI_ERR_COUNT, call, "negative count %d", count);
    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TYPE, call, "invalid datatype: %s",
                             collsim_datatype_problem(dt));
    return collsim_buffer_check(comm, buf, count, dt, "buf", call);
}

static int
check_peer(MPI_Comm comm, int peer, gboolean wildcard_ok, const char *what, const char *call)
{
    int size = collsim_comm_peer_size(comm); /* the remote group's on an inter-communicator */
    if (peer == MPI_PROC_NULL || (wildcard_ok && peer == MPI_ANY_SOURCE))
        return MPI_SUCCESS;
    if (peer < 0 || peer >= size)
        return collsim_error(comm, MPI_ERR_RANK, call, "invalid %s rank %d (communicator size %d)",
                             what, peer, size);
    return MPI_SUCCESS;
}

static int
check_tag(MPI_Comm comm, int tag, gboolean wildcard_ok, const char *call)
{
    if ((wildcard_ok && tag == MPI_ANY_TAG) || (tag >= 0 && tag <= P2P_TAG_UB))
        return MPI_SUCCESS;
    /* the hidden collective communicators may use collsim's reserved negative tags */
    if (tag < MPI_ANY_TAG && collsim_comm_is_internal(comm))
        return MPI_SUCCESS;
    return collsim_error(comm, MPI_ERR_TAG, call, "invalid tag %d", tag);
}

static int
check_initialized(const char *call)
{
    const struct sim_rank *me = sim_rank_self();
    if (me != NULL && me->mpi_state == 1)
        return MPI_SUCCESS; /* every call's path: no hook */
    if (me == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, call, "called before MPI_Init");
    return collsim_check_live(call);
}

/* The checks of one point-to-point half in the standard's order: a receive may name the
 * wildcards, a send may not; peer is the destination of a send, the source of a receive. */
static int
check_p2p_args(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
               gboolean is_recv, const char *call)
{
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = check_comm(comm, call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_buffer(comm, buf, count, dt, call);
    if (rc == MPI_SUCCESS && is_recv && collsim_datatype_overlaps(dt, count))
        rc = collsim_error(comm, MPI_ERR_TYPE, call,
                           "%d item(s) of %s have entries that overlap: a receive's datatype may "
                           "not (MPI-3.1 4.1.1), the bytes written twice would be undefined",
                           count, collsim_datatype_name(dt));
    if (rc == MPI_SUCCESS)
        rc = check_peer(comm, peer, is_recv, is_recv ? "source" : "destination", call);
    if (rc == MPI_SUCCESS)
        rc = check_tag(comm, tag, is_recv, call);
    return rc;
}

static int
check_send_args(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                const char *call)
{
    return check_p2p_args(buf, count, dt, dest, tag, comm, FALSE, call);
}

static int
check_recv_args(void *buf, int count, MPI_Datatype dt, int source, int tag, MPI_Comm comm,
                const char *call)
{
    return check_p2p_args(buf, count, dt, source, tag, comm, TRUE, call);
}

/* ---------------------------------------------------------------- completion reporting */

/*
 * A status out of a call that completes or probes one request or message: every field but
 * MPI_ERROR, which MPI-3.1 §3.2.5 leaves to the calls that can return MPI_ERR_IN_STATUS
 * (MPI_Waitall, MPI_Testall, MPI_Waitsome, MPI_Testsome: status_error sets it there). Open MPI
 * and MPICH both leave the program's value in place (MPICH's pt2pt/mprobe checks it).
 */
static void
copy_status(MPI_Status *status, const struct collsim_request *req)
{
    if (status != MPI_STATUS_IGNORE) {
        int kept = status->MPI_ERROR;
        *status = req->status;
        status->MPI_ERROR = kept;
    }
}

/* The error field of one status of a call that can return MPI_ERR_IN_STATUS. */
static void
status_error(MPI_Status *status, int error)
{
    if (status != MPI_STATUS_IGNORE)
        status->MPI_ERROR = error;
}

static int greq_retire(MPI_Request *handle, MPI_Status *status, const char *call);
static int greq_query(struct collsim_request *req, MPI_Status *status, const char *call);
static int greq_free(MPI_Request *request);

/*
 * Send buffers left alone: MPI-3.1 3.7.2 forbids changing a nonblocking send's buffer until
 * the send completes. A program that does gets away with it under every MPI while its
 * messages go eagerly (they are copied at the call) and sends what it wrote later once they
 * do not: a bug that stays hidden until the sizes grow. collsim takes a digest of the buffer
 * at the call and compares it when the program sees the send complete (MPI_Wait, MPI_Test
 * and the others), refusing a changed buffer with MPI_ERR_BUFFER. Contiguous buffers only
 * (a derived type's holes are the program's to write); up to WATCH_WHOLE bytes the digest
 * covers every byte, above that WATCH_WINDOWS windows spread over the buffer, so that it
 * costs what a copy of 1 KiB costs whatever the size (a whole 4 KiB made osu_bw's sizes up to
 * 64 KiB 15 % slower).
 */
#define WATCH_WHOLE 1024
#define WATCH_WINDOWS 16
#define WATCH_WINDOW 64

/* Four independent lanes of 8-byte words (the multiplications overlap), then the tail. */
static guint64
digest_mix(guint64 h, const guint8 *p, gsize len)
{
    const guint64 k = G_GUINT64_CONSTANT(0x9E3779B97F4A7C15);
    guint64 lane[4] = {h, h ^ 1, h ^ 2, h ^ 3};
    gsize i = 0;
    for (; i + 32 <= len; i += 32)
        for (int l = 0; l < 4; l++) {
            guint64 w;
            memcpy(&w, p + i + 8 * l, 8);
            lane[l] = (lane[l] ^ w) * k;
            lane[l] ^= lane[l] >> 29;
        }
    h = lane[0] ^ (lane[1] * 3) ^ (lane[2] * 5) ^ (lane[3] * 7);
    for (; i < len; i += 8) {
        guint64 w = 0;
        memcpy(&w, p + i, MIN((gsize)8, len - i));
        h = (h ^ w) * k;
        h ^= h >> 29;
    }
    return h;
}

/* A receive buffer is digested before anything wrote it, its bytes often uninitialized: under
 * valgrind the digest itself is declared defined, so that comparing two is no error of the
 * program's (its bytes stay as valgrind knew them). */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define DIGEST_DEFINED(h) VALGRIND_MAKE_MEM_DEFINED(&(h), sizeof(h))
#endif
#endif
#ifndef DIGEST_DEFINED
#define DIGEST_DEFINED(h) ((void)0)
#endif

static guint64
buffer_digest(const guint8 *p, gsize len)
{
    guint64 h = len;
    if (len < 8) {
        /* the bytes themselves, tagged with their number: exact, and cheap for the small
         * pieces of a collective's buffer */
        memcpy(&h, p, len);
        h = (h << 3 | len) ^ ((guint64)len << 61);
    } else if (len <= WATCH_WHOLE)
        h = digest_mix(len, p, len);
    else
        for (gsize w = 0; w < WATCH_WINDOWS; w++)
            h = digest_mix(h, p + w * (len - WATCH_WINDOW) / (WATCH_WINDOWS - 1), WATCH_WINDOW);
    DIGEST_DEFINED(h);
    return h;
}

static void
watch_send_buffer(MPI_Request req, const void *buf, int count, MPI_Datatype dt, MPI_Comm comm,
                  const char *call, const void *site)
{
    gsize bytes = collsim_datatype_packed_size(count, dt);
    if (req == MPI_REQUEST_NULL || req->kind != REQ_SEND || bytes == 0 || !coll_check_enabled() ||
        collsim_comm_is_internal(comm) || !collsim_datatype_is_contiguous(dt) ||
        sim_engine_config()->payload != SIM_PAYLOAD_DATA || sim_scratch_contains(buf))
        return;
    req->watch = pool_take(&watch_pool, sizeof *req->watch);
    *req->watch = (struct send_watch){buf, bytes, buffer_digest(buf, bytes), site};
    req->call = call;
}

/*
 * A nonblocking collective's buffers (runtime hook watch_buffers), all digested now: the
 * operation has ended, or parked (it runs until its first blocking step at the call), and
 * the program has not touched them yet. The written ones are cut into pieces.
 */
void
sim_p2p_watch_buffers(MPI_Request req, const struct collsim_span *spans, int n, const char *call,
                      const void *site)
{
    if (req == MPI_REQUEST_NULL || req->kind != REQ_COLL || req->p2p_flow ||
        req->coll_watch != NULL || sim_engine_config()->payload != SIM_PAYLOAD_DATA)
        return;
    struct collsim_span kept[COLLSIM_WATCHED_SPANS];
    int n_kept = 0, reads = 0, writes = 0;
    for (int i = 0; i < n && i < COLLSIM_WATCHED_SPANS; i++)
        if (!sim_scratch_contains(spans[i].buf)) {
            kept[n_kept++] = spans[i];
            reads += !spans[i].writes;
            writes += spans[i].writes != 0;
        }
    if (n_kept == 0)
        return;
    /* the room the read spans leave, shared among the written ones; a record of the pieces
     * there are, no more (a small reduction's has 2 or 3) */
    int pieces = writes > 0 ? MAX(1, (COLL_WATCH_SPANS - reads) / writes) : 0;
    gsize piece[COLLSIM_WATCHED_SPANS];
    int room = 0;
    for (int i = 0; i < n_kept; i++) {
        gsize len = kept[i].bytes;
        piece[i] = kept[i].writes
                       ? MAX((len + (gsize)pieces - 1) / (gsize)pieces, COLL_WATCH_PIECE)
                       : len;
        room += (int)((len + piece[i] - 1) / piece[i]);
    }
    room = MIN(room, COLL_WATCH_SPANS);
    struct coll_watch *watch =
        g_malloc0(sizeof *watch + (gsize)room * sizeof watch->span[0]);
    watch->site = site;
    watch->call = call;
    watch->ended = req->complete;
    for (int i = 0; i < n_kept; i++) {
        const guint8 *buf = kept[i].buf;
        gsize len = kept[i].bytes;
        for (gsize at = 0; at < len && watch->n < room; at += piece[i]) {
            int k = watch->n++;
            watch->span[k].buf = buf + at;
            watch->span[k].len = MIN(piece[i], len - at);
            watch->span[k].writes = kept[i].writes;
            watch->span[k].offset = at;
            watch->span[k].whole = len;
            watch->span[k].digest = buffer_digest(watch->span[k].buf, watch->span[k].len);
        }
    }
    req->coll_watch = watch;
    coll_watches_live++;
    struct sim_rank *me = sim_rank_self();
    if (me->flow_landings == NULL)
        me->flow_landings = g_new0(struct flow_landings, 1);
    watch->landings_seen = me->flow_landed;
}

/* The first of a collective's watched spans that changed (read: since the call; written:
 * since the operation ended), or -1. */
static int
coll_watch_changed(const struct collsim_request *req)
{
    const struct coll_watch *watch = req->kind == REQ_COLL ? req->coll_watch : NULL;
    if (watch == NULL || !watch->ended)
        return -1;
    if (watch->tampered > 0)
        return watch->tampered - 1;
    for (int i = 0; i < watch->n; i++)
        if (buffer_digest(watch->span[i].buf, watch->span[i].len) != watch->span[i].digest)
            return i;
    return -1;
}

/*
 * The report of a watched buffer that changed too early: a nonblocking send's (watch), or a
 * nonblocking collective's piece `piece`. Written while the request lives, since it names
 * what the request's watch holds.
 */
static gchar *
changed_buffer_report(const struct collsim_request *req, const struct send_watch *watch,
                      int piece)
{
    const struct coll_watch *cw = watch == NULL ? req->coll_watch : NULL;
    GString *site = g_string_new(NULL);
    collsim_callsite_describe(cw != NULL ? cw->site : watch->site, site);
    gchar *why;
    if (cw == NULL)
        why = g_strdup_printf("the %zu-byte buffer of the %s%s changed before that send "
                              "completed: a nonblocking send's buffer must stay as it is until "
                              "its request completes (MPI-3.1 3.7.2)",
                              watch->len, req->call, site->str);
    else if (cw->span[piece].writes)
        why = g_strdup_printf("bytes %zu-%zu of the %zu-byte receive buffer of the %s%s "
                              "changed %s: a nonblocking collective's buffers must not be "
                              "accessed until its request completes (MPI-3.1 5.12)",
                              cw->span[piece].offset,
                              cw->span[piece].offset + cw->span[piece].len - 1,
                              cw->span[piece].whole, cw->call, site->str,
                              cw->tampered > 0 ? "while that operation was in progress"
                                               : "after that operation had written them and "
                                                 "before its request completed");
    else
        why = g_strdup_printf("the %zu-byte send buffer of the %s%s changed before that "
                              "operation completed: a nonblocking collective's buffers must "
                              "stay as they are until its request completes (MPI-3.1 5.12)",
                              cw->span[piece].whole, cw->call, site->str);
    g_string_free(site, TRUE);
    return why;
}

/* Release a completed request; report its error (truncation) through the handler. */
static int
request_retire(MPI_Request *handle, MPI_Status *status, const char *call)
{
    struct collsim_request *req = *handle;
    if (req->kind == REQ_GREQUEST)
        return greq_retire(handle, status, call);
    const struct send_watch *watch = req->kind == REQ_SEND ? req->watch : NULL;
    gboolean changed = watch != NULL && !req->status.collsim_cancelled &&
                       buffer_digest(watch->buf, watch->len) != watch->digest;
    int coll_changed = coll_watch_changed(req);
    gchar *changed_why = NULL;
    if (changed || coll_changed >= 0) {
        req->status.MPI_ERROR = MPI_ERR_BUFFER; /* MPI_Waitall's status says it too */
        changed_why = changed_buffer_report(req, changed ? watch : NULL, coll_changed);
    }
    copy_status(status, req);
    int err = req->kind != REQ_SEND ? req->status.MPI_ERROR : MPI_SUCCESS;
    MPI_Comm comm = req->comm;
    gsize arrived = req->arrived_bytes;
    MPI_Datatype arrived_basic = req->kind == REQ_RECV ? req->arrived_basic : NULL;
    MPI_Datatype wanted_basic =
        err == MPI_ERR_TYPE && req->kind == REQ_RECV ? collsim_datatype_basic(req->dt) : NULL;
    gsize capacity = req->kind == REQ_RECV ? req_capacity(req) : 0;
    enum req_kind kind = req->kind;
    if (!req->in_flow)
        sim_rank_by_world(req->owner_world)->live_requests--;
    request_destroy(req);
    *handle = MPI_REQUEST_NULL;
    /* (an MPI_Isendrecv's flow reported its receive's truncation already) */
    if (err == MPI_ERR_TRUNCATE && kind == REQ_RECV)
        return collsim_error(comm, MPI_ERR_TRUNCATE, call,
                             "message truncated: a message of %zu bytes arrived for a receive "
                             "buffer of %zu bytes (its first %zu bytes were delivered)",
                             arrived, capacity, capacity);
    if (changed_why != NULL) {
        int rc = collsim_error(comm, MPI_ERR_BUFFER, call, "%s", changed_why);
        g_free(changed_why);
        return rc;
    }
    if (err == MPI_ERR_TYPE && kind == REQ_RECV)
        return collsim_error(comm, MPI_ERR_TYPE, call,
                             "a message of %zu bytes of %s arrived for a receive of %s: the "
                             "types must match (MPI-3.1 3.3.1; MPI_BYTE and MPI_PACKED match "
                             "any, as do types of one kind and size such as MPI_LONG and "
                             "MPI_INT64_T); the bytes were delivered",
                             arrived, collsim_datatype_name(arrived_basic),
                             collsim_datatype_name(wanted_basic));
    return err;
}

static int persistent_free(MPI_Request *request);

/* The request that stands for a handle in progress and completion: the handle's own, or the
 * operation a persistent request has started (NULL while it is inactive). */
static struct collsim_request *
operative(MPI_Request req)
{
    return req != MPI_REQUEST_NULL && req->kind == REQ_PERSISTENT ? req->active : req;
}

/* Active: not MPI_REQUEST_NULL, nor an inactive persistent request (MPI treats both alike). */
static gboolean
request_valid(MPI_Request req)
{
    return operative(req) != NULL;
}

/*
 * The requests the transport should wait for, for a handle array that may hold persistent
 * requests: `requests` itself when none is persistent, else a copy with each persistent one
 * replaced by its operation (free it with operatives_free).
 */
static struct collsim_request **
operatives(int count, MPI_Request requests[])
{
    gboolean persistent = FALSE;
    for (int i = 0; i < count && !persistent; i++)
        persistent = requests[i] != MPI_REQUEST_NULL && requests[i]->kind == REQ_PERSISTENT;
    if (!persistent)
        return requests;
    struct collsim_request **ops = g_new(struct collsim_request *, MAX(count, 1));
    for (int i = 0; i < count; i++)
        ops[i] = operative(requests[i]);
    return ops;
}

static void
operatives_free(struct collsim_request **ops, MPI_Request requests[])
{
    if (ops != requests)
        g_free(ops);
}

/* request_retire for a handle: a persistent request's operation is retired and the request
 * becomes inactive, its handle kept. */
static int
retire_handle(MPI_Request *handle, MPI_Status *status, const char *call)
{
    if (*handle != MPI_REQUEST_NULL && (*handle)->kind == REQ_PERSISTENT)
        return request_retire(&(*handle)->active, status, call);
    return request_retire(handle, status, call);
}

/* ---------------------------------------------------------------- MPI API */

/*
 * Check one point-to-point half's arguments and start it into *request: the immediate calls,
 * and the blocking ones before they wait (their request pointer is never NULL). A receive's
 * buf came from MPI_Irecv or MPI_Recv as writable; it travels const only to share this path.
 */
static int
post_p2p(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
         gboolean is_recv, gboolean synchronous, MPI_Request *request, const char *call)
{
    int rc = check_p2p_args(buf, count, dt, peer, tag, comm, is_recv, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return collsim_error(comm, MPI_ERR_REQUEST, call, "NULL request pointer");
    if (RECORDER_ON())
        recorder_begin(RECORDER_CALL, call, -1, NULL, collsim_datatype_packed_size(count, dt),
                       comm);
    if (is_recv)
        *request = start_recv((void *)buf, count, dt, peer, tag, comm, comm->context);
    else
        *request = start_send(buf, count, dt, peer, tag, comm, comm->context, synchronous);
    if (RECORDER_ON())
        recorder_end(RECORDER_CALL);
    return MPI_SUCCESS;
}

/* A program's nonblocking send: posted, and its buffer watched (above). */
static int
post_watched_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
                  gboolean synchronous, MPI_Request *request, const char *call, const void *site)
{
    int rc = post_p2p(buf, count, dt, dest, tag, comm, FALSE, synchronous, request, call);
    if (rc == MPI_SUCCESS)
        watch_send_buffer(*request, buf, count, dt, comm, call, site);
    return rc;
}

int
MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
          MPI_Request *request)
{
    return post_watched_send(buf, count, datatype, dest, tag, comm, FALSE, request, "MPI_Isend",
                             COLLSIM_CALLER());
}

int
MPI_Issend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request)
{
    return post_watched_send(buf, count, datatype, dest, tag, comm, TRUE, request, "MPI_Issend",
                             COLLSIM_CALLER());
}

int
MPI_Irecv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
          MPI_Request *request)
{
    return post_p2p(buf, count, datatype, source, tag, comm, TRUE, FALSE, request, "MPI_Irecv");
}

/* Around the start of a blocking call: its requests stay the transport's (request_new). */
static void
requests_unseen(gboolean unseen)
{
    struct sim_rank *me = sim_rank_self();
    if (me != NULL)
        me->requests_unseen = unseen;
}

/* The end of a blocking call: wait for its one request and retire it. */
static int
wait_retire(MPI_Request *req, MPI_Status *status, const char *call)
{
    progress_wait(req, 1, WAIT_ALL, TRUE, call);
    return request_retire(req, status, call);
}

static int
blocking_send(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
              gboolean synchronous, const char *call)
{
    MPI_Request req;
    requests_unseen(TRUE);
    int rc = post_p2p(buf, count, dt, dest, tag, comm, FALSE, synchronous, &req, call);
    requests_unseen(FALSE);
    if (rc != MPI_SUCCESS)
        return rc;
    return wait_retire(&req, MPI_STATUS_IGNORE, call);
}

int
MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, FALSE, "MPI_Send");
}

int
MPI_Ssend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, TRUE, "MPI_Ssend");
}

int
MPI_Rsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    return blocking_send(buf, count, datatype, dest, tag, comm, FALSE, "MPI_Rsend");
}

int
MPI_Recv(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
         MPI_Status *status)
{
    MPI_Request req;
    requests_unseen(TRUE);
    int rc = post_p2p(buf, count, datatype, source, tag, comm, TRUE, FALSE, &req, "MPI_Recv");
    requests_unseen(FALSE);
    if (rc != MPI_SUCCESS)
        return rc;
    return wait_retire(&req, status, "MPI_Recv");
}

int
MPI_Irsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request)
{
    /* a ready send is a standard send that the program promises is matched already */
    return post_watched_send(buf, count, datatype, dest, tag, comm, FALSE, request, "MPI_Irsend",
                             COLLSIM_CALLER());
}

/* ---------------------------------------------------------------- buffered sends */

/*
 * The buffer a rank attached (MPI_Buffer_attach). A buffered message is packed at once and
 * travels eager whatever its size, so its send completes locally; it holds its bytes plus
 * MPI_BSEND_OVERHEAD of the buffer until its inbox transfer has landed and its sender has let
 * it go (reap_sent marks it reaped): only then has the data left the buffer for good. The
 * packed copy lives in the message, so the program's buffer is never written: it only bounds
 * how much may be in flight, as MPI's accounting requires.
 */
struct bsend_buffer {
    void *addr;
    int size;
    gsize used;
    GQueue msgs;    /* struct sim_msg *, a reference each, while counted in `used` */
};

static GHashTable *bsend_buffers;   /* world rank -> struct bsend_buffer *; lookup only */

static struct bsend_buffer *
bsend_buffer_of(int world_rank)
{
    if (bsend_buffers == NULL)
        return NULL;
    return g_hash_table_lookup(bsend_buffers, GINT_TO_POINTER(world_rank));
}

static gsize
bsend_footprint(gsize bytes)
{
    return bytes + MPI_BSEND_OVERHEAD;
}

/* Give back the space of the buffered messages that have left. */
static void
bsend_reclaim(struct bsend_buffer *bb)
{
    GList *l = bb->msgs.head;
    while (l != NULL) {
        GList *next = l->next;
        struct sim_msg *msg = l->data;
        if (msg->reaped) {
            bb->used -= bsend_footprint(msg->bytes);
            g_queue_delete_link(&bb->msgs, l);
            msg_unref(msg);
        }
        l = next;
    }
}

static void
bsend_buffer_free(struct bsend_buffer *bb)
{
    struct sim_msg *msg;
    while ((msg = g_queue_pop_head(&bb->msgs)) != NULL)
        msg_unref(msg);
    g_free(bb);
}

/* A rank that ends with a buffer attached detaches it implicitly (its port is drained). */
static void
bsend_forget(struct sim_rank *rank)
{
    struct bsend_buffer *bb = bsend_buffer_of(rank->world_rank);
    if (bb == NULL)
        return;
    g_hash_table_remove(bsend_buffers, GINT_TO_POINTER(rank->world_rank));
    bsend_buffer_free(bb);
}

int
MPI_Buffer_attach(void *buffer, int size)
{
    const char *call = "MPI_Buffer_attach";
    int rc = check_initialized(call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "negative size %d", size);
    if (buffer == NULL && size > 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call, "buffer is NULL");
    struct sim_rank *me = sim_rank_self();
    if (bsend_buffer_of(me->world_rank) != NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call,
                             "a buffer is already attached (MPI_Buffer_detach it first)");
    if (bsend_buffers == NULL)
        bsend_buffers = g_hash_table_new(g_direct_hash, g_direct_equal);
    struct bsend_buffer *bb = g_new0(struct bsend_buffer, 1);
    bb->addr = buffer;
    bb->size = size;
    g_queue_init(&bb->msgs);
    g_hash_table_insert(bsend_buffers, GINT_TO_POINTER(me->world_rank), bb);
    return MPI_SUCCESS;
}

/* Blocks until every buffered message has left (every message of this rank, in fact: the
 * port sends them in order, and those before a buffered one leave before it anyway). */
int
MPI_Buffer_detach(void *buffer_addr, int *size)
{
    const char *call = "MPI_Buffer_detach";
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(buffer_addr, "buffer_addr", call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(size, "size", call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct sim_rank *me = sim_rank_self();
    struct bsend_buffer *bb = bsend_buffer_of(me->world_rank);
    if (bb == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_BUFFER, call, "no buffer is attached");
    bsend_reclaim(bb);
    if (!g_queue_is_empty(&bb->msgs)) {
        reap_sent(me, TRUE);
        bsend_reclaim(bb);
    }
    g_assert(g_queue_is_empty(&bb->msgs) && bb->used == 0);
    *(void **)buffer_addr = bb->addr;
    *size = bb->size;
    g_hash_table_remove(bsend_buffers, GINT_TO_POINTER(me->world_rank));
    bsend_buffer_free(bb);
    return MPI_SUCCESS;
}

/* Check a buffered send, reserve its room in the attached buffer and start it. */
static int
post_bsend(const void *buf, int count, MPI_Datatype dt, int dest, int tag, MPI_Comm comm,
           MPI_Request *request, const char *call)
{
    int rc = check_send_args(buf, count, dt, dest, tag, comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return collsim_error(comm, MPI_ERR_REQUEST, call, "NULL request pointer");
    if (dest == MPI_PROC_NULL) {
        *request = start_send(buf, count, dt, dest, tag, comm, comm->context, FALSE);
        return MPI_SUCCESS;
    }
    struct sim_rank *me = sim_rank_self();
    struct bsend_buffer *bb = bsend_buffer_of(me->world_rank);
    gsize need = bsend_footprint(collsim_datatype_packed_size(count, dt));
    if (bb == NULL)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "no buffer is attached (MPI_Buffer_attach)");
    if (bb->used + need > (gsize)bb->size) {
        /* messages that have landed since this rank last sent free their room */
        reap_sent(me, FALSE);
        bsend_reclaim(bb);
    }
    if (bb->used + need > (gsize)bb->size)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "the message needs %zu bytes of the attached buffer (%zu of data "
                             "+ MPI_BSEND_OVERHEAD %d), only %zu of its %d are free",
                             need, need - MPI_BSEND_OVERHEAD, MPI_BSEND_OVERHEAD,
                             (gsize)bb->size - bb->used, bb->size);
    struct collsim_request *req =
        start_send_protocol(buf, count, dt, dest, tag, comm, comm->context, PROTOCOL_EAGER, NULL);
    /* the message is the newest this rank has not let go, unless it has landed already */
    struct sim_msg *msg = me->unreaped_tail;
    if (msg != NULL && msg->kind == MSG_MPI && msg->serial == req->sent_serial) {
        msg->refs++;
        g_queue_push_tail(&bb->msgs, msg);
        bb->used += need;
    }
    *request = req;
    return MPI_SUCCESS;
}

int
MPI_Bsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    MPI_Request req;
    int rc = post_bsend(buf, count, datatype, dest, tag, comm, &req, "MPI_Bsend");
    if (rc != MPI_SUCCESS)
        return rc;
    return wait_retire(&req, MPI_STATUS_IGNORE, "MPI_Bsend");
}

int
MPI_Ibsend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
           MPI_Request *request)
{
    return post_bsend(buf, count, datatype, dest, tag, comm, request, "MPI_Ibsend");
}

/* Both halves of a send-receive are checked before either starts: the send's first, so an
 * error in both reports the send's. */
static int
check_sendrecv_args(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                    int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                    int recvtag, MPI_Comm comm, const char *call)
{
    int rc = check_send_args(sendbuf, sendcount, sendtype, dest, sendtag, comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_recv_args(recvbuf, recvcount, recvtype, source, recvtag, comm, call);
    return rc;
}

/* MPI_Sendrecv's two buffers must be disjoint (MPI-3.1 3.10; MPI_Sendrecv_replace is the call
 * for one buffer): the receive would otherwise write what the send reads. A side with
 * MPI_PROC_NULL moves nothing and is left out, as are sizes-only runs' buffers, which all lie
 * in one shared scratch mapping whose bytes mean nothing. */
static int
check_sendrecv_disjoint(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                        void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                        MPI_Comm comm, const char *call)
{
    if (dest == MPI_PROC_NULL || source == MPI_PROC_NULL || sim_scratch_contains(sendbuf) ||
        sim_scratch_contains(recvbuf) ||
        !collsim_buffers_overlap(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
        return MPI_SUCCESS;
    return collsim_error(comm, MPI_ERR_BUFFER, call,
                         "sendbuf and recvbuf overlap (recvbuf starts %lld bytes from sendbuf): "
                         "the two buffers must be disjoint; MPI_Sendrecv_replace exchanges "
                         "one buffer's contents",
                         (long long)((intptr_t)recvbuf - (intptr_t)sendbuf));
}

/* The receive is posted before the send (a matching peer may already be sending), both are
 * waited for together, and the send's error wins over the receive's. */
static int
sendrecv_run(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
             MPI_Comm comm, MPI_Status *status, const char *call)
{
    MPI_Request reqs[2];
    /* one slice from the posts to the end of the wait (the recorder folds the wait in) */
    if (RECORDER_ON())
        recorder_begin(RECORDER_CALL, call, -1, NULL,
                       collsim_datatype_packed_size(sendcount, sendtype), comm);
    requests_unseen(TRUE);
    reqs[1] = start_recv(recvbuf, recvcount, recvtype, source, recvtag, comm, comm->context);
    struct sim_msg *lent = NULL;
    reqs[0] = start_send_protocol(sendbuf, sendcount, sendtype, dest, sendtag, comm,
                                  comm->context, PROTOCOL_BY_SIZE, &lent);
    requests_unseen(FALSE);
    progress_wait(reqs, 2, WAIT_ALL, TRUE, call);
    if (lent != NULL)
        lend_end(lent);
    if (RECORDER_ON())
        recorder_end(RECORDER_CALL);
    int rc_send = request_retire(&reqs[0], MPI_STATUS_IGNORE, call);
    int rc_recv = request_retire(&reqs[1], status, call);
    return rc_send != MPI_SUCCESS ? rc_send : rc_recv;
}

int
MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
             MPI_Comm comm, MPI_Status *status)
{
    const char *call = "MPI_Sendrecv";
    int rc = check_sendrecv_args(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                 recvtype, source, recvtag, comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_sendrecv_disjoint(sendbuf, sendcount, sendtype, dest, recvbuf, recvcount,
                                     recvtype, source, comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    return sendrecv_run(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                        source, recvtag, comm, status, call);
}

/* What the replace forms send: the buffer's contents packed at the call, freed with g_free. */
static void *
packed_copy(const void *buf, int count, MPI_Datatype datatype, gsize *bytes)
{
    *bytes = collsim_datatype_packed_size(count, datatype);
    void *copy = g_malloc(MAX(*bytes, 1));
    collsim_datatype_pack(buf, count, datatype, copy);
    return copy;
}

int
MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                     int source, int recvtag, MPI_Comm comm, MPI_Status *status)
{
    const char *call = "MPI_Sendrecv_replace";
    int rc = check_sendrecv_args(buf, count, datatype, dest, sendtag, buf, count, datatype,
                                 source, recvtag, comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    /* send from a packed copy so that the receive may overwrite buf */
    gsize bytes;
    void *copy = packed_copy(buf, count, datatype, &bytes);
    rc = sendrecv_run(copy, (int)bytes, MPI_BYTE, dest, sendtag, buf, count, datatype, source,
                      recvtag, comm, status, call);
    g_free(copy);
    return rc;
}

/*
 * MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace: MPI_Sendrecv run on a flow of the rank, as
 * a nonblocking collective's algorithm is (the receive posted first, both waited for
 * together), so that waits, tests and the deadlock report treat it as they do those. Its
 * request is a point-to-point one all the same: its status is the receive's, MPI_Request_free
 * lets it go on (MPI_Finalize completes it), and MPI_Cancel leaves it to complete (a cancel
 * may fail: MPI_Test_cancelled then says false).
 */
struct isendrecv_job {
    const void *sendbuf;
    int sendcount;
    MPI_Datatype sendtype;
    int dest, sendtag;
    void *recvbuf;
    int recvcount;
    MPI_Datatype recvtype;
    int source, recvtag;
    MPI_Comm comm;
    void *packed; /* MPI_Isendrecv_replace: the send's copy of the buffer */
    const char *call;
};

static int
isendrecv_run(void *data)
{
    struct isendrecv_job *job = data;
    MPI_Status status;
    int rc = sendrecv_run(job->sendbuf, job->sendcount, job->sendtype, job->dest, job->sendtag,
                          job->recvbuf, job->recvcount, job->recvtype, job->source, job->recvtag,
                          job->comm, &status, job->call);
    struct collsim_request *self = flow_self(sim_rank_self());
    self->status = status;
    collsim_datatype_unref(job->sendtype);
    collsim_datatype_unref(job->recvtype);
    g_free(job->packed);
    g_free(job);
    return rc;
}

static int
isendrecv_start(struct isendrecv_job *job, MPI_Request *request)
{
    /* the operation holds its types: the program may free them before it completes */
    collsim_datatype_ref(job->sendtype);
    collsim_datatype_ref(job->recvtype);
    return start_flow(isendrecv_run, job, job->comm, job->call, TRUE, request);
}

int
MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
              void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
              MPI_Comm comm, MPI_Request *request)
{
    const char *call = "MPI_Isendrecv";
    int rc = check_sendrecv_args(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount,
                                 recvtype, source, recvtag, comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_sendrecv_disjoint(sendbuf, sendcount, sendtype, dest, recvbuf, recvcount,
                                     recvtype, source, comm, call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(request, "request", call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct isendrecv_job *job = g_new0(struct isendrecv_job, 1);
    *job = (struct isendrecv_job){sendbuf, sendcount, sendtype, dest,  sendtag, recvbuf,
                                  recvcount, recvtype, source, recvtag, comm, NULL, call};
    return isendrecv_start(job, request);
}

int
MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                      int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
    const char *call = "MPI_Isendrecv_replace";
    int rc = check_sendrecv_args(buf, count, datatype, dest, sendtag, buf, count, datatype,
                                 source, recvtag, comm, call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(request, "request", call);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the buffer is the program's until the request completes: its contents now are sent */
    gsize bytes;
    void *copy = packed_copy(buf, count, datatype, &bytes);
    struct isendrecv_job *job = g_new0(struct isendrecv_job, 1);
    *job = (struct isendrecv_job){copy,   (int)bytes, MPI_BYTE, dest,    sendtag, buf,
                                  count,  datatype,   source,   recvtag, comm,    copy, call};
    return isendrecv_start(job, request);
}

/* MPI_REQUEST_NULL or a live request the program still holds: one never set, already
 * completed and freed, given up with MPI_Request_free (it lives on until its transfer ends),
 * or a handle of another kind would be read as a request (index < 0: a single request). */
static int
check_request(MPI_Request req, int index, const char *call)
{
    const char *why;
    if (req == MPI_REQUEST_NULL)
        return MPI_SUCCESS;
    if (!collsim_handle_readable(req))
        why = "never set, or already completed and freed";
    else if (req->magic != COLLSIM_REQUEST_MAGIC)
        why = "a handle of another kind";
    else if (req->user_freed)
        why = "freed with MPI_Request_free";
    else
        return MPI_SUCCESS;
    if (index < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "not a live request (%s)",
                             why);
    return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                         "requests[%d] is not a live request (%s)", index, why);
}

static int
check_request_array(int count, MPI_Request requests[], const char *call)
{
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(MPI_COMM_WORLD, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "negative count %d", count);
    if (count > 0 && requests == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "NULL request array");
    /* each request at most once: a second entry would be completed and freed twice. The
     * requests of one call carry its stamp (no table, whatever the count). */
    static guint64 stamp;
    stamp++;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        rc = check_request(requests[i], i, call);
        if (rc != MPI_SUCCESS || requests[i] == MPI_REQUEST_NULL)
            continue;
        if (requests[i]->array_stamp == stamp)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                                 "requests[%d] is requests[%d] again (a request may appear "
                                 "once in the array)",
                                 i, requests[i]->array_index);
        requests[i]->array_stamp = stamp;
        requests[i]->array_index = i;
    }
    return rc;
}

static void
status_empty(MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    /* MPI-3.1 3.7.3 defines the empty status with all its fields, MPI_ERROR included
     * (MPICH's pt2pt/rqstatus checks it; Open MPI leaves MPI_ERROR as it was) */
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->collsim_bytes = 0;
    status->collsim_cancelled = 0;
}

/* The end of MPI_Waitall and of a successful MPI_Testall: every request is complete; retire
 * each in order, an empty status for the null ones, MPI_ERR_IN_STATUS if any failed. */
static int
retire_all(int count, MPI_Request requests[], MPI_Status statuses[], const char *call)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < count; i++) {
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
        if (!request_valid(requests[i])) {
            status_empty(st);
            continue;
        }
        int error = retire_handle(&requests[i], st, call);
        status_error(st, error);
        if (error != MPI_SUCCESS)
            rc = MPI_ERR_IN_STATUS;
    }
    return rc;
}

int
MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
    int rc = check_request_array(count, requests, "MPI_Waitall");
    if (rc != MPI_SUCCESS)
        return rc;
    struct collsim_request **ops = operatives(count, requests);
    progress_wait(ops, count, WAIT_ALL, TRUE, "MPI_Waitall");
    operatives_free(ops, requests);
    return retire_all(count, requests, statuses, "MPI_Waitall");
}

/* Index of the first complete active request, or -1. */
static int
first_complete(int count, MPI_Request requests[])
{
    for (int i = 0; i < count; i++)
        if (request_valid(requests[i]) && operative(requests[i])->complete)
            return i;
    return -1;
}

static gboolean
any_active(int count, MPI_Request requests[])
{
    for (int i = 0; i < count; i++)
        if (request_valid(requests[i]))
            return TRUE;
    return FALSE;
}

/* An output argument the call writes must be there (MPI_ERR_ARG through MPI_COMM_WORLD's
 * handler: the request and environment calls have no communicator, and some may come before
 * MPI_Init). */
int
sim_p2p_check_out(const void *pointer, const char *what, const char *call)
{
    if (pointer == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

/*
 * A test that finds nothing costs a little simulated time, so that a polling loop
 * (while (!flag) MPI_Test(...)) lets the simulated clock advance.
 */
static void
charge_failed_poll(void)
{
    busy_for(sim_engine_config()->transport.poll_overhead);
}

/*
 * MPI_Wait (blocking) and MPI_Test: a null request is answered at once (an empty status, and
 * for a test *flag 1); otherwise the call progresses and retires the request once complete. A
 * wait always completes it; a test that does not charges a failed poll. flag is only checked
 * and set for a test, whose missing pointers are argument errors rather than request errors.
 */
static int
complete_one(MPI_Request *request, int *flag, MPI_Status *status, gboolean blocking,
             const char *call)
{
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(MPI_COMM_WORLD, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (blocking && request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "NULL request pointer");
    if (!blocking && (request == NULL || flag == NULL))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "%s is NULL",
                             request == NULL ? "request" : "flag");
    rc = check_request(*request, -1, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request_valid(*request)) {
        *flag = 1;
        status_empty(status);
        return MPI_SUCCESS;
    }
    struct collsim_request *op = operative(*request);
    progress_wait(&op, 1, WAIT_ALL, blocking, call);
    *flag = op->complete;
    if (!*flag) {
        charge_failed_poll();
        return MPI_SUCCESS;
    }
    return retire_handle(request, status, call);
}

int
MPI_Wait(MPI_Request *request, MPI_Status *status)
{
    int found;
    return complete_one(request, &found, status, TRUE, "MPI_Wait");
}

/*
 * MPI_Waitany (blocking) and MPI_Testany: with no active request the call is answered at once
 * (*index MPI_UNDEFINED, an empty status, and for a test *flag 1); otherwise it progresses and
 * retires the first complete request. A wait always finds one; a test that finds none charges
 * a failed poll. flag is only checked and set for a test.
 */
static int
complete_any(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status,
             gboolean blocking, const char *call)
{
    int rc = check_request_array(count, requests, call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(index, "index", call);
    if (rc == MPI_SUCCESS && !blocking)
        rc = sim_p2p_check_out(flag, "flag", call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!any_active(count, requests)) {
        *flag = 1;
        *index = MPI_UNDEFINED;
        status_empty(status);
        return MPI_SUCCESS;
    }
    struct collsim_request **ops = operatives(count, requests);
    progress_wait(ops, count, WAIT_ANY, blocking, call);
    operatives_free(ops, requests);
    *index = first_complete(count, requests);
    *flag = *index >= 0;
    if (!*flag) {
        *index = MPI_UNDEFINED;
        charge_failed_poll();
        return MPI_SUCCESS;
    }
    return retire_handle(&requests[*index], status, call);
}

int
MPI_Waitany(int count, MPI_Request requests[], int *index, MPI_Status *status)
{
    int found;
    return complete_any(count, requests, index, &found, status, TRUE, "MPI_Waitany");
}

/*
 * MPI_Waitsome (blocking) and MPI_Testsome: with no active request *outcount is MPI_UNDEFINED;
 * otherwise the call progresses and retires every complete request, in index order. A wait
 * always finds one; a test that finds none charges a failed poll.
 */
static int
complete_some(int incount, MPI_Request requests[], int *outcount, int indices[],
              MPI_Status statuses[], gboolean blocking, const char *call)
{
    int rc = check_request_array(incount, requests, call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(outcount, "outcount", call);
    if (rc == MPI_SUCCESS && incount > 0)
        rc = sim_p2p_check_out(indices, "indices", call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!any_active(incount, requests)) {
        *outcount = MPI_UNDEFINED;
        return MPI_SUCCESS;
    }
    struct collsim_request **ops = operatives(incount, requests);
    progress_wait(ops, incount, WAIT_SOME, blocking, call);
    operatives_free(ops, requests);
    rc = MPI_SUCCESS;
    *outcount = 0;
    for (int i = 0; i < incount; i++) {
        if (!request_valid(requests[i]) || !operative(requests[i])->complete)
            continue;
        MPI_Status *st =
            statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[*outcount];
        indices[(*outcount)++] = i;
        int error = retire_handle(&requests[i], st, call);
        status_error(st, error);
        if (error != MPI_SUCCESS)
            rc = MPI_ERR_IN_STATUS;
    }
    if (*outcount == 0)
        charge_failed_poll();
    return rc;
}

int
MPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[])
{
    return complete_some(incount, requests, outcount, indices, statuses, TRUE, "MPI_Waitsome");
}

int
MPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
             MPI_Status statuses[])
{
    return complete_some(incount, requests, outcount, indices, statuses, FALSE, "MPI_Testsome");
}

/* MPI_Test without retiring: the request stays live, its status is only read. */
int
MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
    const char *call = "MPI_Request_get_status";
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(flag, "flag", call);
    if (rc == MPI_SUCCESS)
        rc = check_request(request, -1, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (!request_valid(request)) {
        *flag = 1;
        status_empty(status);
        return MPI_SUCCESS;
    }
    struct collsim_request *op = operative(request);
    progress_wait(&op, 1, WAIT_ALL, FALSE, call);
    *flag = op->complete;
    if (!*flag) {
        charge_failed_poll();
        return MPI_SUCCESS;
    }
    if (op->kind == REQ_GREQUEST)
        return greq_query(op, status, call);
    copy_status(status, op);
    return MPI_SUCCESS;
}

int
MPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    return complete_one(request, flag, status, FALSE, "MPI_Test");
}

int
MPI_Testall(int count, MPI_Request requests[], int *flag, MPI_Status statuses[])
{
    int rc = check_request_array(count, requests, "MPI_Testall");
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(flag, "flag", "MPI_Testall");
    if (rc != MPI_SUCCESS)
        return rc;
    struct collsim_request **ops = operatives(count, requests);
    progress_wait(ops, count, WAIT_ALL, FALSE, "MPI_Testall");
    operatives_free(ops, requests);
    for (int i = 0; i < count; i++) {
        if (request_valid(requests[i]) && !operative(requests[i])->complete) {
            *flag = 0;
            charge_failed_poll();
            return MPI_SUCCESS;
        }
    }
    *flag = 1;
    return retire_all(count, requests, statuses, "MPI_Testall");
}

int
MPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status)
{
    return complete_any(count, requests, index, flag, status, FALSE, "MPI_Testany");
}

int
MPI_Request_free(MPI_Request *request)
{
    int rc = check_initialized("MPI_Request_free");
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL || *request == MPI_REQUEST_NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free",
                             "invalid request");
    rc = check_request(*request, -1, "MPI_Request_free");
    if (rc != MPI_SUCCESS)
        return rc;
    if ((*request)->kind == REQ_PERSISTENT)
        return persistent_free(request);
    if ((*request)->kind == REQ_GREQUEST)
        return greq_free(request);
    struct collsim_request *req = *request;
    if (req->kind == REQ_COLL && !req->p2p_flow)
        return collsim_error(req->comm, MPI_ERR_REQUEST, "MPI_Request_free",
                             "the request of %s, a nonblocking collective, cannot be freed "
                             "(MPI-3.1 5.12): complete it with MPI_Wait or MPI_Test",
                             req->call);
    if (!req->in_flow)
        sim_rank_by_world(req->owner_world)->live_requests--;   /* given up on purpose */
    /* an active request still owns its message, and waiting for it now would change the
     * timing: it goes on, and MPI_Finalize completes it (sim_p2p_complete_freed) */
    if (req->complete) {
        request_destroy(req);
    } else {
        struct sim_rank *owner = sim_rank_by_world(req->owner_world);
        if (req->kind == REQ_RECV && !collsim_comm_is_internal(req->comm)) {
            /* legal, and a trap (MPI-3.1 3.7.3's advice): MPICH's and MPI-CorrBench's checks
             * count it as a missing MPI_Wait */
            GString *out = g_string_new(NULL);
            g_string_append_printf(out, "collsim: warning: rank %d freed a receive that had not "
                                        "completed (MPI_Request_free",
                                   owner->world_rank);
            collsim_callsite_describe(COLLSIM_CALLER(), out);
            g_string_append(out, ", of ");
            describe_request(req, out);
            g_string_append(out, "): MPI lets it finish, but nothing tells the program when "
                                 "its buffer is written (MPI-3.1 3.7.3): wait for it instead\n");
            fputs(out->str, stderr);
            g_string_free(out, TRUE);
        }
        req->user_freed = TRUE;
        if (owner->freed_active == NULL)
            owner->freed_active = g_ptr_array_new();
        g_ptr_array_add(owner->freed_active, req);
    }
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}

/* MPI_Request_free lets an active request go on; MPI_Finalize completes it (the MPI Forum's
 * reading since 2021): a receive still unmatched then waits for its message. */
void
sim_p2p_complete_freed(struct sim_rank *rank)
{
    GPtrArray *freed = rank->freed_active;
    if (freed == NULL)
        return;
    rank->freed_active = NULL;
    progress_wait((struct collsim_request **)freed->pdata, (int)freed->len, WAIT_ALL, TRUE,
                  "MPI_Finalize");
    for (guint i = 0; i < freed->len; i++)
        request_destroy(g_ptr_array_index(freed, i));
    g_ptr_array_free(freed, TRUE);
}

/* ---------------------------------------------------------------- generalized requests */

/*
 * A generalized request (MPI-3.1 §12.2) is a REQ_GREQUEST object that the program completes
 * with MPI_Grequest_complete; until then no wait or test finds it complete (request_advance).
 * The wait or test that completes it calls query_fn for its status (the call's error is what
 * query_fn returns, MPI_ERR_IN_STATUS in the calls that complete several) and then free_fn,
 * and frees it. MPI_Request_get_status calls query_fn only. MPI_Request_free before
 * MPI_Grequest_complete leaves free_fn to that call (whichever comes last runs it), and
 * MPI_Cancel calls cancel_fn(extra_state, complete). A collsim rank is single-threaded: a
 * rank blocked in a wait on a generalized request it has not completed can never complete
 * it, and stays blocked until the deadlock report names the request (describe_request).
 */

/* Release the object of a generalized request whose free_fn has run. */
static void
greq_destroy(struct collsim_request *req)
{
    request_destroy(req);
}

/* query_fn of a complete generalized request into *status (which may be MPI_STATUS_IGNORE: the
 * callback always gets one); its error, reported through the handler. */
static int
greq_query(struct collsim_request *req, MPI_Status *status, const char *call)
{
    MPI_Status st = req->status; /* any source, any tag, no data, not cancelled */
    int rc = req->query_fn(req->extra_state, &st);
    st.MPI_ERROR = rc;
    if (status != MPI_STATUS_IGNORE)
        *status = st;
    if (rc != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, rc, call,
                             "the query_fn of a generalized request returned error %d", rc);
    return MPI_SUCCESS;
}

/* request_retire of a generalized request: query_fn, then free_fn; the first error. */
static int
greq_retire(MPI_Request *handle, MPI_Status *status, const char *call)
{
    struct collsim_request *req = *handle;
    int rc = greq_query(req, status, call);
    int free_rc = req->free_fn(req->extra_state);
    sim_rank_by_world(req->owner_world)->live_requests--;
    greq_destroy(req);
    *handle = MPI_REQUEST_NULL;
    if (rc == MPI_SUCCESS && free_rc != MPI_SUCCESS) {
        if (status != MPI_STATUS_IGNORE)
            status->MPI_ERROR = free_rc;
        return collsim_error(MPI_COMM_WORLD, free_rc, call,
                             "the free_fn of a generalized request returned error %d", free_rc);
    }
    return rc;
}

/* MPI_Request_free of a generalized request: free_fn now if it is complete, else in
 * MPI_Grequest_complete. */
static int
greq_free(MPI_Request *request)
{
    struct collsim_request *req = *request;
    sim_rank_by_world(req->owner_world)->live_requests--;   /* given up on purpose */
    *request = MPI_REQUEST_NULL;
    if (!req->complete) {
        req->user_freed = TRUE;
        return MPI_SUCCESS;
    }
    int rc = req->free_fn(req->extra_state);
    greq_destroy(req);
    if (rc != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, rc, "MPI_Request_free",
                             "the free_fn of a generalized request returned error %d", rc);
    return MPI_SUCCESS;
}

int
MPI_Grequest_start(MPI_Grequest_query_function *query_fn, MPI_Grequest_free_function *free_fn,
                   MPI_Grequest_cancel_function *cancel_fn, void *extra_state,
                   MPI_Request *request)
{
    const char *call = "MPI_Grequest_start";
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(query_fn, "query_fn", call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(free_fn, "free_fn", call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(cancel_fn, "cancel_fn", call);
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(request, "request", call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct collsim_request *req = request_new(REQ_GREQUEST, MPI_COMM_WORLD, 0);
    req->query_fn = query_fn;
    req->free_fn = free_fn;
    req->cancel_fn = cancel_fn;
    req->extra_state = extra_state;
    *request = req;
    return MPI_SUCCESS;
}

/* The handle given may have been freed with MPI_Request_free already (§12.2 lets the program
 * complete it afterwards): it is checked as a generalized request, not as a live handle. */
int
MPI_Grequest_complete(MPI_Request request)
{
    const char *call = "MPI_Grequest_complete";
    int rc = check_initialized(call);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = NULL;
    if (request == MPI_REQUEST_NULL)
        why = "MPI_REQUEST_NULL";
    else if (!collsim_handle_readable(request))
        why = "not a live request: never set, or already completed and freed";
    else if (request->magic != COLLSIM_REQUEST_MAGIC)
        why = "a handle of another kind";
    else if (request->kind != REQ_GREQUEST)
        why = "not a generalized request (MPI_Grequest_start)";
    else if (request->complete)
        why = "a generalized request completed already";
    else if (request->owner_world != sim_rank_self()->world_rank)
        why = "a generalized request of another rank (each rank is one MPI process)";
    if (why != NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "the request is %s", why);
    request->complete = TRUE;
    if (request->user_freed) {
        rc = request->free_fn(request->extra_state);
        greq_destroy(request);
        if (rc != MPI_SUCCESS)
            return collsim_error(MPI_COMM_WORLD, rc, call,
                                 "the free_fn of a generalized request returned error %d", rc);
        return MPI_SUCCESS;
    }
    request_touch(request);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- persistent requests */

/*
 * A persistent request (MPI_Send_init ... MPI_Recv_init, MPI-4's MPI_<Collective>_init) is a
 * REQ_PERSISTENT object that keeps how to start one operation. MPI_Start starts it into
 * `active`, an ordinary request (a send, a receive, a nonblocking collective); every wait and
 * test looks through the handle at that operation (operative()), and completing it retires the
 * operation and leaves the persistent request inactive, its handle kept for the next start.
 * While inactive, a handle is answered as MPI_REQUEST_NULL is, but stays what it is.
 */
enum persistent_mode { PERSIST_SEND, PERSIST_SSEND, PERSIST_RSEND, PERSIST_BSEND, PERSIST_RECV };

static const char *const persistent_calls[] = {
    [PERSIST_SEND] = "MPI_Send_init",   [PERSIST_SSEND] = "MPI_Ssend_init",
    [PERSIST_RSEND] = "MPI_Rsend_init", [PERSIST_BSEND] = "MPI_Bsend_init",
    [PERSIST_RECV] = "MPI_Recv_init",
};

static struct collsim_request *
persistent_new(MPI_Comm comm, const char *call)
{
    struct collsim_request *req = request_new(REQ_PERSISTENT, comm, 0);
    req->call = call;
    req->complete = TRUE; /* never waited for itself: its operation is */
    return req;
}

/* A point-to-point start: the arguments checked at init are posted again. */
static int
start_p2p(struct collsim_request *self, MPI_Request *op)
{
    const char *call = persistent_calls[self->p2p_mode];
    switch (self->p2p_mode) {
    case PERSIST_RECV:
        return post_p2p(self->buf, self->count, self->dt, self->source, self->tag, self->comm,
                        TRUE, FALSE, op, call);
    case PERSIST_BSEND:
        return post_bsend(self->buf, self->count, self->dt, self->source, self->tag, self->comm,
                          op, call);
    default:
        return post_watched_send(self->buf, self->count, self->dt, self->source, self->tag,
                                 self->comm, self->p2p_mode == PERSIST_SSEND, op, call,
                                 self->watch->site);
    }
}

/* MPI_Send_init and the others: the arguments are checked now, and kept. */
static int
persistent_p2p(const void *buf, int count, MPI_Datatype dt, int peer, int tag, MPI_Comm comm,
               enum persistent_mode mode, MPI_Request *request, const void *site)
{
    const char *call = persistent_calls[mode];
    int rc = check_p2p_args(buf, count, dt, peer, tag, comm, mode == PERSIST_RECV, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return collsim_error(comm, MPI_ERR_REQUEST, call, "NULL request pointer");
    struct collsim_request *req = persistent_new(comm, call);
    req->start = start_p2p;
    req->p2p_mode = mode;
    req->buf = (void *)buf;
    req->count = count;
    req->dt = collsim_datatype_ref(dt); /* the program may free it before the end (§4.1.9) */
    req->source = peer; /* the destination of a send */
    req->tag = tag;
    /* where its sends are made, for their buffer's report (buffered sends are copied at the
     * call and receives have no send buffer: start_p2p watches neither) */
    if (mode != PERSIST_RECV && mode != PERSIST_BSEND) {
        req->watch = pool_take(&watch_pool, sizeof *req->watch);
        req->watch->site = site;
    }
    *request = req;
    return MPI_SUCCESS;
}

int
MPI_Send_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
              MPI_Comm comm, MPI_Request *request)
{
    return persistent_p2p(buf, count, datatype, dest, tag, comm, PERSIST_SEND, request,
                          COLLSIM_CALLER());
}

int
MPI_Ssend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return persistent_p2p(buf, count, datatype, dest, tag, comm, PERSIST_SSEND, request,
                          COLLSIM_CALLER());
}

int
MPI_Rsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return persistent_p2p(buf, count, datatype, dest, tag, comm, PERSIST_RSEND, request,
                          COLLSIM_CALLER());
}

int
MPI_Bsend_init(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    return persistent_p2p(buf, count, datatype, dest, tag, comm, PERSIST_BSEND, request,
                          COLLSIM_CALLER());
}

int
MPI_Recv_init(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request *request)
{
    return persistent_p2p(buf, count, datatype, source, tag, comm, PERSIST_RECV, request,
                          COLLSIM_CALLER());
}

/* A collective start: src's start function (coll_entry.c) enters the collective again. */
static int
start_collective(struct collsim_request *self, MPI_Request *op)
{
    return self->start_coll(self->start_data, op);
}

int
sim_p2p_make_persistent(int (*start)(void *data, MPI_Request *op), void *data,
                        void (*free_data)(void *data), MPI_Comm comm, const char *call,
                        MPI_Request *request)
{
    struct collsim_request *req = persistent_new(comm, call);
    req->start = start_collective;
    req->start_coll = start;
    req->start_data = data;
    req->free_data = free_data;
    *request = req;
    return MPI_SUCCESS;
}

/* A persistent request that MPI_Start may start: live, persistent, inactive. */
static int
check_startable(MPI_Request req, int index, const char *call)
{
    int rc = check_request(req, index, call);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why = req == MPI_REQUEST_NULL         ? "MPI_REQUEST_NULL"
                      : req->kind != REQ_PERSISTENT ? "not a persistent request"
                      : req->active != NULL         ? "already active (started, not completed)"
                                                    : NULL;
    if (why == NULL)
        return MPI_SUCCESS;
    if (index < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "the request is %s", why);
    return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "requests[%d] is %s", index,
                         why);
}

static int
start_one(MPI_Request req)
{
    MPI_Request op = MPI_REQUEST_NULL;
    struct sim_rank *me = sim_rank_self();
    me->starting_persistent++;
    int rc = req->start(req, &op);
    me->starting_persistent--;
    req->active = op;
    return rc;
}

int
sim_p2p_acts_for_operation(void)
{
    const struct sim_rank *me = sim_rank_self();
    return me != NULL && (me->running_flow != NULL || me->starting_persistent > 0);
}

int
MPI_Start(MPI_Request *request)
{
    const char *call = "MPI_Start";
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(MPI_COMM_WORLD, call);
    if (rc == MPI_SUCCESS && request == NULL)
        rc = collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "NULL request pointer");
    if (rc == MPI_SUCCESS)
        rc = check_startable(*request, -1, call);
    if (rc != MPI_SUCCESS)
        return rc;
    return start_one(*request);
}

int
MPI_Startall(int count, MPI_Request array_of_requests[])
{
    const char *call = "MPI_Startall";
    int rc = check_request_array(count, array_of_requests, call);
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = check_startable(array_of_requests[i], i, call);
    /* a request given twice would be started twice: the second is refused above, once the
     * first is active, so all are checked before any starts */
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        for (int j = 0; j < i && rc == MPI_SUCCESS; j++)
            if (array_of_requests[j] == array_of_requests[i])
                rc = collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                                   "requests[%d] and requests[%d] are the same request", j, i);
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++)
        rc = start_one(array_of_requests[i]);
    return rc;
}

/* MPI_Request_free of a persistent request: an operation in flight goes on, freed when done
 * (as MPI_Request_free of an ordinary request); the request itself goes now. */
static int
persistent_free(MPI_Request *request)
{
    struct collsim_request *req = *request;
    int rc = MPI_SUCCESS;
    if (req->active != NULL) {
        MPI_Request op = req->active;
        req->active = NULL;
        rc = MPI_Request_free(&op);
    }
    if (req->free_data != NULL)
        req->free_data(req->start_data);
    sim_rank_by_world(req->owner_world)->live_requests--;
    request_destroy(req);
    *request = MPI_REQUEST_NULL;
    return rc;
}

/* ---------------------------------------------------------------- cancellation */

/* Take a receive that has not matched out of its owner's posted receives. */
static void
posted_remove(struct sim_rank *me, struct collsim_request *req)
{
    posted_unlink(me, req);
}

static void
request_cancelled(struct collsim_request *req)
{
    req->complete = TRUE;
    req->status.MPI_ERROR = MPI_SUCCESS;
    req->status.collsim_bytes = 0;
    req->status.collsim_cancelled = 1;
}

/*
 * A send whose message no receive (nor matched probe) has taken yet is withdrawn: its message
 * leaves the destination's unexpected queue, so nothing there ever sees it. Its inbox transfer
 * may be on the wire already: it still lands, and the receiving side's reference to the
 * message is dropped once it has (inbox_get_finished), or now if it has.
 */
static void
cancel_send(struct collsim_request *req)
{
    if (req->sent_serial == 0 || req->status.collsim_cancelled)
        return;   /* to MPI_PROC_NULL, or withdrawn already */
    struct sim_rank *dst = sim_rank_by_world(req->sent_dst_world);
    struct sim_msg *msg = dst->unexpected_head;
    while (msg != NULL && msg->serial != req->sent_serial)
        msg = msg->unx_next;
    if (msg == NULL)
        return;   /* matched: the send completes normally */
    unexpected_remove(dst, msg);
    dst->generation++;
    msg->cancelled = TRUE;
    gboolean landed = msg->inbox_arrived;
    if (!msg->eager) {
        /* no clear-to-send will come: the handshake is off and the data never moves */
        sim_rank_by_world(req->owner_world)->handshakes--;
        rv_mailbox_release(msg->rv_mbox);
        msg->rv_mbox = NULL;
        msg->sreq = NULL;
        req->msg = NULL;
        msg_unref(msg);   /* the request's reference */
    }
    request_cancelled(req);
    if (landed)
        msg_unref(msg);   /* the receiving side's */
}

int
MPI_Cancel(MPI_Request *request)
{
    const char *call = "MPI_Cancel";
    int rc = check_initialized(call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL || !request_valid(*request))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call, "invalid request");
    rc = check_request(*request, -1, call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct collsim_request *req = operative(*request);
    if (req->kind == REQ_COLL && req->p2p_flow)
        return MPI_SUCCESS; /* MPI_Isendrecv: not cancelled, it completes */
    if (req->kind == REQ_COLL)   /* erroneous in MPI-3.1 (section 5.12) */
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                             "a nonblocking collective's request cannot be cancelled");
    if (req->kind == REQ_GREQUEST) {
        /* the program decides: its cancel_fn learns whether the request is complete already,
         * and its query_fn later reports the outcome (MPI_Status_set_cancelled) */
        rc = req->cancel_fn(req->extra_state, req->complete);
        if (rc != MPI_SUCCESS)
            return collsim_error(MPI_COMM_WORLD, rc, call,
                                 "the cancel_fn of a generalized request returned error %d", rc);
        return MPI_SUCCESS;
    }
    if (req->kind == REQ_SEND) {
        cancel_send(req);
    } else if (!req->complete && req->msg == NULL) {
        /* a receive that has not matched: withdrawn, its wait returns at once */
        posted_remove(sim_rank_by_world(req->owner_world), req);
        request_cancelled(req);
    }
    return MPI_SUCCESS;
}

/* The status calls below come before or after MPI_Init alike: they only read or write the
 * status the program gives. */
static int
check_status_arg(const void *status, const char *call)
{
    if (status == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call,
                             "status is NULL or MPI_STATUS_IGNORE");
    return MPI_SUCCESS;
}

int
MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    int rc = check_status_arg(status, "MPI_Test_cancelled");
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(flag, "flag", "MPI_Test_cancelled");
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = status->collsim_cancelled != 0;
    return MPI_SUCCESS;
}

int
MPI_Status_set_cancelled(MPI_Status *status, int flag)
{
    int rc = check_status_arg(status, "MPI_Status_set_cancelled");
    if (rc != MPI_SUCCESS)
        return rc;
    status->collsim_cancelled = flag != 0;
    return MPI_SUCCESS;
}

/*
 * Packed bytes that hold the first `count` primitive elements of a sequence of dt items: whole
 * items, then the shortest prefix of one more item that holds the rest (the inverse of
 * collsim_datatype_elements, so that MPI_Get_elements gives count back).
 */
static gsize
bytes_of_elements(MPI_Datatype dt, MPI_Count count)
{
    gsize size = collsim_datatype_packed_size(1, dt);
    long long per_item = collsim_datatype_elements(dt, size);
    if (per_item <= 0)
        return 0;
    gsize bytes = (gsize)(count / per_item) * size;
    long long rest = count % per_item;
    gsize prefix = 0;
    while (prefix < size && collsim_datatype_elements(dt, prefix) != rest)
        prefix++;
    return bytes + prefix;
}

static int
status_set_elements(MPI_Status *status, MPI_Datatype datatype, MPI_Count count, const char *call)
{
    int rc = check_status_arg(status, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_datatype_check_handle(datatype) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype: %s",
                             collsim_datatype_problem(datatype));
    if (count < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_COUNT, call, "negative count %lld",
                             count);
    status->collsim_bytes = bytes_of_elements(datatype, count);
    return MPI_SUCCESS;
}

int
MPI_Status_set_elements(MPI_Status *status, MPI_Datatype datatype, int count)
{
    return status_set_elements(status, datatype, count, "MPI_Status_set_elements");
}

int
MPI_Status_set_elements_x(MPI_Status *status, MPI_Datatype datatype, MPI_Count count)
{
    return status_set_elements(status, datatype, count, "MPI_Status_set_elements_x");
}

int
MPI_Get_elements_x(const MPI_Status *status, MPI_Datatype datatype, MPI_Count *count)
{
    const char *call = "MPI_Get_elements_x";
    int rc = check_status_arg(status, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_datatype_check_handle(datatype) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call, "invalid datatype: %s",
                             collsim_datatype_problem(datatype));
    rc = sim_p2p_check_out(count, "count", call);
    if (rc != MPI_SUCCESS)
        return rc;
    long long elements = collsim_datatype_elements(datatype, status->collsim_bytes);
    *count = elements < 0 ? MPI_UNDEFINED : elements;
    return MPI_SUCCESS;
}

/* First unexpected message matching (context, source, tag), or NULL. */
static struct sim_msg *
probe_match(struct sim_rank *me, guint32 context, int source_world, int tag)
{
    return unexpected_first_match(me, context, source_world, tag);
}

static void
probe_status(const struct sim_msg *msg, MPI_Status *status)
{
    if (status == MPI_STATUS_IGNORE)
        return;
    status->MPI_SOURCE = msg->src_local;
    status->MPI_TAG = msg->tag; /* MPI_ERROR: see copy_status */
    status->collsim_bytes = msg->bytes;
    status->collsim_cancelled = 0;
}

/* Block until one of my inbox gets finishes. */
static void
block_on_get(struct sim_rank *me, struct sim_inbox_get *get, const char *call)
{
    me->blocked_in = call;
    me->blocked_nreqs = 0;
    if (get->comm != NULL) {
        core_comm_wait(get->comm);
        sim_after_yield();
        inbox_get_finished(get);
    }
    me->blocked_in = NULL;
}

/*
 * Whether an unexpected message's envelope has reached this rank; if not and `blocking`,
 * wait for it.
 */
static gboolean
envelope_here(struct sim_rank *me, struct sim_msg *msg, gboolean blocking)
{
    if (msg->inbox_arrived)
        return TRUE;
    if (msg->inbox == NULL)
        inbox_fetch_all(me);
    if (!blocking) {
        gboolean done = core_comm_test(msg->inbox->comm);
        sim_after_yield();
        if (done)
            inbox_get_finished(msg->inbox);
        return done;
    }
    block_on_get(me, msg->inbox, "MPI_Probe");
    return TRUE;
}

static int
check_probe_args(int source, int tag, MPI_Comm comm, const char *call)
{
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = check_comm(comm, call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_peer(comm, source, TRUE, "source", call);
    if (rc == MPI_SUCCESS)
        rc = check_tag(comm, tag, TRUE, call);
    return rc;
}

/* A probe of MPI_PROC_NULL finds at once the empty message from MPI_PROC_NULL: source
 * MPI_PROC_NULL, tag MPI_ANY_TAG, count 0 (MPI-3.1 3.11), MPI_ERROR left to the program as for
 * any probe (MPICH's pt2pt/mprobe checks it). */
static void
probe_status_proc_null(MPI_Status *status)
{
    if (status != MPI_STATUS_IGNORE) {
        int kept = status->MPI_ERROR;
        status_empty(status);
        status->MPI_SOURCE = MPI_PROC_NULL;
        status->MPI_ERROR = kept;
    }
}

/* The world rank a probe looks for, MPI_ANY_SOURCE staying a wildcard. */
static int
probe_source_world(MPI_Comm comm, int source)
{
    return source == MPI_ANY_SOURCE ? MPI_ANY_SOURCE : collsim_comm_peer_world_rank(comm, source);
}

/* A probe that does not block still moves the rank's nonblocking collectives, so that a
 * polling loop of MPI_Iprobe lets them complete (MPI's progress rule). */
static void
flows_poll(struct sim_rank *me, const char *call)
{
    if (me->running_flow != NULL || g_queue_is_empty(&me->coll_requests))
        return;
    flows_run(me);
    GPtrArray *wanted = g_ptr_array_new();
    flows_needs(me, wanted);
    if (wanted->len > 0)
        transport_wait((struct collsim_request **)wanted->pdata, (int)wanted->len, WAIT_ANY,
                       FALSE, call);
    g_ptr_array_free(wanted, TRUE);
    flows_run(me);
}

/* MPI_Iprobe's view: the first matching message whose envelope has arrived, in order (only
 * those are visible), or NULL. */
static struct sim_msg *
probe_poll(struct sim_rank *me, guint32 context, int source_world, int tag)
{
    flows_poll(me, "MPI_Iprobe");
    for (struct sim_msg *msg = me->unexpected_head; msg != NULL; msg = msg->unx_next)
        if (envelope_matches(context, source_world, tag, msg) && msg->announced &&
            envelope_here(me, msg, FALSE))
            return msg;
    return NULL;
}

/*
 * A blocked MPI_Probe of a rank with nonblocking collectives in flight: they must move while
 * it waits (MPI's progress rule), so it waits on their parked steps and on the next message
 * queued for the rank, whichever comes first.
 */
static void
probe_wait_with_flows(struct sim_rank *me, const char *call)
{
    flows_run(me);
    if (g_queue_is_empty(&me->coll_requests))
        return;
    struct collsim_request *arrival = request_new(REQ_ARRIVAL, MPI_COMM_NULL, 0);
    arrival->posted_order = me->generation;
    GPtrArray *wanted = g_ptr_array_new();
    g_ptr_array_add(wanted, arrival);
    flows_needs(me, wanted);
    transport_wait((struct collsim_request **)wanted->pdata, (int)wanted->len, WAIT_ANY, TRUE,
                   call);
    g_ptr_array_free(wanted, TRUE);
    flows_run(me);
    request_retire(&arrival, MPI_STATUS_IGNORE, call);
}

/* MPI_Probe's view: wait for the first matching message and its envelope. */
static struct sim_msg *
probe_wait(struct sim_rank *me, guint32 context, int source_world, int tag, const char *call)
{
    for (;;) {
        guint64 generation = me->generation;
        struct sim_msg *msg = probe_match(me, context, source_world, tag);
        if (msg != NULL && msg->announced) {
            envelope_here(me, msg, TRUE);
            /* a receive posted meanwhile could not take it: only this rank receives; but its
             * sender may have cancelled it meanwhile (then look again) */
            if (msg->unexpected)
                return msg;
            continue;
        }
        /* wait for the next arrival into the inbox, then look again */
        inbox_ensure_pending(me);
        struct sim_inbox_get *get = me->pending_gets_head;
        if (me->generation != generation || get == NULL)
            continue;   /* a message came meanwhile: look at the queue again */
        if (me->running_flow == NULL && !g_queue_is_empty(&me->coll_requests))
            probe_wait_with_flows(me, call);
        else
            block_on_get(me, get, call);
    }
}

int
MPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status)
{
    int rc = check_probe_args(source, tag, comm, "MPI_Iprobe");
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL)
        return collsim_error(comm, MPI_ERR_ARG, "MPI_Iprobe", "flag is NULL");
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        probe_status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct sim_msg *msg =
        probe_poll(sim_rank_self(), comm->context, probe_source_world(comm, source), tag);
    *flag = msg != NULL;
    if (msg == NULL) {
        charge_failed_poll();
        return MPI_SUCCESS;
    }
    probe_status(msg, status);
    return MPI_SUCCESS;
}

int
MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    int rc = check_probe_args(source, tag, comm, "MPI_Probe");
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        probe_status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct sim_msg *msg = probe_wait(sim_rank_self(), comm->context,
                                     probe_source_world(comm, source), tag, "MPI_Probe");
    probe_status(msg, status);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- matched probes */

/*
 * A message a matched probe took out of matching (MPI_Mprobe, MPI_Improbe): it left its
 * receiver's unexpected queue, so no other receive or probe can see it, and it keeps the
 * receiving side's reference to the message until MPI_Mrecv or MPI_Imrecv hands both to a
 * receive request. MPI_MESSAGE_NO_PROC is the one predefined message (msg NULL).
 */
#define COLLSIM_MESSAGE_MAGIC 0x4d657367u /* "Mesg" */

struct collsim_message {
    uint32_t magic;
    struct sim_msg *msg;
    MPI_Comm comm;
    int owner_world;
};

struct collsim_message collsim_message_no_proc = {COLLSIM_MESSAGE_MAGIC, NULL, MPI_COMM_NULL, -1};

static int
matched_probe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
              MPI_Status *status, gboolean blocking, const char *call)
{
    int rc = check_probe_args(source, tag, comm, call);
    if (rc == MPI_SUCCESS && flag == NULL)
        rc = collsim_error(comm, MPI_ERR_ARG, call, "flag is NULL");
    if (rc == MPI_SUCCESS && message == NULL)
        rc = collsim_error(comm, MPI_ERR_ARG, call, "message is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        *message = MPI_MESSAGE_NO_PROC;
        probe_status_proc_null(status);
        return MPI_SUCCESS;
    }
    struct sim_rank *me = sim_rank_self();
    int source_world = probe_source_world(comm, source);
    struct sim_msg *msg;
    for (;;) {
        msg = blocking ? probe_wait(me, comm->context, source_world, tag, call)
                       : probe_poll(me, comm->context, source_world, tag);
        if (msg == NULL) {
            *flag = 0;
            charge_failed_poll();
            return MPI_SUCCESS;
        }
        if (unexpected_remove(me, msg))
            break;
    }
    probe_status(msg, status);
    struct collsim_message *m = g_new0(struct collsim_message, 1);
    m->magic = COLLSIM_MESSAGE_MAGIC;
    m->msg = msg;
    m->comm = comm;
    m->owner_world = me->world_rank;
    collsim_handle_add(m);
    *flag = 1;
    *message = m;
    return MPI_SUCCESS;
}

int
MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
    int flag;
    return matched_probe(source, tag, comm, &flag, message, status, TRUE, "MPI_Mprobe");
}

int
MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message,
            MPI_Status *status)
{
    return matched_probe(source, tag, comm, flag, message, status, FALSE, "MPI_Improbe");
}

/* Check a matched receive's arguments and start it into *request, consuming *message. */
static int
post_mrecv(void *buf, int count, MPI_Datatype dt, MPI_Message *message, MPI_Request *request,
           const char *call)
{
    int rc = check_initialized(call);
    if (rc == MPI_SUCCESS)
        rc = collsim_check_communication(MPI_COMM_WORLD, call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct sim_rank *me = sim_rank_self();
    if (message == NULL || *message == MPI_MESSAGE_NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                             "message is NULL or MPI_MESSAGE_NULL");
    struct collsim_message *m = *message;
    if (m != MPI_MESSAGE_NO_PROC &&
        (!collsim_handle_readable(m) || m->magic != COLLSIM_MESSAGE_MAGIC ||
         m->owner_world != me->world_rank))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, call,
                             "message is not a message this process matched (never set, "
                             "already received, or a handle of another kind)");
    MPI_Comm comm = m == MPI_MESSAGE_NO_PROC ? MPI_COMM_WORLD : m->comm;
    rc = check_buffer(comm, buf, count, dt, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (request == NULL)
        return collsim_error(comm, MPI_ERR_REQUEST, call, "NULL request pointer");
    *message = MPI_MESSAGE_NULL;
    if (m == MPI_MESSAGE_NO_PROC) {
        *request = request_complete_null(REQ_RECV, comm);
        return MPI_SUCCESS;
    }
    struct sim_msg *msg = m->msg;
    struct collsim_request *req = request_new(REQ_RECV, comm, msg->context);
    req->buf = buf;
    req->count = count;
    req->dt = collsim_datatype_ref(dt); /* the program may free it before the end (§4.1.9) */
    req->source = msg->src_local;
    req->source_world = msg->src_world;
    req->tag = msg->tag;
    /* as start_recv does with an unexpected message it matches */
    match_pair(msg, req);
    if (!msg->eager && msg->inbox_arrived)
        rendezvous_respond(me, msg);
    m->magic = 0;
    collsim_handle_remove(m);
    g_free(m);
    *request = req;
    return MPI_SUCCESS;
}

int
MPI_Imrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
           MPI_Request *request)
{
    return post_mrecv(buf, count, datatype, message, request, "MPI_Imrecv");
}

int
MPI_Mrecv(void *buf, int count, MPI_Datatype datatype, MPI_Message *message,
          MPI_Status *status)
{
    MPI_Request req;
    int rc = post_mrecv(buf, count, datatype, message, &req, "MPI_Mrecv");
    if (rc != MPI_SUCCESS)
        return rc;
    return wait_retire(&req, status, "MPI_Mrecv");
}

/* ---------------------------------------------------------------- engine hooks */

void
sim_p2p_rank_start(struct sim_rank *rank)
{
    rank->posted_first.head = rank->posted_first.tail = NULL;
    rank->posted_by_source = (struct source_table){NULL, 0, 0};
    rank->posted_spare = NULL;
    rank->posted_any_head = rank->posted_any_tail = NULL;
    rank->posted_count = 0;
    rank->unexpected_head = rank->unexpected_tail = NULL;
    rank->unexpected_first.head = rank->unexpected_first.tail = NULL;
    rank->unexpected_by_source = (struct source_table){NULL, 0, 0};
    rank->unexpected_spare = NULL;
    rank->unfetched_head = rank->unfetched_tail = NULL;
    rank->pending_gets_head = rank->pending_gets_tail = NULL;
    rank->unreaped_head = rank->unreaped_tail = NULL;
    rank->unreaped_landed = 0;
    rank->reap_before = NULL;
    rank->reap_passed_over = 0;
    rank->reap_resume = FALSE;
    rank->handshakes = 0;
    g_queue_init(&rank->handshake_gets);
    struct sim_port *ports = host_ports(rank->host);
    rank->nic = &ports[0];
    rank->shm = &ports[1];
    rank->wait = NULL;
    rank->running_flow = NULL;
    rank->running_coll = NULL;
    rank->flow_parking = NULL;
    g_queue_init(&rank->coll_requests);
}

void
sim_p2p_drain_port(struct sim_rank *rank)
{
    reap_sent(rank, TRUE);
}

/* Release what a rank still holds when it returns from main. */
void
sim_p2p_rank_finish(struct sim_rank *rank)
{
    /* my last messages may still be queued or on the wire: let them all leave and land (a
     * transfer still running when its sender's actor ends would be cancelled) */
    sim_p2p_drain_port(rank);
    for (;;) {
        struct sim_inbox_get *get;
        FIFO_POP(rank->pending_gets_head, rank->pending_gets_tail, get, pending_next);
        if (get == NULL)
            break;
        core_comm_unref(get->comm);
        pool_give(&get_pool, get);
    }
    wait_free(rank->wait);
    rank->wait = NULL;
    if (rank->freed_active != NULL) /* a rank that ended without MPI_Finalize */
        g_ptr_array_free(rank->freed_active, TRUE);
    rank->freed_active = NULL;
    bsend_forget(rank);
    g_free(rank->flow_landings);
    rank->flow_landings = NULL;
    /* collectives never completed (reported at MPI_Finalize) are abandoned where they stand */
    struct collsim_request *coll;
    while ((coll = g_queue_pop_head(&rank->coll_requests)) != NULL) {
        sim_flow_free(coll->flow);
        coll->flow = NULL;
    }
    if (rank->flow_parking != NULL) {
        small_vec_free(&rank->flow_parking->parked);
        small_vec_free(&rank->flow_parking->unstepped);
        g_free(rank->flow_parking);
        rank->flow_parking = NULL;
    }
}

/* User traffic travels in even contexts, collectives' in their twins' odd ones (comm.h). */
static gboolean
user_context(guint32 context)
{
    return context % 2 == 0;
}

static gint
posted_order_cmp(gconstpointer a, gconstpointer b)
{
    const struct collsim_request *x = *(struct collsim_request *const *)a;
    const struct collsim_request *y = *(struct collsim_request *const *)b;
    return x->posted_order < y->posted_order ? -1 : x->posted_order > y->posted_order;
}

/* How many of a kind of leftover a warning names before "and N more". */
#define LEFTOVERS_SHOWN 3

void
sim_p2p_report_unfinished(struct sim_rank *rank)
{
    GPtrArray *posted = g_ptr_array_new();
    guint32 at = 0;
    struct posted_bucket *bucket;
    while ((bucket = source_table_next(&rank->posted_by_source, &at)) != NULL)
        for (struct collsim_request *r = bucket->head; r != NULL; r = r->posted_next)
            if (user_context(r->context))
                g_ptr_array_add(posted, r);
    for (struct collsim_request *r = rank->posted_first.head; r != NULL; r = r->posted_next)
        if (user_context(r->context))
            g_ptr_array_add(posted, r);
    for (struct collsim_request *r = rank->posted_any_head; r != NULL; r = r->posted_next)
        if (user_context(r->context))
            g_ptr_array_add(posted, r);
    g_ptr_array_sort(posted, posted_order_cmp);   /* the table's order is no order */
    GString *out = g_string_new(NULL);
    if (rank->live_requests > 0)
        g_string_append_printf(out,
                               "collsim: warning: rank %d reaches MPI_Finalize with "
                               "%" G_GUINT64_FORMAT " request%s never completed (no MPI_Wait, "
                               "MPI_Test or MPI_Request_free)\n",
                               rank->world_rank, rank->live_requests,
                               rank->live_requests == 1 ? "" : "s");
    guint collectives = 0;
    for (GList *l = rank->coll_requests.head; l != NULL; l = l->next, collectives++) {
        const struct collsim_request *req = l->data;
        if (collectives < LEFTOVERS_SHOWN)
            g_string_append_printf(out, "collsim: warning: rank %d: its %s on %s never completed\n",
                                   rank->world_rank, req->call, req->comm->name);
    }
    if (collectives > LEFTOVERS_SHOWN)
        g_string_append_printf(out,
                               "collsim: warning: rank %d: and %u more nonblocking collectives "
                               "never completed\n",
                               rank->world_rank, collectives - LEFTOVERS_SHOWN);
    for (guint i = 0; i < posted->len && i < LEFTOVERS_SHOWN; i++) {
        const struct collsim_request *req = g_ptr_array_index(posted, i);
        g_string_append_printf(out, "collsim: warning: rank %d: its receive of ", rank->world_rank);
        describe_request(req, out);
        g_string_append(out, " was never matched\n");
    }
    if (posted->len > LEFTOVERS_SHOWN)
        g_string_append_printf(out,
                               "collsim: warning: rank %d: and %u more receives never matched\n",
                               rank->world_rank, posted->len - LEFTOVERS_SHOWN);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
    g_ptr_array_free(posted, TRUE);
}

void
sim_p2p_report_unreceived(struct sim_rank *rank)
{
    guint count = 0;
    GString *out = g_string_new(NULL);
    for (const struct sim_msg *msg = rank->unexpected_head; msg != NULL; msg = msg->unx_next) {
        if (msg->kind != MSG_MPI || !user_context(msg->context))
            continue;
        if (count++ < LEFTOVERS_SHOWN)
            g_string_append_printf(out,
                                   "collsim: warning: rank %d never received the message rank %d "
                                   "sent it (tag %d, %zu bytes)\n",
                                   rank->world_rank, msg->src_world, msg->tag, msg->bytes);
    }
    if (count > LEFTOVERS_SHOWN)
        g_string_append_printf(out,
                               "collsim: warning: rank %d: and %u more messages never received\n",
                               rank->world_rank, count - LEFTOVERS_SHOWN);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
}

static void
describe_request(const struct collsim_request *req, GString *out)
{
    if (req->kind == REQ_GREQUEST) {
        g_string_append(out, "a generalized request (MPI_Grequest_start) that is not complete: "
                             "no MPI_Grequest_complete for it yet, and this rank, blocked, "
                             "cannot call it");
        return;
    }
    if (req->kind == REQ_COLL) {
        g_string_append_printf(out, "%s to complete", req->call);
        return;
    }
    if (req->kind == REQ_ARRIVAL) {
        g_string_append(out, "a message to probe");
        return;
    }
    if (req->kind == REQ_SEND) {
        g_string_append_printf(out, "a send to rank %d (tag %d) to be received",
                               req->msg != NULL ? req->msg->dst_world : -1,
                               req->msg != NULL ? req->msg->tag : -1);
        return;
    }
    if (req->source_world == MPI_ANY_SOURCE)
        g_string_append(out, "a message from any rank");
    else
        g_string_append_printf(out, "a message from rank %d", req->source_world);
    if (req->tag == MPI_ANY_TAG)
        g_string_append(out, " (any tag)");
    else
        g_string_append_printf(out, " (tag %d)", req->tag);
    if (collsim_comm_is_internal(req->comm))
        g_string_append(out, " inside a collective");
}

int
sim_p2p_waits_for(const struct sim_rank *rank)
{
    for (int i = 0; rank->blocked_in != NULL && i < rank->blocked_nreqs; i++) {
        const struct collsim_request *req = rank->blocked_reqs[i];
        if (req == NULL || req->complete || req->kind == REQ_GREQUEST)
            continue; /* a generalized request waits for no rank */
        if (req->kind == REQ_SEND)
            return req->msg != NULL ? req->msg->dst_world : -1;
        return req->source_world >= 0 ? req->source_world : -1;
    }
    return -1;
}

void
sim_p2p_describe_blocked(const struct sim_rank *rank, GString *out)
{
    g_string_append_printf(out, "rank %d is blocked in ", rank->world_rank);
    /* inside a collective: the user's call first, then the point-to-point step it waits in */
    const struct collsim_request *inner = NULL;
    for (int i = 0; rank->blocked_in != NULL && i < rank->blocked_nreqs && inner == NULL; i++)
        if (rank->blocked_reqs[i] != NULL && !rank->blocked_reqs[i]->complete &&
            collsim_comm_is_internal(rank->blocked_reqs[i]->comm))
            inner = rank->blocked_reqs[i];
    if (inner != NULL &&
        coll_check_describe_rank(collsim_comm_visible(inner->comm), rank->world_rank, out))
        g_string_append(out, ", in its step ");
    g_string_append(out, rank->blocked_in != NULL ? rank->blocked_in : "an unknown call");
    gboolean first = TRUE;
    for (int i = 0; rank->blocked_in != NULL && i < rank->blocked_nreqs; i++) {
        const struct collsim_request *req = rank->blocked_reqs[i];
        if (req == NULL || req->complete)
            continue;
        g_string_append(out, first ? " waiting for " : " and ");
        describe_request(req, out);
        first = FALSE;
    }
}
