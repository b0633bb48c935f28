/*
 * platform_gen.c — named virtual clusters (see platform_gen.h): parsing, SimGrid XML, facts.
 *
 * Hop counts emulate SimGrid 3.32's own routing of each topology (FatTreeZone goes up to the
 * nearest common ancestor and down, TorusZone routes dimension by dimension, DragonflyZone
 * routes minimally: router, chassis, group, then down), so `describe` says what the
 * simulation will do.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine/platform_gen.h"

G_DEFINE_QUARK(collsim-platform-gen-error-quark, platform_gen_error)

static const char *const kind_names[] = {"flat", "fattree", "torus", "dragonfly"};

static gboolean
fail(GError **error, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static gboolean
fail(GError **error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error_literal(error, PLATFORM_GEN_ERROR, 0, msg);
    g_free(msg);
    return FALSE;
}

gboolean
platform_gen_is_spec(const char *text)
{
    for (gsize i = 0; i < G_N_ELEMENTS(kind_names); i++) {
        gsize n = strlen(kind_names[i]);
        if (strncmp(text, kind_names[i], n) == 0 && (text[n] == '\0' || text[n] == ':'))
            return TRUE;
    }
    return FALSE;
}

/* A number with an optional unit scaled by `units` (name, factor), e.g. "12.5GBps". */
struct unit {
    const char *name;
    double scale;
};

static gboolean
parse_quantity(const char *text, const struct unit *units, gsize nunits, double *out)
{
    gchar *end = NULL;
    errno = 0;
    double v = g_ascii_strtod(text, &end);
    if (end == text || errno != 0 || !isfinite(v) || v <= 0)
        return FALSE;
    for (gsize i = 0; i < nunits; i++) {
        if (strcmp(end, units[i].name) == 0) {
            *out = v * units[i].scale;
            return isfinite(*out) && *out > 0;
        }
    }
    return FALSE;
}

static const struct unit bandwidth_units[] = {
    {"", 1},       {"Bps", 1},        {"kBps", 1e3},     {"MBps", 1e6},     {"GBps", 1e9},
    {"TBps", 1e12}, {"bps", 0.125},   {"kbps", 125},     {"Mbps", 125e3},   {"Gbps", 125e6},
    {"Tbps", 125e9}, {"KiBps", 1024}, {"MiBps", 1048576}, {"GiBps", 1073741824.0},
};
static const struct unit time_units[] = {
    {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9},
};
static const struct unit speed_units[] = {
    {"", 1}, {"f", 1}, {"kf", 1e3}, {"Mf", 1e6}, {"Gf", 1e9}, {"Tf", 1e12}, {"Pf", 1e15},
};

/* "16" or "16x8x4": 1 to `max` integers in [lo, hi]. */
static gboolean
parse_list(const char *text, guint max, guint lo, guint hi, guint *values, guint *count)
{
    gchar **parts = g_strsplit(text, "x", -1);
    guint n = g_strv_length(parts);
    gboolean ok = n >= 1 && n <= max;
    for (guint i = 0; ok && i < n; i++) {
        gchar *end = NULL;
        guint64 v = g_ascii_strtoull(parts[i], &end, 10);
        ok = parts[i][0] != '\0' && g_ascii_isdigit(parts[i][0]) && *end == '\0' && v >= lo &&
             v <= hi;
        values[i] = (guint)v;
    }
    g_strfreev(parts);
    *count = n;
    return ok;
}

