/*
 * report.c — the table, CSV, JSON, digest and progress bar of `collsim run`.
 *
 * A point becomes one list of named fields (point_fields) that the CSV row, the JSON object
 * and the digest all read, so the three can never disagree on a value. The table is streamed:
 * its column widths are fixed when the report opens, since later rows are not known yet: the
 * compact table (collsim run's default) shows the columns the sweep's points make meaningful,
 * as wide as those points need, in REPORT_COMPACT_COLUMNS; the full table (--wide) shows every
 * column, as wide as the registry's longest names and the widest text each number format can
 * produce. A longer value (a fallback "requested→served", a program's name) pushes the rest of
 * its own row to the right instead of being cut. The table's layout is no part of the digest,
 * the CSV or the JSON.
 *
 * Invariants: the CSV file ends at the end of a complete row, always: each row is appended
 * with write(2) as a whole or, when the write fails (a full disk, a file size limit, an I/O
 * error), the file is cut back to the row before, so a reader never meets a row cut in the
 * middle of a field; the JSON file is a complete document (replaced by rename, never
 * rewritten in place); the digest covers the simulated values only (never wall_s); no number
 * depends on the locale.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "sim/bench/bench_inputs.h"
#include "sim/report/decision_summary.h"
#include "sim/report/json_api.h"
#include "sim/report/report.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

/* ---------------------------------------------------------------- number formats */

gchar *
report_format_seconds(double seconds)
{
    static const struct {
        const char *unit;
        double per_second;
    } units[] = {{"ns", 1e9}, {"us", 1e6}, {"ms", 1e3}, {"s", 1.0}};
    const gsize n_units = G_N_ELEMENTS(units);
    char number[G_ASCII_DTOSTR_BUF_SIZE];

    if (!isfinite(seconds))
        return g_strdup("-");
    if (seconds == 0.0)
        return g_strdup("0.000 s");

    gsize u = 0;
    while (u + 1 < n_units && fabs(seconds) * units[u + 1].per_second >= 1.0)
        u++;
    g_ascii_formatd(number, sizeof number, "%.3f", seconds * units[u].per_second);
    /* 999.9996 ns rounds to "1000.000 ns": say "1.000 us" instead */
    if (u + 1 < n_units && fabs(g_ascii_strtod(number, NULL)) >= 1000.0) {
        u++;
        g_ascii_formatd(number, sizeof number, "%.3f", seconds * units[u].per_second);
    }
    return g_strdup_printf("%s %s", number, units[u].unit);
}

gchar *
report_format_bytes(guint64 bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    const gsize n_units = G_N_ELEMENTS(units);
    char number[G_ASCII_DTOSTR_BUF_SIZE];

    if (bytes < 1024)
        return g_strdup_printf("%" G_GUINT64_FORMAT " B", bytes);

    gsize u = 1;
    while (u + 1 < n_units && bytes >> (10 * (u + 1)) != 0)
        u++;
    for (;;) {
        guint64 unit = G_GUINT64_CONSTANT(1) << (10 * u);
        if (bytes % unit == 0)
            return g_strdup_printf("%" G_GUINT64_FORMAT " %s", bytes / unit, units[u]);
        g_ascii_formatd(number, sizeof number, "%.1f", (double)bytes / (double)unit);
        /* 1048575 B would read "1024.0 KiB" */
        if (u + 1 < n_units && g_ascii_strtod(number, NULL) >= 1024.0) {
            u++;
            continue;
        }
        return g_strdup_printf("%s %s", number, units[u]);
    }
}

static void
append_clock(GString *text, double seconds)
{
    guint64 s = seconds > 0 ? (guint64)(seconds + 0.5) : 0;
    if (s >= 3600)
        g_string_append_printf(text, "%" G_GUINT64_FORMAT ":%02u:%02u", s / 3600,
                               (guint)(s / 60 % 60), (guint)(s % 60));
    else
        g_string_append_printf(text, "%u:%02u", (guint)(s / 60), (guint)(s % 60));
}

#define PROGRESS_BAR_WIDTH 20

gchar *
report_format_progress(guint done, guint total, double elapsed_seconds)
{
    GString *text = g_string_new("[");
    if (done > total)
        done = total;
    guint filled =
        total == 0 ? PROGRESS_BAR_WIDTH : (guint)((guint64)done * PROGRESS_BAR_WIDTH / total);
    for (guint i = 0; i < PROGRESS_BAR_WIDTH; i++)
        g_string_append_c(text, i < filled ? '#' : '-');
    g_string_append_printf(text, "] %u/%u points  ", done, total);
    append_clock(text, elapsed_seconds);
    g_string_append(text, " elapsed");
    if (done > 0 && done < total) {
        g_string_append(text, "  ~");
        append_clock(text, elapsed_seconds / done * (total - done));
        g_string_append(text, " left");
    }
    return g_string_free(text, FALSE);
}

/*
 * A double in the CSV: exponent notation with the fewest digits that read back as the same
 * double, so the file is exact (a one-ulp change shows, and so changes the digest) without
 * seventeen digits on every value.
 */
static void
format_double_exact(double value, char *buf, gsize size)
{
    if (isnan(value)) {
        buf[0] = '\0';
        return;
    }
    if (isinf(value)) {
        g_strlcpy(buf, value > 0 ? "inf" : "-inf", size);
        return;
    }
    for (int digits = 0; digits <= 16; digits++) {
        char format[8];
        g_snprintf(format, sizeof format, "%%.%de", digits);
        g_ascii_formatd(buf, size, format, value);
        if (g_ascii_strtod(buf, NULL) == value)
            return;
    }
}

void
report_format_double_exact(double value, char *buf, gsize size)
{
    format_double_exact(value, buf, size);
}

/* ---------------------------------------------------------------- one point as fields */

enum field_type { FIELD_MISSING, FIELD_STRING, FIELD_INT, FIELD_UINT, FIELD_DOUBLE };

struct field {
    enum field_type type;
    const char *string;
    gint64 integer;
    guint64 unsigned_integer;
    double real;
};

