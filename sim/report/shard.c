/*
 * shard.c — slices of a sweep (collsim run --shard I/N) and the shard files read back and
 * joined (collsim merge).
 *
 * A shard's CSV is the unsharded CSV's header and its own rows, verbatim, between a first line
 * naming the shard and a last line with the digest of its points; a program's row is followed
 * by a line with its output in base64, since the digest covers the output and the row does
 * not. Every extra line starts with '#', which no row does (a row opens with its index). A
 * shard's JSON is the unsharded document with a "shard" member (the same facts, and the
 * canonical text of each point, which the digest covers) in place of "digest". The merge
 * recomputes each shard's digest from what it read before trusting it, so a row cut short or
 * edited is found, and recomputes the run's digest from the canonical texts in index order:
 * the digest is that of the unsharded run by construction, not by a second simulation.
 *
 * Invariants: the slice of a point depends on its index only; nothing here looks at a clock,
 * a pointer value or a hash table's order; errors name the file and the slice.
 */
#include "config.h"

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* dladdr */
#endif
#include <dlfcn.h>
#include <string.h>

#include "sim/bench/point.h"
#include "sim/report/json_api.h"
#include "sim/report/report.h"
#include "sim/report/shard.h"
#include "sim/scenario/scenario.h"

/* clang-format off */
G_DEFINE_QUARK(collsim-shard-error-quark, shard_error)
/* clang-format on */

/* ---------------------------------------------------------------- slices */

static gboolean
parse_decimal(const char *text, gsize length, guint *value)
{
    guint64 v = 0;
    if (length == 0 || length > 9)
        return FALSE;
    for (gsize i = 0; i < length; i++) {
        if (!g_ascii_isdigit(text[i]))
            return FALSE;
        v = v * 10 + (guint64)(text[i] - '0');
    }
    *value = (guint)v;
    return TRUE;
}

gboolean
shard_spec_parse(const char *text, struct shard_spec *spec, GError **error)
{
    g_return_val_if_fail(spec != NULL, FALSE);
    const char *slash = text != NULL ? strchr(text, '/') : NULL;
    guint i = 0, n = 0;
    const char *why = NULL;
    if (slash == NULL || !parse_decimal(text, (gsize)(slash - text), &i) ||
        !parse_decimal(slash + 1, strlen(slash + 1), &n))
        why = "not of the form I/N";
    else if (n < 1)
        why = "N must be at least 1";
    else if (i < 1)
        why = "I counts from 1";
    else if (i > n)
        why = "I is larger than N";
    if (why != NULL) {
        gchar *shown = g_strescape(text != NULL ? text : "", NULL);
        g_set_error(error, SHARD_ERROR, SHARD_ERROR_SPEC,
                    "--shard '%s': %s (want I/N with 1 <= I <= N, e.g. --shard 2/8)", shown, why);
        g_free(shown);
        return FALSE;
    }
    *spec = (struct shard_spec){i, n};
    return TRUE;
}

gboolean
shard_spec_contains(const struct shard_spec *spec, guint point_index)
{
    return point_index % spec->count == spec->index - 1;
}

guint
shard_spec_size(const struct shard_spec *spec, guint total)
{
    /* indices index-1, index-1+count, ... below total */
    return total >= spec->index ? (total - spec->index) / spec->count + 1 : 0;
}

gchar *
shard_output_path(const char *path, const struct shard_spec *spec)
{
    g_autofree gchar *tag = g_strdup_printf(".shard-%u-of-%u", spec->index, spec->count);
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    if (dot == NULL || dot == base)
        return g_strconcat(path, tag, NULL);
    return g_strdup_printf("%.*s%s%s", (int)(dot - path), path, tag, dot);
}

/* ---------------------------------------------------------------- identity */

void
shard_identity_clear(struct shard_identity *identity)
{
    g_clear_pointer(&identity->scenario, g_free);
    g_clear_pointer(&identity->scenario_sha256, g_free);
    g_clear_pointer(&identity->binary, g_free);
}

/* Length-framed, so that no file and overrides can imitate another pair. */
static void
checksum_framed(GChecksum *checksum, const char *data, gsize length)
{
    g_autofree gchar *frame = g_strdup_printf("%" G_GSIZE_FORMAT ":", length);
    g_checksum_update(checksum, (const guchar *)frame, -1);
    g_checksum_update(checksum, (const guchar *)data, (gssize)length);
}

