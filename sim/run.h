/*
 * run.h — the `collsim run` command (sim/run.c).
 */
#ifndef COLLSIM_SIM_RUN_H
#define COLLSIM_SIM_RUN_H

/* argv[0] is "run"; returns the process exit code. */
int collsim_command_run(int argc, char **argv);

#endif