/* The CSV header, the JSON member names and the digest's field order, in one place. */
enum {
    F_INDEX,
    F_COLLECTIVE,
    F_ALGORITHM_REQUESTED,
    F_ALGORITHM_SERVED,
    F_FALLBACK_REASON,
    F_RANKS,
    F_BYTES,
    F_COUNT,
    F_DATATYPE,
    F_OP,
    F_ROOT,
    F_PAYLOAD,
    F_ITERATIONS,
    F_TIME_MAX,
    F_TIME_MIN,
    F_TIME_MEAN,
    F_MESSAGES,
    F_BYTES_MOVED,
    F_CHECK,
    F_CHECK_DETAIL,
    F_PREDICTED,
    F_INPUTS,
    F_MAX_ULPS,
    F_MAX_REL_ERROR,
    F_IDENTICAL,
    F_RESULTS_SHA256,
    F_WALL, /* last: the digest stops before it */
    F_COUNT_OF_FIELDS
};

static const char *const field_names[F_COUNT_OF_FIELDS] = {
    "index",
    "collective",
    "algorithm_requested",
    "algorithm_served",
    "fallback_reason",
    "ranks",
    "bytes",
    "count",
    "datatype",
    "op",
    "root",
    "payload",
    "iterations",
    "time_max_s",
    "time_min_s",
    "time_mean_s",
    "messages",
    "bytes_moved",
    "check",
    "check_detail",
    "predicted_s",
    "inputs",
    "max_ulps",
    "max_rel_error",
    "identical",
    "results_sha256",
    "wall_s",
};

static const char *
check_word(enum point_check check)
{
    switch (check) {
    case POINT_CHECK_OK:
        return "ok";
    case POINT_CHECK_FAIL:
        return "FAIL";
    case POINT_CHECK_SKIPPED:
        return "skipped";
    case POINT_CHECK_ERROR:
        break;
    }
    return "ERROR";
}

/* What the table and the counts treat as the check: an unknown value is an error. */
static enum point_check
check_of(const struct point_result *result)
{
    switch (result->check) {
    case POINT_CHECK_OK:
    case POINT_CHECK_FAIL:
    case POINT_CHECK_SKIPPED:
        return result->check;
    case POINT_CHECK_ERROR:
        break;
    }
    return POINT_CHECK_ERROR;
}

/* The algorithm that served, or NULL when the result names none. */
static const char *
served_name(const struct point_result *result)
{
    return result->served != NULL && result->served[0] != '\0' ? result->served : NULL;
}

static void
set_string(struct field *f, const char *s)
{
    *f = (struct field){.type = s != NULL ? FIELD_STRING : FIELD_MISSING, .string = s};
}

static void
set_int(struct field *f, gint64 v)
{
    *f = (struct field){.type = FIELD_INT, .integer = v};
}

static void
set_uint(struct field *f, guint64 v)
{
    *f = (struct field){.type = FIELD_UINT, .unsigned_integer = v};
}

static void
set_double(struct field *f, double v)
{
    *f = (struct field){.type = FIELD_DOUBLE, .real = v};
}

/*
 * Fill `fields` for one point. `program_name` is the program's basename (programs only); it
 * stands for both algorithm names, as it does in the table. Fields that mean nothing for a
 * program (bytes, count, datatype, op, root, iterations, inputs) are missing; `inputs` is the
 * point's inputs as the scenario spells them.
 */
/* The point's inputs as the scenario spells them, NULL for a program (caller frees). */
static gchar *
inputs_name(const struct run_point *point)
{
    return point->program != NULL ? NULL : bench_inputs_name(point->inputs, point->inputs_seed);
}

static const char *
identical_word(const struct point_result *result)
{
    switch (result->identical) {
    case POINT_IDENTITY_IDENTICAL:
        return "yes";
    case POINT_IDENTITY_DIFFERENT:
        return "no";
    case POINT_IDENTITY_NOT_MEASURED:
        break;
    }
    return NULL;
}

static void
point_fields(const struct run_point *point, const struct point_result *result,
             const char *program_name, const char *inputs, struct field fields[F_COUNT_OF_FIELDS])
{
    gboolean program = point->program != NULL;

    set_uint(&fields[F_INDEX], point->index);
    set_string(&fields[F_COLLECTIVE], program ? "program" : coll_kind_name(point->kind));
    set_string(&fields[F_ALGORITHM_REQUESTED], program ? program_name : point->algorithm);
    set_string(&fields[F_ALGORITHM_SERVED], program ? program_name : served_name(result));
    set_string(&fields[F_FALLBACK_REASON], result->fallback_reason);
    set_int(&fields[F_RANKS], point->nranks);
    if (program) {
        for (int f = F_BYTES; f <= F_ROOT; f++)
            set_string(&fields[f], NULL);
        set_string(&fields[F_ITERATIONS], NULL);
    } else {
        set_uint(&fields[F_BYTES], point->bytes);
        set_int(&fields[F_COUNT], point->count);
        set_string(&fields[F_DATATYPE], point->datatype);
        set_string(&fields[F_OP], point->op);
        set_int(&fields[F_ROOT], point->root);
        set_int(&fields[F_ITERATIONS], point->iterations);
    }
    set_string(&fields[F_PAYLOAD], point->payload == SIM_PAYLOAD_NONE ? "none" : "data");
    set_double(&fields[F_TIME_MAX], result->time_max);
    set_double(&fields[F_TIME_MIN], result->time_min);
    set_double(&fields[F_TIME_MEAN], result->time_mean);
    set_uint(&fields[F_MESSAGES], result->messages);
    set_uint(&fields[F_BYTES_MOVED], result->bytes_moved);
    set_string(&fields[F_CHECK], check_word(check_of(result)));
    set_string(&fields[F_CHECK_DETAIL], result->check_detail);
    set_double(&fields[F_PREDICTED], result->predicted);
    set_string(&fields[F_INPUTS], inputs);
    set_double(&fields[F_MAX_ULPS], result->max_ulps);
    set_double(&fields[F_MAX_REL_ERROR], result->max_rel_error);
    set_string(&fields[F_IDENTICAL], identical_word(result));
    set_string(&fields[F_RESULTS_SHA256], result->results_sha256);
    set_double(&fields[F_WALL], result->wall_seconds);
}

