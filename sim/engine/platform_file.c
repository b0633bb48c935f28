/*
 * platform_file.c — one plain SimGrid <cluster>, read without SimGrid (platform_file.h).
 */
#include "config.h"

#include "sim/engine/platform_file.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim/engine/platform_gen.h"

/* ---------------------------------------------------------------- SimGrid's units */

/* A unit and the prefixed forms SimGrid derives from it: each prefix multiplies the scale
 * of the one before by `base` (1000 or 1024), in this order. */
struct unit_family {
    const char *unit;
    double scale;
    double base;
    const char *const *prefixes;
};

static const char *const decimal_short[] = {"k", "M", "G", "T", "P", "E", "Z", "Y", NULL};
static const char *const binary_short[] = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi", NULL};
static const char *const decimal_long[] = {"kilo", "mega", "giga", "tera", "peta",
                                           "exa",  "zeta", "yotta", NULL};
static const char *const none[] = {NULL};

/* The families in SimGrid's order: where two give the same name, the first one's scale
 * stands (its table keeps the first insertion). */
static const struct unit_family bandwidth_units[] = {
    {"bps", 0.125, 1024.0, binary_short}, {"bps", 0.125, 1000.0, decimal_short},
    {"Bps", 1.0, 1024.0, binary_short},   {"Bps", 1.0, 1000.0, decimal_short},
};
static const struct unit_family speed_units[] = {
    {"f", 1.0, 1000.0, decimal_short},
    {"flops", 1.0, 1000.0, decimal_long},
};
static const struct unit_family time_units[] = {
    {"w", 7 * 24 * 60 * 60, 1.0, none}, {"d", 24 * 60 * 60, 1.0, none},
    {"h", 60 * 60, 1.0, none},          {"m", 60, 1.0, none},
    {"s", 1.0, 1.0, none},              {"ms", 1e-3, 1.0, none},
    {"us", 1e-6, 1.0, none},            {"ns", 1e-9, 1.0, none},
    {"ps", 1e-12, 1.0, none},
};

static gboolean
unit_scale(const char *unit, const struct unit_family *families, gsize n, double *scale)
{
    for (gsize f = 0; f < n; f++) {
        const struct unit_family *family = &families[f];
        if (strcmp(unit, family->unit) == 0) {
            *scale = family->scale;
            return TRUE;
        }
        double value = family->scale;
        for (const char *const *prefix = family->prefixes; *prefix != NULL; prefix++) {
            value *= family->base;
            gsize len = strlen(*prefix);
            if (strncmp(unit, *prefix, len) == 0 && strcmp(unit + len, family->unit) == 0) {
                *scale = value;
                return TRUE;
            }
        }
    }
    return FALSE;
}

/* SimGrid's surf_parse_get_value_with_unit: strtod, then the rest is the unit. A value
 * without a unit is taken only when it is 0 (SimGrid warns about the others); values that
 * are not finite are left to SimGrid, which says what is wrong with them. */
static gboolean
value_with_unit(const char *text, const struct unit_family *families, gsize n, double *value)
{
    char *end = NULL;
    errno = 0;
    double number = g_ascii_strtod(text, &end);
    if (errno == ERANGE || end == text || !isfinite(number))
        return FALSE;
    double scale = 1.0;
    if (*end == '\0') {
        if (number != 0.0)
            return FALSE;
    } else if (!unit_scale(end, families, n, &scale)) {
        return FALSE;
    }
    *value = number * scale;
    return isfinite(*value);
}

gboolean
platform_file_speed(const char *text, double *value)
{
    return value_with_unit(text, speed_units, G_N_ELEMENTS(speed_units), value);
}

gboolean
platform_file_bandwidth(const char *text, double *value)
{
    return value_with_unit(text, bandwidth_units, G_N_ELEMENTS(bandwidth_units), value);
}

gboolean
platform_file_time(const char *text, double *value)
{
    return value_with_unit(text, time_units, G_N_ELEMENTS(time_units), value);
}

/* ---------------------------------------------------------------- the file */

struct reading {
    gboolean in_platform;
    guint clusters;
    gboolean plain; /* nothing met yet that the reader leaves to SimGrid */
    struct core_flat_cluster cluster;
};

/* "A-B" or "N", decimal digits, A <= B */
static gboolean
parse_radical(const char *text, guint64 *first, guint64 *count)
{
    const char *dash = strchr(text, '-');
    gchar *a = dash != NULL ? g_strndup(text, (gsize)(dash - text)) : g_strdup(text);
    const char *b_text = dash != NULL ? dash + 1 : text;
    guint64 lo = 0, hi = 0;
    gboolean ok = g_ascii_string_to_unsigned(a, 10, 0, G_MAXUINT32, &lo, NULL) &&
                  g_ascii_string_to_unsigned(b_text, 10, 0, G_MAXUINT32, &hi, NULL) && lo <= hi;
    g_free(a);
    if (ok) {
        *first = lo;
        *count = hi - lo + 1;
    }
    return ok;
}

