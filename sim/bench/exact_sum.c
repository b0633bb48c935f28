/*
 * exact_sum.c — Shewchuk's exact summation (as CPython's math.fsum does it) and the error
 * measures of sim/bench/exact_sum.h.
 *
 * Invariant: the partials are non-overlapping, increasing in magnitude, none zero, and their
 * mathematical sum is exactly the sum of the finite inputs added so far. Every operation on
 * them is an error-free transformation (two-sum), which needs round-to-nearest doubles
 * without extended precision: the build is for x86-64 / aarch64 (SSE2 / IEEE doubles).
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "sim/bench/exact_sum.h"

void
exact_sum_init(struct exact_sum *sum)
{
    memset(sum, 0, sizeof *sum);
    sum->partials = sum->inline_partials;
    sum->capacity = EXACT_SUM_INLINE;
}

void
exact_sum_clear(struct exact_sum *sum)
{
    if (sum->partials != sum->inline_partials)
        g_free(sum->partials);
    exact_sum_init(sum);
}

static void
append_partial(struct exact_sum *sum, double x)
{
    if (sum->length == sum->capacity) {
        guint capacity = sum->capacity * 2;
        double *grown = g_new(double, capacity);
        memcpy(grown, sum->partials, sum->length * sizeof *grown);
        if (sum->partials != sum->inline_partials)
            g_free(sum->partials);
        sum->partials = grown;
        sum->capacity = capacity;
    }
    sum->partials[sum->length++] = x;
}

void
exact_sum_add(struct exact_sum *sum, double x)
{
    if (!isfinite(x)) {
        sum->special += x;
        return;
    }
    guint kept = 0;
    for (guint j = 0; j < sum->length; j++) {
        double y = sum->partials[j];
        if (fabs(x) < fabs(y)) {
            double t = x;
            x = y;
            y = t;
        }
        double hi = x + y;
        double lo = y - (hi - x);
        if (lo != 0.0)
            sum->partials[kept++] = lo;
        x = hi;
    }
    sum->length = kept;
    if (!isfinite(x))
        sum->overflow = TRUE;
    else if (x != 0.0)
        append_partial(sum, x);
}

double
exact_sum_double(const struct exact_sum *sum)
{
    if (sum->special != 0.0 || isnan(sum->special))
        return sum->special;
    if (sum->overflow)
        return NAN;
    const double *p = sum->partials;
    guint n = sum->length;
    double hi = 0.0, lo = 0.0;
    if (n == 0)
        return 0.0;
    /* from the largest partial down, until an addition is inexact */
    hi = p[--n];
    while (n > 0) {
        double x = hi, y = p[--n];
        hi = x + y;
        lo = y - (hi - x);
        if (lo != 0.0)
            break;
    }
    /* hi + lo is a tie that round-to-even settled; the partials below decide it instead */
    if (n > 0 && ((lo < 0.0 && p[n - 1] < 0.0) || (lo > 0.0 && p[n - 1] > 0.0))) {
        double y = lo * 2.0;
        double x = hi + y;
        if (x - hi == y)
            hi = x;
    }
    return hi;
}

/* The sign (-1, 0, 1) of the exact sum minus `value`. */
static int
sign_of_difference(const struct exact_sum *sum, double value)
{
    struct exact_sum copy;
    exact_sum_init(&copy);
    for (guint i = 0; i < sum->length; i++)
        exact_sum_add(&copy, sum->partials[i]);
    exact_sum_add(&copy, -value);
    /* the difference is a multiple of the smallest subnormal, so rounding keeps its sign */
    double d = exact_sum_double(&copy);
    exact_sum_clear(&copy);
    return (d > 0) - (d < 0);
}

float
exact_sum_float(const struct exact_sum *sum)
{
    double hi = exact_sum_double(sum);
    float f = (float)hi;
    if (!isfinite(hi) || (double)f == hi || !isfinite(f))
        return f;
    /* Rounding twice goes wrong only when the double lands exactly halfway between two
     * floats (float midpoints are doubles) while the exact sum does not: then the side the
     * exact sum lies on decides. */
    float other = nextafterf(f, hi > (double)f ? INFINITY : -INFINITY);
    if (((double)f + (double)other) / 2 != hi)
        return f;
    int side = sign_of_difference(sum, hi);
    if (side == 0)
        return f;
    float above = MAX(f, other), below = MIN(f, other);
    return side > 0 ? above : below;
}

double
exact_sum_ulp_double(double y)
{
    double a = fabs(y);
    if (isnan(a) || isinf(a))
        return NAN;
    if (a == DBL_MAX)
        return a - nextafter(a, 0.0);
    return nextafter(a, INFINITY) - a;
}

double
exact_sum_ulp_float(float y)
{
    float a = fabsf(y);
    if (isnan(a) || isinf(a))
        return NAN;
    if (a == FLT_MAX)
        return (double)a - (double)nextafterf(a, 0.0f);
    return (double)nextafterf(a, INFINITY) - (double)a;
}

static void
error_of(double got, double ref, double ulp, double *ulps, double *relative)
{
    if (isnan(got) || isnan(ref)) {
        *ulps = *relative = NAN;
        return;
    }
    if (got == ref) {
        *ulps = *relative = 0.0;
        return;
    }
    double difference = fabs(got - ref);
    *ulps = difference / ulp;
    *relative = ref != 0.0 ? difference / fabs(ref) : INFINITY;
}

void
exact_sum_error_double(double got, double ref, double *ulps, double *relative)
{
    error_of(got, ref, exact_sum_ulp_double(ref), ulps, relative);
}

void
exact_sum_error_float(float got, float ref, double *ulps, double *relative)
{
    error_of((double)got, (double)ref, exact_sum_ulp_float(ref), ulps, relative);
}
