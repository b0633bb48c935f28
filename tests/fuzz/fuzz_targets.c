/* fuzz_targets.c — see fuzz_targets.h. */
#include "fuzz_targets.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "models/model_network.h"
#include "sim/cli/algorithm_option.h"
#include "sim/engine/engine.h"
#include "sim/engine/platform_gen.h"
#include "sim/scenario/scenario.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

/* A property the input broke: say which and abort(), which both drivers catch, keeping the
 * input (fuzz_driver's fuzz-crash-TARGET.bin, libFuzzer's crash-*); g_error() raises SIGTRAP,
 * which libFuzzer does not catch. */
static G_GNUC_NORETURN G_GNUC_PRINTF(1, 2) void
property_broken(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    fflush(stderr);
    abort();
}

/* Loaders read files: the input goes through one temporary file per process and kind
 * (`*path` names it once made; `template` as g_file_open_tmp takes it). */
static const char *
input_file(gchar **path, const char *template, const uint8_t *data, size_t size)
{
    if (*path == NULL) {
        int fd = g_file_open_tmp(template, path, NULL);
        if (fd < 0)
            g_error("fuzz: no temporary file");
        close(fd);
    }
    /* written in place: g_file_set_contents() syncs the disk on every replacement, which made
     * the run wait on the disk of a busy machine for seconds per thousand inputs */
    FILE *file = fopen(*path, "wb");
    if (file == NULL || (size > 0 && fwrite(data, 1, size, file) != size) || fclose(file) != 0)
        g_error("fuzz: cannot write %s", *path);
    return *path;
}

static const char *
scenario_file(const uint8_t *data, size_t size)
{
    static gchar *path;
    return input_file(&path, "collsim-fuzz-XXXXXX.ini", data, size);
}

static enum fuzz_outcome
load(const char *path, const char *const *overrides)
{
    GError *error = NULL;
    struct scenario *s = scenario_load(path, overrides, &error);
    if (s == NULL) {
        /* a refusal must say something */
        if (error == NULL || error->message == NULL || error->message[0] == '\0')
            property_broken("scenario refused without a message");
        g_error_free(error);
        return FUZZ_REFUSED;
    }
    scenario_free(s);
    return FUZZ_ACCEPTED;
}

enum fuzz_outcome
fuzz_scenario(const uint8_t *data, size_t size)
{
    return load(scenario_file(data, size), NULL);
}

enum fuzz_outcome
fuzz_platform(const uint8_t *data, size_t size)
{
    gchar *text = g_strndup((const gchar *)data, size);
    struct platform_spec spec;
    GError *error = NULL;
    enum fuzz_outcome outcome = FUZZ_REFUSED;
    if (platform_gen_parse(text, model_network_default(), 16, &spec, &error)) {
        struct platform_facts facts;
        platform_gen_facts(&spec, &facts);
        /* the XML of small platforms too (large ones would only cost time) */
        if (facts.hosts <= 4096)
            g_free(platform_gen_xml(&spec));
        outcome = FUZZ_ACCEPTED;
    } else {
        if (error == NULL || error->message[0] == '\0')
            property_broken("platform spec refused without a message");
        g_error_free(error);
    }
    g_free(text);
    return outcome;
}

enum fuzz_outcome
fuzz_override(const uint8_t *data, size_t size)
{
    static const char base[] = "[scenario]\nname = fuzz\n[run]\nranks = 2\ncollectives = bcast\n"
                               "algorithms = binomial\nsizes = 8\n";
    gchar *text = g_strndup((const gchar *)data, size);
    gchar **overrides = g_strsplit(text, "\n", 16);
    const char *path = scenario_file((const uint8_t *)base, sizeof base - 1);
    enum fuzz_outcome outcome = load(path, (const char *const *)overrides);
    g_strfreev(overrides);
    g_free(text);
    return outcome;
}

