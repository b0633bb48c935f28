/*
 * point.c — ownership of sweep points and their results, and the results' wire form between
 * the child that simulates a point and the parent that reports it.
 */
#include "config.h"

#include <math.h>

#include "sim/bench/point.h"

void
run_point_free(struct run_point *point)
{
    if (point == NULL)
        return;
    g_free(point->platform);
    g_free(point->placement_file);
    g_free(point->network_model);
    g_free(point->program);
    g_strfreev(point->program_args);
    g_free(point->expected_output);
    g_free(point->algorithm);
    g_free(point->datatype);
    g_free(point->op);
    g_free(point);
}

struct run_point *
run_point_copy(const struct run_point *point)
{
    struct run_point *copy = g_memdup2(point, sizeof *point);
    copy->platform = g_strdup(point->platform);
    copy->network_model = g_strdup(point->network_model);
    copy->program = g_strdup(point->program);
    copy->program_args = g_strdupv(point->program_args);
    copy->expected_output = g_strdup(point->expected_output);
    copy->algorithm = g_strdup(point->algorithm);
    copy->datatype = g_strdup(point->datatype);
    copy->op = g_strdup(point->op);
    return copy;
}

void
point_result_clear(struct point_result *result)
{
    g_free(result->served);
    g_free(result->fallback_reason);
    g_free(result->check_detail);
    g_free(result->output);
    g_free(result->results_sha256);
    *result = (struct point_result){.predicted = NAN, .max_ulps = NAN, .max_rel_error = NAN};
}

/* "ms" = maybe string: NULL travels as nothing */
#define POINT_RESULT_FORMAT "(imsmsddddttimsdmsddims)"

GBytes *
point_result_serialize(const struct point_result *r)
{
    GVariant *v = g_variant_ref_sink(g_variant_new(
        POINT_RESULT_FORMAT, r->exit_code, r->served, r->fallback_reason, r->time_max, r->time_min,
        r->time_mean, r->predicted, (guint64)r->messages, (guint64)r->bytes_moved, (gint32)r->check,
        r->check_detail, r->wall_seconds, r->output, r->max_ulps, r->max_rel_error,
        (gint32)r->identical, r->results_sha256));
    GBytes *bytes = g_variant_get_data_as_bytes(v);
    g_variant_unref(v);
    return bytes;
}

gboolean
point_result_deserialize(GBytes *bytes, struct point_result *r)
{
    GVariant *v = g_variant_ref_sink(
        g_variant_new_from_bytes(G_VARIANT_TYPE(POINT_RESULT_FORMAT), bytes, FALSE));
    /* bytes from a child that died while writing must not be trusted */
    if (!g_variant_is_normal_form(v)) {
        g_variant_unref(v);
        return FALSE;
    }
    gint32 check, identical;
    *r = (struct point_result){0};
    g_variant_get(v, POINT_RESULT_FORMAT, &r->exit_code, &r->served, &r->fallback_reason,
                  &r->time_max, &r->time_min, &r->time_mean, &r->predicted, &r->messages,
                  &r->bytes_moved, &check, &r->check_detail, &r->wall_seconds, &r->output,
                  &r->max_ulps, &r->max_rel_error, &identical, &r->results_sha256);
    r->identical = (enum point_identity)identical;
    r->check = (enum point_check)check;
    g_variant_unref(v);
    return TRUE;
}
