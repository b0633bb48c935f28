/*
 * tune.h — the `collsim tune` command (sim/tune/tune.c): sweep every algorithm of the chosen
 * collectives over rank counts and sizes on one platform, pick the fastest at each point, and
 * write the winner map (CSV, picture) and tuning files for Open MPI and MPICH.
 */
#ifndef COLLSIM_SIM_TUNE_H
#define COLLSIM_SIM_TUNE_H

#include "sim/tune/tune_table.h"

/* argv[0] is "tune"; returns the process exit code. */
int collsim_command_tune(int argc, char **argv);

/* The libraries' catalogues (collsim algorithm <-> library id) for the rules files, from
 * models/decisions/{ompi,mpich}.rules (sim/tune/tune_glue.c). A build without them would return
 * NULL: collsim tune then writes the CSV and the picture only and says why the rules files are
 * missing (exit 1). */
const struct tune_mapping *tune_library_mapping(void);

#endif