/* RFC 4180: quote a field holding a comma, a quote or a line break, doubling its quotes. */
static void
append_csv_text(GString *line, const char *text)
{
    if (strpbrk(text, ",\"\r\n") == NULL) {
        g_string_append(line, text);
        return;
    }
    g_string_append_c(line, '"');
    for (const char *c = text; *c != '\0'; c++) {
        if (*c == '"')
            g_string_append_c(line, '"');
        g_string_append_c(line, *c);
    }
    g_string_append_c(line, '"');
}

static void
append_csv_field(GString *line, const struct field *f)
{
    char number[G_ASCII_DTOSTR_BUF_SIZE];
    switch (f->type) {
    case FIELD_MISSING:
        break;
    case FIELD_STRING:
        append_csv_text(line, f->string);
        break;
    case FIELD_INT:
        g_string_append_printf(line, "%" G_GINT64_FORMAT, f->integer);
        break;
    case FIELD_UINT:
        g_string_append_printf(line, "%" G_GUINT64_FORMAT, f->unsigned_integer);
        break;
    case FIELD_DOUBLE:
        format_double_exact(f->real, number, sizeof number);
        g_string_append(line, number);
        break;
    }
}

/* Fields [0, end) as one CSV line with its newline. */
static void
append_csv_line(GString *line, const struct field fields[], int end)
{
    for (int f = 0; f < end; f++) {
        if (f > 0)
            g_string_append_c(line, ',');
        append_csv_field(line, &fields[f]);
    }
    g_string_append_c(line, '\n');
}

static void
append_csv_header(GString *line, int end)
{
    for (int f = 0; f < end; f++) {
        if (f > 0)
            g_string_append_c(line, ',');
        g_string_append(line, field_names[f]);
    }
    g_string_append_c(line, '\n');
}

static void
set_json_member(JsonObject *object, const char *name, const struct field *f)
{
    switch (f->type) {
    case FIELD_MISSING:
        json_object_set_null_member(object, name);
        break;
    case FIELD_STRING:
        json_object_set_string_member(object, name, f->string);
        break;
    case FIELD_INT:
        json_object_set_int_member(object, name, f->integer);
        break;
    case FIELD_UINT:
        if (f->unsigned_integer <= (guint64)G_MAXINT64)
            json_object_set_int_member(object, name, (gint64)f->unsigned_integer);
        else
            json_object_set_double_member(object, name, (double)f->unsigned_integer);
        break;
    case FIELD_DOUBLE:
        /* JSON has no NaN or infinity */
        if (isfinite(f->real))
            json_object_set_double_member(object, name, f->real);
        else
            json_object_set_null_member(object, name);
        break;
    }
}

/* ---------------------------------------------------------------- the table's columns */

enum {
    COL_COLLECTIVE,
    COL_ALGORITHM,
    COL_RANKS,
    COL_BYTES,
    COL_TIME_MAX,
    COL_TIME_MIN,
    COL_TIME_MEAN,
    COL_MESSAGES,
    COL_BYTES_MOVED,
    COL_CHECK,
    COL_PREDICTED,
    COL_RATIO,
    COL_INPUTS,
    COL_MAX_ULPS,
    COL_REL_ERROR,
    COL_COUNT_OF_COLUMNS
};

static const struct {
    const char *title;
    int width; /* 0: chosen by report_open from the registry */
    gboolean right_align;
} table_columns[COL_COUNT_OF_COLUMNS] = {
    [COL_COLLECTIVE] = {"collective", 0, FALSE},
    [COL_ALGORITHM] = {"algorithm", 0, FALSE},
    [COL_RANKS] = {"P", 7, TRUE},            /* 1048576 */
    [COL_BYTES] = {"bytes", 10, TRUE},       /* 1023.9 KiB */
    [COL_TIME_MAX] = {"time max", 10, TRUE}, /* 999.999 ms */
    [COL_TIME_MIN] = {"time min", 10, TRUE},
    [COL_TIME_MEAN] = {"time mean", 10, TRUE},
    [COL_MESSAGES] = {"messages", 10, TRUE},
    [COL_BYTES_MOVED] = {"bytes moved", 11, TRUE},
    [COL_CHECK] = {"check", 5, FALSE}, /* ERROR */
    [COL_PREDICTED] = {"predicted", 10, TRUE},
    [COL_RATIO] = {"ratio", 6, TRUE},         /* 12.345 */
    [COL_INPUTS] = {"inputs", 12, FALSE},     /* cancellation */
    [COL_MAX_ULPS] = {"max ulps", 9, TRUE},   /* 1.235e+15 */
    [COL_REL_ERROR] = {"rel error", 9, TRUE}, /* 1.235e-16 */
};

#define COLUMN_GAP "  "
#define DETAIL_INDENT "    "

/* ---------------------------------------------------------------- the report */

struct report {
    FILE *table;
    gchar *csv_path;
    gchar *json_path;
    gchar *scenario;
    int csv_fd;         /* -1 for none, or once a row could not be written */
    off_t csv_complete; /* bytes of complete rows (header included): where a failed row is cut */
    int csv_errno;      /* why a row could not be written (0: none failed); later rows are not */

    int widths[COL_COUNT_OF_COLUMNS];
    gboolean shown[COL_COUNT_OF_COLUMNS]; /* every one but in the compact table */
    gboolean compact;
    guint total_points;
    guint added;
    guint checks[POINT_CHECK_ERROR + 1]; /* points per enum point_check */

    GChecksum *digest;
    gchar *digest_hex; /* once finished */
    JsonArray *json_points;

    /* distinct fallback reasons, numbered by first appearance for the footnotes */
    GPtrArray *reasons;
    GHashTable *reason_numbers; /* reason -> its footnote number; lookup only */

    /* libraries' choices against the fastest algorithm, after the table */
    struct decision_summary *decisions;

    /* collsim run --shard, or NULL (borrowed); each point's canonical text for the merge */
    const struct shard_identity *shard;
    JsonArray *shard_canonical;

    gboolean progress;
    gboolean progress_drawn;
    gboolean erase_before_rows; /* stderr and the table are the same terminal */
    gint64 started_us;
};

