/*
 * plot.h — `collsim run --plot FILE` (or [output] plot): the sweep's simulated times drawn
 * log-log against P and against the message size, one line per algorithm with its analytic
 * prediction dashed beside it, and the winner map (size × P, each cell coloured by the fastest
 * algorithm), one row of panels per collective, in one PNG, SVG or PDF file.
 *
 * Invariants: the picture is a function of the points and their simulated results only (no
 * wall time, no pointer or hash order): collectives in registry order, algorithms by name, the
 * first point of each (collective, algorithm, P, size) in sweep order; a tie in the winner map
 * goes to an algorithm that served its calls itself before one that fell back to another, then
 * to the name that sorts first. Programs and points that ended in an error are not drawn.
 */
#ifndef COLLSIM_SIM_PLOT_H
#define COLLSIM_SIM_PLOT_H

#include <glib.h>

#include "sim/bench/point.h"

struct plot_data;

/* What --plot FILE asks can be done (extension, a writable directory), before anything runs. */
gboolean plot_check(const char *path, GError **error);

struct plot_data *plot_data_new(void);
/* One finished point (the sweep's order). */
void plot_data_add(struct plot_data *plot, const struct run_point *point,
                   const struct point_result *result);
/* Draw the picture to `path` (written whole, then renamed). `scenario` names it in the title
 * (may be NULL). FALSE and an error if it cannot be written. */
gboolean plot_write(const struct plot_data *plot, const char *path, const char *scenario,
                    GError **error);
/* The winner maps alone, one per collective, under `title` (collsim tune): a tie goes to the
 * algorithm whose point was added first, not to the name that sorts first. */
gboolean plot_write_winner_maps(const struct plot_data *plot, const char *path,
                                const char *title, GError **error);
void plot_data_free(struct plot_data *plot);

#endif