gchar *
shard_scenario_sha256(const char *path, const char *const *overrides, GError **error)
{
    gchar *text = NULL;
    gsize length = 0;
    if (!g_file_get_contents(path, &text, &length, error))
        return NULL;
    GChecksum *checksum = g_checksum_new(G_CHECKSUM_SHA256);
    checksum_framed(checksum, "collsim scenario", strlen("collsim scenario"));
    checksum_framed(checksum, text, length);
    for (gsize i = 0; overrides != NULL && overrides[i] != NULL; i++)
        checksum_framed(checksum, overrides[i], strlen(overrides[i]));
    gchar *hex = g_strdup(g_checksum_get_string(checksum));
    g_checksum_free(checksum);
    g_free(text);
    return hex;
}

static void
checksum_file(GChecksum *checksum, const char *path)
{
    gchar *bytes = NULL;
    gsize length = 0;
    if (path != NULL && g_file_get_contents(path, &bytes, &length, NULL))
        checksum_framed(checksum, bytes, length);
    else
        checksum_framed(checksum, "", 0);
    g_free(bytes);
}

gchar *
shard_binary_id(void)
{
    GChecksum *checksum = g_checksum_new(G_CHECKSUM_SHA256);
    Dl_info info;
    /* the simulator itself lives in libcollsim: the file holding this function */
    if (dladdr((void *)shard_binary_id, &info) != 0)
        checksum_file(checksum, info.dli_fname);
    checksum_file(checksum, "/proc/self/exe");
    gchar *id = g_strdup_printf("%s sha256:%s", PACKAGE_VERSION, g_checksum_get_string(checksum));
    g_checksum_free(checksum);
    return id;
}

gboolean
shard_identity_init(struct shard_identity *identity, const struct shard_spec *spec,
                    const struct scenario *scenario, const char *const *overrides, GError **error)
{
    *identity = (struct shard_identity){.spec = *spec, .total_points = scenario->points->len};
    identity->scenario_sha256 = shard_scenario_sha256(scenario->path, overrides, error);
    if (identity->scenario_sha256 == NULL)
        return FALSE;
    identity->scenario = g_strdup(scenario->name);
    identity->binary = shard_binary_id();
    return TRUE;
}

GPtrArray *
shard_select_points(const GPtrArray *points, const struct shard_spec *spec)
{
    GPtrArray *slice = g_ptr_array_new();
    for (guint k = 0; k < points->len; k++)
        if (shard_spec_contains(spec, k))
            g_ptr_array_add(slice, points->pdata[k]);
    return slice;
}

/* ---------------------------------------------------------------- the CSV's extra lines */

#define CSV_FIRST_PREFIX "# collsim shard "
#define CSV_LAST_PREFIX "# end of shard "
#define CSV_OUTPUT_PREFIX "# output "

gchar *
shard_csv_first_line(const struct shard_identity *identity)
{
    g_autofree gchar *name = g_strescape(identity->scenario != NULL ? identity->scenario : "", "");
    return g_strdup_printf(CSV_FIRST_PREFIX "%u/%u; points %u; scenario-sha256 %s; binary %s; "
                                            "scenario %s\n",
                           identity->spec.index, identity->spec.count, identity->total_points,
                           identity->scenario_sha256, identity->binary, name);
}

gchar *
shard_csv_last_line(const struct shard_identity *identity, guint points, const char *digest_hex)
{
    return g_strdup_printf(CSV_LAST_PREFIX "%u/%u; points %u; digest sha256:%s\n",
                           identity->spec.index, identity->spec.count, points, digest_hex);
}

gchar *
shard_csv_output_line(guint point_index, const char *output)
{
    if (output == NULL)
        return g_strdup_printf(CSV_OUTPUT_PREFIX "%u none\n", point_index);
    g_autofree gchar *encoded = g_base64_encode((const guchar *)output, strlen(output));
    return g_strdup_printf(CSV_OUTPUT_PREFIX "%u %s\n", point_index, encoded);
}

/* ---------------------------------------------------------------- reading a shard */

