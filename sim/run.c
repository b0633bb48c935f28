/*
 * run.c — `collsim run FILE.ini`: every point of a scenario's sweep as a fresh simulation.
 *
 * SimGrid starts once per process, so each point runs in a forked child (bench_run_point);
 * the child writes its result, serialised as a GVariant, to a private temporary file and
 * exits; the parent reads it back and reports points strictly in sweep order, however many
 * children run at once (-j). A child that dies (a crash the engine could not report, a kill)
 * becomes an ERROR row instead of ending the sweep, and every finished row is already in the
 * CSV and JSON files.
 *
 * Exit codes: 0 every point ran and checked ok (or unchecked); 1 some point FAILed its check or
 * ended in an error; 2 a bad scenario, override or command line (nothing ran).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "bench.h"
#include "point.h"
#include "report.h"
#include "run.h"
#include "scenario.h"

#define RUN_EXIT_FAILED 1
#define RUN_EXIT_USAGE 2

/* A point being simulated by a child. */
struct running_point {
    guint index;
    pid_t pid;
    gchar *result_path;
    gint64 started;      /* monotonic µs, for the wall time of the point */
};

/* In the child: simulate, write the result, leave without running the parent's atexit work. */
static void G_GNUC_NORETURN
child_run(const struct run_point *point, const char *result_path)
{
    struct point_result result = {0};
    bench_run_point(point, &result);
    GBytes *bytes = point_result_serialize(&result);
    gsize size = 0;
    gconstpointer data = g_bytes_get_data(bytes, &size);
    gboolean written = g_file_set_contents(result_path, data, (gssize)size, NULL);
    g_bytes_unref(bytes);
    point_result_clear(&result);
    fflush(NULL);
    _exit(written ? 0 : 1);
}

static gboolean
start_point(const struct run_point *point, struct running_point *slot, GError **error)
{
    gchar *path = NULL;
    int fd = g_file_open_tmp("collsim-point-XXXXXX", &path, error);
    if (fd < 0)
        return FALSE;
    close(fd);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "fork: %s",
                    g_strerror(errno));
        g_unlink(path);
        g_free(path);
        return FALSE;
    }
    if (pid == 0)
        child_run(point, path);
    *slot = (struct running_point){.index = point->index, .pid = pid, .result_path = path,
                                   .started = g_get_monotonic_time()};
    return TRUE;
}

/* Read a finished child's result; a child that left none becomes an ERROR result. */
static void
collect_point(struct running_point *slot, int status, struct point_result *result)
{
    gchar *data = NULL;
    gsize length = 0;
    gboolean read_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
                       g_file_get_contents(slot->result_path, &data, &length, NULL);
    gboolean parsed = FALSE;
    if (read_ok) {
        GBytes *bytes = g_bytes_new_take(data, length);
        parsed = point_result_deserialize(bytes, result);
        g_bytes_unref(bytes);
    } else {
        g_free(data);
    }
    if (!parsed) {
        *result = (struct point_result){0};
        point_result_clear(result);
        result->exit_code = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 6;
        result->check = POINT_CHECK_ERROR;
        result->served = g_strdup("");
        result->check_detail =
            WIFSIGNALED(status)
                ? g_strdup_printf("the simulation process died (%s)", g_strsignal(WTERMSIG(status)))
                : g_strdup_printf("the simulation process left no result (exit status %d)",
                                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    }
    result->wall_seconds = (double)(g_get_monotonic_time() - slot->started) / 1e6;
    g_unlink(slot->result_path);
    g_clear_pointer(&slot->result_path, g_free);
}

struct run_options {
    gchar **overrides;
    gchar *csv_path;
    gchar *json_path;
    gint jobs;
    gboolean no_progress;
    gboolean quiet;
};

/*
 * Run every point with at most `jobs` children at once; report in sweep order. Returns FALSE
 * only when reporting itself failed (a file could not be written).
 */
static gboolean
run_points(const struct scenario *scenario, struct report *report, int jobs, GError **error)
{
    GPtrArray *points = scenario->points;
    guint total = points->len;
    struct running_point *running = g_new0(struct running_point, total);
    struct point_result *done = g_new0(struct point_result, total);
    gboolean *finished = g_new0(gboolean, total);
    guint next_to_start = 0, next_to_report = 0, active = 0;
    gboolean ok = TRUE;
    while (ok && next_to_report < total) {
        while (active < (guint)jobs && next_to_start < total) {
            const struct run_point *point = points->pdata[next_to_start];
            if (!start_point(point, &running[next_to_start], error)) {
                ok = FALSE;
                break;
            }
            next_to_start++;
            active++;
        }
        if (!ok)
            break;
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errno), "waitpid: %s",
                        g_strerror(errno));
            ok = FALSE;
            break;
        }
        for (guint i = next_to_report; i < next_to_start; i++) {
            if (!finished[i] && running[i].pid == pid) {
                collect_point(&running[i], status, &done[i]);
                finished[i] = TRUE;
                active--;
                break;
            }
        }
        while (ok && next_to_report < total && finished[next_to_report]) {
            ok = report_add(report, points->pdata[next_to_report], &done[next_to_report], error);
            point_result_clear(&done[next_to_report]);
            next_to_report++;
        }
    }
    /* a reporting failure leaves children behind: stop them */
    for (guint i = next_to_report; i < next_to_start; i++) {
        if (!finished[i] && running[i].pid > 0) {
            kill(running[i].pid, SIGKILL);
            waitpid(running[i].pid, NULL, 0);
            g_unlink(running[i].result_path);
            g_free(running[i].result_path);
        }
        point_result_clear(&done[i]);
    }
    g_free(finished);
    g_free(done);
    g_free(running);
    return ok;
}

