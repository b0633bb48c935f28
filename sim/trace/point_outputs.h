/*
 * point_outputs.h — traces and timelines of a scenario's points: `[output] trace = FILE` and
 * `[output] timeline = FILE` (or `collsim run --trace/--timeline FILE`) give every point of
 * the sweep its own file, named after FILE:
 *
 *   DIR/STEM-INDEX-LABEL.EXT     e.g. trace-003-allreduce-ring-P64-8B.json
 *
 * where DIR/STEM.EXT is FILE, INDEX the point's position in the sweep from 0, zero-padded to
 * at least three digits (more when the sweep has more than 1000 points, so that the names
 * sort in sweep order), and LABEL says what the point runs:
 *   a program:     its file name without .so, then -P<ranks>          (ring-P8)
 *   a collective:  collective-algorithm-P<ranks>-<size>, the algorithm "default" for the
 *                  decision table, the size in B, KiB, MiB or GiB when it divides exactly,
 *                  and no size for a barrier                          (bcast-binomial-P4-64KiB)
 * Characters other than letters, digits and ._+- become '_'. The names depend on the sweep
 * only, never on the run, and the index makes them unique.
 *
 * Each file holds the whole simulation of its point: for a collective, its warm-up and every
 * timed call (so its messages are the CSV's per-call `messages` times the calls made).
 *
 * Invariants: everything that can be known about FILE (its extension, a writable directory)
 * is checked before any point runs; each file is written in the point's own child process
 * (sim/scenario/run.c), whole or not at all (trace_write.h, picture.h); a point whose file
 * could not be written is named by trace_points_missing() after the sweep.
 */
#ifndef COLLSIM_SIM_TRACE_POINT_OUTPUTS_H
#define COLLSIM_SIM_TRACE_POINT_OUTPUTS_H

#include <glib.h>

#include "sim/bench/point.h"

/*
 * Before the sweep, in the parent: check `trace` and `timeline` (either may be NULL; `option`
 * names where each came from in a message, "[output] trace" or "--trace") and remember them
 * for the points of a sweep of `total` points. FALSE and one message if a path cannot be used.
 */
gboolean trace_points_setup(const char *trace, const char *trace_option, const char *timeline,
                            const char *timeline_option, guint total, GError **error);
/* Forget what trace_points_setup() remembered. */
void trace_points_reset(void);

/* The file of `point` for FILE `path` in a sweep of `total` points (see above). */
gchar *trace_point_path(const char *path, const struct run_point *point, guint total);

/* In a point's child, around its simulation: nothing unless trace_points_setup() asked for a
 * file. finish writes the files; FALSE and a message naming the file if one cannot be. */
void trace_point_begin(const struct run_point *point);
gboolean trace_point_finish(const struct run_point *point, GError **error);

/* After the sweep, in the parent: how many of the files asked for are not there (each named on
 * stderr after `prefix`). */
guint trace_points_missing(const GPtrArray *points, const char *prefix);

#endif