static void
shard_point_free(gpointer data)
{
    struct shard_point *point = data;
    g_free(point->canonical);
    g_free(point->csv_row);
    if (point->json_node != NULL)
        json_node_unref(point->json_node);
    g_free(point->check);
    g_free(point);
}

void
shard_file_free(struct shard_file *file)
{
    if (file == NULL)
        return;
    g_free(file->path);
    shard_identity_clear(&file->identity);
    g_free(file->csv_header);
    g_ptr_array_free(file->points, TRUE);
    g_free(file);
}

static gboolean
read_error(GError **error, const char *path, const char *why)
{
    g_set_error(error, SHARD_ERROR, SHARD_ERROR_READ, "%s: not a collsim shard file: %s", path,
                why);
    return FALSE;
}

/* "I/N" of a file, as the identity says (for messages). */
static gchar *
slice_name(const struct shard_file *file)
{
    return g_strdup_printf("%u/%u", file->identity.spec.index, file->identity.spec.count);
}

/*
 * The points must be the slice's, each once, in index order, and their digest the one the
 * shard wrote when it finished: anything else is a shard cut short or edited.
 */
static gboolean
check_whole(struct shard_file *file, const char *digest_hex, GError **error)
{
    const struct shard_spec *spec = &file->identity.spec;
    guint total = file->identity.total_points;
    guint expected = shard_spec_size(spec, total);
    g_autofree gchar *slice = slice_name(file);
    for (guint k = 0; k < file->points->len; k++) {
        const struct shard_point *point = file->points->pdata[k];
        guint want = spec->index - 1 + k * spec->count;
        if (point->index != want || k >= expected) {
            g_set_error(error, SHARD_ERROR, SHARD_ERROR_READ,
                        "%s: shard %s holds point %u where point %u was due (a shard holds "
                        "points I-1, I-1+N, ... of the %u, in order): not a file collsim wrote",
                        file->path, slice, point->index, want, total);
            return FALSE;
        }
    }
    if (digest_hex == NULL || file->points->len != expected) {
        g_set_error(error, SHARD_ERROR, SHARD_ERROR_MISSING,
                    "%s: shard %s is incomplete: %u of its %u points%s; run that shard again",
                    file->path, slice, file->points->len, expected,
                    digest_hex == NULL ? " and no end line (the run did not finish)" : "");
        return FALSE;
    }
    GChecksum *checksum = g_checksum_new(G_CHECKSUM_SHA256);
    g_autofree gchar *header = report_canonical_header();
    g_checksum_update(checksum, (const guchar *)header, -1);
    for (guint k = 0; k < file->points->len; k++) {
        const struct shard_point *point = file->points->pdata[k];
        g_checksum_update(checksum, (const guchar *)point->canonical, -1);
    }
    gboolean same = strcmp(g_checksum_get_string(checksum), digest_hex) == 0;
    g_checksum_free(checksum);
    if (!same) {
        g_set_error(error, SHARD_ERROR, SHARD_ERROR_READ,
                    "%s: shard %s does not match its own digest (edited, damaged, or written by "
                    "a collsim with another CSV layout than this one)",
                    file->path, slice);
        return FALSE;
    }
    return TRUE;
}

/* The end of the CSV record starting at `p` (past its newline): a newline inside quotes is
 * part of a field (check_detail may span lines); a '#' line is one line, whatever it quotes. */
static const char *
csv_record_end(const char *p, const char *end)
{
    if (p < end && *p == '#') {
        const char *nl = memchr(p, '\n', (gsize)(end - p));
        return nl != NULL ? nl + 1 : end;
    }
    gboolean quoted = FALSE;
    for (; p < end; p++) {
        if (*p == '"')
            quoted = !quoted;
        else if (*p == '\n' && !quoted)
            return p + 1;
    }
    return end;
}

/* The fields of one CSV record (without its newline), unquoted. */
static GPtrArray *
csv_fields(const char *p, const char *end)
{
    GPtrArray *fields = g_ptr_array_new_with_free_func(g_free);
    GString *field = g_string_new(NULL);
    gboolean quoted = FALSE;
    for (; p < end; p++) {
        if (quoted) {
            if (*p == '"' && p + 1 < end && p[1] == '"')
                g_string_append_c(field, *p++);
            else if (*p == '"')
                quoted = FALSE;
            else
                g_string_append_c(field, *p);
        } else if (*p == '"') {
            quoted = TRUE;
        } else if (*p == ',') {
            g_ptr_array_add(fields, g_string_free(field, FALSE));
            field = g_string_new(NULL);
        } else {
            g_string_append_c(field, *p);
        }
    }
    g_ptr_array_add(fields, g_string_free(field, FALSE));
    return fields;
}

