/*
 * point.h — one point of a scenario's sweep, and what running it produced.
 *
 * A scenario (sim/scenario/scenario.c) expands into points; `collsim run` runs each point as a
 * fresh simulation in a child process (sim/bench/bench.c) and hands the results to the reports
 * (sim/report/report.c). A point is either a built-in benchmark of one collective
 * (program == NULL) or a user MPI program run on `nranks` ranks.
 *
 * What `bytes` means per collective is model_predict.h's table: the whole buffer for bcast and
 * the reductions (reduce_scatter(_block): the whole vector each rank contributes), one rank's
 * block for gather(v)/scatter(v)/allgather(v), the block sent to one destination for
 * alltoall(v,w); ignored by barrier. count = bytes / size of the datatype.
 */
#ifndef COLLSIM_SIM_POINT_H
#define COLLSIM_SIM_POINT_H

#include <glib.h>

#include "sim/engine/engine.h"
#include "src/coll/coll.h"

/* The inputs of a sum's accuracy measurement (scenarios/README.md, key [run] inputs). */
enum point_inputs {
    POINT_INPUTS_EXACT,        /* every order gives the same result: checked ok/FAIL */
    POINT_INPUTS_CANCELLATION, /* one huge value cancelled by another, small ones between */
    POINT_INPUTS_RANDOM,       /* uniform in [-1, 1) from GRand seeded with (seed, rank) */
};

struct run_point {
    guint index;                /* position in the sweep, from 0 */

    /* where */
    gchar *platform;            /* platform file; NULL = the generated cluster of nranks hosts */
    enum sim_placement placement;
    guint64 placement_seed;     /* random:SEED */
    gchar *placement_file;      /* hostfile:FILE, resolved */
    gboolean oversubscribe;
    const struct model_network *network; /* the preset (static table): links, SimGrid model */
    gchar *network_model;       /* SimGrid network/model overriding the preset's, or NULL */
    struct model_transport transport;
    int nranks;

    /* what: a user program ... */
    gchar *program;             /* path of an MPI program (.so) or NULL */
    gchar **program_args;       /* its arguments after argv[0], or NULL */
    gchar *expected_output;     /* file the program's stdout must equal, or NULL */

    /* ... or one collective */
    enum coll_kind kind;
    gchar *algorithm;           /* registry name, or NULL for the default decision table */
    struct coll_params params;  /* 0 fields = the registry row's defaults */
    guint64 bytes;
    int count;                  /* elements of `datatype` (see above) */
    gchar *datatype;            /* basic type name as `collsim list ops` spells it: "double" */
    gchar *op;                  /* "sum", "complex_prod", "smod5", "witness_matrix",
                                   "plugin:FILE.so:symbol"; NULL for data movement */
    gboolean commutative;       /* user ops: the flag given to MPI_Op_create */
    int root;
    gboolean in_place;
    enum sim_payload payload;
    enum sim_engine_choice engine; /* the core that runs it (both give the same times) */
    double wall_limit;          /* real seconds it may take (0: no limit): then it is an ERROR */
    int iterations;             /* timed calls, >= 1 */
    int warmup;                 /* untimed calls before them, >= 0 */
    gboolean check;             /* compare results with the sequential reference (data mode) */
    enum point_inputs inputs;   /* non-exact: sum on float/double only; measured, not compared */
    guint32 inputs_seed;        /* POINT_INPUTS_RANDOM */
};

void run_point_free(struct run_point *point);
struct run_point *run_point_copy(const struct run_point *point);

enum point_check {
    POINT_CHECK_OK,
    POINT_CHECK_FAIL,           /* a result differs from the reference */
    POINT_CHECK_SKIPPED,        /* payload none, or checks turned off */
    POINT_CHECK_ERROR,          /* the simulation ended badly (exit_code != 0) */
};

/* Whether every rank of an Allreduce holds the same bits (zero: not measured). */
enum point_identity {
    POINT_IDENTITY_NOT_MEASURED,
    POINT_IDENTITY_IDENTICAL,
    POINT_IDENTITY_DIFFERENT,
};

struct point_result {
    int exit_code;              /* of the simulation: 0, or an engine/MPI exit code */
    gchar *served;              /* algorithm that served the timed calls ("" for programs) */
    gchar *fallback_reason;     /* why the requested algorithm could not serve, or NULL */
    double time_max;            /* simulated seconds per timed call: slowest rank */
    double time_min;            /* fastest rank */
    double time_mean;           /* mean over ranks */
    guint64 messages;           /* point-to-point messages per timed call, all ranks */
    guint64 bytes_moved;        /* their payload bytes */
    enum point_check check;
    gchar *check_detail;        /* first difference ("rank 3 element 17: got 5, expected 6"),
                                   the error's message, or NULL */
    double predicted;           /* analytic prediction in seconds, or NAN */
    /* Accuracy of a sum on non-exact inputs (NAN, NOT_MEASURED, NULL when not measured): over
     * every defined result element of every rank, the largest error against the correctly
     * rounded exact sum, in ulps of that value and relative (sim/bench/exact_sum.h defines
     * both). */
    double max_ulps;
    double max_rel_error;
    enum point_identity identical; /* allreduce only */
    gchar *results_sha256;         /* SHA-256 of the measured result elements' bytes, rank order */
    gchar *output;              /* a program's standard output, or NULL */
    double wall_seconds;        /* not part of any digest */
};

/* Free the strings and reset every field (predicted, max_ulps, max_rel_error = NAN). */
void point_result_clear(struct point_result *result);

/* The result as bytes (child -> parent), and back; FALSE for bytes that are not a result. */
GBytes *point_result_serialize(const struct point_result *result);
gboolean point_result_deserialize(GBytes *bytes, struct point_result *result);

#endif
