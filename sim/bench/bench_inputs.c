/*
 * bench_inputs.c — the order-sensitive inputs of sim/bench/bench_inputs.h.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "sim/bench/bench_inputs.h"
#include "src/coll/coll_registry.h"

gboolean
bench_inputs_parse(const char *text, enum point_inputs *inputs, guint32 *seed, gchar **why)
{
    *seed = 0;
    if (strcmp(text, "exact") == 0) {
        *inputs = POINT_INPUTS_EXACT;
        return TRUE;
    }
    if (strcmp(text, "cancellation") == 0) {
        *inputs = POINT_INPUTS_CANCELLATION;
        return TRUE;
    }
    if (g_str_has_prefix(text, "random:")) {
        const char *digits = text + strlen("random:");
        guint64 value = 0;
        /* digits only: g_ascii_string_to_unsigned alone would take a sign or blanks */
        gboolean all_digits = *digits != '\0' && strspn(digits, "0123456789") == strlen(digits);
        if (all_digits && g_ascii_string_to_unsigned(digits, 10, 0, G_MAXUINT32, &value, NULL)) {
            *inputs = POINT_INPUTS_RANDOM;
            *seed = (guint32)value;
            return TRUE;
        }
        *why = g_strdup_printf("'%s': the seed must be an integer from 0 to %u", text, G_MAXUINT32);
        return FALSE;
    }
    *why = g_strdup_printf("unknown inputs '%s'", text);
    return FALSE;
}

gchar *
bench_inputs_name(enum point_inputs inputs, guint32 seed)
{
    switch (inputs) {
    case POINT_INPUTS_CANCELLATION:
        return g_strdup("cancellation");
    case POINT_INPUTS_RANDOM:
        return g_strdup_printf("random:%u", seed);
    case POINT_INPUTS_EXACT:
        break;
    }
    return g_strdup("exact");
}

gchar *
bench_inputs_invalid(const struct run_point *point)
{
    if (point->inputs == POINT_INPUTS_EXACT)
        return NULL;
    const char *datatype = point->datatype != NULL ? point->datatype : "byte";
    gboolean sum = point->op != NULL && strcmp(point->op, "sum") == 0;
    const struct bench_datatype *type = bench_datatype_find(datatype);
    gboolean real =
        type != NULL && (type->ctype == BENCH_CT_DOUBLE || type->ctype == BENCH_CT_FLOAT);
    if (point->program == NULL && coll_kind_reduces((int)point->kind) && sum && real)
        return NULL;
    g_autofree gchar *name = bench_inputs_name(point->inputs, point->inputs_seed);
    if (point->program != NULL)
        return g_strdup_printf("inputs '%s' are for collectives, not programs", name);
    if (!coll_kind_reduces((int)point->kind))
        return g_strdup_printf("inputs '%s' need a reduction (%s moves data unchanged; use "
                               "exact)",
                               name, coll_kind_mpi_name(point->kind));
    return g_strdup_printf("inputs '%s' need op sum on float or double (not %s on %s)", name,
                           point->op != NULL ? point->op : "no op", datatype);
}

static double
cancellation_value(double huge, double unit, int rank, int nranks, guint64 element)
{
    double sign = element % 2 == 0 ? 1.0 : -1.0;
    if (rank == 0)
        return sign * huge;
    if (rank == nranks - 1)
        return -sign * huge;
    return unit * (double)(1 + (3 * (guint64)rank + element) % 8) / 8.0;
}

void
bench_inputs_fill(const struct bench_datatype *type, enum point_inputs inputs, guint32 seed,
                  int rank, int nranks, guint64 first, gsize count, void *buf)
{
    gboolean is_float = type->ctype == BENCH_CT_FLOAT;
    g_return_if_fail(is_float || type->ctype == BENCH_CT_DOUBLE);
    float *floats = buf;
    double *doubles = buf;
    if (inputs == POINT_INPUTS_RANDOM) {
        guint32 key[2] = {seed, (guint32)rank};
        GRand *rand = g_rand_new_with_seed_array(key, G_N_ELEMENTS(key));
        for (guint64 i = 0; i < first + count; i++) {
            double v = g_rand_double_range(rand, -1.0, 1.0);
            if (i < first)
                continue;
            if (is_float)
                floats[i - first] = (float)v;
            else
                doubles[i - first] = v;
        }
        g_rand_free(rand);
        return;
    }
    for (gsize k = 0; k < count; k++) {
        if (is_float)
            floats[k] = (float)cancellation_value(BENCH_INPUTS_CANCELLATION_FLOAT, 8.0, rank,
                                                  nranks, first + k);
        else
            doubles[k] =
                cancellation_value(BENCH_INPUTS_CANCELLATION_DOUBLE, 2.0, rank, nranks, first + k);
    }
}
