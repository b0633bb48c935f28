/*
 * scenario.c — load a scenario key file, apply --set overrides, validate every key and the
 * combinations between them, and expand the sweep into run points.
 *
 * Invariants:
 *  - nothing is simulated here, and SimGrid is never started in this process: the platform
 *    is inspected by sim_engine_platform_cores() in a child;
 *  - every error names the key at fault and where its value came from: the file and the
 *    line of the key (GKeyFile does not keep lines, so the file text is scanned here), the
 *    --set text that gave it, or the group header (line 1) for a key that is missing;
 *  - the expansion order is fixed: collective, algorithm, inputs, ranks, size, each in listed
 *    order.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "sim/bench/bench.h"
#include "sim/bench/bench_inputs.h"
#include "sim/engine/engine.h"
#include "sim/engine/memory_estimate.h"
#include "sim/scenario/scenario.h"

#include "sim/engine/platform_gen.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

G_DEFINE_QUARK(collsim-scenario-error-quark, scenario_error)

/* A list or range that expands to more values than this is a typing mistake, not a sweep. */
#define SWEEP_VALUES_MAX 100000
#define SWEEP_POINTS_MAX 1000000

#define GENERATED_PLATFORM "generated"
/* the cluster generated from the network preset, one host per rank */
#define DEFAULT_PLATFORM GENERATED_PLATFORM
#define DEFAULT_REDUCTION_DATATYPE "double"
#define DEFAULT_MOVEMENT_DATATYPE "byte"
#define DEFAULT_OP "sum"

/* ---------------------------------------------------------------- the keys */

struct key_spec {
    const char *group;
    const char *key;
    const char *allowed;   /* the "(what is allowed)" of an error message */
};

static const char *const groups[] = {"scenario", "platform", "run", "output"};

static const struct key_spec key_specs[] = {
    {"scenario", "name", "a non-empty name"},
    {"scenario", "description", "any text"},
    {"platform", "file", "a SimGrid platform file, " GENERATED_PLATFORM ", or a generator NAME:key=value,... (flat, fattree, torus, dragonfly)"},
    {"platform", "placement", "block, cyclic, random:SEED or hostfile:FILE"},
    {"platform", "oversubscribe", "true or false"},
    {"platform", "network", "a network preset (collsim list networks): ib-edr, ib-hdr, ..."},
    {"platform", "network_model", "LV08, CM02, SMPI or IB"},
    {"platform", "eager_threshold", "bytes, with an optional unit: 65536, 64KiB"},
    {"platform", "send_overhead", "seconds >= 0, with an optional unit s, ms, us or ns: 1.5us"},
    {"platform", "recv_overhead", "seconds >= 0, with an optional unit s, ms, us or ns: 1.5us"},
    {"platform", "gap", "seconds >= 0 between two message starts of one NIC: 5ns"},
    {"platform", "progress", "calls (nonblocking collectives move inside MPI calls) or async"},
    {"run", "ranks", "counts >= 1 and ranges A..B*K (K >= 2) or A..B+K (K >= 1): 2,3,4..64*2"},
    {"run", "collectives", "collective names, e.g. bcast, reduce, allreduce, or all"},
    {"run", "algorithms",
     "default, all, reproducible, a library whose default decision picks (ompi, mpich, "
     "mvapich2, impi), or NAME and COLLECTIVE:NAME entries as collsim list algorithms shows"},
    {"run", "decision",
     "ompi, mpich, mvapich2, impi, collsim (the default) or a FILE.rules: whose default decision "
     "chooses the algorithm of each call the scenario leaves to the decision table"},
    {"run", "segment_bytes", "bytes > 0, or 0 for each algorithm's default"},
    {"run", "radix", "an integer >= 2, or 0 for each algorithm's default"},
    {"run", "sizes", "bytes and ranges of bytes with units: 8,1KiB..1MiB*4"},
    {"run", "datatype", "a datatype name as collsim list ops shows, e.g. double, int, byte"},
    {"run", "op", "an op name as collsim list ops shows, e.g. sum, max, smod5"},
    {"run", "commutative", "true or false"},
    {"run", "root", "an integer >= 0 below the smallest rank count"},
    {"run", "in_place", "true or false"},
    {"run", "payload", "data or none"},
    {"run", "engine", "auto, simgrid or collsim"},
    {"run", "wall_limit", "seconds >= 0 of real time a point may take (0: no limit): 600, 90s"},
    {"run", "iterations", "an integer >= 1"},
    {"run", "warmup", "an integer >= 0"},
    {"run", "check", "true or false"},
    {"run", "inputs", "exact, cancellation or random:SEED (SEED from 0 to 4294967295)"},
    {"run", "program", "an MPI program built as a shared object (.so)"},
    {"run", "args", "the program's arguments, separated by spaces, quoted as in a shell"},
    {"run", "expected_output", "a file the program's standard output must equal"},
    {"output", "csv", "a file path in an existing directory"},
    {"output", "json", "a file path in an existing directory"},
    {"output", "certificates", "a file path in an existing directory"},
    {"output", "plot", "a .png, .svg or .pdf file path in an existing directory"},
    {"output", "trace", "a .json or .paje file path in an existing directory; a file per point"},
    {"output", "timeline", "a .png, .svg or .pdf path in an existing directory; a file per point"},
};

/* Keys that describe a collective benchmark; a program scenario must not give them. */
static const char *const collective_only_keys[] = {
    "collectives", "algorithms", "sizes", "segment_bytes", "radix", "datatype",
    "op", "commutative", "root", "in_place", "iterations", "warmup", "inputs",
};

/* MPI's predefined ops: commutative by definition, so `commutative` does not apply. */
static const char *const predefined_ops[] = {
    "sum", "prod", "max", "min", "land", "band", "lor", "bor", "lxor", "bxor", "maxloc", "minloc",
};

/* not SimGrid's Constant model: it refuses platforms with links, and every collsim platform
 * has some */
static const char *const network_models[] = {"LV08", "CM02", "SMPI", "IB"};

static gboolean
in_list(const char *text, const char *const *list, gsize n)
{
    for (gsize i = 0; i < n; i++)
        if (strcmp(text, list[i]) == 0)
            return TRUE;
    return FALSE;
}

static const struct key_spec *
find_key_spec(const char *group, const char *key)
{
    for (gsize i = 0; i < G_N_ELEMENTS(key_specs); i++)
        if (strcmp(key_specs[i].group, group) == 0 && strcmp(key_specs[i].key, key) == 0)
            return &key_specs[i];
    return NULL;
}

static gchar *
keys_of_group(const char *group)
{
    GString *text = g_string_new(NULL);
    for (gsize i = 0; i < G_N_ELEMENTS(key_specs); i++)
        if (strcmp(key_specs[i].group, group) == 0)
            g_string_append_printf(text, "%s%s", text->len ? ", " : "", key_specs[i].key);
    return g_string_free(text, FALSE);
}

/* ---------------------------------------------------------------- where a value came from */

struct loader {
    const char *path;
    gchar *dir;              /* the scenario file's directory */
    GKeyFile *keys;
    GHashTable *lines;       /* key_id(group, key) or group -> line number (first header) */
    GHashTable *set_by;      /* key_id(group, key) -> the --set text that gave its value */
    GError **error;
};

static gchar *
key_id(const char *group, const char *key)
{
    return g_strconcat(group, "\x1f", key, NULL);
}

static int
line_of(const struct loader *ld, const char *id)
{
    return GPOINTER_TO_INT(g_hash_table_lookup(ld->lines, id));
}

/*
 * Fail with `FILE:LINE: [group] key: MESSAGE` (`--set TEXT: [group] key: MESSAGE` for a value
 * an override gave). key may be NULL for a fault of the whole group; with_allowed appends the
 * key's "(what is allowed)" to the message. Always returns FALSE, so that callers can
 * `return fail(...)`; fail() and fail_value() below are its two uses.
 */
