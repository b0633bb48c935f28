/*
 * tune_table.h — what `collsim tune` measured: for each (collective, P, size) the simulated time
 * of every registry algorithm that served the call, and the fastest among them, over all of
 * collsim's algorithms or over those one MPI library has (through an injected mapping).
 *
 * Invariants: points are kept sorted by (collective in registry order, P, bytes); the candidates
 * of a point in registry order (the order `collsim tune` runs them). The fastest is the smallest
 * time, the slowest rank's (time_max, as in the run report); a tie goes to the candidate that
 * comes first in registry order, so the choice is deterministic.
 */
#ifndef COLLSIM_SIM_TUNE_TABLE_H
#define COLLSIM_SIM_TUNE_TABLE_H

#include <glib.h>

#include "src/coll/coll.h"

/* The libraries whose tuning files `collsim tune` writes. */
enum tune_library {
    TUNE_LIBRARY_OMPI,  /* Open MPI coll_tuned dynamic rules (tune_ompi.c) */
    TUNE_LIBRARY_MPICH, /* MPICH collective selection JSON (tune_mpich.c) */
    TUNE_LIBRARY_COUNT
};

/* "ompi" / "mpich" (CSV column names, messages). */
const char *tune_library_name(enum tune_library library);

/*
 * The link between collsim's algorithms and a library's own identifiers, injected so that the
 * writers and readers hold no table of library ids (the libraries' catalogues live in the
 * decision files, src/coll_decision.h). The identifier is the one the library's tuning file
 * uses: Open MPI, the coll_tuned algorithm number in decimal ("3"); MPICH, the JSON algorithm
 * name ("MPIR_Allreduce_intra_recursive_doubling").
 */
struct tune_mapping {
    /* The library's identifier of collsim's algorithm `algorithm` of `kind`, or NULL when the
     * library has no such algorithm. */
    const char *(*library_id)(enum tune_library library, enum coll_kind kind, const char *algorithm,
                              gpointer data);
    /* Back: the collsim algorithm (registry name) the library's `id` runs, or NULL. */
    const char *(*collsim_name)(enum tune_library library, enum coll_kind kind, const char *id,
                                gpointer data);
    gpointer data;
};

struct tune_candidate {
    gchar *algorithm; /* registry name */
    double time;      /* seconds, slowest rank */
};

struct tune_point {
    enum coll_kind kind;
    int nranks;
    guint64 bytes;      /* collsim's bytes of the call (model_predict.h); 0 for a barrier */
    guint type_size;    /* bytes of one element of the datatype the sweep used */
    GArray *candidates; /* struct tune_candidate, registry order */
};

struct tune_table {
    GPtrArray *points; /* struct tune_point *, sorted (see above) */
};

struct tune_table *tune_table_new(void);
void tune_table_free(struct tune_table *table);

/* Record `algorithm`'s time at (kind, P, bytes); calls for one point must come in registry
 * order. */
void tune_table_add(struct tune_table *table, enum coll_kind kind, int nranks, guint64 bytes,
                    guint type_size, const char *algorithm, double time);
/* Sort the points (after the last tune_table_add). */
void tune_table_finish(struct tune_table *table);

/* The fastest candidate of `point`, or NULL if it has none. With `library` < TUNE_LIBRARY_COUNT
 * and a mapping, only the candidates that library has (mapping->library_id not NULL) compete;
 * with library == TUNE_LIBRARY_COUNT (or mapping NULL) all do. For Open MPI only ids that are
 * numbers compete (its file names coll_tuned algorithms by number). `second` (or NULL) receives the
 * runner-up among the same, or NULL. */
const struct tune_candidate *tune_point_fastest(const struct tune_point *point,
                                                enum tune_library library,
                                                const struct tune_mapping *mapping,
                                                const struct tune_candidate **second);

/* The point (kind, P, bytes), or NULL. */
const struct tune_point *tune_table_find(const struct tune_table *table, enum coll_kind kind,
                                         int nranks, guint64 bytes);

/*
 * The table as the CSV `collsim tune` writes beside the winners (PREFIX-times.csv): a header
 * "collective,ranks,bytes,type_size,algorithm,time_s", then one row per candidate. Loading it
 * back gives the same table (the tests rebuild the rules files from it).
 */
gboolean tune_table_write_times(const struct tune_table *table, const char *path, GError **error);
struct tune_table *tune_table_load_times(const char *path, GError **error);

#endif
