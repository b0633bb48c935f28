/*
 * rank.h — the state of one simulated MPI process, shared by the engine and the transport.
 *
 * A rank is reached from the running actor in O(1) (actor data). Its queues follow MPI's
 * matching rules: the posted receives hold unmatched receives in posting order (kept per
 * source, wildcards apart, see p2p.c), the unexpected messages wait in sending order (and by
 * source, for the receives that name one).
 * The inbox bookkeeping pairs the rank's SimGrid gets with the messages put into its inbox,
 * both in FIFO order (see p2p.c).
 */
#ifndef COLLSIM_SIM_RANK_H
#define COLLSIM_SIM_RANK_H

#include <glib.h>
#include <simgrid/forward.h>

#include "sim/core/core.h"

#include "mpi.h"
#include "sim/engine/engine.h"
#include "sim/transport/source_table.h"
#include "src/handles.h"
#include "src/runtime.h"

struct sim_wait;
struct sim_port;

/* How many of a blocked rank's requests a deadlock report names. */
#define SIM_BLOCKED_REQS_SHOWN 4

/* The posted receives of one rank from one source in one context, in posting order (p2p.c). */
struct posted_bucket {
    gint64 key;              /* its (context, source) */
    struct collsim_request *head, *tail;
};

struct sim_msg;

/* One source's unexpected messages of one context, in sending order (p2p.c). */
struct unexpected_bucket {
    gint64 key;              /* its (context, source) */
    struct sim_msg *head, *tail;
};

struct sim_rank {
    int world_rank;
    core_actor *actor;            /* the actor that runs it */
    core_host *host;
    int node;                     /* position of host in the natural order of host names */
    core_mailbox *inbox;           /* permanent receiver: this rank */
    int mpi_state;                /* 0 before MPI_Init, 1 initialised, 2 finalised */
    int in_user_function;         /* user-defined reduction functions running (runtime.h) */
    gboolean finished;            /* returned from main */
    int exit_status;
    gboolean requests_unseen;     /* in a blocking call's start: the requests made now never
                                     reach the program, so they are no handles (p2p.c) */

    struct posted_bucket posted_first; /* the receives posted from one source, kept out of
                                     the table below: a rank that receives from one source at a
                                     time (a tree's child, a ring) never needs the table (p2p.c) */
    struct source_table posted_by_source; /* (context, source) -> its other posted receives
                                     (source_table.h) */
    struct posted_bucket *posted_spare; /* the last bucket emptied, left in that table for the
                                     next receive from its source (p2p.c) */
    struct collsim_request *posted_any_head, *posted_any_tail; /* posted MPI_ANY_SOURCE
                                     receives, chained through the requests (p2p.c) */
    guint64 posted_count;         /* receives posted so far: their posting order */
    struct sim_msg *unexpected_head, *unexpected_tail; /* unmatched messages, sending order,
                                     chained through the messages (p2p.c) */
    struct unexpected_bucket unexpected_first; /* the messages of one source, kept out of
                                     the table below, as posted_first (p2p.c) */
    struct source_table unexpected_by_source; /* (context, source) -> the same messages
                                     from it (source_table.h) */
    struct unexpected_bucket *unexpected_spare; /* the last bucket emptied (p2p.c) */
    /* messages put into the inbox, no get issued yet; gets issued, no message paired yet (both
     * first in first out, chained through the messages and the gets: p2p.c) */
    struct sim_msg *unfetched_head, *unfetched_tail;
    struct sim_inbox_get *pending_gets_head, *pending_gets_tail;
    struct sim_port *nic;         /* my host's network interface (shared by its ranks) */
    struct sim_port *shm;         /* my host's memory bus, for messages inside the node */
    struct sim_msg *unreaped_head, *unreaped_tail; /* messages I sent, whose inbox transfer I
                                     still hold, oldest first (p2p.c) */
    int handshakes;               /* rendezvous steps I owe or await: while > 0, every blocking
                                     wait also listens to my inbox (p2p.c) */
    int unreaped_landed;          /* how many of my unreaped messages a send may reap (p2p.c) */
    /* where the next reaping walk may start (p2p.c, reap_sent): after reap_before, the last of
     * the reap_passed_over messages not landed at the head of my unreaped queue, while
     * reap_resume (cleared when one of them lands) */
    struct sim_msg *reap_before;
    int reap_passed_over;
    gboolean reap_resume;
    GQueue handshake_gets;        /* struct sim_inbox_get * carrying a handshake, not arrived */
    guint64 generation;           /* bumped whenever another rank changes these queues */
    struct sim_wait *wait;        /* the blocking wait this rank is in, kept for reuse (p2p.c) */
    struct sim_flow *running_flow; /* the flow its actor runs now, NULL on its own stack */
    int starting_persistent;      /* inside MPI_Start(all), starting a persistent request */
    double wtime_seen;            /* the instant MPI_Wtime last returned, and how many reads */
    unsigned wtime_reads;         /* in a row returned it (env.c: a spin on MPI_Wtime) */
    GPtrArray *freed_active;      /* struct collsim_request * the program freed with
                                     MPI_Request_free while active: MPI_Finalize completes them */
    GQueue coll_requests;         /* struct collsim_request *: its nonblocking collectives in
                                     flight, oldest first (p2p.c) */
    struct flow_parking *flow_parking; /* its parked flows' table, once it started one (p2p.c) */
    struct collsim_request *running_coll; /* the collective whose flow runs now (p2p.c) */
    struct flow_landings *flow_landings; /* where messages for its flows landed lately, once
                                     one of its collectives is watched, and how many (p2p.c) */
    guint64 flow_landed;