static gint
column_of(GPtrArray *names, const char *name)
{
    for (guint i = 0; i < names->len; i++)
        if (strcmp(names->pdata[i], name) == 0)
            return (gint)i;
    return -1;
}

static gboolean
parse_identity_csv(struct shard_file *file, const char *line, GError **error)
{
    g_auto(GStrv) parts = g_strsplit(line + strlen(CSV_FIRST_PREFIX), "; ", 5);
    struct shard_identity *id = &file->identity;
    if (g_strv_length(parts) != 5 || !shard_spec_parse(parts[0], &id->spec, NULL) ||
        !g_str_has_prefix(parts[1], "points ") ||
        !parse_decimal(parts[1] + 7, strlen(parts[1] + 7), &id->total_points) ||
        !g_str_has_prefix(parts[2], "scenario-sha256 ") || !g_str_has_prefix(parts[3], "binary ") ||
        !g_str_has_prefix(parts[4], "scenario "))
        return read_error(error, file->path, "its first line does not name the shard");
    id->scenario_sha256 = g_strdup(parts[2] + strlen("scenario-sha256 "));
    id->binary = g_strdup(parts[3] + strlen("binary "));
    id->scenario = g_strcompress(parts[4] + strlen("scenario "));
    return TRUE;
}

/* A "# output K BASE64|none" line: the program output of the row before it. */
static gboolean
parse_output_line(struct shard_file *file, const char *line, GError **error)
{
    struct shard_point *last =
        file->points->len > 0 ? file->points->pdata[file->points->len - 1] : NULL;
    g_auto(GStrv) parts = g_strsplit(line + strlen(CSV_OUTPUT_PREFIX), " ", 2);
    guint index = 0;
    if (last == NULL || g_strv_length(parts) != 2 ||
        !parse_decimal(parts[0], strlen(parts[0]), &index) || index != last->index)
        return read_error(error, file->path, "an output line follows no row of its point");
    gchar *more = NULL;
    if (strcmp(parts[1], "none") == 0) {
        more = g_strdup("output none\n");
    } else {
        gsize length = 0;
        g_autofree guchar *output = g_base64_decode(parts[1], &length);
        g_autofree gchar *text = g_strndup((const gchar *)output, length);
        more = g_strdup_printf("output %" G_GSIZE_FORMAT "\n%s\n", strlen(text), text);
    }
    gchar *canonical = g_strconcat(last->canonical, more, NULL);
    g_free(more);
    g_free(last->canonical);
    last->canonical = canonical;
    return TRUE;
}

