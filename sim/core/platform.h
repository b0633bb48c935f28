/*
 * platform.h — the hosts a run simulates on and the routes between them, as both cores and
 * the transport see them. One platform per process, of one of two kinds:
 *
 *  - loaded by SimGrid (a platform file, or a generated fat tree, torus or dragonfly, or any
 *    run of SimGrid's core): each host stands for a SimGrid host and routes are SimGrid's;
 *  - collsim's own flat cluster (the default platform and the `flat` generator when collsim's
 *    own core runs): hosts are numbers and routes follow SimGrid's rules for a <cluster> with
 *    private split-duplex links and a loopback and no backbone (the sender's up link then
 *    the receiver's down link; the loopback inside a host), with the same latency sums. No
 *    SimGrid object is built for it: SimGrid's host with its CPU, three links and their
 *    constraints is about 3.7 KB and 6 µs of start-up a host, which 2^20 ranks cannot afford.
 *    tests/unit/check_core_platform.c holds both kinds to the same hosts and routes.
 */
#ifndef COLLSIM_CORE_PLATFORM_H
#define COLLSIM_CORE_PLATFORM_H

#include <glib.h>
#include <simgrid/forward.h>

G_BEGIN_DECLS

typedef struct core_host core_host;

enum platform_sharing {
    PLATFORM_FATPIPE,
    PLATFORM_SHARED,
    PLATFORM_OTHER, /* WIFI, NONLINEAR: not modelled by the own core */
};

/* One link of a route: its identity (the same link has the same id in every route) and what
 * the network model needs of it. */
struct core_link {
    guintptr id;
    double bandwidth; /* bytes/s */
    double latency;   /* seconds */
    enum platform_sharing sharing;
};

/* What a flat cluster is made of: `hosts` hosts named PREFIX FIRST SUFFIX ... PREFIX
 * (FIRST + hosts - 1) SUFFIX (node-0 ... by default: NULL prefix and suffix, first 0). */
struct core_flat_cluster {
    guint64 hosts;
    double speed; /* flop/s of one core */
    int cores;
    double bandwidth, latency;                   /* each host's private link, each way */
    double loopback_bandwidth, loopback_latency; /* inside a host */
    gboolean no_loopback; /* none: a host reaches itself through its up and down links */
    const char *prefix, *suffix; /* copied by core_platform_use_flat */
    guint64 first;
};

/* The platform SimGrid loaded (after simgrid_glue()->start): its hosts, in sg_host_list's
 * order. Replaces any platform set before. */
void core_platform_use_simgrid(void);
/* collsim's own flat cluster. Replaces any platform set before. */
void core_platform_use_flat(const struct core_flat_cluster *cluster);
/* Whether the platform is the own flat cluster (whose hosts are in the natural order of their
 * names already, and have no SimGrid host). */
gboolean core_platform_is_flat(void);
void core_platform_free(void);

gsize core_host_count(void);
core_host *core_host_at(gsize index);
/* Its position in the platform's list. */
gsize core_host_index(const core_host *host);
/* Its name, valid while the platform is. */
const char *core_host_name(core_host *host);
double core_host_speed(const core_host *host);
int core_host_core_count(const core_host *host);
/* SimGrid's host, or NULL on the own flat cluster. */
sg_host_t core_host_simgrid(const core_host *host);

/* The links from src to dst in route order, appended to `links` (a GArray of struct
 * core_link), and the sum of their latencies as SimGrid adds them. */
void core_route(const core_host *src, const core_host *dst, GArray *links, double *latency);
/* The same on the flat cluster (core_platform_is_flat), into `links`: how many (1 or 2). */
gsize core_route_flat(const core_host *src, const core_host *dst, struct core_link links[2],
                      double *latency);
/* On the flat cluster, every link id is below this bound (ids are dense, from 1). */
gsize core_flat_link_id_bound(void);
/* SimGrid's sg_host_get_route_bandwidth: the smallest bandwidth on the route, -1 without a
 * link. */
double core_route_bandwidth(const GArray *links);

G_END_DECLS

#endif
