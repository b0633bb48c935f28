/*
 * simgrid_glue.h — everything collsim asks of SimGrid, behind one table that a separate
 * module (collsim-simgrid.so, sim/core/simgrid_glue.c) fills.
 *
 * libcollsim is not linked with libsimgrid: loading libsimgrid and the ns-3 libraries Debian
 * builds it with takes about 50 ms before main() on the reference machine, more than the
 * whole of a 1024-rank run on collsim's own core and its own flat cluster, which need nothing
 * of SimGrid. The module, and libsimgrid with it, is loaded the first time a run needs SimGrid
 * (SimGrid's core, a platform file, a generated fat tree, torus or dragonfly, the checks of
 * --cfg items and platform files) and stays loaded.
 */
#ifndef COLLSIM_CORE_SIMGRID_GLUE_H
#define COLLSIM_CORE_SIMGRID_GLUE_H

#include <glib.h>
#include <simgrid/forward.h>

#include "sim/core/platform.h"

G_BEGIN_DECLS

struct core_backend;

struct simgrid_glue {
    /* the core (core.h) on SimGrid: core_simgrid.c */
    const struct core_backend *backend;
    /* simgrid_init with these arguments (it removes the ones it consumes), then
     * simgrid_load_platform; SimGrid exits the process on a bad argument or file */
    void (*start)(int *argc, char **argv, const char *platform);
    /* the loaded platform's hosts and links, in SimGrid's order (g_free the array) */
    sg_host_t *(*host_list)(gsize *count);
    const char *(*host_name)(sg_host_t host);
    double (*host_speed)(sg_host_t host);
    int (*host_core_count)(sg_host_t host);
    gsize (*host_pstate_count)(sg_host_t host);
    double (*host_pstate_speed)(sg_host_t host, gsize pstate);
    sg_link_t *(*link_list)(gsize *count);
    const char *(*link_name)(sg_link_t link);
    double (*link_bandwidth)(sg_link_t link);
    double (*link_latency)(sg_link_t link);
    /* the route from src to dst, appended to `links` (struct core_link), and SimGrid's sum of
     * its latencies */
    void (*route)(sg_host_t src, sg_host_t dst, GArray *links, double *latency);
    /* configuration items as SimGrid parsed them (cfg_string's answer is to be g_free'd) */
    double (*cfg_double)(const char *name);
    gboolean (*cfg_boolean)(const char *name);
    int (*cfg_int)(const char *name);
    gchar *(*cfg_string)(const char *name);
};

/* The table, loading the module at the first call. When the module cannot be loaded, says so
 * on stderr (where it was looked for, and why it failed) and exits with status 2. */
const struct simgrid_glue *simgrid_glue(void);

/* Whether simgrid_glue() has loaded the module in this process. */
gboolean simgrid_glue_loaded(void);

/* The module's one exported symbol. */
#define SIMGRID_GLUE_SYMBOL "collsim_simgrid_glue_table"
const struct simgrid_glue *collsim_simgrid_glue_table(void);

G_END_DECLS

#endif
