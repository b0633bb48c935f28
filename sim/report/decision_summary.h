/*
 * decision_summary.h — the closing table of a sweep that asks libraries' decisions (a scenario's
 * algorithm entry `ompi`, `mpich`, `mvapich2`, `impi`): for every call of the sweep (same
 * collective, ranks, bytes, datatype, op, root), the fastest algorithm the sweep ran for it and
 * each library's choice's time divided by that fastest time; then, per library, at how many
 * calls its choice was within 0.1% of the fastest, and its worst ratio.
 *
 * Invariants: the text depends only on the points added and their order (calls in order of
 * first appearance, libraries in order of first appearance); ties for the fastest go to the
 * first point added. A point that failed (exit code, check FAIL) is left out. Without any
 * library point, or without any algorithm point to hold them against, the summary is empty.
 */
#ifndef COLLSIM_SIM_REPORT_DECISION_SUMMARY_H
#define COLLSIM_SIM_REPORT_DECISION_SUMMARY_H

#include <glib.h>

#include "sim/bench/point.h"

struct decision_summary;

struct decision_summary *decision_summary_new(void);
void decision_summary_add(struct decision_summary *summary, const struct run_point *point,
                          const struct point_result *result);
/* Append the summary's lines to `text` (nothing when no library point was added). */
void decision_summary_write(const struct decision_summary *summary, GString *text);
void decision_summary_free(struct decision_summary *summary);

#endif
