/*
 * bench_inputs.h — the inputs of the benchmark's accuracy measurement (key [run] inputs):
 * sums on float or double whose result depends on the order of the additions.
 *
 * Like every benchmark input, a value is a pure function of (inputs, seed, rank, element,
 * and for `cancellation` the number of ranks), so the reference regenerates any rank's
 * contribution after the run without keeping it:
 *
 *   cancellation  element i, s = (-1)^i, H = 1e16 for double and 1e8 for float, u = ulp(H)
 *                 (2 for double, 8 for float):
 *                   rank 0:               s·H
 *                   rank P-1 (P >= 2):    -s·H
 *                   ranks 1 .. P-2:       u·(1 + (3·rank + i) mod 8) / 8
 *                 The exact sum is the sum of the small values (0 for P <= 2); every small
 *                 value added to ±H alone is rounded to a multiple of u, so an order that
 *                 meets H early loses them and one that sums them first keeps them.
 *   random:SEED   uniform in [-1, 1): g_rand_double_range(-1, 1) from a GRand seeded with
 *                 the array {SEED, rank}, element i being the (i+1)-th draw (float: that
 *                 double rounded to float). Independent of P.
 */
#ifndef COLLSIM_SIM_BENCH_INPUTS_H
#define COLLSIM_SIM_BENCH_INPUTS_H

#include <glib.h>

#include "sim/bench/bench_ops.h"
#include "sim/bench/point.h"

#define BENCH_INPUTS_CANCELLATION_DOUBLE 1e16
#define BENCH_INPUTS_CANCELLATION_FLOAT 1e8f

/* "exact", "cancellation", "random:SEED" (SEED 0 .. 4294967295). FALSE and *why (caller frees)
 * for anything else. */
gboolean bench_inputs_parse(const char *text, enum point_inputs *inputs, guint32 *seed,
                            gchar **why);
/* The text form bench_inputs_parse reads back (caller frees). */
gchar *bench_inputs_name(enum point_inputs inputs, guint32 seed);

/* Whether the inputs can serve a point: NULL, or why not (caller frees). Non-exact inputs
 * need a reduction with op sum on float or double. */
gchar *bench_inputs_invalid(const struct run_point *point);

/* Write items [first, first + count) of rank's non-exact input to buf (float or double). */
void bench_inputs_fill(const struct bench_datatype *type, enum point_inputs inputs, guint32 seed,
                       int rank, int nranks, guint64 first, gsize count, void *buf);

#endif
