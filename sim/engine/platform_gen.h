/*
 * platform_gen.h — virtual clusters by name: `flat`, `fattree`, `torus`, `dragonfly`.
 *
 * A spec `NAME[:key=value,...]` (collsim exec --platform, scenario key [platform] file) is
 * parsed, checked, written as a SimGrid 3.32 platform (one <cluster>, with SimGrid's
 * FAT_TREE, TORUS or DRAGONFLY topology where it applies) and described analytically: hosts,
 * cores, links, diameter and bisection bandwidth (formulas in platforms/README.md). Lists of
 * values are written with `x`: `dims=4x4x4`, `down=16x8`.
 *
 * Invariants: nothing here talks to SimGrid (libc and GLib only), so it is unit-tested on
 * its own; host names are `node-0 … node-(H-1)`, which the engine orders naturally; the
 * hop counts follow SimGrid's own routing of each topology (tests/exec/test_platforms.sh
 * checks them against simulated one-way times).
 */
#ifndef COLLSIM_SIM_PLATFORM_GEN_H
#define COLLSIM_SIM_PLATFORM_GEN_H

#include <glib.h>

#include "models/model_network.h"
#include "sim/core/platform.h"

enum platform_kind { PLATFORM_FLAT, PLATFORM_FATTREE, PLATFORM_TORUS, PLATFORM_DRAGONFLY };

#define PLATFORM_MAX_LEVELS 4
#define PLATFORM_MAX_DIMS 3
/* The largest number of hosts a spec may ask for (a SimGrid cluster of 4M hosts already
 * takes seconds to build). */
#define PLATFORM_MAX_HOSTS (1u << 22)

struct platform_spec {
    enum platform_kind kind;
    guint cores;               /* per host (node) */
    double speed;              /* flop/s per core */
    double bandwidth;          /* bytes/s of every network link */
    double latency;            /* seconds per link */
    double intra_bandwidth;    /* a node's loopback */
    double intra_latency;
    guint hosts;               /* derived for all but flat */
    /* fattree: SimGrid's PGFT parameters (levels; down; up; parallel) */
    guint levels;
    guint down[PLATFORM_MAX_LEVELS], up[PLATFORM_MAX_LEVELS], parallel[PLATFORM_MAX_LEVELS];
    /* torus */
    guint ndims, dims[PLATFORM_MAX_DIMS];
    /* dragonfly: groups and links between two groups; chassis per group and links between
     * two chassis; routers per chassis and links between two routers; nodes per router */
    guint groups, global_links, chassis, chassis_links, routers, router_links, nodes;
};

/* What `collsim platform describe` prints. */
struct platform_facts {
    guint64 hosts;
    guint cores_per_host;
    guint64 cores;
    guint64 links;          /* network links (each full duplex), loopbacks not counted */
    guint diameter;         /* links crossed by the longest route between two hosts */
    double bisection;       /* bytes/s across the worst cut into two equal halves, one way */
};

#define PLATFORM_GEN_ERROR (platform_gen_error_quark())
GQuark platform_gen_error_quark(void);

/* Whether `text` names a generator (NAME or NAME:...) rather than a file. */
gboolean platform_gen_is_spec(const char *text);

/*
 * Parse `text`; the links' defaults come from `network` (its link and intra-node numbers).
 * `nranks` sizes a flat cluster without `hosts` (one host per `cores` ranks). On error, one
 * line naming the generator or key and what is allowed.
 */
gboolean platform_gen_parse(const char *text, const struct model_network *network, guint nranks,
                            struct platform_spec *spec, GError **error);

/* The SimGrid platform XML of `spec` (caller frees). */
gchar *platform_gen_xml(const struct platform_spec *spec);

/* A flat spec as collsim's own core simulates it without SimGrid's objects (the same hosts,
 * links and routes as the XML above gives SimGrid). */
void platform_gen_flat_cluster(const struct platform_spec *spec, struct core_flat_cluster *cluster);

/* Hosts, cores, links, diameter and bisection bandwidth of `spec`. */
void platform_gen_facts(const struct platform_spec *spec, struct platform_facts *facts);

/* Links crossed from host `a` to host `b` under SimGrid's routing of the topology. */
guint platform_gen_hops(const struct platform_spec *spec, guint64 a, guint64 b);

/* One paragraph per generator: its keys and defaults, for `collsim list platforms`. */
const char *platform_gen_help(void);

#endif
