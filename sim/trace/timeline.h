/*
 * timeline.h — the recorder's record (recorder.h) as a picture (sim/picture/picture.h): ranks
 * as rows, simulated time across on a labelled axis, each call a box coloured by what it is
 * (its collective, a point-to-point call, a wait, a computation; a legend says which), each
 * message a line from its sending (sender's row) to its arrival (receiver's row), a title.
 *
 * Up to TIMELINE_MAX_ROWS ranks each has its row. Beyond, ranks are grouped, ceil(P / 64) to a
 * row: a group's row is a strip of stacked bars, the share of its ranks' time spent in each
 * kind of activity along the run, and the messages between two groups are one line whose
 * thickness grows with their count (messages inside a group are not drawn).
 *
 * Invariants: the same record and title give the same bytes; the picture's size is bounded
 * whatever P is.
 */
#ifndef COLLSIM_SIM_TRACE_TIMELINE_H
#define COLLSIM_SIM_TRACE_TIMELINE_H

#include <glib.h>

#define TIMELINE_MAX_ROWS 64

/* Ranks per row for a run of nranks ranks (1 up to TIMELINE_MAX_ROWS ranks). */
int timeline_group_size(int nranks);

/* What can be known before a run: the path (picture_check), for option `option`. */
gboolean timeline_check(const char *path, const char *option, GError **error);

/* Draw the recorder's record into `path` (.png, .svg or .pdf) under `title`. */
gboolean timeline_draw(const char *path, const char *title, GError **error);

/* Colours the picture uses for what a test counts in an SVG (components 0..1). */
#define TIMELINE_MESSAGE_RGB 0.15, 0.15, 0.40
#define TIMELINE_BAND_EVEN_RGB 0.955, 0.955, 0.955
#define TIMELINE_BAND_ODD_RGB 0.905, 0.905, 0.905
#define TIMELINE_TICK_RGB 0.30, 0.30, 0.30
#define TIMELINE_TICK_LABEL_RGB 0.10, 0.10, 0.10

#endif
