/*
 * check.h — the `collsim check` command (sim/cli/check.c): run a scenario's sweep several times,
 * under each SimGrid context factory, and compare the outputs byte for byte.
 */
#ifndef COLLSIM_SIM_CHECK_H
#define COLLSIM_SIM_CHECK_H

/* argv[0] is "check"; returns the process exit code (0 identical, 1 different, 2 bad input). */
int collsim_command_check(int argc, char **argv);

#endif