struct key {
    const char *name;
    const char *help;
};
static const struct key common_keys[] = {
    {"cores", "cores per host (node), default 1"},
    {"speed", "flop/s per core, default 10Gf"},
    {"bw", "bandwidth of every network link, default the network preset's (ib-edr: 12.5GBps)"},
    {"lat", "latency of every network link, default the network preset's (ib-edr: 0.3us)"},
    {"intra_bw", "bandwidth between two ranks of one node, default the preset's (20GBps)"},
    {"intra_lat", "latency between two ranks of one node, default the preset's (0.05us)"},
};
static const struct key flat_keys[] = {
    {"hosts", "hosts behind the switch, default enough for the ranks"},
};
static const struct key fattree_keys[] = {
    {"levels", "switch levels, 1 to 4, default 2"},
    {"down", "children of a switch per level (one value or LxLx…), default 16"},
    {"up", "parents of a level's elements (hosts: 1); default down/oversubscription"},
    {"parallel", "links between a child and each parent per level, default 1"},
    {"oversubscription", "ratio of down to up links above the first level, default 1 (2 = 2:1)"},
};
static const struct key torus_keys[] = {
    {"dims", "2 or 3 sizes of at least 2, e.g. 8x8 or 4x4x4 (required)"},
};
static const struct key dragonfly_keys[] = {
    {"groups", "groups, default 4"},
    {"global", "links between two groups, default 1"},
    {"chassis", "chassis per group, default 2"},
    {"chassis_links", "links between two chassis, default 1"},
    {"routers", "routers per chassis, at least the number of groups, default 4"},
    {"router_links", "links between two routers of a chassis, default 1"},
    {"nodes", "hosts per router, default 2"},
};

static gboolean
key_known(const char *key, const struct key *keys, gsize n)
{
    for (gsize i = 0; i < n; i++)
        if (strcmp(keys[i].name, key) == 0)
            return TRUE;
    return FALSE;
}

static gchar *
key_names(const struct key *keys, gsize n)
{
    GString *s = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(common_keys); i++)
        g_string_append_printf(s, "%s%s", s->len > 0 ? ", " : "", common_keys[i].name);
    for (gsize i = 0; i < n; i++)
        g_string_append_printf(s, ", %s", keys[i].name);
    return g_string_free(s, FALSE);
}

static gboolean
parse_uint_key(const char *name, const char *value, guint lo, guint hi, guint *out, GError **error)
{
    guint count;
    if (!parse_list(value, 1, lo, hi, out, &count))
        return fail(error, "platform: %s=%s: an integer from %u to %u", name, value, lo, hi);
    return TRUE;
}

/* Derive the fat tree's parameters once all keys are read. */
static gboolean
fattree_finish(struct platform_spec *s, guint ndown, guint nup, guint npar, double oversub,
               GError **error)
{
    ndown = MAX(ndown, 1u); /* 0: the default, one value for every level */
    npar = MAX(npar, 1u);
    if (ndown != 1 && ndown != s->levels)
        return fail(error, "platform: fattree: down= gives %u values for %u levels", ndown,
                    s->levels);
    if (nup > 1 && nup != s->levels)
        return fail(error, "platform: fattree: up= gives %u values for %u levels", nup, s->levels);
    if (npar != 1 && npar != s->levels)
        return fail(error, "platform: fattree: parallel= gives %u values for %u levels", npar,
                    s->levels);
    for (guint i = 1; i < s->levels; i++) {
        if (ndown == 1)
            s->down[i] = s->down[0];
        if (npar == 1)
            s->parallel[i] = s->parallel[0];
    }
    if (nup == 0 || nup == 1) {
        guint given = s->up[0];
        s->up[0] = 1; /* a host has one NIC */
        for (guint i = 1; i < s->levels; i++) {
            if (nup == 1) {
                s->up[i] = given;
                continue;
            }
            double up = s->down[i - 1] / oversub;
            if (up < 1 || fabs(up - floor(up + 0.5)) > 1e-9)
                return fail(error,
                            "platform: fattree: oversubscription=%g does not divide the %u "
                            "children of a level-%u switch",
                            oversub, s->down[i - 1], i);
            s->up[i] = (guint)floor(up + 0.5);
        }
    }
    guint64 hosts = 1;
    for (guint i = 0; i < s->levels; i++) {
        hosts *= s->down[i];
        if (hosts > PLATFORM_MAX_HOSTS)
            return fail(error, "platform: fattree: more than %u hosts", PLATFORM_MAX_HOSTS);
    }
    s->hosts = (guint)hosts;
    return TRUE;
}

