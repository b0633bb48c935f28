/* algorithm_option.c — see algorithm_option.h. */
#include "config.h"

#include <string.h>

#include "sim/cli/algorithm_option.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

G_DEFINE_QUARK(collsim-algorithm-option-error-quark, algorithm_option_error)

/* A parameter's value: a decimal integer in (min, G_MAXINT), or -1. */
static int
parameter_value(const char *text, gint64 min)
{
    gchar *end = NULL;
    gint64 v = g_ascii_strtoll(text, &end, 10);
    return (end != NULL && *end == '\0' && v > min && v < G_MAXINT) ? (int)v : -1;
}

gboolean
algorithm_option_force(const char *spec, GError **error)
{
    if (strcmp(spec, COLL_SELECT_REPRODUCIBLE) == 0) {
        coll_select_set_reproducible(1);
        return TRUE;
    }
    gchar **parts = g_strsplit(spec, ",", -1);
    gchar **kv = g_strsplit(parts[0] != NULL ? parts[0] : "", "=", 2); /* "" has no parts */
    gboolean ok = FALSE;
    enum coll_kind kind;
    struct coll_params params = {0, 0};
    char why[256];
    if (kv[0] == NULL || kv[1] == NULL || *kv[1] == '\0') {
        g_set_error(error, ALGORITHM_OPTION_ERROR, ALGORITHM_OPTION_ERROR_INVALID,
                    "--algorithm wants COLLECTIVE=NAME (got '%s')", spec);
        goto out;
    }
    if (!coll_kind_from_name(kv[0], &kind)) {
        g_set_error(error, ALGORITHM_OPTION_ERROR, ALGORITHM_OPTION_ERROR_INVALID,
                    "--algorithm: unknown collective '%s' (e.g. reduce, allreduce, bcast)", kv[0]);
        goto out;
    }
    for (gchar **p = parts + 1; *p != NULL; p++) {
        if (g_str_has_prefix(*p, "segment_bytes=")) {
            params.segment_bytes = parameter_value(*p + strlen("segment_bytes="), 0);
        } else if (g_str_has_prefix(*p, "radix=")) {
            params.radix = parameter_value(*p + strlen("radix="), 1);
        } else {
            g_set_error(error, ALGORITHM_OPTION_ERROR, ALGORITHM_OPTION_ERROR_INVALID,
                        "--algorithm %s: unknown parameter '%s' (segment_bytes, radix)", spec, *p);
            goto out;
        }
        if (params.segment_bytes < 0 || params.radix < 0) {
            g_set_error(error, ALGORITHM_OPTION_ERROR, ALGORITHM_OPTION_ERROR_INVALID,
                        "--algorithm %s: bad value in '%s'", spec, *p);
            goto out;
        }
    }
    if (!coll_select_force(kind, kv[1], &params, why, sizeof why)) {
        g_set_error(error, ALGORITHM_OPTION_ERROR, ALGORITHM_OPTION_ERROR_INVALID,
                    "--algorithm %s: %s", spec, why);
        goto out;
    }
    ok = TRUE;
out:
    g_strfreev(kv);
    g_strfreev(parts);
    return ok;
}