static gboolean
read_csv(struct shard_file *file, const char *text, gsize length, GError **error)
{
    const char *p = text, *end = text + length;
    g_autofree gchar *digest = NULL;
    GPtrArray *names = NULL;
    gint index_column = -1, check_column = -1;
    gboolean ok = TRUE;
    gboolean first = TRUE;
    while (ok && p < end) {
        const char *next = csv_record_end(p, end);
        if (next[-1] != '\n') {
            ok = read_error(error, file->path, "its last line is cut short");
            break;
        }
        g_autofree gchar *line = g_strndup(p, (gsize)(next - p - 1));
        if (first) {
            first = FALSE;
            if (!g_str_has_prefix(line, CSV_FIRST_PREFIX))
                ok = read_error(error, file->path,
                                "no '" CSV_FIRST_PREFIX "I/N' first line (was it written by "
                                "collsim run --shard I/N?)");
            else
                ok = parse_identity_csv(file, line, error);
        } else if (digest != NULL) {
            ok = read_error(error, file->path, "lines follow its end line");
        } else if (g_str_has_prefix(line, CSV_LAST_PREFIX)) {
            const char *d = strstr(line, "; digest sha256:");
            if (d == NULL)
                ok = read_error(error, file->path, "its end line has no digest");
            else
                digest = g_strdup(d + strlen("; digest sha256:"));
        } else if (g_str_has_prefix(line, CSV_OUTPUT_PREFIX)) {
            ok = parse_output_line(file, line, error);
        } else if (line[0] == '#') {
            ok =
                read_error(error, file->path, "a line starting with '#' that collsim never writes");
        } else if (names == NULL) {
            names = csv_fields(line, line + strlen(line));
            index_column = column_of(names, "index");
            check_column = column_of(names, "check");
            if (index_column != 0 || check_column < 0 ||
                strcmp(names->pdata[names->len - 1], "wall_s") != 0)
                ok = read_error(error, file->path, "its column line is not collsim's");
            file->csv_header = g_strndup(p, (gsize)(next - p));
        } else {
            GPtrArray *fields = csv_fields(p, next - 1);
            guint index = 0;
            const char *last_comma = g_strrstr_len(p, next - p, ",");
            if (fields->len != names->len ||
                !parse_decimal(fields->pdata[0], strlen(fields->pdata[0]), &index) ||
                last_comma == NULL) {
                ok = read_error(error, file->path, "a row that is not collsim's");
            } else {
                struct shard_point *point = g_new0(struct shard_point, 1);
                point->index = index;
                point->csv_row = g_strndup(p, (gsize)(next - p));
                /* what the digest covers: the row without wall_s, its last field */
                point->canonical = g_strdup_printf("%.*s\n", (int)(last_comma - p), p);
                point->check = g_strdup(fields->pdata[check_column]);
                g_ptr_array_add(file->points, point);
            }
            g_ptr_array_free(fields, TRUE);
        }
        p = next;
    }
    if (ok && first)
        ok = read_error(error, file->path, "it is empty");
    if (ok && names == NULL)
        ok = read_error(error, file->path, "it has no column line");
    if (names != NULL)
        g_ptr_array_free(names, TRUE);
    return ok && check_whole(file, digest, error);
}

static const char *
string_member(JsonObject *object, const char *name)
{
    JsonNode *node = object != NULL ? json_object_get_member(object, name) : NULL;
    return node != NULL && JSON_NODE_HOLDS_VALUE(node) &&
                   json_node_get_value_type(node) == G_TYPE_STRING
               ? json_node_get_string(node)
               : NULL;
}

static gboolean
int_member(JsonObject *object, const char *name, guint *value)
{
    JsonNode *node = object != NULL ? json_object_get_member(object, name) : NULL;
    if (node == NULL || !JSON_NODE_HOLDS_VALUE(node) ||
        json_node_get_value_type(node) != G_TYPE_INT64)
        return FALSE;
    gint64 v = json_node_get_int(node);
    if (v < 0 || v > G_MAXUINT)
        return FALSE;
    *value = (guint)v;
    return TRUE;
}