static gboolean
set_errno_error(GError **error, int errsv, const char *what, const char *path)
{
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv), "cannot %s '%s': %s", what,
                path, g_strerror(errsv));
    return FALSE;
}

/*
 * Append one CSV line (header or row) whole, or not at all. One write(2) loop on the
 * descriptor rather than stdio: a failed fflush may have written any part of its buffer,
 * while here the bytes of complete rows are known exactly. After a failure the file is cut
 * back to them and closed: the rows after a missing one are refused with the same error, so
 * the file is a prefix of the sweep, never a sweep with a gap.
 */
static gboolean
csv_append(struct report *report, const GString *line, GError **error)
{
    if (report->csv_errno != 0)
        return set_errno_error(error, report->csv_errno, "write", report->csv_path);
    gsize written = 0;
    while (written < line->len) {
        ssize_t n = write(report->csv_fd, line->str + written, line->len - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            /* a write of a regular file that writes nothing without an error: call it EIO */
            int errsv = n < 0 ? errno : EIO;
            /* a pipe or a device cannot be cut (EINVAL); what it received is out of reach */
            if (ftruncate(report->csv_fd, report->csv_complete) != 0 && errno != EINVAL) {
                int truncate_errsv = errno;
                g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv),
                            "cannot write '%s': %s (and cannot remove the incomplete last "
                            "row: %s)",
                            report->csv_path, g_strerror(errsv), g_strerror(truncate_errsv));
            } else {
                set_errno_error(error, errsv, "write", report->csv_path);
            }
            close(report->csv_fd);
            report->csv_fd = -1;
            report->csv_errno = errsv;
            return FALSE;
        }
        written += (gsize)n;
    }
    report->csv_complete += (off_t)line->len;
    return TRUE;
}

static gboolean
same_terminal(FILE *table)
{
    struct stat out, err;
    int fd = fileno(table);
    if (fd < 0 || !isatty(fd) || !isatty(STDERR_FILENO))
        return FALSE;
    if (fstat(fd, &out) != 0 || fstat(STDERR_FILENO, &err) != 0)
        return FALSE;
    return out.st_rdev == err.st_rdev;
}

static void
progress_draw(struct report *report)
{
    if (!report->progress)
        return;
    double elapsed = (double)(g_get_monotonic_time() - report->started_us) / G_USEC_PER_SEC;
    g_autofree gchar *bar = report_format_progress(report->added, report->total_points, elapsed);
    /* \033[K clears what a longer previous bar left behind */
    fprintf(stderr, "\r%s\033[K", bar);
    fflush(stderr);
    report->progress_drawn = TRUE;
}

static void
progress_erase(struct report *report)
{
    if (!report->progress_drawn)
        return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    report->progress_drawn = FALSE;
}

/* A shard's JSON: who it is, the canonical text of each point (what the digest covers, which
 * the points do not hold whole), and, once finished, the digest of its own points. */
static void
add_json_shard(struct report *report, JsonObject *root)
{
    const struct shard_identity *id = report->shard;
    JsonObject *shard = json_object_new();
    g_autofree gchar *slice = g_strdup_printf("%u/%u", id->spec.index, id->spec.count);
    json_object_set_string_member(shard, "slice", slice);
    json_object_set_int_member(shard, "points", id->total_points);
    json_object_set_string_member(shard, "scenario_sha256", id->scenario_sha256);
    json_object_set_string_member(shard, "binary", id->binary);
    json_object_set_array_member(shard, "canonical", json_array_ref(report->shard_canonical));
    if (report->digest_hex != NULL)
        json_object_set_string_member(shard, "digest", report->digest_hex);
    json_object_set_object_member(root, "shard", shard);
}

gchar *
report_json_document(JsonObject *root, gsize *length)
{
    JsonNode *node = json_node_init_object(json_node_alloc(), root);
    json_object_unref(root);
    JsonGenerator *generator = json_generator_new();
    json_generator_set_pretty(generator, TRUE);
    json_generator_set_indent(generator, 2);
    json_generator_set_root(generator, node);
    gsize json_length = 0;
    gchar *json = json_generator_to_data(generator, &json_length);
    g_object_unref(generator);
    json_node_unref(node);
    gchar *text = g_strconcat(json, "\n", NULL);
    g_free(json);
    *length = json_length + 1;
    return text;
}

static gboolean
write_json(struct report *report, GError **error)
{
    if (report->json_path == NULL)
        return TRUE;

    JsonObject *root = json_object_new();
    if (report->scenario != NULL)
        json_object_set_string_member(root, "scenario", report->scenario);
    else
        json_object_set_null_member(root, "scenario");
    json_object_set_array_member(root, "points", json_array_ref(report->json_points));
    if (report->shard != NULL)
        add_json_shard(report, root);
    else if (report->digest_hex != NULL)
        json_object_set_string_member(root, "digest", report->digest_hex);
    gsize length = 0;
    g_autofree gchar *text = report_json_document(root, &length);

    /* a reader (or a crash) never sees a half-written file: write beside it, then rename */
    g_autofree gchar *tmp_path = g_strconcat(report->json_path, ".tmp", NULL);
    FILE *file = fopen(tmp_path, "w");
    if (file == NULL)
        return set_errno_error(error, errno, "write", tmp_path);
    gboolean written = fwrite(text, 1, length, file) == length;
    int errsv = errno;
    if (fclose(file) != 0 && written) {
        written = FALSE;
        errsv = errno;
    }
    if (!written) {
        g_unlink(tmp_path);
        return set_errno_error(error, errsv != 0 ? errsv : EIO, "write", tmp_path);
    }
    if (g_rename(tmp_path, report->json_path) != 0) {
        errsv = errno;
        g_unlink(tmp_path);
        return set_errno_error(error, errsv, "replace", report->json_path);
    }
    return TRUE;
}

static gboolean
flush_table(struct report *report, GError **error)
{
    if (fflush(report->table) != 0 || ferror(report->table)) {
        int errsv = errno != 0 ? errno : EIO;
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv),
                    "cannot write the table%s: %s",
                    report->table == stdout ? " to standard output" : "", g_strerror(errsv));
        return FALSE;
    }
    return TRUE;
}