enum fuzz_outcome
fuzz_algorithm(const uint8_t *data, size_t size)
{
    gchar *text = g_strndup((const gchar *)data, size);
    gchar **specs = g_strsplit(text, "\n", 16);
    enum fuzz_outcome outcome = FUZZ_ACCEPTED;
    for (gchar **spec = specs; *spec != NULL && outcome == FUZZ_ACCEPTED; spec++) {
        GError *error = NULL;
        if (!algorithm_option_force(*spec, &error)) {
            /* collsim exec prints "collsim: exec: MESSAGE" and stops at the first refusal */
            if (error == NULL || !g_str_has_prefix(error->message, "--algorithm"))
                property_broken("--algorithm refused without saying which option");
            g_error_free(error);
            outcome = FUZZ_REFUSED;
        }
    }
    /* Whatever was forced must serve a call with parameters it accepts, or refuse it with a
     * reason, as the dispatcher asks at run time. */
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        struct coll_call call = {(enum coll_kind)k, 6, 4096, 512, 1, 1, 1, 0};
        struct coll_params params;
        const char *refusal = NULL;
        const struct coll_algorithm *row = coll_select(&call, &params, &refusal);
        if (row == NULL && (refusal == NULL || refusal[0] == '\0'))
            property_broken("%s neither served nor refused with a reason",
                            coll_kind_name((enum coll_kind)k));
        if (row != NULL && (((row->caps & COLL_SEGMENTED) && params.segment_bytes <= 0) ||
                            ((row->caps & COLL_RADIX) && params.radix < 2)))
            property_broken("%s served by %s with segment_bytes %d, radix %d",
                            coll_kind_name((enum coll_kind)k), row->name, params.segment_bytes,
                            params.radix);
    }
    /* the next input starts from the decision table, as a new command line would */
    coll_select_reset();
    g_strfreev(specs);
    g_free(text);
    return outcome;
}

/* Small platforms load in milliseconds; a mutant that declares millions of hosts would take
 * SimGrid minutes and gigabytes (the inspection's own limit is two minutes): stop it sooner. */
#define FUZZ_PLATFORM_LOAD_SECONDS 5

enum fuzz_outcome
fuzz_platform_xml(const uint8_t *data, size_t size)
{
    static gchar *xml;
    const char *path = input_file(&xml, "collsim-fuzz-XXXXXX.xml", data, size);
    GError *error = NULL;
    if (sim_engine_check_platform(path, FUZZ_PLATFORM_LOAD_SECONDS, &error))
        return FUZZ_ACCEPTED;
    /* collsim prints the refusal as one line and exits 2: the line must name the file */
    if (error == NULL || strstr(error->message, path) == NULL ||
        strchr(error->message, '\n') != NULL)
        property_broken("platform file refused without one line naming it: %s",
                        error != NULL ? error->message : "(no message)");
    g_error_free(error);
    return FUZZ_REFUSED;
}

static const char *const algorithm_tokens[] = {
    "radix=", "segment_bytes=", COLL_SELECT_REPRODUCIBLE, "reduce=", "bcast=", "allreduce=",
    "knomial", "binomial", "2147483647", "0x10", " ", NULL,
};

/* XML's own pieces, and the attributes and values platform files are made of */
static const char *const platform_xml_tokens[] = {
    "<", ">", "/>", "</", "\"", "'", "&amp;", "&#0;", "<!--", "-->", "<![CDATA[", "]]>",
    "<zone id=\"y\" routing=\"Full\">", "</zone>", "<host id=\"h\" speed=\"1Gf\"/>",
    "<link id=\"m\" bandwidth=\"1GBps\" latency=\"1us\"/>", "<link_ctn id=\"l\"/>",
    "routing=\"", "radical=\"", "0-4095", "core=\"", "speed=\"", "bandwidth=\"", "latency=\"",
    "topology=\"", "topo_parameters=\"", "FAT_TREE", "TORUS", "DRAGONFLY", "Gf", "GBps", "us",
    "1e308", "-0", NULL,
};

const struct fuzz_target fuzz_targets[] = {
    {"scenario", fuzz_scenario, NULL, 1},
    {"platform", fuzz_platform, NULL, 1},
    {"override", fuzz_override, NULL, 1},
    {"algorithm", fuzz_algorithm, algorithm_tokens, 1},
    {"platform_xml", fuzz_platform_xml, platform_xml_tokens, 6},
};
const size_t fuzz_target_count = G_N_ELEMENTS(fuzz_targets);
