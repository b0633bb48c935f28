/*
 * tune_rules.h — the tuning files `collsim tune` writes for real MPI libraries, and collsim's own
 * readers of those formats, which answer "which algorithm would the library pick from this file
 * for (collective, P, size)?".
 *
 *   Open MPI: a coll_tuned dynamic rules file, classic format (tune_ompi.c), used with
 *     mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE
 *     Format: docs.open-mpi.org, "Tuning Collectives" > "Dynamic Decisions and the Rules File"
 *     (docs/tuning-apps/coll-tuned.rst), read by ompi/mca/coll/tuned/coll_tuned_dynamic_file.c.
 *   MPICH: a collective selection JSON file (tune_mpich.c), used with
 *     MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE=FILE
 *     Format: doc/mpich/tuning_parameters.md, section 2.1, read by src/mpi/coll/src/csel.c.
 *
 * The size a library compares is not collsim's `bytes` for every collective; the functions
 * below compute, from collsim's (P, bytes, element size), the exact quantity each library's
 * selection code computes for that collective (each case cites the line of the library).
 *
 * How measured points become rules (the same for both libraries): for each collective, the
 * measured rank counts P1 < P2 < ... each own the range [Pi, Pi+1 - 1] (P1's also reaches down to
 * 1, the last's up to any size); within a rank count, the measured sizes s1 < s2 < ..., keyed by
 * the library's size k(s), each start a rule at k(si) whose algorithm is the one measured
 * fastest (among the library's) at si, running up to k(si+1) - 1; the first rule reaches down
 * to 0 and the last up to any size. A rule whose algorithm is the same as the one before is
 * merged into it. Two measured sizes with the same key (a library that does not look at the
 * count for that collective) cannot be told apart: the smaller size's winner serves both.
 */
#ifndef COLLSIM_SIM_TUNE_RULES_H
#define COLLSIM_SIM_TUNE_RULES_H

#include <glib.h>

#include "sim/tune/tune_table.h"

#define TUNE_RULES_ERROR (tune_rules_error_quark())
GQuark tune_rules_error_quark(void);
enum {
    TUNE_RULES_ERROR_READ,   /* the file cannot be read or written */
    TUNE_RULES_ERROR_SYNTAX, /* not the library's format: FILE:LINE:COLUMN or the JSON path */
};

/* What a written file is made from: the sweep's table, the mapping, and a line saying where
 * the times come from (the platform and network, for the file's comments). */
struct tune_rules_source {
    const struct tune_table *table;
    const struct tune_mapping *mapping;
    const char *origin; /* e.g. "collsim tune --platform fattree:... (collsim 1.0)" */
};

/* ---------------------------------------------------------------- Open MPI */

/* coll_tuned's collective id (ompi/mca/coll/base/coll_base_functions.h, COLLTYPE_T), or -1 for
 * a collective whose coll_tuned has no dynamic rules (gatherv, scatterv, alltoallw). */
int tune_ompi_collective_id(enum coll_kind kind);
/* The message size ompi_coll_tuned_<coll>_intra_dec_dynamic computes for the call. */
guint64 tune_ompi_message_size(enum coll_kind kind, int nranks, guint64 bytes, guint type_size);

/* Write the rules file; FALSE with an error if no collective of the table has an Open MPI
 * algorithm, or the file cannot be written. */
gboolean tune_ompi_write(const struct tune_rules_source *source, const char *path, GError **error);

struct tune_ompi_rules;
/* Parse `text` (`name` in messages) strictly: whole numbers and # comments only, every count
 * honoured, a first message rule of size 0, comm sizes and message sizes ascending. */
struct tune_ompi_rules *tune_ompi_parse(const char *text, const char *name, GError **error);
struct tune_ompi_rules *tune_ompi_load(const char *path, GError **error);
void tune_ompi_rules_free(struct tune_ompi_rules *rules);

struct tune_ompi_choice {
    int algorithm; /* 0: the file sends the call back to Open MPI's fixed decision */
    int faninout;
    int segsize;
    int max_requests; /* -1 when the rule does not give it (format version 1) */
};
/* What coll_tuned picks from the file for collective `collective_id`, communicator size
 * `comm_size`, message size `message_size` (as tune_ompi_message_size computes it); FALSE when
 * the file has no rule for that collective (Open MPI then uses its fixed decision). */
gboolean tune_ompi_lookup(const struct tune_ompi_rules *rules, int collective_id, int comm_size,
                          guint64 message_size, struct tune_ompi_choice *choice);

/* ---------------------------------------------------------------- MPICH */

/* The collective's name in "collective=NAME", or NULL. */
const char *tune_mpich_collective(enum coll_kind kind);
/* The csel.c key this collective is selected on ("avg_msg_size", "total_msg_size"), or NULL
 * for a collective whose size csel.c does not compute (barrier, gatherv, scatterv, scan,
 * exscan): its rules then depend on the communicator size only. */
const char *tune_mpich_size_key(enum coll_kind kind);
/* The value csel.c's get_avg_msgsize / get_total_msgsize computes for the call (0 without a
 * key). */
guint64 tune_mpich_message_size(enum coll_kind kind, int nranks, guint64 bytes, guint type_size);

gboolean tune_mpich_write(const struct tune_rules_source *source, const char *path, GError **error);

struct tune_mpich_rules;
/* Parse with json-glib; every key must be one csel.c knows. Errors name the line and column
 * (syntax) or the path of keys (an unknown key). */
struct tune_mpich_rules *tune_mpich_parse(const char *text, const char *name, GError **error);
struct tune_mpich_rules *tune_mpich_load(const char *path, GError **error);
void tune_mpich_rules_free(struct tune_mpich_rules *rules);

/* The call csel.c would search with. Keys the reader cannot know (hierarchy, node layout,
 * threads) are taken as: one process per node, no hierarchy, single-threaded, an intra-
 * communicator. */
struct tune_mpich_call {
    enum coll_kind kind;
    int comm_size;
    guint64 bytes;
    guint type_size;
    gboolean commutative;
    gboolean in_place;
};
/* The algorithm name MPICH would pick ("MPIR_Bcast_intra_binomial"; for a "composition=" leaf,
 * that text), or NULL when no leaf matches (MPICH would assert: its search has no fallback). */
const char *tune_mpich_lookup(const struct tune_mpich_rules *rules,
                              const struct tune_mpich_call *call);

#endif