static void
append_cell(GString *row, int column, const struct report *report, const char *text)
{
    const int *widths = report->widths;
    if (!report->shown[column])
        return;
    /* the collective, column 0, is always shown */
    if (column > 0)
        g_string_append(row, COLUMN_GAP);
    glong length = g_utf8_strlen(text, -1);
    glong pad = widths[column] > length ? widths[column] - length : 0;
    if (!table_columns[column].right_align)
        g_string_append(row, text);
    for (glong i = 0; i < pad; i++)
        g_string_append_c(row, ' ');
    if (table_columns[column].right_align)
        g_string_append(row, text);
}

/* The compact table's lines end at their last character: a left-aligned last column would
 * otherwise pad them to the full width. */
static void
trim_trailing_spaces(GString *text)
{
    gsize end = text->len;
    while (end > 0 && text->str[end - 1] == ' ')
        end--;
    g_string_truncate(text, end);
}

static void
print_table_header(struct report *report)
{
    GString *text = g_string_new(NULL);
    if (report->scenario != NULL)
        g_string_append_printf(text, "scenario %s%s", report->scenario,
                               report->shard != NULL ? ", " : ": ");
    if (report->shard != NULL)
        g_string_append_printf(text, "shard %u/%u: %u of %u points\n\n",
                               report->shard->spec.index, report->shard->spec.count,
                               report->total_points, report->shard->total_points);
    else
        g_string_append_printf(text, "%u point%s\n\n", report->total_points,
                               report->total_points == 1 ? "" : "s");
    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
        append_cell(text, c, report, table_columns[c].title);
    if (report->compact)
        trim_trailing_spaces(text);
    g_string_append_c(text, '\n');
    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++) {
        if (!report->shown[c])
            continue;
        if (c > 0)
            g_string_append(text, COLUMN_GAP);
        for (int i = 0; i < report->widths[c]; i++)
            g_string_append_c(text, '-');
    }
    g_string_append_c(text, '\n');
    fputs(text->str, report->table);
    g_string_free(text, TRUE);
}

/* The full table's widths: the registry's longest names, the widest text of each format. */
static void
registry_widths(struct report *report)
{
    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
        report->widths[c] = MAX(table_columns[c].width, (int)strlen(table_columns[c].title));
    report->widths[COL_COLLECTIVE] = MAX(report->widths[COL_COLLECTIVE], (int)strlen("program"));
    for (int k = 0; k < COLL_KIND_COUNT; k++)
        report->widths[COL_COLLECTIVE] =
            MAX(report->widths[COL_COLLECTIVE], (int)strlen(coll_kind_name((enum coll_kind)k)));
    size_t n_rows = 0;
    const struct coll_algorithm *rows = coll_registry_rows(&n_rows);
    for (size_t i = 0; i < n_rows; i++)
        report->widths[COL_ALGORITHM] =
            MAX(report->widths[COL_ALGORITHM], (int)strlen(rows[i].name));
}

/* The longest registry name of a collective's algorithms. */
static int
longest_algorithm(enum coll_kind kind)
{
    size_t n_rows = 0;
    const struct coll_algorithm *rows = coll_registry_rows(&n_rows);
    int longest = 0;
    for (size_t i = 0; i < n_rows; i++)
        if (rows[i].kind == kind)
            longest = MAX(longest, (int)g_utf8_strlen(rows[i].name, -1));
    return longest;
}

/* Room for a footnote mark " [12]" after an algorithm that fell back. */
#define FOOTNOTE_MARK_WIDTH 5

/*
 * The compact table: the columns the sweep makes meaningful, each as wide as the sweep's own
 * values need (P, bytes, collective and program names are known before any point runs). The
 * algorithm column takes what the others leave of REPORT_COMPACT_COLUMNS, up to the longest
 * cell a fallback could write ("ring_segmented→recursive_doubling [1]") and never less than
 * the longest name the sweep requests; a longer cell pushes its own row only.
 */
static void
compact_columns(struct report *report, const GPtrArray *points)
{
    if (points == NULL || points->len == 0) {
        registry_widths(report);
    } else {
        for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
            report->widths[c] = MAX(table_columns[c].width, (int)strlen(table_columns[c].title));
    }
    report->compact = TRUE;
    gboolean programs = FALSE, collectives = FALSE, accuracy = FALSE;
    int collective = (int)strlen(table_columns[COL_COLLECTIVE].title);
    int ranks = (int)strlen(table_columns[COL_RANKS].title);
    int bytes = (int)strlen(table_columns[COL_BYTES].title);
    int named = (int)strlen(table_columns[COL_ALGORITHM].title); /* what the sweep requests */
    int possible = named;                                       /* with any fallback */
    for (guint i = 0; points != NULL && i < points->len; i++) {
        const struct run_point *point = g_ptr_array_index(points, i);
        g_autofree gchar *p = g_strdup_printf("%d", point->nranks);
        ranks = MAX(ranks, (int)strlen(p));
        if (point->program != NULL) {
            programs = TRUE;
            g_autofree gchar *name = g_path_get_basename(point->program);
            collective = MAX(collective, (int)strlen("program"));
            named = MAX(named, (int)g_utf8_strlen(name, -1));
            continue;
        }
        collectives = TRUE;
        accuracy = accuracy || point->inputs != POINT_INPUTS_EXACT;
        collective = MAX(collective, (int)strlen(coll_kind_name(point->kind)));
        g_autofree gchar *size =
            point->kind == COLL_BARRIER ? g_strdup("-") : report_format_bytes(point->bytes);
        bytes = MAX(bytes, (int)g_utf8_strlen(size, -1));
        int served = longest_algorithm(point->kind);
        if (point->algorithm == NULL) {
            possible = MAX(possible, served + FOOTNOTE_MARK_WIDTH);
        } else if (strcmp(point->algorithm, COLL_SELECT_REPRODUCIBLE) == 0 ||
                   coll_decision_is_library(point->algorithm)) {
            /* "served (reproducible)", "served (ompi)" */
            int mode = (int)strlen(point->algorithm) + 3;
            possible = MAX(possible, served + mode + FOOTNOTE_MARK_WIDTH);
        } else {
            int length = (int)g_utf8_strlen(point->algorithm, -1);
            named = MAX(named, length);
            possible = MAX(possible, length + 1 + served + FOOTNOTE_MARK_WIDTH);
        }
    }
    if (points == NULL || points->len == 0) {
        collectives = TRUE; /* unknown sweep: the columns of a collective */
        possible = named = report->widths[COL_ALGORITHM];
    } else {
        report->widths[COL_COLLECTIVE] = collective;
        report->widths[COL_RANKS] = ranks;
        report->widths[COL_BYTES] = bytes;
    }

    /* the few columns a reader of a terminal needs; the rest stay in --wide, CSV and JSON */
    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
        report->shown[c] = FALSE;
    report->shown[COL_COLLECTIVE] = report->shown[COL_ALGORITHM] = TRUE;
    report->shown[COL_RANKS] = report->shown[COL_TIME_MAX] = report->shown[COL_CHECK] = TRUE;
    report->shown[COL_BYTES] = collectives;
    /* a program's own traffic is all there is to say about it besides its time */
    report->shown[COL_MESSAGES] = report->shown[COL_BYTES_MOVED] = programs;
    /* a sum's accuracy, when the sweep measures one, replaces the model's prediction */
    report->shown[COL_PREDICTED] = report->shown[COL_RATIO] = collectives && !accuracy;
    report->shown[COL_INPUTS] = report->shown[COL_MAX_ULPS] = accuracy;
    report->shown[COL_REL_ERROR] = accuracy;

    int others = 0;
    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
        if (report->shown[c] && c != COL_ALGORITHM)
            others += report->widths[c] + (int)strlen(COLUMN_GAP);
    int room = REPORT_COMPACT_COLUMNS - others;
    report->widths[COL_ALGORITHM] = MAX(named, MIN(possible, room));
}

