/*
 * model_network.h — named network presets: one fabric's numbers, set at once.
 *
 * A preset gathers what a virtual cluster's time model needs and a platform file does not
 * say: the per-message software overheads and the NIC's gap (model_transport), the eager
 * threshold of the MPI library usual on that fabric, SimGrid's network model and cross-traffic
 * switch, and the link and intra-node numbers a generated platform uses. Every number has its
 * source in platforms/README.md ("Network presets").
 *
 * Three presets reproduce SimGrid's own models on purpose: `cm02` (the plain Hockney model,
 * no overheads), `lv08` (SimGrid's default: latency × 13.01, bandwidth × 0.97, cross
 * traffic) and `smpi` (SMPI's default piecewise factors), each with zero overheads, no gap and
 * SMPI's 65536-byte detached-send threshold, as SMPI runs them.
 *
 * Invariants: names are unique and lower case; the table's order is the listing order;
 * nothing here depends on SimGrid (libc and GLib only).
 */
#ifndef COLLSIM_MODEL_NETWORK_H
#define COLLSIM_MODEL_NETWORK_H

#include <glib.h>

#include "model_transport.h"

struct model_network {
    const char *name;          /* e.g. "ib-edr" */
    const char *fabric;        /* one line: what it models */
    double link_bandwidth;     /* bytes/s per link and direction (a generated platform's links) */
    double link_latency;       /* seconds per link; host to host through one switch: two links */
    double intra_bandwidth;    /* bytes/s between two ranks of one node (its loopback) */
    double intra_latency;      /* seconds between two ranks of one node */
    double send_overhead;      /* LogP o_s: sender CPU seconds per message */
    double recv_overhead;      /* LogP o_r: receiver CPU seconds per message */
    double gap;                /* LogP g: seconds between two message starts of one NIC */
    gsize eager_threshold;     /* largest message sent eagerly, bytes */
    const char *simgrid_model; /* SimGrid's network/model: "CM02", "LV08" or "SMPI" */
    gboolean crosstraffic;     /* SimGrid's network/crosstraffic (TCP's reverse traffic) */
};

/* The preset used when none is named. */
#define MODEL_NETWORK_DEFAULT "ib-edr"

/* Every preset, in listing order. */
const struct model_network *model_network_list(gsize *count);

/* The preset called `name` (case-insensitive), or NULL. */
const struct model_network *model_network_find(const char *name);

/* The default preset (MODEL_NETWORK_DEFAULT). */
const struct model_network *model_network_default(void);

/* The names of all presets, comma-separated, for error messages (static storage). */
const char *model_network_names(void);

/* Set the transport parameters the preset fixes: overheads, gap, eager threshold. */
void model_network_apply(const struct model_network *network, struct model_transport *transport);

/*
 * The one-way time of a message of `bytes` between two hosts `links` links apart, in the
 * preset's own terms (o_s + links·L + bytes/W + o_r for an eager message; a rendezvous
 * message adds the envelope and the clear-to-send: o_s + 3·links·L + (bytes + 2)/W + o_r).
 * Only meaningful for presets whose SimGrid model is CM02 (the others apply factors);
 * returns NAN for them.
 */
double model_network_one_way(const struct model_network *network, int links, double bytes);

#endif