static gboolean
fail_full(struct loader *ld, const char *group, const char *key, gboolean with_allowed,
          const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean
fail_full(struct loader *ld, const char *group, const char *key, gboolean with_allowed,
          const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree gchar *message = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    if (with_allowed) {
        const struct key_spec *spec = find_key_spec(group, key);
        gchar *full = g_strdup_printf("%s (%s)", message, spec != NULL ? spec->allowed : "");
        g_free(message);
        message = full;
    }
    g_autofree gchar *id = key != NULL ? key_id(group, key) : g_strdup(group);
    g_autofree gchar *what =
        key != NULL ? g_strdup_printf("[%s] %s", group, key) : g_strdup_printf("[%s]", group);
    const char *set_text = g_hash_table_lookup(ld->set_by, id);
    if (set_text != NULL) {
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "--set %s: %s: %s",
                    set_text, what, message);
        return FALSE;
    }
    int line = line_of(ld, id);
    if (line == 0)
        line = line_of(ld, group);
    g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID, "%s:%d: %s: %s", ld->path,
                line > 0 ? line : 1, what, message);
    return FALSE;
}

#define fail(ld, group, key, ...) fail_full((ld), (group), (key), FALSE, __VA_ARGS__)
#define fail_value(ld, group, key, ...) fail_full((ld), (group), (key), TRUE, __VA_ARGS__)

/* ---------------------------------------------------------------- the file's lines */

/* A line as GKeyFile sees it: leading blanks dropped, a trailing CR dropped. */
static gchar *
clean_line(const char *raw)
{
    gchar *line = g_strchug(g_strdup(raw));
    gsize len = strlen(line);
    if (len > 0 && line[len - 1] == '\r')
        line[len - 1] = '\0';
    return line;
}

/* The group name of a `[name]` header line, or NULL. */
static gchar *
header_name(const char *line)
{
    if (line[0] != '[')
        return NULL;
    const char *close = strchr(line, ']');
    if (close == NULL)
        return NULL;
    return g_strndup(line + 1, (gsize)(close - line - 1));
}

/* The key of a `key = value` line, or NULL. */
static gchar *
key_name(const char *line)
{
    const char *eq = strchr(line, '=');
    if (eq == NULL || line[0] == '[' || line[0] == '#')
        return NULL;
    return g_strchomp(g_strndup(line, (gsize)(eq - line)));
}

/*
 * Find the line GLib's parse error is about: its messages quote the offending line or name
 * (in “...”) but give no line number. 0 if it cannot be told.
 */
static int
syntax_error_line(gchar **lines, const GError *parse_error)
{
    const char *message = parse_error->message;
    g_autofree gchar *quoted = NULL;
    const char *open = strstr(message, "“");
    const char *close = open != NULL ? strstr(open, "”") : NULL;
    if (close != NULL)
        quoted = g_strndup(open + strlen("“"), (gsize)(close - open - strlen("“")));
    const char *bad_key = g_str_has_prefix(message, "Invalid key name: ")
                              ? message + strlen("Invalid key name: ")
                              : NULL;
    const char *bad_group = g_str_has_prefix(message, "Invalid group name: ")
                                ? message + strlen("Invalid group name: ")
                                : NULL;
    gboolean no_group = g_error_matches(parse_error, G_KEY_FILE_ERROR,
                                        G_KEY_FILE_ERROR_GROUP_NOT_FOUND);
    for (int i = 0; lines[i] != NULL; i++) {
        g_autofree gchar *line = clean_line(lines[i]);
        g_autofree gchar *group = header_name(line);
        g_autofree gchar *key = key_name(line);
        g_autofree gchar *raw = g_strdup(lines[i]);
        if (g_str_has_suffix(raw, "\r"))
            raw[strlen(raw) - 1] = '\0';
        /* GLib quotes the line as it is in the file, leading blanks included */
        if ((quoted != NULL && (strcmp(line, quoted) == 0 || strcmp(raw, quoted) == 0)) ||
            (bad_key != NULL && key != NULL && strcmp(key, bad_key) == 0) ||
            (bad_group != NULL && group != NULL && strcmp(group, bad_group) == 0) ||
            (no_group && line[0] != '\0' && line[0] != '#'))
            return i + 1;
    }
    return 0;
}

/* Record the line of every group header and key; a key given twice in a group is an error. */
static gboolean
scan_lines(struct loader *ld, gchar **lines)
{
    g_autofree gchar *group = NULL;
    for (int i = 0; lines[i] != NULL; i++) {
        g_autofree gchar *line = clean_line(lines[i]);
        gchar *name = header_name(line);
        if (name != NULL) {
            if (!g_hash_table_contains(ld->lines, name))
                g_hash_table_insert(ld->lines, g_strdup(name), GINT_TO_POINTER(i + 1));
            g_free(group);
            group = name;
            continue;
        }
        g_autofree gchar *key = key_name(line);
        if (key == NULL || group == NULL)
            continue;
        gchar *id = key_id(group, key);
        int first = line_of(ld, id);
        if (first != 0) {
            g_free(id);
            g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                        "%s:%d: [%s] %s: given twice, first on line %d (give each key once)",
                        ld->path, i + 1, group, key, first);
            return FALSE;
        }
        g_hash_table_insert(ld->lines, id, GINT_TO_POINTER(i + 1));
    }
    return TRUE;
}

static gboolean
read_key_file(struct loader *ld)
{
    g_autofree gchar *text = NULL;
    GError *read_error = NULL;
    if (!g_file_get_contents(ld->path, &text, NULL, &read_error)) {
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_READ, "%s: cannot read it: %s",
                    ld->path, read_error->message);
        g_error_free(read_error);
        return FALSE;
    }
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    GError *parse_error = NULL;
    if (!g_key_file_load_from_data(ld->keys, text, (gsize)-1, G_KEY_FILE_NONE, &parse_error)) {
        int line = syntax_error_line(lines, parse_error);
        g_autofree gchar *where =
            line > 0 ? g_strdup_printf("%s:%d", ld->path, line) : g_strdup(ld->path);
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_SYNTAX,
                    "%s: syntax error: %s (a line is a [group], a key = value or a # comment)", where,
                    parse_error->message);
        g_error_free(parse_error);
        return FALSE;
    }
    return scan_lines(ld, lines);
}

/* ---------------------------------------------------------------- overrides, unknown keys */

static gboolean
apply_override(struct loader *ld, const char *text)
{
    const char *eq = strchr(text, '=');
    const char *dot = strchr(text, '.');
    if (eq == NULL || dot == NULL || dot > eq || dot == text || dot + 1 == eq) {
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_OVERRIDE,
                    "--set %s: not an override (write group.key=value, e.g. run.ranks=2..64*2)",
                    text);
        return FALSE;
    }
    g_autofree gchar *group = g_strndup(text, (gsize)(dot - text));
    g_autofree gchar *key = g_strndup(dot + 1, (gsize)(eq - dot - 1));
    if (!in_list(group, groups, G_N_ELEMENTS(groups))) {
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                    "--set %s: [%s]: unknown group (groups: scenario, platform, run, output)",
                    text, group);
        return FALSE;
    }
    if (find_key_spec(group, key) == NULL) {
        g_autofree gchar *known = keys_of_group(group);
        g_set_error(ld->error, SCENARIO_ERROR, SCENARIO_ERROR_INVALID,
                    "--set %s: [%s] %s: unknown key (keys of [%s]: %s)", text, group, key, group,
                    known);
        return FALSE;
    }
    g_key_file_set_value(ld->keys, group, key, eq + 1);
    g_hash_table_insert(ld->set_by, key_id(group, key), g_strdup(text));
    return TRUE;
}

/* Groups and keys of the file in file order, so that the first unknown one is reported. */
static gboolean
check_known_keys(struct loader *ld)
{
    g_auto(GStrv) file_groups = g_key_file_get_groups(ld->keys, NULL);
    for (gsize g = 0; file_groups[g] != NULL; g++) {
        const char *group = file_groups[g];
        if (!in_list(group, groups, G_N_ELEMENTS(groups)))
            return fail(ld, group, NULL, "unknown group (groups: scenario, platform, run, output)");
        g_auto(GStrv) keys = g_key_file_get_keys(ld->keys, group, NULL, NULL);
        for (gsize k = 0; keys != NULL && keys[k] != NULL; k++) {
            if (find_key_spec(group, keys[k]) == NULL) {
                g_autofree gchar *known = keys_of_group(group);
                return fail(ld, group, keys[k], "unknown key (keys of [%s]: %s)", group, known);
            }
        }
    }
    return TRUE;
}