gboolean
platform_gen_parse(const char *text, const struct model_network *network, guint nranks,
                   struct platform_spec *s, GError **error)
{
    memset(s, 0, sizeof *s);
    const char *colon = strchr(text, ':');
    g_autofree gchar *name = colon != NULL ? g_strndup(text, (gsize)(colon - text)) : g_strdup(text);
    gsize k;
    for (k = 0; k < G_N_ELEMENTS(kind_names); k++)
        if (strcmp(name, kind_names[k]) == 0)
            break;
    if (k == G_N_ELEMENTS(kind_names))
        return fail(error, "platform: unknown generator '%s' (generators: flat, fattree, torus, "
                           "dragonfly; or a SimGrid XML file)",
                    name);
    s->kind = (enum platform_kind)k;
    s->cores = 1;
    s->speed = 1e10;
    s->bandwidth = network->link_bandwidth;
    s->latency = network->link_latency;
    s->intra_bandwidth = network->intra_bandwidth;
    s->intra_latency = network->intra_latency;
    s->levels = 2;
    s->down[0] = 16;
    s->parallel[0] = 1;
    s->groups = 4;
    s->global_links = 1;
    s->chassis = 2;
    s->chassis_links = 1;
    s->routers = 4;
    s->router_links = 1;
    s->nodes = 2;
    const struct key *keys[] = {flat_keys, fattree_keys, torus_keys, dragonfly_keys};
    const gsize nkeys[] = {G_N_ELEMENTS(flat_keys), G_N_ELEMENTS(fattree_keys),
                           G_N_ELEMENTS(torus_keys), G_N_ELEMENTS(dragonfly_keys)};
    guint ndown = 0, nup = 0, npar = 0;
    double oversub = 1.0;
    gboolean have_hosts = FALSE, have_dims = FALSE;
    gchar **pairs = colon != NULL ? g_strsplit(colon + 1, ",", -1) : g_new0(gchar *, 1);
    gboolean ok = TRUE;
    for (gchar **p = pairs; ok && *p != NULL; p++) {
        gchar **kv = g_strsplit(*p, "=", 2);
        /* an empty pair ("flat:hosts=8,") splits into no string at all */
        const char *key = kv[0] != NULL ? kv[0] : "", *value = kv[0] != NULL ? kv[1] : NULL;
        if (value == NULL || *value == '\0' || *key == '\0') {
            ok = fail(error, "platform: %s: '%s' is not key=value", name, *p);
        } else if (!key_known(key, common_keys, G_N_ELEMENTS(common_keys)) &&
                   !key_known(key, keys[k], nkeys[k])) {
            g_autofree gchar *known = key_names(keys[k], nkeys[k]);
            ok = fail(error, "platform: %s: unknown key '%s' (keys: %s)", name, key, known);
        } else if (strcmp(key, "cores") == 0) {
            ok = parse_uint_key(key, value, 1, 4096, &s->cores, error);
        } else if (strcmp(key, "speed") == 0) {
            ok = parse_quantity(value, speed_units, G_N_ELEMENTS(speed_units), &s->speed) ||
                 fail(error, "platform: speed=%s: a positive flop rate such as 10Gf", value);
        } else if (strcmp(key, "bw") == 0 || strcmp(key, "intra_bw") == 0) {
            double *out = key[0] == 'b' ? &s->bandwidth : &s->intra_bandwidth;
            ok = parse_quantity(value, bandwidth_units, G_N_ELEMENTS(bandwidth_units), out) ||
                 fail(error, "platform: %s=%s: a positive bandwidth such as 12.5GBps or 100Gbps",
                      key, value);
        } else if (strcmp(key, "lat") == 0 || strcmp(key, "intra_lat") == 0) {
            double *out = key[0] == 'l' ? &s->latency : &s->intra_latency;
            ok = parse_quantity(value, time_units, G_N_ELEMENTS(time_units), out) ||
                 fail(error, "platform: %s=%s: a positive duration such as 0.3us", key, value);
        } else if (strcmp(key, "hosts") == 0) {
            ok = parse_uint_key(key, value, 1, PLATFORM_MAX_HOSTS, &s->hosts, error);
            have_hosts = TRUE;
        } else if (strcmp(key, "levels") == 0) {
            ok = parse_uint_key(key, value, 1, PLATFORM_MAX_LEVELS, &s->levels, error);
        } else if (strcmp(key, "down") == 0) {
            ok = parse_list(value, PLATFORM_MAX_LEVELS, 1, 4096, s->down, &ndown) ||
                 fail(error, "platform: down=%s: 1 to %d integers from 1 to 4096, joined by x",
                      value, PLATFORM_MAX_LEVELS);
        } else if (strcmp(key, "up") == 0) {
            ok = parse_list(value, PLATFORM_MAX_LEVELS, 1, 4096, s->up, &nup) ||
                 fail(error, "platform: up=%s: 1 to %d integers from 1 to 4096, joined by x",
                      value, PLATFORM_MAX_LEVELS);
        } else if (strcmp(key, "parallel") == 0) {
            ok = parse_list(value, PLATFORM_MAX_LEVELS, 1, 64, s->parallel, &npar) ||
                 fail(error, "platform: parallel=%s: 1 to %d integers from 1 to 64, joined by x",
                      value, PLATFORM_MAX_LEVELS);
        } else if (strcmp(key, "oversubscription") == 0) {
            ok = parse_quantity(value, time_units, 1, &oversub) ||
                 fail(error, "platform: oversubscription=%s: a ratio >= 1 such as 2", value);
            ok = ok && (oversub >= 1 || fail(error, "platform: oversubscription=%s: a ratio >= 1",
                                              value));
        } else if (strcmp(key, "dims") == 0) {
            ok = (parse_list(value, PLATFORM_MAX_DIMS, 2, 1024, s->dims, &s->ndims) &&
                  s->ndims >= 2) ||
                 fail(error, "platform: dims=%s: 2 or 3 sizes of at least 2, joined by x "
                             "(e.g. 8x8, 4x4x4)",
                      value);
            have_dims = TRUE;
        } else if (strcmp(key, "groups") == 0) {
            ok = parse_uint_key(key, value, 1, 4096, &s->groups, error);
        } else if (strcmp(key, "global") == 0) {
            ok = parse_uint_key(key, value, 1, 64, &s->global_links, error);
        } else if (strcmp(key, "chassis") == 0) {
            ok = parse_uint_key(key, value, 1, 4096, &s->chassis, error);
        } else if (strcmp(key, "chassis_links") == 0) {
            ok = parse_uint_key(key, value, 1, 64, &s->chassis_links, error);
        } else if (strcmp(key, "routers") == 0) {
            ok = parse_uint_key(key, value, 1, 4096, &s->routers, error);
        } else if (strcmp(key, "router_links") == 0) {
            ok = parse_uint_key(key, value, 1, 64, &s->router_links, error);
        } else if (strcmp(key, "nodes") == 0) {
            ok = parse_uint_key(key, value, 1, 4096, &s->nodes, error);
        }
        g_strfreev(kv);
    }
    g_strfreev(pairs);
    if (!ok)
        return FALSE;
    switch (s->kind) {
    case PLATFORM_FLAT:
        if (!have_hosts) {
            guint64 need = ((guint64)MAX(nranks, 1u) + s->cores - 1) / s->cores;
            if (need > PLATFORM_MAX_HOSTS)
                return fail(error, "platform: flat: %u ranks need more than %u hosts", nranks,
                            PLATFORM_MAX_HOSTS);
            s->hosts = (guint)need;
        }
        return TRUE;
    case PLATFORM_FATTREE:
        return fattree_finish(s, ndown, nup, npar, oversub, error);
    case PLATFORM_TORUS: {
        if (!have_dims)
            return fail(error, "platform: torus: dims= is required (e.g. torus:dims=8x8)");
        guint64 hosts = 1;
        for (guint i = 0; i < s->ndims; i++)
            hosts *= s->dims[i];
        if (hosts > PLATFORM_MAX_HOSTS)
            return fail(error, "platform: torus: more than %u hosts", PLATFORM_MAX_HOSTS);
        s->hosts = (guint)hosts;
        return TRUE;
    }
    case PLATFORM_DRAGONFLY: {
        /* SimGrid's minimal routing leaves a group through the router whose index in its
         * chassis is the destination group */
        if (s->routers < s->groups)
            return fail(error, "platform: dragonfly: routers=%u per chassis must be at least "
                               "groups=%u (SimGrid routes to group g through router g)",
                        s->routers, s->groups);
        guint64 hosts = (guint64)s->groups * s->chassis * s->routers * s->nodes;
        if (hosts > PLATFORM_MAX_HOSTS)
            return fail(error, "platform: dragonfly: more than %u hosts", PLATFORM_MAX_HOSTS);
        s->hosts = (guint)hosts;
        return TRUE;
    }
    }
    return TRUE;
}