static gboolean
read_json(struct shard_file *file, const char *text, gsize length, GError **error)
{
    JsonParser *parser = json_parser_new();
    GError *parse_error = NULL;
    gboolean ok = FALSE;
    if (!json_parser_load_from_data(parser, text, (gssize)length, &parse_error)) {
        read_error(error, file->path, parse_error->message);
        g_error_free(parse_error);
        goto out;
    }
    JsonNode *root = json_parser_get_root(parser);
    JsonObject *object = JSON_NODE_HOLDS_OBJECT(root) ? json_node_get_object(root) : NULL;
    JsonNode *shard_node = object != NULL ? json_object_get_member(object, "shard") : NULL;
    JsonObject *shard = shard_node != NULL && JSON_NODE_HOLDS_OBJECT(shard_node)
                            ? json_node_get_object(shard_node)
                            : NULL;
    if (shard == NULL) {
        read_error(error, file->path,
                   "no \"shard\" member (was it written by collsim run --shard I/N?)");
        goto out;
    }
    struct shard_identity *id = &file->identity;
    const char *slice = string_member(shard, "slice");
    const char *scenario_sha256 = string_member(shard, "scenario_sha256");
    const char *binary = string_member(shard, "binary");
    JsonNode *canonical_node = json_object_get_member(shard, "canonical");
    JsonNode *points_node = json_object_get_member(object, "points");
    if (slice == NULL || !shard_spec_parse(slice, &id->spec, NULL) ||
        !int_member(shard, "points", &id->total_points) || scenario_sha256 == NULL ||
        binary == NULL || canonical_node == NULL || !JSON_NODE_HOLDS_ARRAY(canonical_node) ||
        points_node == NULL || !JSON_NODE_HOLDS_ARRAY(points_node)) {
        read_error(error, file->path, "its \"shard\" member does not name the shard");
        goto out;
    }
    id->scenario_sha256 = g_strdup(scenario_sha256);
    id->binary = g_strdup(binary);
    id->scenario = g_strdup(string_member(object, "scenario"));
    JsonArray *points = json_node_get_array(points_node);
    JsonArray *canonical = json_node_get_array(canonical_node);
    if (json_array_get_length(points) != json_array_get_length(canonical)) {
        read_error(error, file->path, "its points and their canonical texts differ in number");
        goto out;
    }
    for (guint k = 0; k < json_array_get_length(points); k++) {
        JsonNode *node = json_array_get_element(points, k);
        JsonObject *p = JSON_NODE_HOLDS_OBJECT(node) ? json_node_get_object(node) : NULL;
        JsonNode *text = json_array_get_element(canonical, k);
        struct shard_point point = {0};
        const char *check = string_member(p, "check");
        if (!int_member(p, "index", &point.index) || check == NULL ||
            !JSON_NODE_HOLDS_VALUE(text) || json_node_get_value_type(text) != G_TYPE_STRING) {
            read_error(error, file->path, "a point that is not collsim's");
            goto out;
        }
        struct shard_point *copy = g_new0(struct shard_point, 1);
        *copy = point;
        copy->check = g_strdup(check);
        copy->canonical = g_strdup(json_node_get_string(text));
        copy->json_node = json_node_copy(node);
        g_ptr_array_add(file->points, copy);
    }
    ok = check_whole(file, string_member(shard, "digest"), error);
out:
    g_object_unref(parser);
    return ok;
}

struct shard_file *
shard_file_read(const char *path, GError **error)
{
    gchar *text = NULL;
    gsize length = 0;
    if (!g_file_get_contents(path, &text, &length, error))
        return NULL;
    struct shard_file *file = g_new0(struct shard_file, 1);
    file->path = g_strdup(path);
    file->points = g_ptr_array_new_with_free_func(shard_point_free);
    gboolean ok;
    if (length > 0 && text[0] == '{') {
        file->format = SHARD_FORMAT_JSON;
        ok = read_json(file, text, length, error);
    } else {
        file->format = SHARD_FORMAT_CSV;
        ok = read_csv(file, text, length, error);
    }
    g_free(text);
    if (!ok) {
        shard_file_free(file);
        return NULL;
    }
    return file;
}

/* ---------------------------------------------------------------- merging */

static gboolean
mismatch(GError **error, const struct shard_file *file, const struct shard_file *first,
         const char *what, const char *mine, const char *theirs)
{
    g_set_error(error, SHARD_ERROR, SHARD_ERROR_MISMATCH,
                "%s is not a shard of the same sweep as %s: %s %s, not %s", file->path, first->path,
                what, mine, theirs);
    return FALSE;
}

static gboolean
same_sweep(const struct shard_file *file, const struct shard_file *first, GError **error)
{
    static const char *const formats[] = {"CSV", "JSON"};
    const struct shard_identity *a = &file->identity, *b = &first->identity;
    if (file->format != first->format)
        return mismatch(error, file, first, "format", formats[file->format],
                        formats[first->format]);
    if (strcmp(a->scenario_sha256, b->scenario_sha256) != 0) {
        g_autofree gchar *mine = g_strdup_printf(
            "'%s' (sha256 %.12s…)", a->scenario ? a->scenario : "", a->scenario_sha256);
        g_autofree gchar *theirs = g_strdup_printf(
            "'%s' (sha256 %.12s…)", b->scenario ? b->scenario : "", b->scenario_sha256);
        return mismatch(error, file, first, "scenario (file and --set overrides)", mine, theirs);
    }
    if (strcmp(a->binary, b->binary) != 0)
        return mismatch(error, file, first, "written by collsim", a->binary, b->binary);
    if (a->spec.count != b->spec.count) {
        g_autofree gchar *mine = g_strdup_printf("%u", a->spec.count);
        g_autofree gchar *theirs = g_strdup_printf("%u", b->spec.count);
        return mismatch(error, file, first, "a sweep cut in N =", mine, theirs);
    }
    if (a->total_points != b->total_points) {
        g_autofree gchar *mine = g_strdup_printf("%u", a->total_points);
        g_autofree gchar *theirs = g_strdup_printf("%u", b->total_points);
        return mismatch(error, file, first, "points in the sweep:", mine, theirs);
    }
    if (file->format == SHARD_FORMAT_CSV && strcmp(file->csv_header, first->csv_header) != 0)
        return mismatch(error, file, first, "CSV columns", "(another layout)", "those");
    return TRUE;
}

