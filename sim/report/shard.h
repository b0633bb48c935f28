/*
 * shard.h — `collsim run FILE.ini --shard I/N` and `collsim merge`: a sweep cut into N
 * deterministic slices that run as separate processes (on one machine or many), and the
 * shards' CSV or JSON files joined back into exactly what the unsharded run writes.
 *
 * Invariants: a point belongs to exactly one shard, chosen by its index in the scenario's own
 * order and nothing else (index k goes to shard k mod N + 1, round robin, so a sweep ordered by
 * growing P spreads its dear points over every shard); every shard file names its slice I/N,
 * the number of points of the whole sweep, a SHA-256 of the scenario (file and --set
 * overrides) and the collsim that wrote it, and ends with the digest of its own points, so a
 * merge refuses shards that are missing, repeated, cut short or from another scenario or
 * binary, naming them, before it writes anything. The layouts are in scenarios/slurm/README.md.
 */
#ifndef COLLSIM_SIM_SHARD_H
#define COLLSIM_SIM_SHARD_H

#include <glib.h>

#define SHARD_ERROR (shard_error_quark())
GQuark shard_error_quark(void);

enum shard_error_code {
    SHARD_ERROR_SPEC,      /* a bad I/N */
    SHARD_ERROR_READ,      /* a shard file that cannot be read or is not a shard */
    SHARD_ERROR_MISMATCH,  /* shards of different sweeps, scenarios, binaries or formats */
    SHARD_ERROR_MISSING,   /* a slice without its shard, or a shard missing points */
    SHARD_ERROR_DUPLICATE, /* a slice given twice */
};

/* Slice `index` (1 .. count) of `count`. */
struct shard_spec {
    guint index;
    guint count;
};

/*
 * Parse "I/N" (decimal, 1 <= I <= N, no sign, no spaces). FALSE with an error (SHARD_ERROR_SPEC)
 * saying what is wrong and what a good value looks like.
 */
gboolean shard_spec_parse(const char *text, struct shard_spec *spec, GError **error);

/* Whether the point at `point_index` (from 0, sweep order) belongs to `spec`'s slice. */
gboolean shard_spec_contains(const struct shard_spec *spec, guint point_index);

/* How many of `total` points the slice holds (0 when N exceeds the points). */
guint shard_spec_size(const struct shard_spec *spec, guint total);

/*
 * The file a shard writes for an output the scenario names ([output] csv/json), which every
 * shard shares: ".shard-I-of-N" before the extension ("out/r.csv" -> "out/r.shard-2-of-3.csv",
 * "r" -> "r.shard-2-of-3"). Caller frees.
 */
gchar *shard_output_path(const char *path, const struct shard_spec *spec);

/* What a shard says about itself, in its CSV first line and its JSON "shard" member. */
struct shard_identity {
    struct shard_spec spec;
    guint total_points;     /* of the whole sweep */
    gchar *scenario;        /* [scenario] name, or NULL */
    gchar *scenario_sha256; /* shard_scenario_sha256 */
    gchar *binary;          /* shard_binary_id */
};

void shard_identity_clear(struct shard_identity *identity);

struct scenario;

/*
 * The identity of slice `spec` of `scenario` as loaded from its file with `overrides` (the
 * --set values, in order). FALSE with an error if the scenario file cannot be read again.
 */
gboolean shard_identity_init(struct shard_identity *identity, const struct shard_spec *spec,
                             const struct scenario *scenario, const char *const *overrides,
                             GError **error);

/* The points of `points` (struct run_point *, sweep order) in `spec`'s slice, in order; the
 * array borrows them. */
GPtrArray *shard_select_points(const GPtrArray *points, const struct shard_spec *spec);

/*
 * SHA-256 (hex) of what defines the sweep: the scenario file's bytes and the --set overrides in
 * order. Caller frees; NULL with an error if the file cannot be read.
 */
gchar *shard_scenario_sha256(const char *path, const char *const *overrides, GError **error);

/*
 * The collsim that runs: "VERSION sha256:HEX", HEX over the bytes of the library holding the
 * simulator (libcollsim) and of the executable, so shards of two builds are told apart. Caller
 * frees.
 */
gchar *shard_binary_id(void);

/* The CSV first line of a shard (with its newline); caller frees. */
gchar *shard_csv_first_line(const struct shard_identity *identity);
/* The CSV last line, written once every point of the shard is in (with its newline). */
gchar *shard_csv_last_line(const struct shard_identity *identity, guint points,
                           const char *digest_hex);
/* The line after a program's row carrying its output (NULL for none), which the digest covers
 * but the CSV row does not. */
gchar *shard_csv_output_line(guint point_index, const char *output);

/* ---------------------------------------------------------------- merging */

enum shard_format { SHARD_FORMAT_CSV, SHARD_FORMAT_JSON };

/* One point read back from a shard. */
struct shard_point {
    guint index;
    gchar *canonical;   /* what the digest covers (report_canonical_text) */
    gchar *csv_row;     /* CSV shards: the row as written, with its newline */
    gpointer json_node; /* JSON shards: the point's JsonNode (owned) */
    gchar *check;       /* "ok", "FAIL", "ERROR", "skipped" */
};

struct shard_file {
    gchar *path;
    enum shard_format format;
    struct shard_identity identity;
    gchar *csv_header; /* CSV: the column line, with its newline */
    GPtrArray *points; /* struct shard_point *, file order */
};

/*
 * Read a shard file (CSV or JSON, told by its first byte) and check it is whole: its first line
 * or "shard" member, every point of its slice exactly once and no other, and its digest of
 * those points. NULL with an error naming the file otherwise.
 */
struct shard_file *shard_file_read(const char *path, GError **error);
void shard_file_free(struct shard_file *file);

/* The sweep the shards join into: every point once, in index order. */
struct shard_merge {
    enum shard_format format;
    gchar *scenario;
    gchar *csv_header;
    GPtrArray *points; /* struct shard_point * borrowed from the files, index order */
    gchar *digest_hex; /* the digest the unsharded run prints */
    guint checks[4];   /* ok, FAIL, skipped, ERROR (enum point_check order) */
};

/*
 * Check that `files` are the N shards of one sweep (same format, scenario, binary, N and point
 * count; each slice once) and join them. FALSE with an error naming every missing slice, the
 * files of a repeated one, or the first file that disagrees with the first.
 */
gboolean shard_merge(struct shard_file *const *files, guint n_files, struct shard_merge *merge,
                     GError **error);
void shard_merge_clear(struct shard_merge *merge);

#endif
