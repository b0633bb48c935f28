/*
 * progress_lines.h — the progress of a long `collsim run` sweep when stderr is not a terminal
 * (a log file, CI): plain lines instead of the redrawn bar (report.h), of the form
 *
 *   collsim: run: point 12/40 done, 1m05s elapsed, ETA 1m20s
 *
 * and, for the last point, without ", ETA ...". Durations are whole seconds: "45s", "1m05s",
 * "2h03m07s"; the ETA is the mean wall time per point so far times the points left.
 *
 * When: after a point, if at least the interval has passed since the last line (or since the
 * start), and after the last point if an earlier line was printed; a sweep shorter than the
 * interval prints nothing. The interval is COLLSIM_PROGRESS_SECONDS (a number >= 0;
 * 0: a line per point), PROGRESS_LINES_SECONDS by default.
 *
 * Invariants: only stderr is written (stdout and every file stay byte-identical with or
 * without them); wall time enters these lines and nothing else.
 */
#ifndef COLLSIM_SIM_REPORT_PROGRESS_LINES_H
#define COLLSIM_SIM_REPORT_PROGRESS_LINES_H

#include <stdio.h>

#include <glib.h>

#define PROGRESS_LINES_SECONDS 10.0

struct progress_lines;

/* Lines to `out` (stderr) for a sweep of `total` points, starting now. */
struct progress_lines *progress_lines_new(FILE *out, guint total);
/* One more point is done. */
void progress_lines_point(struct progress_lines *lines);
void progress_lines_free(struct progress_lines *lines);

/* The text of one line, without its newline (for tests). */
gchar *progress_lines_format(guint done, guint total, double elapsed_seconds);

#endif