/*
 * The JSON file is replaced by rename after each point: a device or a pipe named as that file
 * would itself be replaced by a regular file (as root, /dev/full would be), so the name must
 * be that of a regular file or of none yet.
 */
static gboolean
json_path_replaceable(const char *path, GError **error)
{
    GStatBuf status;
    /* a file that does not exist is created; any other failure shows when it is written */
    if (g_stat(path, &status) != 0 || S_ISREG(status.st_mode))
        return TRUE;
    g_set_error(error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "cannot write '%s': not a regular file (the JSON file is replaced after each "
                "point)",
                path);
    return FALSE;
}

struct report *
report_open(const struct report_options *options, guint total_points, GError **error)
{
    g_return_val_if_fail(options != NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);

    if (options->json_path != NULL && !json_path_replaceable(options->json_path, error))
        return NULL;

    int csv_fd = -1;
    if (options->csv_path != NULL) {
        csv_fd = g_open(options->csv_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
        if (csv_fd < 0) {
            set_errno_error(error, errno, "write", options->csv_path);
            return NULL;
        }
    }

    struct report *report = g_new0(struct report, 1);
    report->table = options->table;
    report->csv_fd = csv_fd;
    report->csv_path = g_strdup(options->csv_path);
    report->json_path = g_strdup(options->json_path);
    report->scenario = g_strdup(options->scenario);
    report->total_points = total_points;
    report->digest = g_checksum_new(G_CHECKSUM_SHA256);
    report->json_points = json_array_new();
    report->reasons = g_ptr_array_new_with_free_func(g_free);
    report->decisions = decision_summary_new();
    report->reason_numbers = g_hash_table_new(g_str_hash, g_str_equal);
    report->progress = options->progress;
    report->compact = options->compact;
    report->started_us = g_get_monotonic_time();
    report->shard = options->shard;
    report->shard_canonical = json_array_new();

    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++)
        report->shown[c] = TRUE;
    if (options->compact)
        compact_columns(report, options->points);
    else
        registry_widths(report);

    /* The digest opens with the names of the fields it covers, so a change of layout is a
     * change of digest rather than a silent reinterpretation. */
    GString *line = g_string_new(NULL);
    append_csv_header(line, F_WALL);
    g_checksum_update(report->digest, (const guchar *)line->str, (gssize)line->len);
    if (report->csv_fd >= 0) {
        g_string_truncate(line, 0);
        if (report->shard != NULL) {
            g_autofree gchar *first = shard_csv_first_line(report->shard);
            g_string_append(line, first);
        }
        append_csv_header(line, F_COUNT_OF_FIELDS);
        if (!csv_append(report, line, error)) {
            g_string_free(line, TRUE);
            report_free(report);
            return NULL;
        }
    }
    g_string_free(line, TRUE);

    if (!write_json(report, error)) {
        report_free(report);
        return NULL;
    }

    if (report->table != NULL) {
        report->erase_before_rows = report->progress && same_terminal(report->table);
        print_table_header(report);
        if (!flush_table(report, error)) {
            report_free(report);
            return NULL;
        }
    }
    progress_draw(report);
    return report;
}

/* The footnote number of a fallback reason, numbering new reasons in order of appearance. */
static guint
reason_number(struct report *report, const char *reason)
{
    gpointer number = g_hash_table_lookup(report->reason_numbers, reason);
    if (number != NULL)
        return GPOINTER_TO_UINT(number);
    gchar *copy = g_strdup(reason);
    g_ptr_array_add(report->reasons, copy);
    g_hash_table_insert(report->reason_numbers, copy, GUINT_TO_POINTER(report->reasons->len));
    return report->reasons->len;
}

static gchar *
algorithm_cell(struct report *report, const struct run_point *point,
               const struct point_result *result, const char *program_name)
{
    if (point->program != NULL)
        return g_strdup(program_name);
    const char *served = served_name(result) != NULL ? served_name(result) : "?";
    /* a mode or a library's decision chose: name it beside what it chose */
    gboolean chooser = point->algorithm != NULL &&
                       (strcmp(point->algorithm, COLL_SELECT_REPRODUCIBLE) == 0 ||
                        coll_decision_is_library(point->algorithm));
    if (result->fallback_reason == NULL && chooser)
        return g_strdup_printf("%s (%s)", served, point->algorithm);
    if (result->fallback_reason == NULL)
        return g_strdup(served);
    guint number = reason_number(report, result->fallback_reason);
    if (point->algorithm == NULL)
        return g_strdup_printf("%s [%u]", served, number);
    return g_strdup_printf("%s→%s [%u]", point->algorithm, served, number);
}