/* ---------------------------------------------------------------- typed values */

static gboolean
has_key(struct loader *ld, const char *group, const char *key)
{
    return g_key_file_has_key(ld->keys, group, key, NULL);
}

/* The value of a key, stripped; *out NULL if the key is absent. Empty values are errors unless
 * `empty_ok`. */
static gboolean
get_text(struct loader *ld, const char *group, const char *key, gboolean empty_ok, gchar **out)
{
    *out = NULL;
    if (!has_key(ld, group, key))
        return TRUE;
    GError *value_error = NULL;
    gchar *value = g_key_file_get_string(ld->keys, group, key, &value_error);
    if (value == NULL) {
        gboolean ok = fail_value(ld, group, key, "%s", value_error->message);
        g_error_free(value_error);
        return ok;
    }
    g_strstrip(value);
    if (*value == '\0' && !empty_ok) {
        g_free(value);
        return fail_value(ld, group, key, "empty value");
    }
    *out = value;
    return TRUE;
}

static gboolean
get_bool(struct loader *ld, const char *group, const char *key, gboolean *out)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, group, key, FALSE, &text))
        return FALSE;
    if (text == NULL)
        return TRUE;
    if (strcmp(text, "true") == 0 || strcmp(text, "1") == 0)
        *out = TRUE;
    else if (strcmp(text, "false") == 0 || strcmp(text, "0") == 0)
        *out = FALSE;
    else
        return fail_value(ld, group, key, "'%s' is not a boolean", text);
    return TRUE;
}

/* Plain decimal digits (no sign, no blanks) into *value; FALSE on anything else or overflow. */
static gboolean
parse_digits(const char *text, gsize len, guint64 *value)
{
    if (len == 0)
        return FALSE;
    guint64 v = 0;
    for (gsize i = 0; i < len; i++) {
        if (!g_ascii_isdigit(text[i]))
            return FALSE;
        guint digit = (guint)(text[i] - '0');
        if (v > (G_MAXUINT64 - digit) / 10)
            return FALSE;
        v = v * 10 + digit;
    }
    *value = v;
    return TRUE;
}

static gboolean
parse_count(const char *text, guint64 *value)
{
    return parse_digits(text, strlen(text), value);
}

static gboolean
get_int(struct loader *ld, const char *group, const char *key, int min, int *out)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, group, key, FALSE, &text))
        return FALSE;
    if (text == NULL)
        return TRUE;
    guint64 value;
    if (!parse_count(text, &value) || value > G_MAXINT)
        return fail_value(ld, group, key, "'%s' is not a whole number up to %d", text, G_MAXINT);
    if ((int)value < min)
        return fail_value(ld, group, key, "%d is below %d", (int)value, min);
    *out = (int)value;
    return TRUE;
}

static gboolean
get_size(struct loader *ld, const char *group, const char *key, guint64 max, guint64 *out)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, group, key, FALSE, &text))
        return FALSE;
    if (text == NULL)
        return TRUE;
    guint64 value;
    if (!scenario_parse_size(text, &value))
        return fail_value(ld, group, key, "'%s' is not a size", text);
    if (value > max)
        return fail_value(ld, group, key, "%s is more than %" G_GUINT64_FORMAT " bytes", text,
                          max);
    *out = value;
    return TRUE;
}

/* Seconds: a non-negative decimal number, optionally followed by s, ms, us or ns. */
gboolean
scenario_parse_seconds(const char *text, double *seconds)
{
    static const struct {
        const char *name;
        double scale;
    } units[] = {{"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
    if (!g_ascii_isdigit(text[0]) && text[0] != '.')
        return FALSE;
    gchar *end = NULL;
    errno = 0;
    double value = g_ascii_strtod(text, &end);
    if (end == text || errno != 0 || !isfinite(value) || value < 0)
        return FALSE;
    while (*end == ' ')
        end++;
    for (gsize i = 0; i < G_N_ELEMENTS(units); i++) {
        if (strcmp(end, units[i].name) == 0) {
            *seconds = value * units[i].scale;
            return TRUE;
        }
    }
    return FALSE;
}

static gboolean
get_seconds(struct loader *ld, const char *group, const char *key, double *out)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, group, key, FALSE, &text))
        return FALSE;
    if (text != NULL && !scenario_parse_seconds(text, out))
        return fail_value(ld, group, key, "'%s' is not a duration", text);
    return TRUE;
}

/* Comma-separated entries (a semicolon, GKeyFile's own separator, works too), stripped;
 * one trailing separator is allowed, empty entries elsewhere are not. */
static gchar **
split_list(const char *text, gchar **why)
{
    gchar **items = g_strsplit_set(text, ",;", -1);
    guint n = g_strv_length(items);
    if (n == 0) {
        *why = g_strdup("empty list");
        g_strfreev(items);
        return NULL;
    }
    if (n > 1 && *g_strstrip(items[n - 1]) == '\0') {
        g_free(items[n - 1]);
        items[--n] = NULL;
    }
    for (guint i = 0; i < n; i++) {
        if (*g_strstrip(items[i]) == '\0') {
            *why = g_strdup(n == 1 ? "empty list" : "empty entry in the list");
            g_strfreev(items);
            return NULL;
        }
    }
    return items;
}

static gboolean
get_list(struct loader *ld, const char *group, const char *key, gchar ***out)
{
    g_autofree gchar *text = NULL;
    *out = NULL;
    if (!get_text(ld, group, key, FALSE, &text))
        return FALSE;
    if (text == NULL)
        return TRUE;
    g_autofree gchar *why = NULL;
    *out = split_list(text, &why);
    return *out != NULL ? TRUE : fail_value(ld, group, key, "%s", why);
}

/* ---------------------------------------------------------------- sizes and sweeps */

gboolean
scenario_parse_size(const char *text, guint64 *bytes)
{
    static const struct {
        const char *name;
        guint64 scale;
    } units[] = {
        {"", 1},
        {"B", 1},
        {"kB", 1000},
        {"MB", 1000 * 1000},
        {"GB", G_GUINT64_CONSTANT(1000) * 1000 * 1000},
        {"TB", G_GUINT64_CONSTANT(1000) * 1000 * 1000 * 1000},
        {"KiB", 1024},
        {"MiB", 1024 * 1024},
        {"GiB", G_GUINT64_CONSTANT(1) << 30},
        {"TiB", G_GUINT64_CONSTANT(1) << 40},
    };
    g_return_val_if_fail(text != NULL && bytes != NULL, FALSE);
    while (*text == ' ' || *text == '\t')
        text++;
    gsize digits = 0;
    while (g_ascii_isdigit(text[digits]))
        digits++;
    guint64 number;
    if (!parse_digits(text, digits, &number))
        return FALSE;
    const char *unit = text + digits;
    while (*unit == ' ' || *unit == '\t')
        unit++;
    gsize unit_len = strlen(unit);
    while (unit_len > 0 && (unit[unit_len - 1] == ' ' || unit[unit_len - 1] == '\t'))
        unit_len--;
    for (gsize i = 0; i < G_N_ELEMENTS(units); i++) {
        if (strlen(units[i].name) == unit_len && strncmp(unit, units[i].name, unit_len) == 0) {
            if (number > G_MAXUINT64 / units[i].scale)
                return FALSE;
            *bytes = number * units[i].scale;
            return TRUE;
        }
    }
    return FALSE;
}

typedef gboolean (*value_parser)(const char *text, guint64 *value);

/* Append `value` unless it is already in `out`; `seen` holds copies of the values appended. */
static void
append_once(GArray *out, GHashTable *seen, guint64 value)
{
    if (g_hash_table_contains(seen, &value))
        return;
    g_array_append_val(out, value);
    g_hash_table_add(seen, g_memdup2(&value, sizeof value));
}