/* ---------------------------------------------------------------- XML */

static void
append_number(GString *out, const char *attr, double value, const char *unit)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(buf, sizeof buf, "%.17g", value);
    g_string_append_printf(out, " %s=\"%s%s\"", attr, buf, unit);
}

static void
append_list(GString *out, const guint *v, guint n, char sep)
{
    for (guint i = 0; i < n; i++)
        g_string_append_printf(out, "%s%u", i > 0 ? (char[]){sep, 0} : "", v[i]);
}

gchar *
platform_gen_xml(const struct platform_spec *s)
{
    GString *out = g_string_new("<?xml version='1.0'?>\n"
                                "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                "<platform version=\"4.1\">\n");
    g_string_append_printf(out, "  <cluster id=\"%s\" prefix=\"node-\" suffix=\"\" radical=\"0-%u\"",
                           kind_names[s->kind], s->hosts - 1);
    append_number(out, "speed", s->speed, "f");
    g_string_append_printf(out, " core=\"%u\"", s->cores);
    append_number(out, "bw", s->bandwidth, "Bps");
    append_number(out, "lat", s->latency, "s");
    append_number(out, "loopback_bw", s->intra_bandwidth, "Bps");
    append_number(out, "loopback_lat", s->intra_latency, "s");
    g_string_append(out, " sharing_policy=\"SPLITDUPLEX\"");
    switch (s->kind) {
    case PLATFORM_FLAT:
        break;
    case PLATFORM_FATTREE:
        g_string_append_printf(out, " topology=\"FAT_TREE\" topo_parameters=\"%u;", s->levels);
        append_list(out, s->down, s->levels, ',');
        g_string_append_c(out, ';');
        append_list(out, s->up, s->levels, ',');
        g_string_append_c(out, ';');
        append_list(out, s->parallel, s->levels, ',');
        g_string_append_c(out, '"');
        break;
    case PLATFORM_TORUS:
        g_string_append(out, " topology=\"TORUS\" topo_parameters=\"");
        append_list(out, s->dims, s->ndims, ',');
        g_string_append_c(out, '"');
        break;
    case PLATFORM_DRAGONFLY:
        g_string_append_printf(out, " topology=\"DRAGONFLY\" topo_parameters=\"%u,%u;%u,%u;%u,%u;%u\"",
                               s->groups, s->global_links, s->chassis, s->chassis_links,
                               s->routers, s->router_links, s->nodes);
        break;
    }
    g_string_append(out, "/>\n</platform>\n");
    return g_string_free(out, FALSE);
}

