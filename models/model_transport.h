/*
 * model_transport.h — software costs of point-to-point messages that SimGrid does not model.
 *
 * SimGrid's network model gives the wire time of a transfer; these parameters add what an MPI
 * library and its NIC cost around it: the eager/rendezvous switch point, per-message CPU
 * overheads and the NIC's gap between two message starts. The defaults are those of the
 * default network preset (model_network.h, MODEL_NETWORK_DEFAULT); the `cm02`, `lv08` and
 * `smpi` presets set SMPI's choices (65536-byte threshold, no overheads) for side-by-side runs.
 */
#ifndef COLLSIM_MODEL_TRANSPORT_H
#define COLLSIM_MODEL_TRANSPORT_H

#include <glib.h>

/*
 * When a rank's nonblocking collectives move. CALLS: only inside the rank's MPI calls (waits,
 * tests, blocking calls), as in an MPI library without a progress thread. ASYNC: also while
 * the rank computes (collsim_compute), as with a progress thread or an offload engine that
 * costs the rank's computation nothing.
 */
enum model_progress { MODEL_PROGRESS_CALLS, MODEL_PROGRESS_ASYNC };

struct model_transport {
    gsize eager_threshold;  /* messages of at most this many bytes go eagerly */
    double send_overhead;   /* seconds of sender CPU per message (LogP's o_s) */
    double recv_overhead;   /* seconds of receiver CPU per message (LogP's o_r) */
    double per_byte_overhead; /* seconds of CPU per byte on each side (LogGOPS's O) */
    double gap;             /* seconds between the starts of two messages out of one NIC (LogP's g) */
    double poll_overhead;   /* seconds charged by an MPI_Test/MPI_Iprobe that finds nothing */
    enum model_progress progress; /* CALLS by default */
};

/* "calls" / "async" (the names of options and scenario keys); FALSE for anything else. */
gboolean model_progress_parse(const char *text, enum model_progress *progress);
const char *model_progress_name(enum model_progress progress);

/* The documented defaults. */
void model_transport_defaults(struct model_transport *model);

/* Sender-side CPU time of one message of `bytes`. */
double model_transport_send_cost(const struct model_transport *model, gsize bytes);
/* Receiver-side CPU time of one message of `bytes`. */
double model_transport_recv_cost(const struct model_transport *model, gsize bytes);

#endif