/*
 * One range entry `A..B*K` or `A..B+K` (`A..B` = `A..B+1`) of values parsed by `parse` and
 * within [min, max]. The step of a geometric range is a plain factor; that of an arithmetic
 * range is parsed like the values (so "1KiB..8KiB+1KiB" works).
 */
static gboolean
expand_range(const char *entry, const char *dots, value_parser parse, guint64 min, guint64 max,
             GArray *out, GHashTable *seen, gchar **why)
{
    g_autofree gchar *first_text = g_strstrip(g_strndup(entry, (gsize)(dots - entry)));
    const char *rest = dots + 2;
    const char *op = strpbrk(rest, "*+");
    g_autofree gchar *last_text =
        g_strstrip(op != NULL ? g_strndup(rest, (gsize)(op - rest)) : g_strdup(rest));
    g_autofree gchar *step_text = g_strstrip(g_strdup(op != NULL ? op + 1 : "1"));
    gboolean geometric = op != NULL && *op == '*';
    guint64 first, last, step;
    if (!parse(first_text, &first) || !parse(last_text, &last)) {
        *why = g_strdup_printf("'%s': a range is A..B*K or A..B+K", entry);
        return FALSE;
    }
    if (geometric ? !parse_count(step_text, &step) : !parse(step_text, &step)) {
        *why = g_strdup_printf("'%s': bad step '%s'", entry, step_text);
        return FALSE;
    }
    if (geometric && step < 2) {
        *why = g_strdup_printf("'%s': a geometric step must be at least *2", entry);
        return FALSE;
    }
    if (!geometric && step < 1) {
        *why = g_strdup_printf("'%s': an arithmetic step must be at least +1", entry);
        return FALSE;
    }
    if (first > last) {
        *why = g_strdup_printf("'%s': empty range (%s is above %s)", entry, first_text, last_text);
        return FALSE;
    }
    if (first < min || last > max) {
        *why = g_strdup_printf("'%s': values must be from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT,
                               entry, min, max);
        return FALSE;
    }
    if (geometric && first == 0) {
        *why = g_strdup_printf("'%s': a geometric range cannot start at 0", entry);
        return FALSE;
    }
    for (guint64 v = first;;) {
        if (out->len >= SWEEP_VALUES_MAX) {
            *why = g_strdup_printf("'%s': more than %d values", entry, SWEEP_VALUES_MAX);
            return FALSE;
        }
        append_once(out, seen, v);
        /* stop before the next value would pass `last` or overflow */
        if (geometric ? v > last / step : last - v < step)
            break;
        v = geometric ? v * step : v + step;
    }
    return TRUE;
}

/* A list of values and ranges into `out` (guint64), each value once, in order. */
static gboolean
parse_sweep(const char *text, value_parser parse, guint64 min, guint64 max, GArray *out,
            gchar **why)
{
    gchar **entries = split_list(text, why);
    if (entries == NULL)
        return FALSE;
    GHashTable *seen = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    gboolean ok = TRUE;
    GArray *values = g_array_sized_new(FALSE, FALSE, sizeof(guint64), 0);
    for (gsize i = 0; ok && entries[i] != NULL; i++) {
        const char *entry = entries[i];
        const char *dots = strstr(entry, "..");
        if (dots != NULL) {
            ok = expand_range(entry, dots, parse, min, max, values, seen, why);
            continue;
        }
        guint64 value;
        if (!parse(entry, &value)) {
            *why = g_strdup_printf("'%s' is not a value", entry);
            ok = FALSE;
        } else if (value < min || value > max) {
            *why = g_strdup_printf("%s is outside %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT,
                                   entry, min, max);
            ok = FALSE;
        } else if (values->len >= SWEEP_VALUES_MAX) {
            *why = g_strdup_printf("more than %d values", SWEEP_VALUES_MAX);
            ok = FALSE;
        } else {
            append_once(values, seen, value);
        }
    }
    if (ok)
        g_array_append_vals(out, values->data, values->len);
    g_array_free(values, TRUE);
    g_hash_table_destroy(seen);
    g_strfreev(entries);
    return ok;
}

gboolean
scenario_parse_ranks(const char *text, GArray *out, gchar **why)
{
    g_return_val_if_fail(text != NULL && out != NULL && why != NULL, FALSE);
    GArray *values = g_array_new(FALSE, FALSE, sizeof(guint64));
    gboolean ok = parse_sweep(text, parse_count, 1, G_MAXINT, values, why);
    for (guint i = 0; ok && i < values->len; i++) {
        int ranks = (int)g_array_index(values, guint64, i);
        g_array_append_val(out, ranks);
    }
    g_array_free(values, TRUE);
    return ok;
}

/* ---------------------------------------------------------------- the settings */

struct settings {
    gchar *name;
    gchar *description;
    gchar *platform;            /* resolved, or NULL for the generated cluster */
    enum sim_placement placement;
    guint64 placement_seed;
    gchar *placement_file;      /* resolved host file, or NULL */
    gboolean oversubscribe;
    const struct model_network *network;
    gchar *network_model;
    struct model_transport transport;

    GArray *ranks;              /* int */
    GArray *kinds;              /* enum coll_kind */
    GPtrArray **algorithms;     /* per entry of kinds: const char * (registry) or NULL */
    struct coll_params params;
    GArray *sizes;              /* guint64 */
    GArray *inputs;             /* struct inputs_entry */
    gchar *datatype;            /* NULL: double for reductions, byte for data movement */
    gchar *op;
    gboolean commutative;
    int root;
    gboolean in_place;
    enum sim_payload payload;
    enum sim_engine_choice engine;
    double wall_limit;
    int iterations;
    int warmup;
    gboolean check;
    gchar *program;
    gchar **program_args;
    gchar *expected_output;
    struct coll_decision *decision; /* [run] decision, NULL: collsim's own rules */

    gchar *csv_path;
    gchar *json_path;
    gchar *certificates_path;
    gchar *plot_path;
    gchar *trace_path;
    gchar *timeline_path;
};

struct inputs_entry {
    enum point_inputs inputs;
    guint32 seed;
};

static void
settings_clear(struct settings *s)
{
    coll_decision_free(s->decision);
    g_free(s->name);
    g_free(s->description);
    g_free(s->platform);
    g_free(s->placement_file);
    g_free(s->network_model);
    if (s->algorithms != NULL)
        for (guint i = 0; i < s->kinds->len; i++)
            if (s->algorithms[i] != NULL)
                g_ptr_array_free(s->algorithms[i], TRUE);
    g_free(s->algorithms);
    if (s->ranks != NULL)
        g_array_free(s->ranks, TRUE);
    if (s->kinds != NULL)
        g_array_free(s->kinds, TRUE);
    if (s->sizes != NULL)
        g_array_free(s->sizes, TRUE);
    if (s->inputs != NULL)
        g_array_free(s->inputs, TRUE);
    g_free(s->datatype);
    g_free(s->op);
    g_free(s->program);
    g_strfreev(s->program_args);
    g_free(s->expected_output);
    g_free(s->csv_path);
    g_free(s->json_path);
    g_free(s->certificates_path);
    g_free(s->plot_path);
    g_free(s->trace_path);
    g_free(s->timeline_path);
}

const char *
scenario_platform_dir(void)
{
    return g_file_test(COLLSIM_PLATFORM_DIR, G_FILE_TEST_IS_DIR) ? COLLSIM_PLATFORM_DIR
                                                                  : COLLSIM_SOURCE_PLATFORM_DIR;
}

/*
 * The first of `candidates` (NULL-terminated) that is a regular file, as a new string, or
 * NULL. Relative paths are tried as given (the current directory), then under each directory.
 */
static gchar *
find_file(const char *path, const char *const *dirs)
{
    if (g_file_test(path, G_FILE_TEST_IS_REGULAR))
        return g_strdup(path);
    if (g_path_is_absolute(path))
        return NULL;
    for (gsize i = 0; dirs[i] != NULL; i++) {
        gchar *candidate = g_build_filename(dirs[i], path, NULL);
        if (g_file_test(candidate, G_FILE_TEST_IS_REGULAR))
            return candidate;
        g_free(candidate);
    }
    return NULL;
}