void
platform_gen_flat_cluster(const struct platform_spec *s, struct core_flat_cluster *cluster)
{
    g_assert(s->kind == PLATFORM_FLAT);
    *cluster = (struct core_flat_cluster){
        .hosts = s->hosts,
        .speed = s->speed,
        .cores = (int)s->cores,
        .bandwidth = s->bandwidth,
        .latency = s->latency,
        .loopback_bandwidth = s->intra_bandwidth,
        .loopback_latency = s->intra_latency,
    };
}

/* ---------------------------------------------------------------- facts */

/* Hosts under one switch of `level` (1-based) of a fat tree. */
static guint64
fattree_subtree(const struct platform_spec *s, guint level)
{
    guint64 n = 1;
    for (guint i = 0; i < level; i++)
        n *= s->down[i];
    return n;
}

static guint
torus_hops(const struct platform_spec *s, guint64 a, guint64 b)
{
    /* SimGrid's TorusZone: dimension by dimension, right when the target is within half a
     * ring to the right (or through the wrap), else left */
    guint hops = 0;
    guint64 product = 1;
    for (guint j = 0; j < s->ndims; j++) {
        guint64 dim = s->dims[j];
        guint64 me = (a / product) % dim, target = (b / product) % dim;
        gboolean right = (target > me && target <= me + dim / 2) ||
                         (me > dim / 2 && (me + dim / 2) % dim >= target);
        while (me != target) {
            me = right ? (me + 1) % dim : (me + dim - 1) % dim;
            hops++;
        }
        product *= dim;
    }
    return hops;
}

