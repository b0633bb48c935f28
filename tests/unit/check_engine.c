/*
 * check_engine.c — platform loading, rank placement and run outcomes (sim/engine/engine.c).
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "mpi.h"
#include "sim_harness.h"

/* Three hosts with 2, 1 and 3 cores, declared out of natural order. */
static const char three_hosts_xml[] =
    "<?xml version='1.0'?>\n"
    "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
    "<platform version=\"4.1\">\n"
    "  <zone id=\"z\" routing=\"Full\">\n"
    "    <host id=\"h10\" speed=\"1Gf\" core=\"3\"/>\n"
    "    <host id=\"h2\" speed=\"1Gf\" core=\"1\"/>\n"
    "    <host id=\"h1\" speed=\"1Gf\" core=\"2\"/>\n"
    "    <link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
    "    <route src=\"h1\" dst=\"h2\"><link_ctn id=\"l\"/></route>\n"
    "    <route src=\"h1\" dst=\"h10\"><link_ctn id=\"l\"/></route>\n"
    "    <route src=\"h2\" dst=\"h10\"><link_ctn id=\"l\"/></route>\n"
    "  </zone>\n"
    "</platform>\n";

#define MAX_RANKS 16
static char placed[MAX_RANKS][MPI_MAX_PROCESSOR_NAME];

static void
record_host_rank(int rank, void *arg)
{
    (void)arg;
    int len;
    MPI_Get_processor_name(placed[rank], &len);
    /* the harness process is forked per test: report through stdout-free shared memory is not
     * needed, the check happens inside the simulation */
}

struct placement_case {
    enum sim_placement placement;
    gboolean oversubscribe;
    int nranks;
    const char *expected[MAX_RANKS];
};

static void
check_placement_rank(int rank, void *arg)
{
    const struct placement_case *c = arg;
    record_host_rank(rank, NULL);
    ck_assert_str_eq(placed[rank], c->expected[rank]);
}

static int
run_placement(const struct placement_case *c)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    char *platform = collsim_test_platform(three_hosts_xml);
    config.platform_file = platform;
    config.nranks = c->nranks;
    config.placement = c->placement;
    config.oversubscribe = c->oversubscribe;
    int rc = collsim_test_run_config(&config, check_placement_rank, (void *)c, &outcome);
    g_unlink(platform);
    g_free(platform);
    return rc;
}

START_TEST(test_block_placement_fills_cores_in_name_order)
{
    struct placement_case c = {SIM_PLACEMENT_BLOCK, FALSE, 6,
                               {"h1", "h1", "h2", "h10", "h10", "h10"}};
    ck_assert_int_eq(run_placement(&c), 0);
}
END_TEST

START_TEST(test_cyclic_placement_round_robin)
{
    struct placement_case c = {SIM_PLACEMENT_CYCLIC, FALSE, 6,
                               {"h1", "h2", "h10", "h1", "h10", "h10"}};
    ck_assert_int_eq(run_placement(&c), 0);
}
END_TEST

START_TEST(test_oversubscribed_block_spreads_evenly)
{
    struct placement_case c = {SIM_PLACEMENT_BLOCK, TRUE, 7,
                               {"h1", "h1", "h1", "h2", "h2", "h10", "h10"}};
    ck_assert_int_eq(run_placement(&c), 0);
}
END_TEST

START_TEST(test_too_many_ranks_is_refused)
{
    struct placement_case c = {SIM_PLACEMENT_BLOCK, FALSE, 7, {NULL}};
    ck_assert_int_eq(run_placement(&c), 2);
}
END_TEST

START_TEST(test_missing_platform_is_refused)
{
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.platform_file = "/nonexistent/platform.xml";
    GError *error = NULL;
    config.program = NULL;
    ck_assert(!sim_engine_run(&config, &outcome, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "/nonexistent/platform.xml"));
    g_error_free(error);
}
END_TEST

START_TEST(test_malformed_platform_names_file_and_line)
{
    /* the zone opened on line 4 is never closed: </platform> on line 5 is the error */
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"z\" routing=\"Full\">\n"
        "</platform>\n");
    struct sim_config config;
    struct sim_outcome outcome;
    sim_config_defaults(&config);
    config.platform_file = platform;
    GError *error = NULL;
    ck_assert(!sim_engine_run(&config, &outcome, &error));
    gchar *where = g_strdup_printf("%s:5", platform);
    ck_assert_msg(strstr(error->message, where) != NULL, "message: %s", error->message);
    g_free(where);
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