static gboolean
read_scenario_group(struct loader *ld, struct settings *s)
{
    if (!get_text(ld, "scenario", "name", FALSE, &s->name) ||
        !get_text(ld, "scenario", "description", TRUE, &s->description))
        return FALSE;
    if (s->name == NULL) {
        g_autofree gchar *base = g_path_get_basename(ld->path);
        if (g_str_has_suffix(base, ".ini"))
            base[strlen(base) - strlen(".ini")] = '\0';
        s->name = g_strdup(base);
    }
    if (s->description != NULL && *s->description == '\0')
        g_clear_pointer(&s->description, g_free);
    return TRUE;
}

static gboolean
read_platform_group(struct loader *ld, struct settings *s)
{
    g_autofree gchar *file = NULL, *placement = NULL, *network = NULL;
    if (!get_text(ld, "platform", "network", FALSE, &network))
        return FALSE;
    if (network != NULL) {
        s->network = model_network_find(network);
        if (s->network == NULL)
            return fail_value(ld, "platform", "network", "unknown network preset '%s' (presets: %s)",
                              network, model_network_names());
        /* the preset first: the overhead, gap and threshold keys below refine it */
        model_network_apply(s->network, &s->transport);
    }
    if (!get_text(ld, "platform", "file", FALSE, &file) ||
        !get_text(ld, "platform", "placement", FALSE, &placement) ||
        !get_bool(ld, "platform", "oversubscribe", &s->oversubscribe) ||
        !get_text(ld, "platform", "network_model", FALSE, &s->network_model))
        return FALSE;
    if (placement == NULL) {
        s->placement = SIM_PLACEMENT_BLOCK;
    } else {
        struct sim_config parsed = {0};
        g_autoptr(GError) bad = NULL;
        if (!sim_placement_parse(placement, &parsed, &bad))
            return fail_value(ld, "platform", "placement", "unknown placement '%s'", placement);
        s->placement = parsed.placement;
        s->placement_seed = parsed.placement_seed;
        if (parsed.placement == SIM_PLACEMENT_HOSTFILE) {
            const char *dirs[] = {ld->dir, NULL};
            s->placement_file = find_file(parsed.placement_file, dirs);
            if (s->placement_file == NULL)
                return fail_value(ld, "platform", "placement",
                                  "host file '%s' not found in the current directory or %s",
                                  parsed.placement_file, ld->dir);
        }
    }
    if (s->network_model != NULL &&
        !in_list(s->network_model, network_models, G_N_ELEMENTS(network_models)))
        return fail_value(ld, "platform", "network_model", "unknown network model '%s'",
                          s->network_model);

    guint64 eager = s->transport.eager_threshold;
    if (!get_size(ld, "platform", "eager_threshold", G_MAXSIZE, &eager) ||
        !get_seconds(ld, "platform", "send_overhead", &s->transport.send_overhead) ||
        !get_seconds(ld, "platform", "recv_overhead", &s->transport.recv_overhead) ||
        !get_seconds(ld, "platform", "gap", &s->transport.gap))
        return FALSE;
    s->transport.eager_threshold = (gsize)eager;
    g_autofree gchar *progress = NULL;
    if (!get_text(ld, "platform", "progress", FALSE, &progress))
        return FALSE;
    if (progress != NULL && !model_progress_parse(progress, &s->transport.progress))
        return fail_value(ld, "platform", "progress", "'%s' is not calls or async", progress);

    const char *platform = file != NULL ? file : DEFAULT_PLATFORM;
    if (strcmp(platform, GENERATED_PLATFORM) == 0)
        return TRUE;
    if (platform_gen_is_spec(platform)) {
        /* a virtual cluster by name, checked now (a flat one is sized per point) */
        struct platform_spec spec;
        GError *spec_error = NULL;
        if (!platform_gen_parse(platform, s->network, 1, &spec, &spec_error)) {
            gboolean ok = fail_value(ld, "platform", "file", "%s", spec_error->message);
            g_error_free(spec_error);
            return ok;
        }
        s->platform = g_strdup(platform);
        return TRUE;
    }
    /* `platforms/cluster.xml` names a file of the platform directory's parent as well */
    g_autofree gchar *platform_parent = g_path_get_dirname(scenario_platform_dir());
    const char *dirs[] = {ld->dir, scenario_platform_dir(), platform_parent, NULL};
    s->platform = find_file(platform, dirs);
    if (s->platform == NULL)
        return fail_value(ld, "platform", "file",
                          "'%s' not found in the current directory, %s or %s", platform, ld->dir,
                          scenario_platform_dir());
    return TRUE;
}

/* The rank counts and the things the platform must hold: run after both groups are read. */
static gboolean
check_platform_capacity(struct loader *ld, struct settings *s)
{
    if (s->platform == NULL)
        return TRUE;   /* the generated cluster has a host per rank */
    guint64 cores = 0;
    GError *platform_error = NULL;
    if (platform_gen_is_spec(s->platform)) {
        struct platform_spec spec;
        struct platform_facts facts;
        if (!platform_gen_parse(s->platform, s->network, 1, &spec, NULL))
            return FALSE; /* reported by read_platform_group */
        if (spec.kind == PLATFORM_FLAT && !strstr(s->platform, "hosts="))
            return TRUE;  /* sized for each point's ranks */
        platform_gen_facts(&spec, &facts);
        cores = facts.cores;
    } else if (!sim_engine_platform_cores(s->platform, &cores, &platform_error)) {
        gboolean ok = fail(ld, "platform", "file", "%s", platform_error->message);
        g_error_free(platform_error);
        return ok;
    }
    int most = 0;
    for (guint i = 0; i < s->ranks->len; i++)
        most = MAX(most, g_array_index(s->ranks, int, i));
    if ((guint64)most > cores && !s->oversubscribe)
        return fail(ld, "run", "ranks",
                    "%d ranks but %s has %" G_GUINT64_FORMAT
                    " cores (set [platform] oversubscribe = true to share cores, or use "
                    "fewer ranks)",
                    most, s->platform, cores);
    return TRUE;
}

static gboolean
read_ranks(struct loader *ld, struct settings *s)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, "run", "ranks", FALSE, &text))
        return FALSE;
    if (text == NULL)
        return fail_value(ld, "run", "ranks", "missing");
    s->ranks = g_array_new(FALSE, FALSE, sizeof(int));
    g_autofree gchar *why = NULL;
    if (!scenario_parse_ranks(text, s->ranks, &why))
        return fail_value(ld, "run", "ranks", "%s", why);
    for (guint i = 0; i < s->ranks->len; i++) {
        /* the floor for the rank count alone (automatic stacks); each point checks again
         * with its payload before it runs */
        struct sim_memory_need need = {.nranks = (guint64)g_array_index(s->ranks, int, i)};
        GError *memory = NULL;
        if (!sim_memory_check(&need, &memory)) {
            gboolean ok = fail_value(ld, "run", "ranks", "%s", memory->message);
            g_error_free(memory);
            return ok;
        }
    }
    return TRUE;
}

static gboolean
read_collectives(struct loader *ld, struct settings *s)
{
    g_auto(GStrv) names = NULL;
    if (!get_list(ld, "run", "collectives", &names))
        return FALSE;
    s->kinds = g_array_new(FALSE, FALSE, sizeof(enum coll_kind));
    if (names == NULL)
        return TRUE;
    gboolean listed[COLL_KIND_COUNT] = {FALSE};
    for (gsize i = 0; names[i] != NULL; i++) {
        enum coll_kind kind;
        if (strcmp(names[i], "all") == 0) {
            for (int k = 0; k < COLL_KIND_COUNT; k++) {
                if (!listed[k]) {
                    kind = (enum coll_kind)k;
                    g_array_append_val(s->kinds, kind);
                    listed[k] = TRUE;
                }
            }
            continue;
        }
        if (!coll_kind_from_name(names[i], &kind))
            return fail_value(ld, "run", "collectives", "unknown collective '%s'", names[i]);
        if (!listed[kind])
            g_array_append_val(s->kinds, kind);
        listed[kind] = TRUE;
    }
    return TRUE;
}

