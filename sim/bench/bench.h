/*
 * bench.h — the built-in benchmark program: one collective call, timed and checked.
 *
 * `collsim run` simulates every point of a sweep in a fresh child process; in that child
 * bench_run_point() runs the whole simulation of the point. Results are checked against a
 * sequential reference that folds the ranks' contributions in rank order, on inputs chosen so
 * that every order of a legal reduction gives the same exact result (small integers in
 * floating point, unit values for products), so a difference is a real error, never rounding.
 * A point with order-sensitive inputs (sums on float or double, sim/bench/bench_inputs.h) is
 * measured instead: every result against the correctly rounded exact sum (sim/bench/exact_sum.h),
 * in the result's max_ulps, max_rel_error, identical and results_sha256.
 */
#ifndef COLLSIM_SIM_BENCH_H
#define COLLSIM_SIM_BENCH_H

#include <glib.h>

#include "sim/bench/point.h"

/* Size in bytes of one element of the named datatype ("double", "int", "double_int", ...;
 * the names `collsim list ops` prints). FALSE if the name is unknown. */
gboolean bench_datatype_size(const char *name, gsize *size);

/*
 * Everything about a point that can be judged before anything runs: the datatype and the op
 * exist and are legal together (MPI's op x type table; complex_prod wants a complex type,
 * smod5 an integer one, the witnesses their own type), the algorithm exists for the
 * collective, the root is one of the ranks, MPI_IN_PLACE is allowed for the collective,
 * the size is a whole number of elements that fits an int count, a plugin op loads.
 * NULL if the point is fine; otherwise a message (caller frees) and *key names the scenario
 * key at fault: "datatype", "op", "algorithms", "root", "in_place", "sizes", "program",
 * "inputs" (order-sensitive inputs off a float/double sum), and "ranks" (fewer than one) or
 * "iterations" (no timed call, negative warm-up). The algorithm may be "reproducible".
 */
gchar *bench_point_invalid(const struct run_point *point, const char **key);

/*
 * Run the point as this process's one simulation (SimGrid cannot start twice in a process)
 * and fill `result` (cleared first). Never exits: a simulation that ends badly gives
 * result->exit_code != 0 and check POINT_CHECK_ERROR with the reason in check_detail.
 */
void bench_run_point(const struct run_point *point, struct point_result *result);

/* Load SimGrid in this process if the point's run will need it, so that the points forked
 * from it inherit it (sim_engine_preload). */
void bench_preload(const struct run_point *point);

/* What `collsim list` shows. */
struct bench_name {
    const char *name;
    const char *summary;
};
const struct bench_name *bench_datatypes(gsize *count);
const struct bench_name *bench_ops(gsize *count);

#endif
