/*
 * scenario.h — a scenario file (a GLib key file, keys in scenarios/README.md) loaded,
 * overridden from the command line, validated completely and expanded into the points of its
 * sweep, before anything runs.
 *
 * Every error is one line that names where the fault is:
 *   FILE:LINE: [group] key: what is wrong (what is allowed)
 * or, for a value given on the command line, `--set group.key=value: [group] key: ...`.
 */
#ifndef COLLSIM_SIM_SCENARIO_H
#define COLLSIM_SIM_SCENARIO_H

#include <glib.h>

#include "sim/bench/point.h"

#define SCENARIO_ERROR (scenario_error_quark())
GQuark scenario_error_quark(void);
enum {
    SCENARIO_ERROR_READ,     /* the file cannot be read */
    SCENARIO_ERROR_SYNTAX,   /* not a key file */
    SCENARIO_ERROR_OVERRIDE, /* a --set text that is not group.key=value */
    SCENARIO_ERROR_INVALID,  /* a key, a value or a combination that cannot run */
};

struct scenario {
    gchar *path;          /* as given */
    gchar *name;          /* [scenario] name, default: file's basename without .ini */
    gchar *description;   /* or NULL */
    GPtrArray *points;    /* struct run_point *, sweep order, index = position; owns them */
    gchar *csv_path;      /* [output] csv, or NULL */
    gchar *json_path;     /* [output] json, or NULL */
    gchar *plot_path;     /* [output] plot (collsim run --plot), or NULL */
    gchar *certificates_path; /* [output] certificates (collsim run --certify), or NULL */
    gchar *trace_path;    /* [output] trace (collsim run --trace): a file per point, or NULL */
    gchar *timeline_path; /* [output] timeline (collsim run --timeline), likewise, or NULL */
    struct coll_decision *decision; /* [run] decision (src/coll_decision.h), or NULL for
                                     * collsim's own rules; installed by scenario_command_load */
};

/*
 * Load the scenario at `path`. `overrides` (or NULL) are NULL-terminated "group.key=value"
 * strings (collsim run --set), applied in order before validation, a later one winning; an
 * override of an unknown group or key is an error like one in the file. Returns NULL and sets
 * `error` (SCENARIO_ERROR) on the first fault found.
 */
struct scenario *scenario_load(const char *path, const char *const *overrides, GError **error);
/*
 * A scenario made of `overrides` alone, as if they were given with --set to an empty file
 * named `name` in the current directory (collsim tune builds its sweep so: the same checks,
 * points and defaults as a scenario file's). Errors name the --set text.
 */
struct scenario *scenario_load_overrides(const char *name, const char *const *overrides,
                                         GError **error);
void scenario_free(struct scenario *scenario);

/*
 * A byte count: digits, then optionally a unit, decimal (B, kB, MB, GB, TB) or binary (KiB,
 * MiB, GiB, TiB): "8", "64KiB" = 65536, "1kB" = 1000. Whole numbers only; FALSE on anything
 * else, a negative number or a value beyond 64 bits.
 */
gboolean scenario_parse_size(const char *text, guint64 *bytes);

/* A duration: a finite number >= 0, then optionally a unit s, ms, us or ns ("1.5us"). */
gboolean scenario_parse_seconds(const char *text, double *seconds);

/*
 * Rank counts: a comma-separated list of counts >= 1 and ranges, geometric `A..B*K` (A, A*K,
 * ... up to B; K >= 2) or arithmetic `A..B+K` (K >= 1; `A..B` is `A..B+1`). Values seen before
 * are dropped, the order is kept. Appends ints to `out`; on failure returns FALSE, leaves
 * `out` as it was and sets *why (caller frees) to what is wrong.
 */
gboolean scenario_parse_ranks(const char *text, GArray *out, gchar **why);
/* Where collsim keeps its platforms: the installed directory, or the source tree's when
 * running from the build tree (`[platform] file` lookups and `collsim list` both use it). */
const char *scenario_platform_dir(void);

#endif
