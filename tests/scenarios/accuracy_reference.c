/*
 * accuracy_reference.c — an oracle for the accuracy figures of `collsim run`, independent of
 * collsim's code: for the inputs of scenarios/README.md ([run] inputs, double only), the
 * largest error of a sequential fold in double against the exact sum, over every element:
 * the left fold ((x0 + x1) + x2) + ... (what the chain Reduce computes) or the right fold
 * x0 + (x1 + (... + x_{P-1})) (the linear Reduce's root folds from the top rank down).
 *
 *   accuracy_reference left|right INPUTS P COUNT    prints "MAX_ULPS MAX_REL_ERROR" (%.17g)
 *
 * Exactness by integers instead of collsim's error-free transformations: every input of both
 * kinds is a multiple of 2^-64 below 2^54 in magnitude (cancellation: quarters and ±1e16;
 * random: GLib's g_rand_double is built from two 32-bit draws), so x · 2^64 is an integer
 * below 2^118 and P of them add up exactly in an __int128. The exact sum is rounded to double
 * once by the int128 conversion (round to nearest even), and the ulp is taken from frexp.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

static int
fail(const char *what)
{
    fprintf(stderr, "accuracy_reference: %s\n", what);
    return 2;
}

/* The definitions, written out again from scenarios/README.md. */
static double
cancellation(int rank, int p, long i)
{
    double sign = i % 2 == 0 ? 1.0 : -1.0;
    if (rank == 0)
        return sign * 1e16;
    if (rank == p - 1)
        return -sign * 1e16;
    return 2.0 * (double)(1 + (3 * rank + i) % 8) / 8.0;
}

static __int128
scaled(double x, int *ok)
{
    double s = ldexp(x, 64);
    if (s != floor(s) || fabs(s) >= 0x1p126)
        *ok = 0;
    return (__int128)s;
}

/* 2^-64 · n, rounded once. */
static double
unscaled(__int128 n)
{
    return ldexp((double)n, -64);
}

static double
ulp_of(double y)
{
    if (y == 0.0)
        return 0x1p-1074;
    int e;
    frexp(y, &e);
    return ldexp(1.0, e - 53);
}

int
main(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: accuracy_reference left|right INPUTS P COUNT");
    int left = strcmp(argv[1], "left") == 0;
    if (!left && strcmp(argv[1], "right") != 0)
        return fail("the fold is left or right");
    const char *inputs = argv[2];
    int p = atoi(argv[3]);
    long count = atol(argv[4]);
    int random = strncmp(inputs, "random:", 7) == 0;
    if (p < 1 || count < 0 || (!random && strcmp(inputs, "cancellation") != 0))
        return fail("bad arguments");
    guint32 seed = random ? (guint32)strtoul(inputs + 7, NULL, 10) : 0;

    double *value = g_new(double, (gsize)p *(gsize)(count > 0 ? count : 1));
    for (int r = 0; r < p; r++) {
        GRand *rand = NULL;
        if (random) {
            guint32 key[2] = {seed, (guint32)r};
            rand = g_rand_new_with_seed_array(key, 2);
        }
        for (long i = 0; i < count; i++)
            value[(gsize)r * (gsize)count + (gsize)i] =
                random ? g_rand_double_range(rand, -1.0, 1.0) : cancellation(r, p, i);
        if (rand != NULL)
            g_rand_free(rand);
    }

    double max_ulps = 0, max_rel = 0;
    int ok = 1;
    for (long i = 0; i < count; i++) {
        double fold = value[left ? (gsize)i : (gsize)(p - 1) * (gsize)count + (gsize)i];
        __int128 exact = scaled(fold, &ok);
        for (int k = 1; k < p; k++) {
            int r = left ? k : p - 1 - k;
            double x = value[(gsize)r * (gsize)count + (gsize)i];
            fold = left ? fold + x : x + fold;
            exact += scaled(x, &ok);
        }
        double reference = unscaled(exact);
        /* the difference, exactly, then rounded once */
        double difference = fabs(unscaled(scaled(fold, &ok) - scaled(reference, &ok)));
        double ulps = difference / ulp_of(reference);
        double rel = difference == 0 ? 0 : reference != 0 ? difference / fabs(reference) : INFINITY;
        max_ulps = ulps > max_ulps ? ulps : max_ulps;
        max_rel = rel > max_rel ? rel : max_rel;
    }
    g_free(value);
    if (!ok)
        return fail("an input or result is not a multiple of 2^-64 below 2^62");
    printf("%.17g %.17g\n", max_ulps, max_rel);
    return 0;
}