    const char *blocked_in;       /* MPI call this rank is blocked in, for deadlock reports */
    struct collsim_request *blocked_reqs[SIM_BLOCKED_REQS_SHOWN]; /* what it waits for */
    int blocked_nreqs;

    guint64 messages_sent;
    guint64 bytes_sent;
    guint64 live_requests;        /* requests created and not yet waited, tested or freed */
    guint unfreed[COLLSIM_HELD_KINDS]; /* communicators, datatypes, ops held at MPI_Finalize */
};

/* The calling rank (NULL outside any rank, e.g. in unit tests without a simulation). */
struct sim_rank *sim_rank_self(void);
struct sim_rank *sim_rank_by_world(int world_rank);
int sim_world_size(void);

/* The run's configuration, valid while the simulation runs. */
const struct sim_config *sim_engine_config(void);

/* Re-establish the calling rank's private globals after anything that may have switched
 * actors (every SimGrid call that can block or yield). */
void sim_after_yield(void);

/* Whether [p, p + len) lies (in part) in the program's privatized globals: there, only the
 * running rank's copy is visible, and another rank's buffer cannot be read or written. */
gboolean sim_globals_overlap(gconstpointer p, gsize len);
/* Whether the program's globals are privatized at all (then some buffers may be among them). */
gboolean sim_globals_private(void);
/* Make `world_rank`'s copy of the program's globals the visible one, for a copy between two
 * ranks' globals; sim_globals_show(running rank) puts things back. */
void sim_globals_show(int world_rank);

/* End the whole simulation now with `exit_code`, flushing what was written. */
void sim_engine_abort(int exit_code) G_GNUC_NORETURN;

/* Transport hooks used by the engine. sim_p2p_start() creates the transport's own actor (the
 * NIC scheduler) on `host`, before the simulation runs. */
void sim_p2p_start(core_host *host);
void sim_p2p_rank_start(struct sim_rank *rank);
void sim_p2p_rank_finish(struct sim_rank *rank);
/* Block the calling rank until every message it sent has left its NIC and landed, so that a
 * rank about to wait outside MPI (the benchmark's barrier) leaves nothing in flight. */
void sim_p2p_drain_port(struct sim_rank *rank);
/* At the calling rank's MPI_Finalize: warnings for the requests it never completed and the
 * receives it posted that nothing matched. */
void sim_p2p_report_unfinished(struct sim_rank *rank);
/* At the end of a run: warnings for the messages sent to this rank that it never received. */
void sim_p2p_report_unreceived(struct sim_rank *rank);
/* At the calling rank's MPI_Finalize: count what it never freed (listed if verbose). */
void sim_env_note_unfreed(struct sim_rank *rank, gboolean verbose);
/* getopt's globals per rank (env.c): forgotten and reset at the start and the end of a run;
 * shown for the rank that resumes, after every switch. */
void sim_env_getopt_reset(int world_size);
void sim_env_show_getopt(int world_rank);
/* At the end of a run: one line summing up what the ranks never freed, if anything. */
void sim_env_report_unfreed(const struct sim_rank *ranks, int nranks, gboolean verbose);
/* The world rank a blocked rank waits for: the peer of its first unfinished request (the
 * sender it must hear from, or the receiver that must post a receive); -1 when it waits for
 * any rank (MPI_ANY_SOURCE) or for nothing known. */
int sim_p2p_waits_for(const struct sim_rank *rank);
/* One line per blocked rank explaining what it waits for. */
void sim_p2p_describe_blocked(const struct sim_rank *rank, GString *out);
/* MPI_SUCCESS, or MPI_ERR_ARG ("WHAT is NULL", through MPI_COMM_WORLD's handler) when an
 * output argument of `call` is missing; for the calls without a communicator (requests, the
 * environment), some of which may come before MPI_Init. */
int sim_p2p_check_out(const void *pointer, const char *what, const char *call);
/* The runtime hook make_persistent (src/runtime.h): a persistent request whose MPI_Start
 * calls start(data, &op). */
int sim_p2p_make_persistent(int (*start)(void *data, MPI_Request *op), void *data,
                            void (*free_data)(void *data), MPI_Comm comm, const char *call,
                            MPI_Request *request);
/* MPI_Finalize's first step: the requests the rank freed while active complete (their peers
 * may still need them: a freed rendezvous receive owes its sender the clear-to-send). */
void sim_p2p_complete_freed(struct sim_rank *rank);
/* The runtime hook acts_for_operation (src/runtime.h): the calling rank runs one of its flows,
 * or starts a persistent request. */
int sim_p2p_acts_for_operation(void);
/* collsim_compute: `seconds` of computation, during which the asynchronous progress model
 * moves the rank's nonblocking collectives (p2p.c). */
void sim_p2p_compute(double seconds);
/* The runtime hook start_nonblocking (src/runtime.h): the operation runs on a flow of the
 * calling rank (flow.h), progressed by the rank's MPI calls. */
int sim_p2p_start_nonblocking(int (*fn)(void *data), void *data, MPI_Comm comm, const char *call,
                              MPI_Request *request);
/* runtime hook watch_buffers: a nonblocking collective's buffers, checked at its completion */
void sim_p2p_watch_buffers(MPI_Request req, const struct collsim_span *spans, int n,
                           const char *call, const void *site);
/* A nonblocking operation of the calling rank wrote its result (runtime hook result_written). */
void sim_p2p_result_written(const void *buf, int count, MPI_Datatype dt);

#endif