/* Add `name` (a registry name, or NULL for the decision table) to a collective's list once. */
static void
add_algorithm(GPtrArray *list, const char *name)
{
    for (guint i = 0; i < list->len; i++) {
        const char *known = g_ptr_array_index(list, i);
        if (known == name || (known != NULL && name != NULL && strcmp(known, name) == 0))
            return;
    }
    g_ptr_array_add(list, (gpointer)name);
}

/* Apply one algorithm name ("default", "all", "reproducible", a library whose decision picks
 * (ompi, mpich, ...) or a registry name) to one collective; FALSE if the collective has no
 * such algorithm. */
static gboolean
apply_algorithm(GPtrArray *list, enum coll_kind kind, const char *name)
{
    if (strcmp(name, "default") == 0) {
        add_algorithm(list, NULL);
        return TRUE;
    }
    if (strcmp(name, COLL_SELECT_REPRODUCIBLE) == 0) {
        add_algorithm(list, COLL_SELECT_REPRODUCIBLE);
        return TRUE;
    }
    if (coll_decision_is_library(name)) {
        /* what that library's default decision picks for each point (coll_decision.h) */
        add_algorithm(list, g_intern_string(name));
        return TRUE;
    }
    if (strcmp(name, "all") == 0) {
        for (size_t i = 0; i < coll_registry_count(kind); i++)
            add_algorithm(list, coll_registry_nth(kind, i)->name);
        return TRUE;
    }
    const struct coll_algorithm *row = coll_registry_find(kind, name);
    if (row == NULL)
        return FALSE;
    add_algorithm(list, row->name);
    return TRUE;
}

static gboolean
read_algorithms(struct loader *ld, struct settings *s)
{
    g_auto(GStrv) entries = NULL;
    if (!get_list(ld, "run", "algorithms", &entries))
        return FALSE;
    if (entries == NULL)
        entries = g_strsplit("default", ",", -1);
    guint nkinds = s->kinds->len;
    s->algorithms = g_new0(GPtrArray *, nkinds);
    for (guint k = 0; k < nkinds; k++)
        s->algorithms[k] = g_ptr_array_new();
    for (gsize e = 0; entries[e] != NULL; e++) {
        const char *entry = entries[e];
        const char *colon = strchr(entry, ':');
        if (colon == NULL) {
            gboolean applied = FALSE;
            for (guint k = 0; k < nkinds; k++)
                applied |= apply_algorithm(s->algorithms[k],
                                           g_array_index(s->kinds, enum coll_kind, k), entry);
            if (!applied)
                return fail_value(ld, "run", "algorithms",
                                  "'%s' is an algorithm of none of the listed collectives",
                                  entry);
            continue;
        }
        g_autofree gchar *collective = g_strstrip(g_strndup(entry, (gsize)(colon - entry)));
        g_autofree gchar *name = g_strstrip(g_strdup(colon + 1));
        enum coll_kind kind;
        if (!coll_kind_from_name(collective, &kind))
            return fail_value(ld, "run", "algorithms", "'%s': unknown collective '%s'", entry,
                              collective);
        guint k = 0;
        while (k < nkinds && g_array_index(s->kinds, enum coll_kind, k) != kind)
            k++;
        if (k == nkinds)
            return fail_value(ld, "run", "algorithms",
                              "'%s': %s is not one of the collectives of the scenario", entry,
                              collective);
        if (!apply_algorithm(s->algorithms[k], kind, name))
            return fail_value(ld, "run", "algorithms", "'%s': %s has no algorithm '%s'", entry,
                              coll_kind_mpi_name(kind), name);
    }
    for (guint k = 0; k < nkinds; k++) {
        if (s->algorithms[k]->len == 0) {
            const char *kind = coll_kind_name(g_array_index(s->kinds, enum coll_kind, k));
            return fail_value(ld, "run", "algorithms", "no entry names an algorithm of %s (add "
                              "default, or %s:NAME)", kind, kind);
        }
    }
    return TRUE;
}

static gboolean
read_sizes(struct loader *ld, struct settings *s)
{
    g_autofree gchar *text = NULL;
    if (!get_text(ld, "run", "sizes", FALSE, &text))
        return FALSE;
    s->sizes = g_array_new(FALSE, FALSE, sizeof(guint64));
    g_autofree gchar *why = NULL;
    if (!parse_sweep(text != NULL ? text : "8", scenario_parse_size, 0, G_MAXUINT64, s->sizes,
                     &why))
        return fail_value(ld, "run", "sizes", "%s", why);
    return TRUE;
}

/* The list of inputs, "exact" by default; each entry once, in listed order. */
static gboolean
read_inputs(struct loader *ld, struct settings *s)
{
    g_auto(GStrv) entries = NULL;
    if (!get_list(ld, "run", "inputs", &entries))
        return FALSE;
    s->inputs = g_array_new(FALSE, FALSE, sizeof(struct inputs_entry));
    if (entries == NULL) {
        struct inputs_entry exact = {POINT_INPUTS_EXACT, 0};
        g_array_append_val(s->inputs, exact);
        return TRUE;
    }
    for (gsize e = 0; entries[e] != NULL; e++) {
        struct inputs_entry entry;
        g_autofree gchar *why = NULL;
        if (!bench_inputs_parse(entries[e], &entry.inputs, &entry.seed, &why))
            return fail_value(ld, "run", "inputs", "%s", why);
        gboolean seen = FALSE;
        for (guint i = 0; i < s->inputs->len; i++) {
            const struct inputs_entry *known = &g_array_index(s->inputs, struct inputs_entry, i);
            seen |= known->inputs == entry.inputs && known->seed == entry.seed;
        }
        if (!seen)
            g_array_append_val(s->inputs, entry);
    }
    return TRUE;
}

/* A file a program scenario needs, found as given or beside the scenario file. */
static gboolean
resolve_program_file(struct loader *ld, const char *key, gchar **path)
{
    if (*path == NULL)
        return TRUE;
    const char *dirs[] = {ld->dir, NULL};
    gchar *found = find_file(*path, dirs);
    if (found == NULL)
        return fail_value(ld, "run", key, "'%s' not found in the current directory or %s",
                          *path, ld->dir);
    g_free(*path);
    *path = found;
    return TRUE;
}

static gboolean
check_program_keys(struct loader *ld, struct settings *s)
{
    if (s->program == NULL) {
        if (has_key(ld, "run", "args"))
            return fail(ld, "run", "args", "only with a program (give [run] program)");
        if (has_key(ld, "run", "expected_output"))
            return fail(ld, "run", "expected_output", "only with a program (give [run] program)");
        return TRUE;
    }
    return resolve_program_file(ld, "program", &s->program) &&
           resolve_program_file(ld, "expected_output", &s->expected_output);
}

static gboolean
reduces_any(const struct settings *s)
{
    for (guint k = 0; k < s->kinds->len; k++)
        if (coll_kind_reduces(g_array_index(s->kinds, enum coll_kind, k)))
            return TRUE;
    return FALSE;
}

/* [run] decision: a library's name, or a FILE.rules (relative: to the current directory, then
 * to the scenario's), read and checked now so that a bad file is reported before anything runs. */
static gboolean
read_decision(struct loader *ld, struct settings *s)
{
    g_autofree gchar *spec = NULL;
    if (!get_text(ld, "run", "decision", FALSE, &spec))
        return FALSE;
    if (spec == NULL || strcmp(spec, COLL_DECISION_COLLSIM) == 0)
        return TRUE;
    g_autofree gchar *beside = g_build_filename(ld->dir, spec, NULL);
    const char *path = spec;
    if ((g_str_has_suffix(spec, ".rules") || strchr(spec, '/') != NULL) &&
        !g_path_is_absolute(spec) && !g_file_test(spec, G_FILE_TEST_EXISTS) &&
        g_file_test(beside, G_FILE_TEST_EXISTS))
        path = beside;
    GError *error = NULL;
    s->decision = coll_decision_open(path, 0, &error);
    if (s->decision == NULL) {
        gboolean ok = fail_value(ld, "run", "decision", "%s", error->message);
        g_error_free(error);
        return ok;
    }
    return TRUE;
}