/* An accuracy figure: four significant digits ("0", "0.5", "1234", "1.235e+15"), "-" when
 * not measured. */
static gchar *
format_accuracy(double value, const char *format)
{
    char number[G_ASCII_DTOSTR_BUF_SIZE];
    if (isnan(value))
        return g_strdup("-");
    if (isinf(value))
        return g_strdup(value > 0 ? "inf" : "-inf");
    if (value == 0.0)
        return g_strdup("0");
    g_ascii_formatd(number, sizeof number, format, value);
    return g_strdup(number);
}

static void
append_table_row(struct report *report, GString *row, const struct run_point *point,
                 const struct point_result *result, const char *program_name, const char *inputs)
{
    static const char *const check_cells[] = {
        [POINT_CHECK_OK] = "ok",
        [POINT_CHECK_FAIL] = "FAIL",
        [POINT_CHECK_SKIPPED] = "-",
        [POINT_CHECK_ERROR] = "ERROR",
    };
    enum point_check check = check_of(result);
    /* the measurements of a simulation that ended badly mean nothing */
    gboolean measured = check != POINT_CHECK_ERROR;
    gchar *cells[COL_COUNT_OF_COLUMNS];

    cells[COL_COLLECTIVE] =
        g_strdup(point->program != NULL ? "program" : coll_kind_name(point->kind));
    cells[COL_ALGORITHM] = algorithm_cell(report, point, result, program_name);
    cells[COL_RANKS] = g_strdup_printf("%d", point->nranks);
    cells[COL_BYTES] = point->program != NULL || point->kind == COLL_BARRIER
                           ? g_strdup("-")
                           : report_format_bytes(point->bytes);
    cells[COL_TIME_MAX] = measured ? report_format_seconds(result->time_max) : g_strdup("-");
    cells[COL_TIME_MIN] = measured ? report_format_seconds(result->time_min) : g_strdup("-");
    cells[COL_TIME_MEAN] = measured ? report_format_seconds(result->time_mean) : g_strdup("-");
    cells[COL_MESSAGES] =
        measured ? g_strdup_printf("%" G_GUINT64_FORMAT, result->messages) : g_strdup("-");
    cells[COL_BYTES_MOVED] = measured ? report_format_bytes(result->bytes_moved) : g_strdup("-");
    cells[COL_CHECK] = g_strdup(check_cells[check]);
    cells[COL_PREDICTED] = report_format_seconds(result->predicted);
    if (measured && isfinite(result->predicted) && result->predicted > 0 &&
        isfinite(result->time_max)) {
        char ratio[G_ASCII_DTOSTR_BUF_SIZE];
        g_ascii_formatd(ratio, sizeof ratio, "%.3f", result->time_max / result->predicted);
        cells[COL_RATIO] = g_strdup(ratio);
    } else {
        cells[COL_RATIO] = g_strdup("-");
    }
    cells[COL_INPUTS] = g_strdup(inputs != NULL ? inputs : "-");
    cells[COL_MAX_ULPS] = format_accuracy(measured ? result->max_ulps : NAN, "%.4g");
    cells[COL_REL_ERROR] = format_accuracy(measured ? result->max_rel_error : NAN, "%.3e");

    for (int c = 0; c < COL_COUNT_OF_COLUMNS; c++) {
        append_cell(row, c, report, cells[c]);
        g_free(cells[c]);
    }
    if (report->compact)
        trim_trailing_spaces(row);
    g_string_append_c(row, '\n');

    if ((check == POINT_CHECK_FAIL || check == POINT_CHECK_ERROR) && result->check_detail != NULL) {
        g_auto(GStrv) lines = g_strsplit(result->check_detail, "\n", -1);
        for (int i = 0; lines[i] != NULL; i++) {
            if (lines[i][0] == '\0' && lines[i + 1] == NULL)
                break; /* a trailing newline */
            g_string_append_printf(row, DETAIL_INDENT "%s\n", lines[i]);
        }
    }
}

/* The canonical text of a point for the digest: its CSV line without wall_s, then a
 * program's output framed by its length (so no output can imitate the next point). */
static void
append_canonical_text(GString *text, const struct field fields[], const struct run_point *point,
                      const struct point_result *result)
{
    append_csv_line(text, fields, F_WALL);
    if (point->program != NULL) {
        if (result->output != NULL)
            g_string_append_printf(text, "output %" G_GSIZE_FORMAT "\n%s\n", strlen(result->output),
                                   result->output);
        else
            g_string_append(text, "output none\n");
    }
}

static void
update_digest(struct report *report, const struct field fields[], const struct run_point *point,
              const struct point_result *result)
{
    GString *text = g_string_new(NULL);
    append_canonical_text(text, fields, point, result);
    g_checksum_update(report->digest, (const guchar *)text->str, (gssize)text->len);
    g_string_free(text, TRUE);
}

gchar *
report_canonical_text(const struct run_point *point, const struct point_result *result)
{
    g_autofree gchar *program_name =
        point->program != NULL ? g_path_get_basename(point->program) : NULL;
    g_autofree gchar *inputs = inputs_name(point);
    struct field fields[F_COUNT_OF_FIELDS];
    point_fields(point, result, program_name, inputs, fields);
    GString *text = g_string_new(NULL);
    append_canonical_text(text, fields, point, result);
    return g_string_free(text, FALSE);
}

gchar *
report_canonical_header(void)
{
    GString *line = g_string_new(NULL);
    append_csv_header(line, F_WALL);
    return g_string_free(line, FALSE);
}

static void
add_json_point(struct report *report, const struct field fields[], const struct run_point *point,
               const struct point_result *result)
{
    JsonObject *object = json_object_new();
    for (int f = 0; f < F_COUNT_OF_FIELDS; f++)
        set_json_member(object, field_names[f], &fields[f]);
    if (point->program != NULL) {
        json_object_set_string_member(object, "program", point->program);
        if (result->output != NULL)
            json_object_set_string_member(object, "output", result->output);
        else
            json_object_set_null_member(object, "output");
    }
    json_array_add_object_element(report->json_points, object);
}

