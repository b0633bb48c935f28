/* fuzz_targets.c — see fuzz_targets.h. */
#include "fuzz_targets.h"

#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "models/model_network.h"
#include "sim/platform_gen.h"
#include "sim/scenario.h"

/* A scenario loader reads files: the input goes through one temporary file per process. */
static const char *
input_file(const uint8_t *data, size_t size)
{
    static gchar *path;
    if (path == NULL) {
        int fd = g_file_open_tmp("collsim-fuzz-XXXXXX.ini", &path, NULL);
        if (fd < 0)
            g_error("fuzz: no temporary file");
        close(fd);
    }
    if (!g_file_set_contents(path, (const gchar *)data, (gssize)size, NULL))
        g_error("fuzz: cannot write %s", path);
    return path;
}

static enum fuzz_outcome
load(const char *path, const char *const *overrides)
{
    GError *error = NULL;
    struct scenario *s = scenario_load(path, overrides, &error);
    if (s == NULL) {
        /* a refusal must say something */
        if (error == NULL || error->message == NULL || error->message[0] == '\0')
            g_error("fuzz: scenario refused without a message");
        g_error_free(error);
        return FUZZ_REFUSED;
    }
    scenario_free(s);
    return FUZZ_ACCEPTED;
}

enum fuzz_outcome
fuzz_scenario(const uint8_t *data, size_t size)
{
    return load(input_file(data, size), NULL);
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
            g_error("fuzz: platform spec refused without a message");
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
    const char *path = input_file((const uint8_t *)base, sizeof base - 1);
    enum fuzz_outcome outcome = load(path, (const char *const *)overrides);
    g_strfreev(overrides);
    g_free(text);
    return outcome;
}

const struct fuzz_target fuzz_targets[] = {
    {"scenario", fuzz_scenario},
    {"platform", fuzz_platform},
    {"override", fuzz_override},
};
const size_t fuzz_target_count = G_N_ELEMENTS(fuzz_targets);