START_TEST(test_platform_cores_counts_every_host)
{
    char *platform = collsim_test_platform(three_hosts_xml);
    guint64 cores = 0;
    GError *error = NULL;
    ck_assert_msg(sim_engine_platform_cores(platform, &cores, &error), "%s",
                  error != NULL ? error->message : "");
    ck_assert_uint_eq(cores, 6);
    /* the parent did not start SimGrid: a second inspection works the same */
    ck_assert(sim_engine_platform_cores(platform, &cores, &error));
    ck_assert_uint_eq(cores, 6);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

START_TEST(test_platform_cores_of_a_bad_platform_is_an_error)
{
    char *platform = collsim_test_platform("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
                                           "  <zone id=\"z\" routing=\"Full\">\n"
                                           "</platform>\n");
    guint64 cores = 99;
    GError *error = NULL;
    ck_assert(!sim_engine_platform_cores(platform, &cores, &error));
    ck_assert_ptr_nonnull(strstr(error->message, platform));
    ck_assert_uint_eq(cores, 99);
    g_clear_error(&error);
    ck_assert(!sim_engine_platform_cores("/nonexistent/platform.xml", &cores, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "/nonexistent/platform.xml"));
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

START_TEST(test_radicals_are_checked_in_any_encoding)
{
    /* a Latin-1 byte (a comment saying "café") must not hide a radical of a billion hosts,
     * which SimGrid would spend minutes and gigabytes building */
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<!-- caf\xe9 -->\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-999999999\" speed=\"1Gf\"\n"
        "           bw=\"1GBps\" lat=\"1us\"/>\n"
        "</platform>\n");
    GError *error = NULL;
    ck_assert(!sim_engine_check_platform(platform, 2, &error));
    gchar *want = g_strdup_printf("%s:5: radical \"0-999999999\" brings", platform);
    ck_assert_msg(g_str_has_prefix(error->message, want), "message: %s", error->message);
    g_free(want);
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

START_TEST(test_marker_text_in_the_file_is_not_a_report)
{
    /* SimGrid quotes the broken line in its error; the child's own report (a defect, the
     * core count) is told apart from such a quote */
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org\n"
        "collsim-platform-defect=/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"z\" routing=\"Full\">\n"
        "</platform>\n");
    GError *error = NULL;
    ck_assert(!sim_engine_check_platform(platform, 60, &error));
    gchar *want = g_strdup_printf("platform %s: ", platform);
    ck_assert_msg(g_str_has_prefix(error->message, want), "message: %s", error->message);
    ck_assert_msg(strchr(error->message, '\n') == NULL, "message: %s", error->message);
    g_free(want);
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

/* A caller's timer (libFuzzer keeps one): it must not keep alarm() from ending the child. */
static void
callers_alarm_handler(int sig)
{
    (void)sig;
}

START_TEST(test_check_platform_stops_a_load_at_its_limit)
{
    /* four million hosts behind a backbone (which collsim leaves to SimGrid): SimGrid takes a
     * minute or more to build them, far past 1 s */
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-3999999\" speed=\"1Gf\"\n"
        "           bw=\"1GBps\" lat=\"1us\" bb_bw=\"2GBps\" bb_lat=\"1us\"/>\n"
        "</platform>\n");
    signal(SIGALRM, callers_alarm_handler);
    GError *error = NULL;
    gint64 start = g_get_monotonic_time();
    ck_assert(!sim_engine_check_platform(platform, 1, &error));
    ck_assert_msg(g_get_monotonic_time() - start < 30 * G_USEC_PER_SEC,
                  "the limit did not stop it");
    gchar *want =
        g_strdup_printf("platform %s: SimGrid did not finish loading it in 1 s", platform);
    ck_assert_str_eq(error->message, want);
    g_free(want);
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

/* The same four million hosts as one plain cluster: collsim reads it itself (platform_file.h),
 * in well under the limit, and counts its cores. */
START_TEST(test_check_platform_reads_a_plain_cluster_itself)
{
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"c\" prefix=\"n-\" suffix=\"\" radical=\"0-3999999\" speed=\"1Gf\"\n"
        "           core=\"2\" bw=\"1GBps\" lat=\"1us\"/>\n"
        "</platform>\n");
    GError *error = NULL;
    guint64 cores = 0;
    ck_assert(sim_engine_check_platform(platform, 1, &error));
    ck_assert_ptr_null(error);
    ck_assert(sim_engine_platform_cores(platform, &cores, &error));
    ck_assert_uint_eq(cores, 8000000);
    g_unlink(platform);
    g_free(platform);
}
END_TEST

static gchar *handler_trace;

/* A crash handler of the caller's (a fuzzer's, say): it must not run in the inspecting child. */
static void
callers_crash_handler(int sig)
{
    g_file_set_contents(handler_trace, "the caller's handler ran", -1, NULL);
    signal(sig, SIG_DFL);
    raise(sig);
}

START_TEST(test_inspecting_child_dies_of_its_own_signals)
{
    /* SimGrid aborts on a malformed file (an uncaught exception) */
    char *platform = collsim_test_platform(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"z\" routing=\"Full\">\n"
        "</platform>\n");
    handler_trace = g_strconcat(platform, ".trace", NULL);
    signal(SIGABRT, callers_crash_handler);
    signal(SIGSEGV, callers_crash_handler);
    GError *error = NULL;
    ck_assert(!sim_engine_check_platform(platform, 60, &error));
    gchar *where = g_strdup_printf("%s:5", platform);
    ck_assert_msg(strstr(error->message, where) != NULL, "message: %s", error->message);
    ck_assert_msg(!g_file_test(handler_trace, G_FILE_TEST_EXISTS),
                  "the inspecting child ran its parent's crash handler");
    signal(SIGABRT, SIG_DFL);
    signal(SIGSEGV, SIG_DFL);
    g_free(where);
    g_error_free(error);
    g_unlink(platform);
    g_free(platform);
    g_free(handler_trace);
}
END_TEST

static void
abort_rank(int rank, void *arg)
{
    (void)arg;
    if (rank == 2)
        MPI_Abort(MPI_COMM_WORLD, 7);
}

START_TEST(test_abort_ends_with_its_code)
{
    collsim_test_run_ranks(4, abort_rank, NULL);
}
END_TEST

static int
no_finalize_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    return 0;
}