struct dragonfly_pos {
    guint64 group, chassis, router, node;
};

static struct dragonfly_pos
dragonfly_coords(const struct platform_spec *s, guint64 id)
{
    struct dragonfly_pos p;
    p.node = id % s->nodes;
    id /= s->nodes;
    p.router = id % s->routers;
    id /= s->routers;
    p.chassis = id % s->chassis;
    p.group = id / s->chassis;
    return p;
}

static guint
dragonfly_hops(const struct platform_spec *s, guint64 a, guint64 b)
{
    struct dragonfly_pos me = dragonfly_coords(s, a), to = dragonfly_coords(s, b);
    guint hops = 1; /* node to router */
    guint64 g = me.group, c = me.chassis, r = me.router;
    if (me.group == to.group && me.chassis == to.chassis && me.router == to.router)
        return 2;
    if (to.group != g) {
        if (r != to.group) {
            hops++; /* to the router of our chassis wired to that group */
            r = to.group;
        }
        if (c != 0) {
            hops++; /* to the first chassis of our group */
            c = 0;
        }
        hops++;       /* the global link */
        g = to.group; /* lands on chassis 0, router `our group` of the destination group */
        c = 0;
        r = me.group;
    }
    if (to.router != r)
        hops++;
    if (to.chassis != c)
        hops++;
    return hops + 1; /* router to node */
}

guint
platform_gen_hops(const struct platform_spec *s, guint64 a, guint64 b)
{
    if (a == b)
        return 0;
    switch (s->kind) {
    case PLATFORM_FLAT:
        return 2;
    case PLATFORM_FATTREE:
        for (guint level = 1; level <= s->levels; level++) {
            guint64 size = fattree_subtree(s, level);
            if (a / size == b / size)
                return 2 * level;
        }
        return 2 * s->levels;
    case PLATFORM_TORUS:
        return torus_hops(s, a, b);
    case PLATFORM_DRAGONFLY:
        return dragonfly_hops(s, a, b);
    }
    return 0;
}

