/*
 * merge.h — `collsim merge [-o OUT] SHARD...`: the files of `collsim run --shard I/N` for every
 * I joined into what the unsharded run writes (sim/report/shard.h checks and joins them).
 */
#ifndef COLLSIM_SIM_CLI_MERGE_H
#define COLLSIM_SIM_CLI_MERGE_H

/* argv[0] == "merge". Exit codes: 0 merged, every point ok or skipped; 1 merged, but a point
 * FAILed its check or ended in an error (as the run would exit), or OUT could not be written;
 * 2 a bad command line or bad shards (missing, repeated, incomplete, of another scenario or
 * binary): nothing written. */
int command_merge(int argc, char **argv);

#endif
