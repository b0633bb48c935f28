/*
 * report.h — the reports of `collsim run`: a readable table streamed to stdout as points
 * finish, a CSV file and a JSON file kept complete after every point, the run's digest, and a
 * progress bar on stderr.
 *
 * Invariants: every output is a function of the points and their simulated results only —
 * wall time appears in the wall_s fields and the progress bar and nowhere else, no pointer
 * value or hash-table order ever reaches an output, and numbers are formatted without the
 * locale. After each report_add() the CSV file holds every finished point and the JSON file is
 * a complete, valid document (written to FILE.tmp, then renamed over FILE), so an interrupted
 * or failing sweep keeps every point that finished. When a write fails (a full disk, a file
 * size limit) the CSV is cut back to its last complete row and takes no row after it, and the
 * JSON file stays the previous complete document: each file is a prefix of the sweep made of
 * whole rows. The layouts are documented in scenarios/README.md.
 */
#ifndef COLLSIM_SIM_REPORT_H
#define COLLSIM_SIM_REPORT_H

#include <stdio.h>

#include <glib.h>

#include "sim/bench/point.h"
#include "sim/report/shard.h"

struct _JsonObject; /* json-glib's JsonObject */

/* The JSON document a report writes for `root` (consumed), with its final newline: collsim
 * merge writes the merged sweep through it too, so that both are the same bytes. */
gchar *report_json_document(struct _JsonObject *root, gsize *length);

struct report_options {
    FILE *table;           /* where the table goes (stdout), or NULL for none */
    const char *csv_path;  /* or NULL */
    const char *json_path; /* or NULL */
    gboolean progress;     /* draw a progress bar on stderr (caller decides: isatty(2) && !CI) */
    const char *scenario;  /* scenario name, for headers/JSON */
    /* The compact table (collsim run's default; FALSE is --wide, every column): only the
     * columns the sweep's points make meaningful, sized from those points so that a row fits
     * REPORT_COMPACT_COLUMNS. `points` (struct run_point *, the whole sweep) sizes it; without
     * them the registry's longest names do. CSV, JSON and digest never depend on it. */
    gboolean compact;
    const GPtrArray *points;
    /* collsim run --shard (sim/report/shard.h), or NULL: the CSV and JSON then say which shard
     * they are and carry what a merge needs (the digest's canonical texts, the shard's own
     * digest at the end); the table's first and last lines say it is a shard. The rows, the
     * JSON points and the digest of an unsharded run do not change. Borrowed: outlives the
     * report. */
    const struct shard_identity *shard;
};

#define REPORT_COMPACT_COLUMNS 100

struct report;

/*
 * Start the reports of a sweep of `total_points` points: prints the table's header, creates
 * the CSV file with its header line and a JSON file with no points yet. NULL (and nothing
 * left open) if a file cannot be written, or if the JSON's name exists and is not a regular
 * file (a device or a pipe would be replaced by the rename); the error names the file.
 */
struct report *report_open(const struct report_options *options, guint total_points,
                           GError **error);

/* One finished point: prints its table row at once, appends the CSV row (whole or not at all),
 * rewrites the JSON file (write to FILE.tmp, then rename, so the file is always complete,
 * valid JSON); an interrupted or failing sweep keeps every finished point. FALSE (the first
 * error) if an output could not be written; the others still got the point, and a CSV that
 * failed once takes no later row. */
gboolean report_add(struct report *report, const struct run_point *point,
                    const struct point_result *result, GError **error);

/* Ends the table with a summary line (points, ok, FAIL, errors, skipped) and the digest line
 * "digest sha256:<hex>"; returns the digest hex (caller frees). */
gchar *report_finish(struct report *report, GError **error);

/* Close the files (whatever was added stays in them) and erase the progress bar. */
void report_free(struct report *report);

/* The number of points whose check was FAIL or ERROR so far (collsim run's exit code). */
guint report_failures(const struct report *report);

/*
 * What the digest covers, for a caller that compares runs point by point (collsim check):
 * the canonical text of one point — its CSV line without wall_s, then, for a program, its
 * output framed by its length — and the header line naming the CSV fields of that line (the
 * digest opens with it). Both byte-exact; caller frees.
 */
gchar *report_canonical_text(const struct run_point *point, const struct point_result *result);
gchar *report_canonical_header(void);

/*
 * The formats the table uses, public so that their boundaries are tested directly (caller
 * frees each string).
 *
 * Seconds in the largest of ns, us, ms, s that keeps the value at least 1, three decimals:
 * "999.000 ns", "1.000 us", "12.345 ms", "0.000 s"; a value that would round to 1000 of a
 * unit is written in the next one. "-" for NAN or infinity.
 */
gchar *report_format_seconds(double seconds);
/* Bytes in binary units: "1023 B", "1 KiB", "64 KiB", "1.5 MiB" (exact multiples without
 * decimals, others with one). */
gchar *report_format_bytes(guint64 bytes);
/* A double as the CSV writes it: exponent notation with the fewest digits that read back as
 * the same double ("" for NAN); `buf` of G_ASCII_DTOSTR_BUF_SIZE bytes. */
void report_format_double_exact(double value, char *buf, gsize size);
/* The progress bar's text without the leading "\r": "[#####-----...] 12/40 points  0:12
 * elapsed  ~0:30 left" (no estimate before the first point). */
gchar *report_format_progress(guint done, guint total, double elapsed_seconds);

#endif