gboolean
report_add(struct report *report, const struct run_point *point, const struct point_result *result,
           GError **error)
{
    g_return_val_if_fail(report != NULL && point != NULL && result != NULL, FALSE);
    g_return_val_if_fail(report->digest_hex == NULL, FALSE);
    g_return_val_if_fail(error == NULL || *error == NULL, FALSE);

    g_autofree gchar *program_name =
        point->program != NULL ? g_path_get_basename(point->program) : NULL;
    g_autofree gchar *inputs = inputs_name(point);
    struct field fields[F_COUNT_OF_FIELDS];
    point_fields(point, result, program_name, inputs, fields);

    report->added++;
    report->checks[check_of(result)]++;
    decision_summary_add(report->decisions, point, result);
    update_digest(report, fields, point, result);
    add_json_point(report, fields, point, result);
    if (report->shard != NULL) {
        GString *text = g_string_new(NULL);
        append_canonical_text(text, fields, point, result);
        json_array_add_string_element(report->shard_canonical, text->str);
        g_string_free(text, TRUE);
    }

    /* Every output gets its row even if another one fails; the first failure is reported. */
    gboolean ok = TRUE;
    GError *first_error = NULL;

    if (report->table != NULL) {
        GString *row = g_string_new(NULL);
        append_table_row(report, row, point, result, program_name, inputs);
        if (report->erase_before_rows)
            progress_erase(report);
        fputs(row->str, report->table);
        g_string_free(row, TRUE);
        ok = flush_table(report, &first_error);
    }

    if (report->csv_path != NULL) {
        GString *line = g_string_new(NULL);
        append_csv_line(line, fields, F_COUNT_OF_FIELDS);
        if (report->shard != NULL && point->program != NULL) {
            /* with its row, whole or not at all: the digest covers the output */
            g_autofree gchar *output = shard_csv_output_line(point->index, result->output);
            g_string_append(line, output);
        }
        if (!csv_append(report, line, ok ? &first_error : NULL))
            ok = FALSE;
        g_string_free(line, TRUE);
    }

    if (!write_json(report, ok ? &first_error : NULL))
        ok = FALSE;

    progress_draw(report);
    if (!ok)
        g_propagate_error(error, first_error);
    return ok;
}

gchar *
report_finish(struct report *report, GError **error)
{
    g_return_val_if_fail(report != NULL, NULL);
    g_return_val_if_fail(report->digest_hex == NULL, NULL);
    g_return_val_if_fail(error == NULL || *error == NULL, NULL);

    gboolean ok = TRUE;
    GError *first_error = NULL;

    progress_erase(report);
    report->progress = FALSE;
    report->digest_hex = g_strdup(g_checksum_get_string(report->digest));

    if (report->table != NULL) {
        GString *text = g_string_new("\n");
        gsize before = text->len;
        decision_summary_write(report->decisions, text);
        if (text->len > before)
            g_string_append_c(text, '\n');
        for (guint i = 0; i < report->reasons->len; i++)
            g_string_append_printf(text, "[%u] %s\n", i + 1,
                                   (const char *)g_ptr_array_index(report->reasons, i));
        if (report->added == report->total_points)
            g_string_append_printf(text, "%u point%s", report->added,
                                   report->added == 1 ? "" : "s");
        else
            g_string_append_printf(text, "%u of %u points", report->added, report->total_points);
        g_string_append_printf(text, ": %u ok, %u FAIL, %u ERROR, %u skipped\n",
                               report->checks[POINT_CHECK_OK], report->checks[POINT_CHECK_FAIL],
                               report->checks[POINT_CHECK_ERROR],
                               report->checks[POINT_CHECK_SKIPPED]);
        if (report->shard != NULL)
            /* not the run's digest: `collsim merge` of every shard prints that one */
            g_string_append_printf(text, "shard %u/%u digest sha256:%s\n",
                                   report->shard->spec.index, report->shard->spec.count,
                                   report->digest_hex);
        else
            g_string_append_printf(text, "digest sha256:%s\n", report->digest_hex);
        fputs(text->str, report->table);
        g_string_free(text, TRUE);
        ok = flush_table(report, &first_error);
    }

    /* the files are completed even if the table could not be: the first failure is reported */
    if (report->csv_fd >= 0 && report->shard != NULL) {
        /* the last line says the shard finished: a merge refuses a shard without it */
        g_autofree gchar *last =
            shard_csv_last_line(report->shard, report->added, report->digest_hex);
        GString *line = g_string_new(last);
        if (!csv_append(report, line, ok ? &first_error : NULL))
            ok = FALSE;
        g_string_free(line, TRUE);
    }
    if (report->csv_fd >= 0) {
        int csv_fd = report->csv_fd;
        report->csv_fd = -1;
        if (close(csv_fd) != 0 && ok)
            ok = set_errno_error(&first_error, errno, "write", report->csv_path);
    } else if (report->csv_errno != 0 && ok) {
        ok = set_errno_error(&first_error, report->csv_errno, "write", report->csv_path);
    }
    if (!write_json(report, ok ? &first_error : NULL))
        ok = FALSE;
    if (!ok) {
        g_propagate_error(error, first_error);
        return NULL;
    }
    return g_strdup(report->digest_hex);
}

void
report_free(struct report *report)
{
    if (report == NULL)
        return;
    progress_erase(report);
    if (report->csv_fd >= 0)
        close(report->csv_fd);
    g_free(report->csv_path);
    g_free(report->json_path);
    g_free(report->scenario);
    g_checksum_free(report->digest);
    g_free(report->digest_hex);
    json_array_unref(report->json_points);
    json_array_unref(report->shard_canonical);
    g_hash_table_destroy(report->reason_numbers);
    g_ptr_array_free(report->reasons, TRUE);
    decision_summary_free(report->decisions);
    g_free(report);
}

guint
report_failures(const struct report *report)
{
    g_return_val_if_fail(report != NULL, 0);
    return report->checks[POINT_CHECK_FAIL] + report->checks[POINT_CHECK_ERROR];
}
