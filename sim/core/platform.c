/*
 * platform.c — the run's hosts and routes (platform.h): SimGrid's loaded platform, or
 * collsim's own flat cluster.
 */
#include "config.h"

#include "sim/core/platform.h"

#include <string.h>

#include "sim/core/simgrid_glue.h"

struct core_host {
    sg_host_t simgrid; /* NULL on the own flat cluster */
    gsize index;
    gchar *name; /* the own cluster's, made when first asked (SimGrid keeps its own) */
};

/* The links of one host of the flat cluster, in the order their ids count. */
enum flat_link { FLAT_UP, FLAT_DOWN, FLAT_LOOPBACK, FLAT_LINKS };

static struct {
    gboolean flat;
    struct core_flat_cluster cluster;
    core_host *hosts;
    gsize nhosts;
} platform;

void
core_platform_free(void)
{
    for (gsize i = 0; i < platform.nhosts; i++)
        g_free(platform.hosts[i].name);
    g_free(platform.hosts);
    g_free((gchar *)platform.cluster.prefix);
    g_free((gchar *)platform.cluster.suffix);
    memset(&platform, 0, sizeof platform);
}

static void
hosts_new(gsize n)
{
    core_platform_free();
    platform.nhosts = n;
    platform.hosts = g_new0(core_host, n);
    for (gsize i = 0; i < n; i++)
        platform.hosts[i].index = i;
}

void
core_platform_use_simgrid(void)
{
    gsize n = 0;
    sg_host_t *list = simgrid_glue()->host_list(&n);
    hosts_new(n);
    for (gsize i = 0; i < n; i++)
        platform.hosts[i].simgrid = list[i];
    g_free(list);
}

void
core_platform_use_flat(const struct core_flat_cluster *cluster)
{
    hosts_new(cluster->hosts);
    platform.flat = TRUE;
    platform.cluster = *cluster;
    platform.cluster.prefix = g_strdup(cluster->prefix != NULL ? cluster->prefix : "node-");
    platform.cluster.suffix = g_strdup(cluster->suffix != NULL ? cluster->suffix : "");
}

gboolean
core_platform_is_flat(void)
{
    return platform.flat;
}

gsize
core_host_count(void)
{
    return platform.nhosts;
}

core_host *
core_host_at(gsize index)
{
    g_assert(index < platform.nhosts);
    return &platform.hosts[index];
}

gsize
core_host_index(const core_host *host)
{
    return host->index;
}

const char *
core_host_name(core_host *host)
{
    if (host->simgrid != NULL)
        return simgrid_glue()->host_name(host->simgrid);
    if (host->name == NULL)
        host->name = g_strdup_printf("%s%" G_GUINT64_FORMAT "%s", platform.cluster.prefix,
                                     platform.cluster.first + host->index,
                                     platform.cluster.suffix);
    return host->name;
}

double
core_host_speed(const core_host *host)
{
    return host->simgrid != NULL ? simgrid_glue()->host_speed(host->simgrid)
                                 : platform.cluster.speed;
}

int
core_host_core_count(const core_host *host)
{
    return host->simgrid != NULL ? simgrid_glue()->host_core_count(host->simgrid)
                                 : platform.cluster.cores;
}

sg_host_t
core_host_simgrid(const core_host *host)
{
    return host->simgrid;
}

/* The flat cluster's link `kind` of `host`; ids start at 1 (never a null key). */
static struct core_link
flat_link(const core_host *host, enum flat_link kind)
{
    const struct core_flat_cluster *c = &platform.cluster;
    struct core_link link = {(guintptr)host->index * FLAT_LINKS + kind + 1, c->bandwidth,
                             c->latency, PLATFORM_SHARED};
    if (kind == FLAT_LOOPBACK) {
        link.bandwidth = c->loopback_bandwidth;
        link.latency = c->loopback_latency;
        link.sharing = PLATFORM_FATPIPE;
    }
    return link;
}

gsize
core_route_flat(const core_host *src, const core_host *dst, struct core_link links[2],
                double *latency)
{
    /* SimGrid's ClusterZone: the loopback inside a host if there is one; else the source's
     * private link (its up half), then the destination's (its down half), latencies added in
     * that order from 0 */
    gsize n = 0;
    double sum = 0.0;
    if (src == dst && !platform.cluster.no_loopback) {
        links[n] = flat_link(src, FLAT_LOOPBACK);
        sum += links[n++].latency;
    } else {
        links[n] = flat_link(src, FLAT_UP);
        sum += links[n++].latency;
        links[n] = flat_link(dst, FLAT_DOWN);
        sum += links[n++].latency;
    }
    *latency = sum;
    return n;
}

gsize
core_flat_link_id_bound(void)
{
    return platform.nhosts * FLAT_LINKS + 1;
}

void
core_route(const core_host *src, const core_host *dst, GArray *links, double *latency)
{
    if (src->simgrid != NULL) {
        simgrid_glue()->route(src->simgrid, dst->simgrid, links, latency);
        return;
    }
    struct core_link flat[2];
    gsize n = core_route_flat(src, dst, flat, latency);
    g_array_append_vals(links, flat, (guint)n);
}

double
core_route_bandwidth(const GArray *links)
{
    double min = -1.0;
    for (guint i = 0; i < links->len; i++) {
        double bw = g_array_index(links, struct core_link, i).bandwidth;
        if (bw < min || min < 0.0)
            min = bw;
    }
    return min;
}
