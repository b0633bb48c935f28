/*
 * decide.h — `collsim decide COLLECTIVE -n P --bytes B [--decision LIB] [--noncommutative]
 * [--count N]`: what a library's default decision (models/decisions/LIB.rules, read by
 * src/coll_decision.c) picks for one call, the rule that matched and what collsim runs
 * for it; without --decision, every library's choice side by side, collsim's own included.
 * Also `--decision` of exec and run: decide_option_install().
 */
#ifndef COLLSIM_SIM_DECIDE_H
#define COLLSIM_SIM_DECIDE_H

#include <glib.h>

int command_decide(int argc, char **argv);

/*
 * Load library `spec` (ompi, mpich, mvapich2, impi, collsim or FILE.rules) and install it for
 * the MPI entry points (coll_select_set_decision) for the rest of the process. "collsim"
 * installs nothing. FALSE with `error` set when the library or its file is bad.
 */
gboolean decide_option_install(const char *spec, GError **error);

#endif
