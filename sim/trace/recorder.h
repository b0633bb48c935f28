/*
 * recorder.h — what every rank did, in simulated time: its MPI calls, the messages it sent and
 * when they arrived, its computations and its waits. The raw material of --trace and
 * --timeline (trace_write.h, timeline.h).
 *
 * Invariants:
 *  - off (the default), every hook in the transport and the collective entry costs one test of
 *    `recorder_enabled`, predicted not taken (RECORDER_ON);
 *  - on, the record depends only on the simulation: times from SimGrid's clock, ranks and
 *    message numbers in the order the (deterministic) simulation produced them, names
 *    interned strings; two runs give the same record, so the same files;
 *  - per rank and lane, spans are kept in the order they began, which is their start-time
 *    order; a span opened inside another (a collective's sends) is nested in it (depth + 1)
 *    and ends no later than it. Lane 0 is the rank's own code; lane 1 is its nonblocking
 *    collectives, which run on flows interleaved with lane 0 (flow.h) and so would break the
 *    nesting of lane 0.
 */
#ifndef COLLSIM_SIM_TRACE_RECORDER_H
#define COLLSIM_SIM_TRACE_RECORDER_H

#include <glib.h>

#include "mpi.h"

extern gboolean recorder_enabled;
#define RECORDER_ON() G_UNLIKELY(recorder_enabled)

#define RECORDER_LANES 2

enum recorder_kind {
    RECORDER_COLLECTIVE, /* a collective call, with its collective and algorithm */
    RECORDER_CALL,       /* a point-to-point call: a nonblocking one's post, or the whole of
                            a blocking one (MPI_Send, MPI_Recv, MPI_Sendrecv), its wait
                            included */
    RECORDER_WAIT,       /* a blocking wait inside an MPI call (MPI_Wait...): zero-length ones
                            are dropped, and a blocking call's own wait is folded into its
                            RECORDER_CALL span */
    RECORDER_COMPUTE,    /* collsim_compute */
};

struct recorder_span {
    enum recorder_kind kind;
    int depth;              /* spans of the same lane it is nested in */
    const char *name;       /* the MPI call ("MPI_Allreduce", "MPI_Recv"), or "compute" */
    int collective;         /* enum coll_kind, or -1 */
    const char *algorithm;  /* registry name, or NULL */
    guint64 bytes;          /* collective: bytes per rank; call: the message's bytes */
    const char *comm;       /* the communicator's name, or NULL */
    double start, end;      /* simulated seconds */
};

struct recorder_message {
    int src, dst;           /* world ranks */
    int src_lane, dst_lane;
    guint64 bytes;
    gboolean eager;
    double sent;            /* when it left its sender (after the send overhead) */
    double arrived;         /* when its data landed at its receiver; < 0: never */
};

/* Start recording a run of `nranks` ranks (anything recorded before is forgotten). */
void recorder_start(int nranks);
/* Stop recording at simulated time `end`: spans still open (a deadlock, an abort) end then. */
void recorder_stop(double end);
/* Forget everything. */
void recorder_clear(void);

/* Hooks, called by the calling rank (only when RECORDER_ON()). `name`, `algorithm` are static
 * or long-lived strings; comm may be MPI_COMM_NULL. */
void recorder_begin(enum recorder_kind kind, const char *name, int collective,
                    const char *algorithm, guint64 bytes, MPI_Comm comm);
void recorder_end(enum recorder_kind kind);
/* Message number `serial` (unique in the process) leaves src for dst now. */
void recorder_message_sent(guint64 serial, int src, int dst, guint64 bytes, gboolean eager);
/* Its data has landed now (called once). */
void recorder_message_arrived(guint64 serial);
/* The runtime hook coll_traced (src/runtime.h). */
void recorder_coll_hook(int begin, const char *call, int kind, const char *algorithm,
                        size_t bytes, MPI_Comm comm);

/* The record. */
int recorder_nranks(void);
const struct recorder_span *recorder_spans(int rank, int lane, guint *count);
const struct recorder_message *recorder_messages(guint *count);
double recorder_end_time(void);
/* Messages recorded (those sent, arrived or not). */
guint64 recorder_message_count(void);

#endif
