/*
 * coll_decision.h — a library's default decision as data: the reader of
 * models/decisions/<lib>.rules (Open MPI, MPICH, MVAPICH2, Intel MPI, or any FILE.rules), and
 * the questions it answers. It lives in src/, not src/coll/: it reads files with GLib, while
 * src/coll/ keeps to standard MPI so that it compiles against a real MPI library.
 *
 * A file names its library and version, then has one section per collective:
 *
 *     library = Open MPI
 *     version = 5.0.9, coll_tuned fixed decision functions
 *     source = ompi/mca/coll/tuned/coll_tuned_decision_fixed.c
 *
 *     [allreduce]
 *     algorithm 3 recursive_doubling = recursive_doubling
 *     algorithm 5 segmented_ring = ring_segmented segment_bytes=65536
 *     rule ranks <= 4, bytes < 8192 => recursive_doubling
 *     rule commutative, total_bytes >= 1048576 => segmented_ring segment_bytes=131072
 *     rule => segmented_ring
 *
 * `algorithm ID SHORT = COLLSIM [segment_bytes=B] [radix=K]` is the library's catalogue: its
 * identifier in its own tuning files, a short name, and the collsim registry algorithm (with
 * parameters) that runs it. `rule CONDITIONS => SHORT|ID [params]`: the decision, first match
 * wins, the last rule of a section has no condition. Conditions, joined by ",": `ranks OP N`,
 * `bytes OP N`, `total_bytes OP N` (bytes × ranks), `block_bytes OP N` (bytes / ranks, rounded
 * down: Reduce_scatter_block's one block), `count OP N` (OP one of < <= > >= ==),
 * `commutative`, `noncommutative`, `pof2`, `not_pof2`, `count_below_pof2` (count is less than the
 * largest power of two <= ranks: MPICH's `count<pow2`), `count_below_ranks`. `bytes` is
 * coll_call.bytes.
 *
 * Invariants of a loaded decision: every section has at least one catalogue entry and ends
 * with an unconditional rule; every rule names an entry of its own section; no two sections of
 * one collective, no two entries with one id or short name. Every error found while reading is
 * one line `FILE:LINE: what is wrong`.
 *
 * Catalogue entries naming a collsim algorithm this build's registry lacks are an error under
 * COLL_DECISION_STRICT; without it they load with `row == NULL` (a choice of theirs is served
 * by collsim's fallback, and coll_decision_unresolved() lists them), so that a library's whole
 * table reads even in a build with fewer algorithms.
 */
#ifndef COLLSIM_COLL_DECISION_H
#define COLLSIM_COLL_DECISION_H

#include <glib.h>

#include "coll/coll_select.h"

#define COLL_DECISION_ERROR (coll_decision_error_quark())
GQuark coll_decision_error_quark(void);
enum {
    COLL_DECISION_ERROR_READ,    /* the file cannot be read, or the library is unknown */
    COLL_DECISION_ERROR_SYNTAX,  /* a malformed line, an unknown name or a broken invariant */
};

enum coll_decision_flags {
    COLL_DECISION_STRICT = 1 << 0, /* an unknown collsim algorithm is an error */
};

/* The name `--decision` takes for collsim's own rules (the kinds' default decision). */
#define COLL_DECISION_COLLSIM "collsim"

/* One catalogue entry: `algorithm ID SHORT = COLLSIM [params]`. */
struct coll_decision_entry {
    gchar *id;                        /* "3", "MPIR_Allreduce_intra_recursive_doubling" */
    gchar *short_name;                /* "recursive_doubling" */
    gchar *collsim;                   /* the registry name */
    struct coll_params params;        /* 0 fields: the row's defaults */
    int line;
    const struct coll_algorithm *row; /* NULL: not in this build (lenient load only) */
};

enum coll_decision_variable { COLL_DECISION_RANKS, COLL_DECISION_BYTES, COLL_DECISION_TOTAL,
                              COLL_DECISION_COUNT, COLL_DECISION_BLOCK };
enum coll_decision_relation { COLL_DECISION_LT, COLL_DECISION_LE, COLL_DECISION_GT,
                              COLL_DECISION_GE, COLL_DECISION_EQ };
