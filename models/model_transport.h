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

struct model_transport {
    gsize eager_threshold;  /* messages of at most this many bytes go eagerly */
    double send_overhead;   /* seconds of sender CPU per message (LogP's o_s) */
    double recv_overhead;   /* seconds of receiver CPU per message (LogP's o_r) */
    double per_byte_overhead; /* seconds of CPU per byte on each side (LogGOPS's O) */
    double gap;             /* seconds between the starts of two messages out of one NIC (LogP's g) */
    double poll_overhead;   /* seconds charged by an MPI_Test/MPI_Iprobe that finds nothing */
};

/* The documented defaults. */
void model_transport_defaults(struct model_transport *model);

/* Sender-side CPU time of one message of `bytes`. */
double model_transport_send_cost(const struct model_transport *model, gsize bytes);
/* Receiver-side CPU time of one message of `bytes`. */
double model_transport_recv_cost(const struct model_transport *model, gsize bytes);

#endif
