/*
 * sim_harness.c — glue between check test cases and one simulation.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "mpi.h"
#include "sim_harness.h"

static collsim_test_rank_fn harness_fn;
static void *harness_arg;

static int
harness_main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    harness_fn(rank, harness_arg);
    MPI_Finalize();
    return 0;
}

int
collsim_test_run_config(struct sim_config *config, collsim_test_rank_fn fn, void *arg,
                        struct sim_outcome *outcome)
{
    static char *argv[] = {"harness", NULL};
    harness_fn = fn;
    harness_arg = arg;
    config->program = harness_main;
    config->argc = 1;
    config->argv = argv;
    config->privatize = FALSE;
    GError *error = NULL;
    if (!sim_engine_run(config, outcome, &error)) {
        fprintf(stderr, "harness: %s\n", error->message);
        g_error_free(error);
        return 2;
    }
    return outcome->exit_code;
}

int
collsim_test_run_ranks(int nranks, collsim_test_rank_fn fn, void *arg)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.nranks = nranks;
    return collsim_test_run_config(&config, fn, arg, &outcome);
}

char *
collsim_test_platform(const char *xml)
{
    char *path = NULL;
    int fd = g_file_open_tmp("collsim-test-XXXXXX.xml", &path, NULL);
    g_assert(fd >= 0);
    g_assert(g_file_set_contents(path, xml, -1, NULL));
    close(fd);
    return path;
}

const char collsim_test_two_hosts_xml[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"z\" routing=\"Full\">\n"
    "    <host id=\"a\" speed=\"1Gf\"/>\n"
    "    <host id=\"b\" speed=\"1Gf\"/>\n"
    "    <link id=\"l\" bandwidth=\"1GBps\" latency=\"10us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
    "    <route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n"
    "    <route src=\"b\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"l\" direction=\"DOWN\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";
