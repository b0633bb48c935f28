/*
 * exact_sum.h — the exact sum of floating-point numbers, rounded once, and the error of a
 * computed sum against it.
 *
 * The accuracy reports of the benchmark (inputs other than `exact`, sim/bench/bench.c) compare what
 * each rank holds with the correctly rounded value of the exact sum of the contributions.
 * An exact_sum keeps that exact value as Shewchuk's non-overlapping expansion (the `msum`
 * behind Python's math.fsum): a short list of doubles, increasing in magnitude, whose
 * mathematical sum is exactly the sum of everything added so far. Adding is O(length of the
 * list), which stays small (a few entries) for the benchmark's inputs.
 *
 * Limits: the inputs are finite and no partial sum exceeds the double range. A non-finite
 * input makes the result the IEEE sum of the non-finite inputs (inf, -inf or NaN); an
 * overflowing partial sum makes it NaN.
 */
#ifndef COLLSIM_SIM_EXACT_SUM_H
#define COLLSIM_SIM_EXACT_SUM_H

#include <glib.h>

#define EXACT_SUM_INLINE 4

struct exact_sum {
    double *partials; /* inline_partials, or a heap array once the list outgrows it */
    guint length;
    guint capacity;
    double special;    /* sum of the non-finite inputs, 0 if none */
    gboolean overflow; /* a partial sum left the double range */
    double inline_partials[EXACT_SUM_INLINE];
};

void exact_sum_init(struct exact_sum *sum);
void exact_sum_clear(struct exact_sum *sum);
void exact_sum_add(struct exact_sum *sum, double x);

/* The exact sum rounded to the nearest double, ties to even (the sum stays usable). */
double exact_sum_double(const struct exact_sum *sum);
/* The exact sum rounded to the nearest float, ties to even: once, not through a double. */
float exact_sum_float(const struct exact_sum *sum);

/*
 * The unit in the last place of a correctly rounded value y of the type: the gap between |y|
 * and the next representable value away from zero (for the largest finite value, the gap
 * below it). ulp(0) is the smallest subnormal; at a power of two the gap above counts.
 */
double exact_sum_ulp_double(double y);
double exact_sum_ulp_float(float y);

/*
 * Error of `got` against the correctly rounded reference `ref` (both of the type):
 * ulps = |got - ref| / ulp(ref), relative = |got - ref| / |ref| (0 if got == ref, +inf if
 * ref == 0 and got is not). |got - ref| is computed in double (exact for floats; for doubles
 * rounded once, which cannot change a reported figure's leading digits). A non-finite got
 * gives +inf or NaN.
 */
void exact_sum_error_double(double got, double ref, double *ulps, double *relative);
void exact_sum_error_float(float got, float ref, double *ulps, double *relative);

#endif