static gboolean
read_run_group(struct loader *ld, struct settings *s)
{
    g_autofree gchar *payload = NULL, *args = NULL, *engine = NULL;
    guint64 segment_bytes = 0;
    if (!read_ranks(ld, s) || !get_text(ld, "run", "program", FALSE, &s->program))
        return FALSE;
    /* a program runs as it is: the keys of a collective benchmark would be silently ignored */
    for (gsize i = 0; s->program != NULL && i < G_N_ELEMENTS(collective_only_keys); i++)
        if (has_key(ld, "run", collective_only_keys[i]))
            return fail(ld, "run", collective_only_keys[i],
                        "not used with a program (a program scenario runs the program once per "
                        "rank count; remove the key)");
    if (!read_collectives(ld, s))
        return FALSE;
    if (s->program == NULL && s->kinds->len == 0)
        return fail(ld, "run", "collectives",
                    "missing (give the collectives to run, e.g. allreduce, or a program)");
    if ((s->kinds->len > 0 && !read_algorithms(ld, s)) ||
        !get_size(ld, "run", "segment_bytes", G_MAXINT, &segment_bytes) ||
        !get_int(ld, "run", "radix", 0, &s->params.radix) || !read_sizes(ld, s) ||
        !get_text(ld, "run", "datatype", FALSE, &s->datatype) ||
        !get_text(ld, "run", "op", FALSE, &s->op) ||
        !get_bool(ld, "run", "commutative", &s->commutative) ||
        !get_int(ld, "run", "root", 0, &s->root) || !read_inputs(ld, s) ||
        !get_bool(ld, "run", "in_place", &s->in_place) ||
        !get_text(ld, "run", "payload", FALSE, &payload) ||
        !get_text(ld, "run", "engine", FALSE, &engine) ||
        !get_int(ld, "run", "iterations", 1, &s->iterations) ||
        !get_int(ld, "run", "warmup", 0, &s->warmup) ||
        !get_seconds(ld, "run", "wall_limit", &s->wall_limit) ||
        !get_bool(ld, "run", "check", &s->check) ||
        !get_text(ld, "run", "args", TRUE, &args) ||
        !get_text(ld, "run", "expected_output", FALSE, &s->expected_output))
        return FALSE;
    if (!read_decision(ld, s))
        return FALSE;
    s->params.segment_bytes = (int)segment_bytes;
    if (s->params.radix == 1)
        return fail_value(ld, "run", "radix", "a tree of radix 1 is a chain");

    if (payload == NULL || strcmp(payload, "data") == 0)
        s->payload = SIM_PAYLOAD_DATA;
    else if (strcmp(payload, "none") == 0)
        s->payload = SIM_PAYLOAD_NONE;
    else
        return fail_value(ld, "run", "payload", "unknown payload mode '%s'", payload);
    s->engine = SIM_ENGINE_AUTO;
    if (engine != NULL && !sim_engine_parse(engine, &s->engine))
        return fail_value(ld, "run", "engine", "'%s' is not auto, simgrid or collsim", engine);

    if (args != NULL && *args != '\0') {
        GError *shell_error = NULL;
        if (!g_shell_parse_argv(args, NULL, &s->program_args, &shell_error)) {
            gboolean ok = fail_value(ld, "run", "args", "%s", shell_error->message);
            g_error_free(shell_error);
            return ok;
        }
    }
    if (!check_program_keys(ld, s))
        return FALSE;

    int smallest = G_MAXINT;
    for (guint i = 0; i < s->ranks->len; i++)
        smallest = MIN(smallest, g_array_index(s->ranks, int, i));
    if (s->root >= smallest)
        return fail_value(ld, "run", "root", "root %d is not below the smallest rank count %d",
                          s->root, smallest);
    if (s->op != NULL && !reduces_any(s))
        return fail(ld, "run", "op",
                    "none of the listed collectives reduces (an op needs reduce, allreduce, "
                    "reduce_scatter, reduce_scatter_block, scan or exscan)");
    const char *op = s->op != NULL ? s->op : DEFAULT_OP;
    if (has_key(ld, "run", "commutative") &&
        in_list(op, predefined_ops, G_N_ELEMENTS(predefined_ops)))
        return fail(ld, "run", "commutative",
                    "only for user ops; the predefined op %s is commutative (remove the key, or "
                    "use a user op such as complex_prod or smod5)",
                    op);
    return TRUE;
}

static gboolean
read_output_path(struct loader *ld, const char *key, gchar **path)
{
    if (!get_text(ld, "output", key, FALSE, path))
        return FALSE;
    if (*path == NULL)
        return TRUE;
    /* a sweep may run for hours: refuse an unwritable place before, not after */
    g_autofree gchar *dir = g_path_get_dirname(*path);
    if (!g_file_test(dir, G_FILE_TEST_IS_DIR))
        return fail_value(ld, "output", key, "directory '%s' does not exist", dir);
    if (g_file_test(*path, G_FILE_TEST_IS_DIR))
        return fail_value(ld, "output", key, "'%s' is a directory", *path);
    return TRUE;
}

static gboolean
read_output_group(struct loader *ld, struct settings *s)
{
    if (!read_output_path(ld, "csv", &s->csv_path) || !read_output_path(ld, "json", &s->json_path))
        return FALSE;
    if (s->csv_path != NULL && s->json_path != NULL && strcmp(s->csv_path, s->json_path) == 0)
        return fail(ld, "output", "json", "the same file as [output] csv (give two files)");
    if (!read_output_path(ld, "certificates", &s->certificates_path))
        return FALSE;
    if (s->certificates_path != NULL &&
        (g_strcmp0(s->certificates_path, s->csv_path) == 0 ||
         g_strcmp0(s->certificates_path, s->json_path) == 0))
        return fail(ld, "output", "certificates",
                    "the same file as [output] %s (give another file)",
                    g_strcmp0(s->certificates_path, s->csv_path) == 0 ? "csv" : "json");
    /* its extension is checked by collsim run with --plot's (picture_check) */
    if (!read_output_path(ld, "plot", &s->plot_path))
        return FALSE;
    /* the stems of files per point (sim/trace/point_outputs.h), checked likewise by collsim run */
    if (!read_output_path(ld, "trace", &s->trace_path) ||
        !read_output_path(ld, "timeline", &s->timeline_path))
        return FALSE;
    return TRUE;
}

/* ---------------------------------------------------------------- the sweep */

static struct run_point *
new_point(const struct settings *s, guint index, int nranks)
{
    struct run_point *p = g_new0(struct run_point, 1);
    p->index = index;
    p->platform = g_strdup(s->platform);
    p->placement = s->placement;
    p->placement_seed = s->placement_seed;
    p->placement_file = g_strdup(s->placement_file);
    p->oversubscribe = s->oversubscribe;
    p->network_model = g_strdup(s->network_model);
    p->transport = s->transport;
    p->network = s->network;
    p->nranks = nranks;
    p->commutative = s->commutative;
    p->root = s->root;
    p->in_place = s->in_place;
    p->payload = s->payload;
    p->engine = s->engine;
    p->wall_limit = s->wall_limit;
    p->iterations = s->iterations;
    p->warmup = s->warmup;
    p->check = s->check;
    return p;
}

static gchar *
describe_point(const struct run_point *p)
{
    if (p->program != NULL)
        return g_strdup_printf("point %u: %s on %d ranks", p->index, p->program, p->nranks);
    return g_strdup_printf("point %u: %s, algorithm %s, %d ranks, %" G_GUINT64_FORMAT " bytes",
                           p->index, coll_kind_name(p->kind),
                           p->algorithm != NULL ? p->algorithm : "default", p->nranks, p->bytes);
}

/* What the benchmark itself refuses, before anything runs, at the line of the key at fault. */
static gboolean
check_point(struct loader *ld, const struct run_point *p)
{
    const char *key = NULL;
    g_autofree gchar *why = bench_point_invalid(p, &key);
    if (why == NULL)
        return TRUE;
    g_autofree gchar *where = describe_point(p);
    if (key != NULL && find_key_spec("run", key) == NULL)
        key = NULL;
    return fail(ld, "run", key, "%s (%s)", why, where);
}