int
collsim_command_run(int argc, char **argv)
{
    struct run_options opt = {.jobs = 1};
    GOptionEntry entries[] = {
        {"set", 's', 0, G_OPTION_ARG_STRING_ARRAY, &opt.overrides,
         "Override a scenario key, e.g. --set run.ranks=2..64*2 (repeatable)", "GROUP.KEY=VALUE"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt.csv_path,
         "Write one CSV row per point to FILE as points finish", "FILE"},
        {"json", 0, 0, G_OPTION_ARG_FILENAME, &opt.json_path,
         "Write the points as JSON to FILE (rewritten complete after each point)", "FILE"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs,
         "Simulate up to N points at once (default 1; results are the same for any N)", "N"},
        {"no-progress", 0, 0, G_OPTION_ARG_NONE, &opt.no_progress,
         "Never draw the progress bar (it is drawn only on a terminal anyway)", NULL},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt.quiet,
         "No table on standard output (files and exit code only)", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context = g_option_context_new("FILE.ini - run a scenario's sweep");
    g_option_context_set_summary(
        context,
        "Runs every point of the scenario (a collective, an algorithm, a number of ranks and a\n"
        "message size; or an MPI program on a number of ranks) as a fresh simulation, checks\n"
        "the results against a sequential reference in rank order, and prints one table row\n"
        "per point, then a SHA-256 digest of every simulated output. The keys of a scenario\n"
        "file are documented in scenarios/README.md.");
    g_option_context_set_description(
        context, "Exit status: 0 all points ok, 1 a check failed or a simulation ended in an\n"
                 "error, 2 a bad scenario, override or option (nothing ran).");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = 0;
    struct scenario *scenario = NULL;
    struct report *report = NULL;
    gchar *digest = NULL;
    gchar **args = g_strdupv(argv);
    (void)argc;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (g_strv_length(args) != 2) {
        fprintf(stderr, "collsim: run: which scenario? (collsim run FILE.ini)\n");
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (opt.jobs < 1) {
        fprintf(stderr, "collsim: run: --jobs must be at least 1 (got %d)\n", opt.jobs);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    scenario = scenario_load(args[1], (const char *const *)opt.overrides, &error);
    if (scenario == NULL) {
        fprintf(stderr, "collsim: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    /* a progress bar only for a person watching: a terminal, outside CI */
    gboolean progress = !opt.no_progress && isatty(STDERR_FILENO) &&
                        g_getenv("CI") == NULL && scenario->points->len > 1;
    struct report_options ropt = {
        .table = opt.quiet ? NULL : stdout,
        .csv_path = opt.csv_path != NULL ? opt.csv_path : scenario->csv_path,
        .json_path = opt.json_path != NULL ? opt.json_path : scenario->json_path,
        .progress = progress,
        .scenario = scenario->name,
    };
    report = report_open(&ropt, scenario->points->len, &error);
    if (report == NULL) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_USAGE;
        goto out;
    }
    if (!run_points(scenario, report, opt.jobs, &error) ||
        (digest = report_finish(report, &error)) == NULL) {
        fprintf(stderr, "collsim: run: %s\n", error->message);
        rc = RUN_EXIT_FAILED;
        goto out;
    }
    rc = report_failures(report) > 0 ? RUN_EXIT_FAILED : 0;
out:
    g_free(digest);
    if (report != NULL)
        report_free(report);
    if (scenario != NULL)
        scenario_free(scenario);
    g_clear_error(&error);
    g_strfreev(args);
    g_strfreev(opt.overrides);
    g_free(opt.csv_path);
    g_free(opt.json_path);
    g_option_context_free(context);
    return rc;
}
