/*
 * explain.h — `collsim explain COLLECTIVE ALGORITHM -n P [--count N] [--root R]
 * [--commutative]`: a step-by-step text walk of an algorithm's rounds, for the classroom.
 */
#ifndef COLLSIM_SIM_CLI_EXPLAIN_H
#define COLLSIM_SIM_CLI_EXPLAIN_H

/* Beyond this many ranks a walk no longer reads as a walk. */
#define EXPLAIN_MAX_RANKS 64
/* Elements per rank, at most (every message lists its elements' partial results). */
#define EXPLAIN_MAX_COUNT 1024

/* argv[0] == "explain". Exit codes: 0 walked, 2 bad arguments, 4 the simulation failed. */
int command_explain(int argc, char **argv);

#endif
