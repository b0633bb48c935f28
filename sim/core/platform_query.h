/*
 * platform_query.h — the parts of SimGrid's answers that only its C++ API gives: routes with
 * SimGrid's own latency sums and the links' sharing policies, string configuration items,
 * the clock's advances. Private to the SimGrid module (simgrid_glue.h); the answers are
 * SimGrid's, so the own core's models start from exactly the numbers SimGrid's would.
 */
#ifndef COLLSIM_CORE_PLATFORM_QUERY_H
#define COLLSIM_CORE_PLATFORM_QUERY_H

#include <glib.h>
#include <simgrid/forward.h>

#include "sim/core/platform.h"

G_BEGIN_DECLS

/* The links from src to dst in route order (struct core_link, appended to `links`) and
 * SimGrid's sum of their latencies. */
void platform_route(sg_host_t src, sg_host_t dst, GArray *links, double *latency);

/* SimGrid's configuration item of type string, in newly allocated memory (the C API reads
 * the numbers and booleans). */
gchar *platform_cfg_string(const char *name);

/* Call step(clock, delta) each time SimGrid's clock advances (its on_time_advance signal). */
void platform_trace_steps(void (*step)(double now, double delta));

G_END_DECLS

#endif