static gboolean
read_cluster(struct reading *r, const gchar **names, const gchar **values)
{
    struct core_flat_cluster *c = &r->cluster;
    const char *radical = NULL, *speed = NULL, *bw = NULL, *lat = NULL;
    const char *loopback_bw = NULL, *loopback_lat = NULL, *core = "1";
    for (gsize i = 0; names[i] != NULL; i++) {
        const char *n = names[i], *v = values[i];
        if (strcmp(n, "id") == 0)
            continue;
        else if (strcmp(n, "prefix") == 0)
            c->prefix = g_strdup(v);
        else if (strcmp(n, "suffix") == 0)
            c->suffix = g_strdup(v);
        else if (strcmp(n, "radical") == 0)
            radical = v;
        else if (strcmp(n, "speed") == 0)
            speed = v;
        else if (strcmp(n, "core") == 0)
            core = v;
        else if (strcmp(n, "bw") == 0)
            bw = v;
        else if (strcmp(n, "lat") == 0)
            lat = v;
        else if (strcmp(n, "loopback_bw") == 0)
            loopback_bw = v;
        else if (strcmp(n, "loopback_lat") == 0)
            loopback_lat = v;
        else if (strcmp(n, "sharing_policy") == 0 && strcmp(v, "SPLITDUPLEX") == 0)
            continue;
        else
            return FALSE; /* a backbone, a limiter, a topology, another policy, ... */
    }
    guint64 cores = 0;
    if (c->prefix == NULL || c->suffix == NULL || radical == NULL || speed == NULL ||
        bw == NULL || lat == NULL || !parse_radical(radical, &c->first, &c->hosts) ||
        c->hosts > PLATFORM_MAX_HOSTS || !platform_file_speed(speed, &c->speed) ||
        !(c->speed > 0) || !g_ascii_string_to_unsigned(core, 10, 1, G_MAXINT, &cores, NULL) ||
        !platform_file_bandwidth(bw, &c->bandwidth) || !(c->bandwidth > 0) ||
        !platform_file_time(lat, &c->latency) || c->latency < 0)
        return FALSE;
    c->cores = (int)cores;
    /* SimGrid builds a loopback when either is given; with one of them 0 it would be a link
     * it cannot simulate, which it reports */
    c->no_loopback = loopback_bw == NULL && loopback_lat == NULL;
    if (!c->no_loopback &&
        (loopback_bw == NULL || loopback_lat == NULL ||
         !platform_file_bandwidth(loopback_bw, &c->loopback_bandwidth) ||
         !(c->loopback_bandwidth > 0) || !platform_file_time(loopback_lat, &c->loopback_latency) ||
         c->loopback_latency < 0))
        return FALSE;
    return TRUE;
}

static void
start_element(GMarkupParseContext *context, const gchar *element, const gchar **names,
              const gchar **values, gpointer data, GError **error)
{
    (void)context;
    (void)error;
    struct reading *r = data;
    if (!r->plain)
        return;
    if (strcmp(element, "platform") == 0 && !r->in_platform) {
        r->in_platform = TRUE;
        /* version 4.1, the current one, and nothing else */
        r->plain = names[0] != NULL && strcmp(names[0], "version") == 0 &&
                   strcmp(values[0], "4.1") == 0 && names[1] == NULL;
    } else if (strcmp(element, "cluster") == 0 && r->in_platform && r->clusters++ == 0) {
        r->plain = read_cluster(r, names, values);
    } else { /* any other element: a second platform or cluster, a <prop>, a <zone>, ... */
        r->plain = FALSE;
    }
}

/* Text anywhere must be blank. */
static void
text(GMarkupParseContext *context, const gchar *chars, gsize len, gpointer data,
     GError **error)
{
    (void)context;
    (void)error;
    struct reading *r = data;
    for (gsize i = 0; i < len && r->plain; i++)
        if (!g_ascii_isspace(chars[i]))
            r->plain = FALSE;
}

void
platform_file_cluster_clear(struct core_flat_cluster *cluster)
{
    g_free((gchar *)cluster->prefix);
    g_free((gchar *)cluster->suffix);
    memset(cluster, 0, sizeof *cluster);
}

gboolean
platform_file_plain_cluster(const char *path, struct core_flat_cluster *cluster)
{
    memset(cluster, 0, sizeof *cluster);
    gchar *contents = NULL;
    gsize length = 0;
    if (!g_file_get_contents(path, &contents, &length, NULL))
        return FALSE;
    static const GMarkupParser parser = {start_element, NULL, text, NULL, NULL};
    struct reading r = {.plain = TRUE};
    GMarkupParseContext *context = g_markup_parse_context_new(&parser, 0, &r, NULL);
    gboolean parsed = g_markup_parse_context_parse(context, contents, (gssize)length, NULL) &&
                      g_markup_parse_context_end_parse(context, NULL);
    g_markup_parse_context_free(context);
    g_free(contents);
    if (parsed && r.plain && r.in_platform && r.clusters == 1) {
        *cluster = r.cluster;
        return TRUE;
    }
    platform_file_cluster_clear(&r.cluster);
    return FALSE;
}
