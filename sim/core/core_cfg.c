/*
 * core_cfg.c — SimGrid's configuration items, from SimGrid or read by collsim (core_cfg.h).
 */
#include "config.h"

#include "sim/core/core_cfg.h"

#include <string.h>

#include "sim/core/simgrid_glue.h"

/* The items collsim's own core and transport read, with SimGrid 3.32's defaults (its
 * xbt_cfg declarations); the three network items marked NULL depend on the network model. */
static const struct {
    const char *name;
    const char *fallback;
} known[] = {
    {"network/model", "LV08"},
    {"network/latency-factor", NULL},
    {"network/bandwidth-factor", NULL},
    {"network/weight-S", NULL},
    {"network/TCP-gamma", "4194304"},
    {"network/crosstraffic", "yes"},
    {"maxmin/precision", "1e-5"},
    {"surf/precision", "1e-9"},
    {"smpi/lat-factor", "65472:11.6436;15424:3.48845;9376:2.59299;5776:2.18796;3484:1.88101;"
                        "1426:1.61075;732:1.9503;257:1.95341;0:2.01467"},
    {"smpi/bw-factor", "65472:0.940694;15424:0.697866;9376:0.58729;5776:1.08739;3484:0.77493;"
                       "1426:0.608902;732:0.341987;257:0.338112;0:0.812084"},
    {"contexts/guard-size", "1"},
};

/* What each network model sets when a platform is loaded, unless the item was given:
 * latency factor, bandwidth factor, weight-S (SimGrid's surf_network_model_init_* and the
 * SMPI model's constructor). */
static const struct {
    const char *model;
    const char *latency_factor, *bandwidth_factor, *weight_S;
} model_defaults[] = {
    {"CM02", "1", "1", "0"},
    {"LV08", "13.01", "0.97", "20537"},
    {"SMPI", "13.01", "0.97", "8775"},
};

static struct {
    gboolean own;
    GHashTable *values; /* name -> value, both owned; looked up only, never walked */
} cfg;

void
core_cfg_use_own(char **argv)
{
    if (cfg.values != NULL)
        g_hash_table_destroy(cfg.values);
    cfg.values = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    cfg.own = TRUE;
    /* the arguments in order, as SimGrid takes them: a later item replaces an earlier one */
    for (char **arg = argv; arg != NULL && *arg != NULL; arg++) {
        if (!g_str_has_prefix(*arg, "--cfg="))
            continue;
        const char *item = *arg + strlen("--cfg=");
        const char *colon = strchr(item, ':');
        if (colon == NULL)
            continue;
        gchar *name = g_strndup(item, (gsize)(colon - item));
        g_hash_table_replace(cfg.values, name, g_strdup(colon + 1));
    }
    for (gsize i = 0; i < G_N_ELEMENTS(known); i++)
        if (known[i].fallback != NULL && !g_hash_table_contains(cfg.values, known[i].name))
            g_hash_table_insert(cfg.values, g_strdup(known[i].name), g_strdup(known[i].fallback));
    /* the model's defaults; a model the own core does not run keeps LV08's, SimGrid's
     * declared ones */
    const char *model = g_hash_table_lookup(cfg.values, "network/model");
    gsize m = 1;
    for (gsize i = 0; i < G_N_ELEMENTS(model_defaults); i++)
        if (strcmp(model, model_defaults[i].model) == 0)
            m = i;
    const char *names[] = {"network/latency-factor", "network/bandwidth-factor",
                           "network/weight-S"};
    const char *values[] = {model_defaults[m].latency_factor, model_defaults[m].bandwidth_factor,
                            model_defaults[m].weight_S};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        if (!g_hash_table_contains(cfg.values, names[i]))
            g_hash_table_insert(cfg.values, g_strdup(names[i]), g_strdup(values[i]));
}

void
core_cfg_use_simgrid(void)
{
    if (cfg.values != NULL)
        g_hash_table_destroy(cfg.values);
    cfg.values = NULL;
    cfg.own = FALSE;
}

/* The own reading of `name`: core_cfg_use_own gave every item of `known` a value, and the
 * items the run's arguments named; any other name is a mistake of collsim's. */
static const char *
own_value(const char *name)
{
    const char *value = g_hash_table_lookup(cfg.values, name);
    if (value == NULL)
        g_error("core_cfg: %s is not an item collsim reads without SimGrid", name);
    return value;
}

double
core_cfg_double(const char *name)
{
    if (!cfg.own)
        return simgrid_glue()->cfg_double(name);
    return g_ascii_strtod(own_value(name), NULL);
}

gboolean
core_cfg_boolean(const char *name)
{
    if (!cfg.own)
        return simgrid_glue()->cfg_boolean(name);
    /* SimGrid's words for true; sim_engine_check_cfg refused anything but these and its
     * words for false */
    const char *value = own_value(name);
    return strcmp(value, "yes") == 0 || strcmp(value, "on") == 0 || strcmp(value, "true") == 0 ||
           strcmp(value, "1") == 0;
}

int
core_cfg_int(const char *name)
{
    if (!cfg.own)
        return simgrid_glue()->cfg_int(name);
    return (int)g_ascii_strtoll(own_value(name), NULL, 10);
}

gchar *
core_cfg_string(const char *name)
{
    if (!cfg.own)
        return simgrid_glue()->cfg_string(name);
    return g_strdup(own_value(name));
}