void
platform_gen_facts(const struct platform_spec *s, struct platform_facts *f)
{
    memset(f, 0, sizeof *f);
    f->hosts = s->hosts;
    f->cores_per_host = s->cores;
    f->cores = (guint64)s->hosts * s->cores;
    double half = s->hosts / 2.0;
    switch (s->kind) {
    case PLATFORM_FLAT:
        f->links = s->hosts;
        f->diameter = s->hosts > 1 ? 2 : 0;
        f->bisection = floor(half) * s->bandwidth; /* a non-blocking switch */
        break;
    case PLATFORM_FATTREE: {
        /* elements at level i (0: hosts): Π_{j>i} down_j · Π_{j<=i} up_j; each element of
         * level i-1 has up_i · parallel_i links to level i */
        double share = 1.0, min_share = 1.0;
        for (guint i = 1; i <= s->levels; i++) {
            guint64 below = 1;
            for (guint j = i - 1; j < s->levels; j++)
                below *= s->down[j];
            for (guint j = 0; j < i - 1; j++)
                below *= s->up[j];
            f->links += below * s->up[i - 1] * s->parallel[i - 1];
            if (i >= 2) {
                /* up-bandwidth over down-bandwidth of a level-(i-1) switch */
                share *= (double)s->up[i - 1] * s->parallel[i - 1] /
                          ((double)s->down[i - 2] * (i >= 3 ? s->parallel[i - 2] : 1));
                min_share = MIN(min_share, share);
            }
        }
        f->diameter = s->hosts > 1 ? 2 * s->levels : 0;
        /* the top switches join the halves: min(1, the narrowest level's share) */
        f->bisection = floor(half) * s->bandwidth * MIN(1.0, min_share);
        if (s->hosts > 1 && s->down[s->levels - 1] == 1)
            f->diameter = 2 * (s->levels - 1);
        break;
    }
    case PLATFORM_TORUS: {
        guint largest = 0;
        for (guint i = 0; i < s->ndims; i++) {
            f->links += s->hosts;
            largest = MAX(largest, s->dims[i]);
        }
        guint diameter = 0;
        for (guint64 b = 0; b < s->hosts; b++)
            diameter = MAX(diameter, torus_hops(s, 0, b));
        f->diameter = diameter;
        /* cutting the largest ring in two crosses 2 links per ring (1 for a ring of 2) */
        f->bisection = (double)(s->hosts / largest) * (largest > 2 ? 2 : 1) * s->bandwidth;
        break;
    }
    case PLATFORM_DRAGONFLY: {
        guint64 routers = (guint64)s->groups * s->chassis * s->routers;
        f->links = s->hosts                                                  /* node links */
                   + (guint64)s->groups * s->chassis * (s->routers * (s->routers - 1) / 2) *
                         s->router_links                                     /* in a chassis */
                   + (guint64)s->groups * s->routers * (s->chassis * (s->chassis - 1) / 2) *
                         s->chassis_links                                    /* in a group */
                   + (guint64)(s->groups * (s->groups - 1) / 2) * s->global_links; /* global */
        (void)routers;
        guint diameter = 0;
        for (guint64 b = 0; b < s->hosts; b++)
            for (guint64 a = 0; a < s->hosts && a < (guint64)s->chassis * s->routers * s->nodes;
                 a += s->nodes)
                diameter = MAX(diameter, dragonfly_hops(s, a, b));
        f->diameter = diameter;
        /* groups split in halves: the global links between them */
        guint64 gh = s->groups / 2;
        double global = (double)gh * (s->groups - gh) * s->global_links * s->bandwidth;
        f->bisection = s->groups > 1 ? MIN(global, floor(half) * s->bandwidth)
                                     : floor(half) * s->bandwidth;
        break;
    }
    }
}

const char *
platform_gen_help(void)
{
    static gchar *text;
    if (text != NULL)
        return text;
    GString *s = g_string_new(NULL);
    const struct {
        const char *name, *what;
        const struct key *keys;
        gsize n;
    } gens[] = {
        {"flat", "hosts behind one non-blocking switch (two links host to host)", flat_keys,
         G_N_ELEMENTS(flat_keys)},
        {"fattree", "SimGrid's fat tree (PGFT): levels of switches, 2:1 with oversubscription=2",
         fattree_keys, G_N_ELEMENTS(fattree_keys)},
        {"torus", "SimGrid's 2-D or 3-D torus, hosts as its nodes", torus_keys,
         G_N_ELEMENTS(torus_keys)},
        {"dragonfly", "SimGrid's dragonfly: groups of chassis of routers, minimal routing",
         dragonfly_keys, G_N_ELEMENTS(dragonfly_keys)},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(gens); i++) {
        g_string_append_printf(s, "  %-10s %s\n", gens[i].name, gens[i].what);
        for (gsize j = 0; j < gens[i].n; j++)
            g_string_append_printf(s, "    %-18s %s\n", gens[i].keys[j].name, gens[i].keys[j].help);
    }
    g_string_append(s, "  every generator also takes:\n");
    for (gsize j = 0; j < G_N_ELEMENTS(common_keys); j++)
        g_string_append_printf(s, "    %-18s %s\n", common_keys[j].name, common_keys[j].help);
    text = g_string_free(s, FALSE);
    return text;
}
