/*
 * sim_harness.c — glue between check test cases and one simulation.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "mpi.h"
#include <glib/gstdio.h>

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

struct sim_config *
collsim_test_two_hosts_begin(gsize eager_threshold)
{
    struct sim_config *config = g_new(struct sim_config, 1);
    sim_config_defaults(config);
    config->nranks = 2;
    config->platform_file = collsim_test_platform(collsim_test_two_hosts_xml);
    config->simgrid_cfg = g_new0(gchar *, 2);
    config->simgrid_cfg[0] = g_strdup("--cfg=network/model:CM02");
    config->transport.send_overhead = 0;
    config->transport.recv_overhead = 0;
    config->transport.gap = 0;
    config->transport.per_byte_overhead = 0;
    config->transport.eager_threshold = eager_threshold;
    return config;
}

int
collsim_test_two_hosts_run(struct sim_config *config, collsim_test_rank_fn fn, void *arg,
                           struct sim_outcome *outcome)
{
    struct sim_outcome ignored;
    int rc = collsim_test_run_config(config, fn, arg, outcome != NULL ? outcome : &ignored);
    g_unlink(config->platform_file);
    g_free((gchar *)config->platform_file);
    g_strfreev(config->simgrid_cfg);
    g_free(config);
    return rc;
}
