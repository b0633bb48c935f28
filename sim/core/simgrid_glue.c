/*
 * simgrid_glue.c — the SimGrid module's table (simgrid_glue.h): SimGrid's C API, and its C++
 * API where the C one falls short (platform_query.cpp), behind the calls libcollsim makes.
 * Built into collsim-simgrid.so with core_simgrid.c, platform_query.cpp and deadline.cpp; the
 * only file of the module that libcollsim names.
 */
#include "config.h"

#include "sim/core/simgrid_glue.h"

#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/link.h>
#include <xbt/config.h>
#include <xbt/sysdep.h>

#include "sim/core/core_backend.h"
#include "sim/core/platform_query.h"

static void
start(int *argc, char **argv, const char *platform)
{
    simgrid_init(argc, argv);
    simgrid_load_platform(platform);
}

/* SimGrid's list, in memory of glib's (xbt_free and g_free need not be the same allocator) */
static gpointer
copied(void *list, gsize count, gsize size)
{
    gpointer copy = g_memdup2(list, MAX(count, 1) * size);
    xbt_free(list);
    return copy;
}

static sg_host_t *
host_list(gsize *count)
{
    *count = sg_host_count();
    return copied(sg_host_list(), *count, sizeof(sg_host_t));
}

static const char *
host_name(sg_host_t host)
{
    return sg_host_get_name(host);
}

static double
host_speed(sg_host_t host)
{
    return sg_host_get_speed(host);
}

static int
host_core_count(sg_host_t host)
{
    return sg_host_core_count(host);
}

static gsize
host_pstate_count(sg_host_t host)
{
    return sg_host_get_nb_pstates(host);
}

static double
host_pstate_speed(sg_host_t host, gsize pstate)
{
    return sg_host_get_pstate_speed(host, (unsigned long)pstate);
}

static sg_link_t *
link_list(gsize *count)
{
    *count = sg_link_count();
    return copied(sg_link_list(), *count, sizeof(sg_link_t));
}

static const char *
link_name(sg_link_t link)
{
    return sg_link_get_name(link);
}

static double
link_bandwidth(sg_link_t link)
{
    return sg_link_get_bandwidth(link);
}

static double
link_latency(sg_link_t link)
{
    return sg_link_get_latency(link);
}

static gboolean
cfg_boolean(const char *name)
{
    return sg_cfg_get_boolean(name) != 0;
}

static const struct simgrid_glue table = {
    .backend = &core_backend_simgrid,
    .start = start,
    .host_list = host_list,
    .host_name = host_name,
    .host_speed = host_speed,
    .host_core_count = host_core_count,
    .host_pstate_count = host_pstate_count,
    .host_pstate_speed = host_pstate_speed,
    .link_list = link_list,
    .link_name = link_name,
    .link_bandwidth = link_bandwidth,
    .link_latency = link_latency,
    .route = platform_route,
    .cfg_double = sg_cfg_get_double,
    .cfg_boolean = cfg_boolean,
    .cfg_int = sg_cfg_get_int,
    .cfg_string = platform_cfg_string,
};

const struct simgrid_glue *
collsim_simgrid_glue_table(void)
{
    return &table;
}
