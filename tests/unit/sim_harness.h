/*
 * sim_harness.h — run a test function on every rank of a small simulation.
 *
 * SimGrid starts once per process: call these only from check test cases running in fork
 * mode (check's default), one simulation per test case.
 */
#ifndef COLLSIM_TEST_SIM_HARNESS_H
#define COLLSIM_TEST_SIM_HARNESS_H

#include "sim/engine/engine.h"

typedef void (*collsim_test_rank_fn)(int rank, void *arg);

/* Run fn(rank, arg) between MPI_Init and MPI_Finalize on nranks ranks of the default
 * cluster. Returns the simulation's exit code (0 when every rank finished cleanly). */
int collsim_test_run_ranks(int nranks, collsim_test_rank_fn fn, void *arg);

/* The same with a caller-prepared configuration (platform, model...); fills `outcome`. */
int collsim_test_run_config(struct sim_config *config, collsim_test_rank_fn fn, void *arg,
                            struct sim_outcome *outcome);

/*
 * Two hosts "a" and "b" joined by one full-duplex link of latency COLLSIM_TEST_LINK_LATENCY
 * and bandwidth COLLSIM_TEST_LINK_BANDWIDTH per direction (full duplex, so that SimGrid's
 * TCP-acknowledgement cross traffic, 5% of each message flowing backwards, does not share the
 * forward direction's bandwidth): the platform of the transport's timing tests.
 */
#define COLLSIM_TEST_LINK_LATENCY 10e-6
#define COLLSIM_TEST_LINK_BANDWIDTH 1e9
extern const char collsim_test_two_hosts_xml[];

/* Write `xml` to a temporary platform file; returns its path (g_free it). */
char *collsim_test_platform(const char *xml);

/*
 * The network alone on the two hosts: CM02 (a transfer of B bytes takes L + B/W), no software
 * overheads, no gap, the given eager threshold, two ranks. The caller may change the
 * configuration (simgrid_cfg[0] is the network model's item, g_malloc'ed), then runs it with
 * collsim_test_two_hosts_run(), which frees it and fills `outcome` if not NULL.
 */
struct sim_config *collsim_test_two_hosts_begin(gsize eager_threshold);
int collsim_test_two_hosts_run(struct sim_config *config, collsim_test_rank_fn fn, void *arg,
                               struct sim_outcome *outcome);

#endif