/* The element count of `bytes` of `datatype`, or an error at the key that must change. */
static gboolean
count_elements(struct loader *ld, const char *datatype, guint64 bytes, int *count)
{
    gsize size = 0;
    if (!bench_datatype_size(datatype, &size) || size == 0)
        return fail_value(ld, "run", "datatype", "unknown datatype '%s'", datatype);
    if (bytes % size != 0)
        return fail(ld, "run", "sizes",
                    "%" G_GUINT64_FORMAT " bytes is not a whole number of %s elements "
                    "(multiples of %" G_GSIZE_FORMAT " bytes)",
                    bytes, datatype, size);
    if (bytes / size > G_MAXINT)
        return fail(ld, "run", "sizes",
                    "%" G_GUINT64_FORMAT " bytes is more than %d %s elements (an MPI count is "
                    "an int)",
                    bytes, G_MAXINT, datatype);
    *count = (int)(bytes / size);
    return TRUE;
}

static gboolean
expand_program(struct loader *ld, const struct settings *s, GPtrArray *points)
{
    for (guint r = 0; r < s->ranks->len; r++) {
        struct run_point *p = new_point(s, points->len, g_array_index(s->ranks, int, r));
        p->program = g_strdup(s->program);
        p->program_args = g_strdupv(s->program_args);
        p->expected_output = g_strdup(s->expected_output);
        g_ptr_array_add(points, p);
        if (!check_point(ld, p))
            return FALSE;
    }
    return TRUE;
}

/* One point of a collective sweep, judged by the benchmark at once. */
static gboolean
expand_one(struct loader *ld, const struct settings *s, enum coll_kind kind,
           const char *algorithm, const struct inputs_entry *inputs, int nranks, guint64 bytes,
           GPtrArray *points)
{
    const char *datatype = s->datatype != NULL       ? s->datatype
                           : coll_kind_reduces(kind) ? DEFAULT_REDUCTION_DATATYPE
                                                     : DEFAULT_MOVEMENT_DATATYPE;
    struct run_point *p = new_point(s, points->len, nranks);
    g_ptr_array_add(points, p);
    p->kind = kind;
    p->algorithm = g_strdup(algorithm);
    p->params = s->params;
    p->bytes = bytes;
    p->datatype = g_strdup(datatype);
    if (coll_kind_reduces(kind))
        p->op = g_strdup(s->op != NULL ? s->op : DEFAULT_OP);
    p->inputs = inputs->inputs;
    p->inputs_seed = inputs->seed;
    return count_elements(ld, datatype, p->bytes, &p->count) && check_point(ld, p);
}

static gboolean
expand_collectives(struct loader *ld, const struct settings *s, GPtrArray *points)
{
    guint64 total = 0;
    for (guint k = 0; k < s->kinds->len; k++) {
        gboolean barrier = g_array_index(s->kinds, enum coll_kind, k) == COLL_BARRIER;
        total += (guint64)s->algorithms[k]->len * s->inputs->len * s->ranks->len *
                 (barrier ? 1 : s->sizes->len);
    }
    if (total > SWEEP_POINTS_MAX)
        return fail(ld, "run", "ranks",
                    "the sweep has %" G_GUINT64_FORMAT " points (at most %d; list fewer ranks, "
                    "sizes or algorithms)",
                    total, SWEEP_POINTS_MAX);
    for (guint k = 0; k < s->kinds->len; k++) {
        enum coll_kind kind = g_array_index(s->kinds, enum coll_kind, k);
        /* barrier moves no data: one point per rank count */
        guint nsizes = kind == COLL_BARRIER ? 1 : s->sizes->len;
        guint n = s->algorithms[k]->len * s->inputs->len * s->ranks->len * nsizes;
        for (guint j = 0; j < n; j++) {
            /* j counts algorithm, inputs, ranks, size, the last fastest */
            guint b = j % nsizes, r = j / nsizes % s->ranks->len;
            guint i = j / nsizes / s->ranks->len % s->inputs->len;
            guint a = j / nsizes / s->ranks->len / s->inputs->len;
            if (!expand_one(ld, s, kind, g_ptr_array_index(s->algorithms[k], a),
                            &g_array_index(s->inputs, struct inputs_entry, i),
                            g_array_index(s->ranks, int, r),
                            kind == COLL_BARRIER ? 0 : g_array_index(s->sizes, guint64, b),
                            points))
                return FALSE;
        }
    }
    return TRUE;
}

/* ---------------------------------------------------------------- load */

static struct scenario *
build_scenario(struct loader *ld, const char *const *overrides)
{
    for (gsize i = 0; overrides != NULL && overrides[i] != NULL; i++)
        if (!apply_override(ld, overrides[i]))
            return NULL;
    if (!check_known_keys(ld))
        return NULL;

    struct settings s = {.commutative = TRUE, .check = TRUE, .iterations = 1};
    model_transport_defaults(&s.transport);
    s.network = model_network_default();
    struct scenario *scenario = NULL;
    GPtrArray *points = g_ptr_array_new_with_free_func((GDestroyNotify)run_point_free);
    if (!read_scenario_group(ld, &s) || !read_platform_group(ld, &s) || !read_run_group(ld, &s) ||
        !read_output_group(ld, &s) || !check_platform_capacity(ld, &s))
        goto out;
    if (s.program != NULL ? !expand_program(ld, &s, points) : !expand_collectives(ld, &s, points))
        goto out;

    scenario = g_new0(struct scenario, 1);
    scenario->path = g_strdup(ld->path);
    scenario->name = g_steal_pointer(&s.name);
    scenario->description = g_steal_pointer(&s.description);
    scenario->points = g_steal_pointer(&points);
    scenario->csv_path = g_steal_pointer(&s.csv_path);
    scenario->json_path = g_steal_pointer(&s.json_path);
    scenario->certificates_path = g_steal_pointer(&s.certificates_path);
    scenario->plot_path = g_steal_pointer(&s.plot_path);
    scenario->trace_path = g_steal_pointer(&s.trace_path);
    scenario->timeline_path = g_steal_pointer(&s.timeline_path);
    scenario->decision = g_steal_pointer(&s.decision);
out:
    if (points != NULL)
        g_ptr_array_free(points, TRUE);
    settings_clear(&s);
    return scenario;
}

struct scenario *
scenario_load(const char *path, const char *const *overrides, GError **error)
{
    g_return_val_if_fail(path != NULL, NULL);
    struct loader ld = {
        .path = path,
        .dir = g_path_get_dirname(path),
        .keys = g_key_file_new(),
        .lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
        .set_by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
        .error = error,
    };
    struct scenario *scenario = read_key_file(&ld) ? build_scenario(&ld, overrides) : NULL;
    g_hash_table_destroy(ld.set_by);
    g_hash_table_destroy(ld.lines);
    g_key_file_free(ld.keys);
    g_free(ld.dir);
    return scenario;
}

struct scenario *
scenario_load_overrides(const char *name, const char *const *overrides, GError **error)
{
    g_return_val_if_fail(name != NULL, NULL);
    struct loader ld = {
        .path = name,
        .dir = g_get_current_dir(),
        .keys = g_key_file_new(),
        .lines = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
        .set_by = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free),
        .error = error,
    };
    struct scenario *scenario = build_scenario(&ld, overrides);
    g_hash_table_destroy(ld.set_by);
    g_hash_table_destroy(ld.lines);
    g_key_file_free(ld.keys);
    g_free(ld.dir);
    return scenario;
}

void
scenario_free(struct scenario *scenario)
{
    if (scenario == NULL)
        return;
    g_free(scenario->path);
    g_free(scenario->name);
    g_free(scenario->description);
    if (scenario->points != NULL)
        g_ptr_array_free(scenario->points, TRUE);
    g_free(scenario->csv_path);
    g_free(scenario->json_path);
    g_free(scenario->certificates_path);
    g_free(scenario->plot_path);
    g_free(scenario->trace_path);
    g_free(scenario->timeline_path);
    if (coll_select_decision() == scenario->decision)
        coll_select_set_decision(NULL);
    coll_decision_free(scenario->decision);
    g_free(scenario);
}