static guint
check_slot(const char *check)
{
    /* enum point_check order: ok, FAIL, skipped, ERROR */
    if (strcmp(check, "ok") == 0)
        return 0;
    if (strcmp(check, "FAIL") == 0)
        return 1;
    if (strcmp(check, "skipped") == 0)
        return 2;
    return 3;
}

gboolean
shard_merge(struct shard_file *const *files, guint n_files, struct shard_merge *merge,
            GError **error)
{
    g_return_val_if_fail(merge != NULL, FALSE);
    *merge = (struct shard_merge){0};
    if (n_files == 0) {
        g_set_error_literal(error, SHARD_ERROR, SHARD_ERROR_MISSING, "no shard files given");
        return FALSE;
    }
    const struct shard_file *first = files[0];
    for (guint f = 1; f < n_files; f++)
        if (!same_sweep(files[f], first, error))
            return FALSE;

    /* every slice once: name each repeated one with its files, then every missing one */
    guint n = first->identity.spec.count;
    const struct shard_file **by_slice = g_new0(const struct shard_file *, n);
    gboolean ok = TRUE;
    for (guint f = 0; f < n_files && ok; f++) {
        guint slot = files[f]->identity.spec.index - 1;
        if (by_slice[slot] != NULL) {
            g_set_error(error, SHARD_ERROR, SHARD_ERROR_DUPLICATE,
                        "shard %u/%u given twice: %s and %s", slot + 1, n, by_slice[slot]->path,
                        files[f]->path);
            ok = FALSE;
        }
        by_slice[slot] = files[f];
    }
    if (ok) {
        GString *missing = g_string_new(NULL);
        guint count = 0;
        for (guint s = 0; s < n; s++) {
            if (by_slice[s] != NULL)
                continue;
            g_string_append_printf(missing, "%s%u/%u", count > 0 ? ", " : "", s + 1, n);
            count++;
        }
        if (count > 0) {
            g_set_error(error, SHARD_ERROR, SHARD_ERROR_MISSING,
                        "missing shard%s %s of scenario '%s' (%u of %u given)",
                        count > 1 ? "s" : "", missing->str,
                        first->identity.scenario ? first->identity.scenario : "", n - count, n);
            ok = FALSE;
        }
        g_string_free(missing, TRUE);
    }
    if (!ok) {
        g_free(by_slice);
        return FALSE;
    }

    /* point k is shard (k mod n)'s (k div n)-th: read them round robin, in index order */
    guint total = first->identity.total_points;
    merge->format = first->format;
    merge->scenario = g_strdup(first->identity.scenario);
    merge->csv_header = g_strdup(first->csv_header);
    merge->points = g_ptr_array_sized_new(total);
    GChecksum *checksum = g_checksum_new(G_CHECKSUM_SHA256);
    g_autofree gchar *header = report_canonical_header();
    g_checksum_update(checksum, (const guchar *)header, -1);
    for (guint k = 0; k < total; k++) {
        struct shard_point *point = by_slice[k % n]->points->pdata[k / n];
        g_ptr_array_add(merge->points, point);
        g_checksum_update(checksum, (const guchar *)point->canonical, -1);
        merge->checks[check_slot(point->check)]++;
    }
    merge->digest_hex = g_strdup(g_checksum_get_string(checksum));
    g_checksum_free(checksum);
    g_free(by_slice);
    return TRUE;
}

void
shard_merge_clear(struct shard_merge *merge)
{
    g_clear_pointer(&merge->scenario, g_free);
    g_clear_pointer(&merge->csv_header, g_free);
    if (merge->points != NULL)
        g_ptr_array_free(merge->points, TRUE);
    merge->points = NULL;
    g_clear_pointer(&merge->digest_hex, g_free);
}
