/*
 * run.h — the `collsim run` command (sim/scenario/run.c), and the sweep it runs, shared with
 * `collsim check` (sim/cli/check.c).
 */
#ifndef COLLSIM_SIM_RUN_H
#define COLLSIM_SIM_RUN_H

#include <glib.h>

#include "sim/bench/point.h"
#include "sim/scenario/scenario.h"

/* argv[0] is "run"; returns the process exit code. */
int collsim_command_run(int argc, char **argv);

/* The --set option of both scenario commands (collsim run, collsim check): the overrides
 * scenario_command_load() applies. */
#define SCENARIO_OPTION_SET(overrides)                                                             \
    {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, (overrides),                                        \
     "Override a scenario key, e.g. --set run.ranks=2..64*2 (repeatable)", "GROUP.KEY=VALUE"}

/* What a scenario command's --help shows beside its options. */
struct scenario_command_help {
    const char *parameter;   /* "FILE.ini - what the command does" */
    const char *summary;     /* the paragraph above the options */
    const char *description; /* the paragraph below them: the exit statuses */
};

/*
 * The start `collsim run` and `collsim check` share: parse argv with the command's option
 * `entries` (which fill *jobs and *overrides) and `help`, take exactly one FILE.ini, refuse
 * --jobs below 1, and load the scenario with the --set overrides. NULL after printing one line
 * naming `command` and why.
 */
struct scenario *scenario_command_load(const GOptionEntry *entries,
                                       const struct scenario_command_help *help, char **argv,
                                       const char *command, const int *jobs, gchar ***overrides);

/* Receives each point of a sweep with its result, in sweep order. FALSE (with `error`) stops
 * the sweep. */
typedef gboolean (*run_point_sink)(const struct run_point *point, const struct point_result *result,
                                   gpointer data, GError **error);

/*
 * Simulate every point of `scenario`, each in a forked child, at most `jobs` at once, and hand
 * the results to `sink` strictly in sweep order. A child that dies becomes an ERROR result.
 * `simgrid_cfg` (NULL-terminated "--cfg=ITEM:VALUE" strings, or NULL) is given to every
 * child's SimGrid, after the items of COLLSIM_SIMGRID_CFG (so it wins). FALSE only when the
 * sweep itself failed (fork, waitpid) or the sink said stop.
 */
gboolean run_sweep(const struct scenario *scenario, int jobs, const char *const *simgrid_cfg,
                   run_point_sink sink, gpointer data, GError **error);

#endif
