/*
 * platform_query.h — what collsim's own core (core_own.c) asks of the platform SimGrid has
 * loaded: routes with SimGrid's own latency sums, link sharing policies, and the network
 * configuration SimGrid parsed. The answers are SimGrid's, so the own core's models start
 * from exactly the numbers SimGrid's would.
 */
#ifndef COLLSIM_CORE_PLATFORM_QUERY_H
#define COLLSIM_CORE_PLATFORM_QUERY_H

#include <glib.h>
#include <simgrid/forward.h>

G_BEGIN_DECLS

enum platform_sharing {
    PLATFORM_FATPIPE,
    PLATFORM_SHARED,
    PLATFORM_OTHER, /* WIFI, NONLINEAR: not modelled by the own core */
};

/* The links from src to dst in route order (sg_link_t, appended to `links`) and SimGrid's
 * sum of their latencies. */
void platform_route(sg_host_t src, sg_host_t dst, GPtrArray *links, double *latency);

enum platform_sharing platform_link_sharing(sg_link_t link);

/* SimGrid's configuration item of type string, in newly allocated memory (the C API reads
 * the numbers and booleans). */
gchar *platform_cfg_string(const char *name);

/* Call step(clock, delta) each time SimGrid's clock advances (its on_time_advance signal). */
void platform_trace_steps(void (*step)(double now, double delta));

G_END_DECLS

#endif