/* `program` on 2 ranks, globals shared, with the stacks and core asked for. */
static gboolean
run_program(sim_rank_main program, enum sim_stacks stacks, enum sim_engine_choice engine,
            struct sim_outcome *outcome, GError **error)
{
    struct sim_config config;
    static char *argv[] = {"prog", NULL};
    sim_config_defaults(&config);
    config.nranks = 2;
    config.program = program;
    config.argc = 1;
    config.argv = argv;
    config.privatize = FALSE;
    config.stacks = stacks;
    config.engine = engine;
    return sim_engine_run(&config, outcome, error);
}

START_TEST(test_missing_finalize_is_reported)
{
    struct sim_outcome outcome;
    ck_assert(run_program(no_finalize_main, SIM_STACKS_AUTO, SIM_ENGINE_AUTO, &outcome, NULL));
    ck_assert_int_eq(outcome.exit_code, SIM_EXIT_NO_FINALIZE);
}
END_TEST

/* Rank 0 posts a receive into a local variable and stops in MPI_Wait; rank 1 sends while
 * rank 0's frames are aside (on a shared stack); rank 0 checks what arrived. */
static int
stack_exchange_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, got = -1, sent = 4242;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Request request;
        MPI_Irecv(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
        MPI_Wait(&request, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&sent, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return rank == 0 && got != sent ? 3 : 0;
}

static gboolean
run_stacks(enum sim_stacks stacks, enum sim_engine_choice engine, struct sim_outcome *outcome,
           GError **error)
{
    return run_program(stack_exchange_main, stacks, engine, outcome, error);
}

START_TEST(test_stacks_shared_where_the_core_can)
{
    enum sim_stacks parsed = SIM_STACKS_SEPARATE;
    ck_assert(sim_stacks_parse("auto", &parsed) && parsed == SIM_STACKS_AUTO);
    ck_assert(sim_stacks_parse("shared", &parsed) && parsed == SIM_STACKS_SHARED);
    ck_assert(sim_stacks_parse("separate", &parsed) && parsed == SIM_STACKS_SEPARATE);
    ck_assert(!sim_stacks_parse("pooled", &parsed) && !sim_stacks_parse(NULL, &parsed));

    gboolean can = core_stack_sharing_available(CORE_COLLSIM);
    ck_assert(!core_stack_sharing_available(CORE_SIMGRID));
    struct sim_outcome outcome;
    ck_assert(run_stacks(SIM_STACKS_AUTO, SIM_ENGINE_COLLSIM, &outcome, NULL));
    ck_assert_int_eq(outcome.exit_code, 0);
    ck_assert_int_eq(outcome.stack_shared, can);
    ck_assert_uint_eq(outcome.stack_kib, can ? 8192 : 256); /* shared: 8 MiB; a stack each */
    ck_assert(run_stacks(SIM_STACKS_SEPARATE, SIM_ENGINE_COLLSIM, &outcome, NULL));
    ck_assert_int_eq(outcome.exit_code, 0);
    ck_assert(!outcome.stack_shared);
    ck_assert(run_stacks(SIM_STACKS_AUTO, SIM_ENGINE_SIMGRID, &outcome, NULL));
    ck_assert_int_eq(outcome.exit_code, 0);
    ck_assert(!outcome.stack_shared);
    /* asked for where it cannot be: refused, with the reason */
    GError *error = NULL;
    ck_assert(!run_stacks(SIM_STACKS_SHARED, SIM_ENGINE_SIMGRID, &outcome, &error));
    ck_assert_ptr_nonnull(strstr(error->message, "--stacks shared: SimGrid's core runs this"));
    g_clear_error(&error);
    if (can) {
        ck_assert(run_stacks(SIM_STACKS_SHARED, SIM_ENGINE_COLLSIM, &outcome, NULL));
        ck_assert(outcome.stack_shared);
    } else {
        ck_assert(!run_stacks(SIM_STACKS_SHARED, SIM_ENGINE_COLLSIM, &outcome, &error));
        ck_assert_ptr_nonnull(strstr(error->message, "AddressSanitizer"));
        g_clear_error(&error);
    }
    ck_assert_int_eq(outcome.exit_code, 0);
}
END_TEST

static void
wtime_rank(int rank, void *arg)
{
    (void)arg;
    double t0 = MPI_Wtime();
    ck_assert(t0 == 0.0);
    ck_assert(MPI_Wtick() > 0);
    int flag = 0;
    MPI_Initialized(&flag);
    ck_assert_int_eq(flag, 1);
    MPI_Finalized(&flag);
    ck_assert_int_eq(flag, 0);
    (void)rank;
}

START_TEST(test_clock_starts_at_zero)
{
    ck_assert_int_eq(collsim_test_run_ranks(3, wtime_rank, NULL), 0);
}
END_TEST

static Suite *
engine_suite(void)
{
    Suite *s = suite_create("engine");
    TCase *placement = tcase_create("placement");
    tcase_add_test(placement, test_block_placement_fills_cores_in_name_order);
    tcase_add_test(placement, test_cyclic_placement_round_robin);
    tcase_add_test(placement, test_oversubscribed_block_spreads_evenly);
    tcase_add_test(placement, test_too_many_ranks_is_refused);
    suite_add_tcase(s, placement);
    TCase *platform = tcase_create("platform");
    tcase_add_test(platform, test_missing_platform_is_refused);
    tcase_add_test(platform, test_malformed_platform_names_file_and_line);
    tcase_add_test(platform, test_platform_cores_counts_every_host);
    tcase_add_test(platform, test_platform_cores_of_a_bad_platform_is_an_error);
    tcase_add_test(platform, test_radicals_are_checked_in_any_encoding);
    tcase_add_test(platform, test_marker_text_in_the_file_is_not_a_report);
    tcase_add_test(platform, test_check_platform_stops_a_load_at_its_limit);
    tcase_add_test(platform, test_check_platform_reads_a_plain_cluster_itself);
    tcase_add_test(platform, test_inspecting_child_dies_of_its_own_signals);
    suite_add_tcase(s, platform);
    TCase *outcome = tcase_create("outcome");
    tcase_add_exit_test(outcome, test_abort_ends_with_its_code, 7);
    tcase_add_test(outcome, test_missing_finalize_is_reported);
    tcase_add_test(outcome, test_clock_starts_at_zero);
    tcase_add_test(outcome, test_stacks_shared_where_the_core_can);
    suite_add_tcase(s, outcome);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(engine_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