enum coll_decision_flag_condition {
    COLL_DECISION_IF_COMMUTATIVE = 1 << 0,
    COLL_DECISION_IF_NONCOMMUTATIVE = 1 << 1,
    COLL_DECISION_IF_POF2 = 1 << 2,
    COLL_DECISION_IF_NOT_POF2 = 1 << 3,
    COLL_DECISION_IF_COUNT_BELOW_POF2 = 1 << 4,
    COLL_DECISION_IF_COUNT_BELOW_RANKS = 1 << 5,
};

struct coll_decision_condition {
    enum coll_decision_variable variable;
    enum coll_decision_relation relation;
    guint64 value;
};

/* One rule: `rule CONDITIONS => NAME [params]`. */
struct coll_decision_rule {
    int line;
    gchar *text;                      /* the line as written, trimmed */
    unsigned flags;                   /* enum coll_decision_flag_condition */
    GArray *conditions;               /* struct coll_decision_condition */
    const struct coll_decision_entry *entry;
    struct coll_params params;        /* overrides of the entry's (0: none) */
};

struct coll_decision_section {
    enum coll_kind kind;
    int line;
    GPtrArray *entries;               /* struct coll_decision_entry *, file order */
    GPtrArray *rules;                 /* struct coll_decision_rule *, file order */
};

struct coll_decision {
    gchar *path;
    gchar *name;                      /* "ompi" for ompi.rules */
    gchar *library;                   /* "Open MPI" */
    gchar *version;
    gchar *source;                    /* or NULL */
    struct coll_decision_section *sections[COLL_KIND_COUNT]; /* NULL: no section */
    GPtrArray *unresolved;            /* "FILE:LINE: ..." texts of entries with row == NULL */
};

/* What a decision answers for one call. */
struct coll_decision_choice {
    const struct coll_decision_rule *rule;
    const struct coll_decision_entry *entry;
    const struct coll_algorithm *row; /* entry->row: NULL when not in this build */
    struct coll_params params;        /* the row's defaults, the entry's, then the rule's */
};

/* Read and check `path`. NULL with one `FILE:LINE: ...` line in `error` on the first fault. */
struct coll_decision *coll_decision_load(const char *path, unsigned flags, GError **error);
void coll_decision_free(struct coll_decision *decision);

/*
 * Where a library's file is: `spec` is a library name ("ompi", "mpich", "mvapich2", "impi":
 * $(pkgdatadir)/decisions/NAME.rules, or the source tree's models/decisions when collsim runs
 * uninstalled) or a path ending in ".rules". A new string, or NULL with `error` set.
 */
gchar *coll_decision_find(const char *spec, GError **error);
/* coll_decision_find then coll_decision_load. */
struct coll_decision *coll_decision_open(const char *spec, unsigned flags, GError **error);
/* The directory of the libraries' files (installed, else the source tree's). */
const char *coll_decision_dir(void);
/* The library names with a file in coll_decision_dir(), sorted (free with g_strfreev). */
gchar **coll_decision_libraries(void);
/* Whether `name` is one of them ("ompi", ...): a scenario's algorithm entry may name one. */
gboolean coll_decision_is_library(const char *name);

/*
 * The choice of `decision` for `call`: the first rule of the call's kind that matches. FALSE
 * when the file has no section for the kind (collsim's own rules then decide).
 */
gboolean coll_decision_choose(const struct coll_decision *decision, const struct coll_call *call,
                              struct coll_decision_choice *choice);
/* Whether `call` meets every condition of `rule`. */
gboolean coll_decision_rule_matches(const struct coll_decision_rule *rule,
                                    const struct coll_call *call);

/*
 * The catalogue, both ways (for writers of the libraries' tuning files, e.g. collsim tune):
 * the library id of the first entry of `kind` run by collsim algorithm `collsim_name` (when
 * `params` is not NULL, an entry whose explicit parameters equal its non-zero fields is
 * preferred), or NULL if the library has none; and the entry of a library id or short name.
 */
const char *coll_decision_library_id(const struct coll_decision *decision, enum coll_kind kind,
                                     const char *collsim_name, const struct coll_params *params);
const struct coll_decision_entry *coll_decision_entry_find(const struct coll_decision *decision,
                                                           enum coll_kind kind,
                                                           const char *id_or_short_name);
/* The collsim algorithm that runs library id `library_id` of `kind`, or NULL. */
const char *coll_decision_collsim_name(const struct coll_decision *decision, enum coll_kind kind,
                                       const char *library_id);

/* "ranks < 4, bytes < 8192" in the file's words, or "otherwise" for the unconditional rule. */
gchar *coll_decision_rule_conditions(const struct coll_decision_rule *rule);

#endif
