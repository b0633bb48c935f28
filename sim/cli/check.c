/*
 * check.c — `collsim check FILE.ini`: is the scenario's output deterministic, and the same
 * under both cores?
 *
 * Runs the scenario's sweep (run_sweep, every point in its own child) twice under the default
 * engine (collsim's own core wherever it models the run), then once under SimGrid's core with
 * each context factory this SimGrid offers (thread, ucontext, raw, boost: whichever start a
 * simulation here), and compares, point by point, the canonical text the run's digest covers
 * (report_canonical_text) byte for byte. Each difference is named: the point, the field,
 * every run's value. The scenario's own `engine` key is set aside: every core is checked.
 *
 * A factory is passed to the children as a SimGrid item (--cfg=contexts/factory:NAME) after
 * those of COLLSIM_SIMGRID_CFG; which factories exist is found by starting a two-rank
 * simulation under each in a child (SimGrid aborts on a factory it was built without).
 *
 * Exit codes: 0 every run gave the same output; 1 some point differs between runs (or a run
 * could not be completed); 2 a bad scenario, override or option (nothing ran).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "sim/cli/check.h"
#include "sim/engine/engine.h"
#include "mpi.h"
#include "sim/engine/proc.h"
#include "sim/report/report.h"
#include "sim/scenario/run.h"
#include "sim/scenario/scenario.h"
#include "src/coll/coll_registry.h"

#define CHECK_EXIT_DIFFERENT 1
#define CHECK_EXIT_USAGE 2

/* SimGrid 3.32's context factories; a build may lack some (boost, ucontext). */
static const char *const known_factories[] = {"thread", "ucontext", "raw", "boost"};

/* ---------------------------------------------------------------- factories */

static int
probe_rank_main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}

/* In a child: start a two-rank simulation under the context factory `data` names. */
static int
probe_factory_in_child(gpointer data)
{
    const char *name = data;
    gchar *item = g_strdup_printf("--cfg=contexts/factory:%s", name);
    gchar *cfg[] = {item, NULL};
    static char *argv[] = {"collsim-check-probe", NULL};
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = 2;
    config.program = probe_rank_main;
    config.argc = 1;
    config.argv = argv;
    config.privatize = FALSE;
    config.simgrid_cfg = cfg;
    struct sim_outcome outcome;
    gboolean ran = sim_engine_run(&config, &outcome, NULL);
    /* freed before returning: a leak checker (valgrind) looks at the child's heap at its
     * _exit, after this frame is gone */
    g_free(item);
    return ran && outcome.exit_code == 0 ? 0 : 1;
}

/* Can this SimGrid run a simulation with the context factory `name`? (In a child: SimGrid
 * starts once per process and aborts on a factory it does not have; its words are muted.) */
static gboolean
factory_available(const char *name)
{
    static const struct sim_proc_options muted = {
        .stdout_to = SIM_PROC_DISCARD,
        .stderr_to = SIM_PROC_DISCARD,
    };
    struct sim_proc_result child;
    if (!sim_proc_run(probe_factory_in_child, (gpointer)name, &muted, &child, NULL))
        return FALSE;
    sim_proc_result_clear(&child);
    return child.status.end == SIM_PROC_EXITED && child.status.exit_code == 0;
}

static gboolean
is_known_factory(const char *name)
{
    for (gsize i = 0; i < G_N_ELEMENTS(known_factories); i++)
        if (strcmp(name, known_factories[i]) == 0)
            return TRUE;
    return FALSE;
}

/*
 * The factories to check: those of `requested` ("thread,raw"), or every available one when
 * NULL. FALSE after one message for an unknown or unavailable name.
 */
static gboolean
choose_factories(const char *requested, GPtrArray *factories)
{
    if (requested == NULL) {
        for (gsize i = 0; i < G_N_ELEMENTS(known_factories); i++)
            if (factory_available(known_factories[i]))
                g_ptr_array_add(factories, g_strdup(known_factories[i]));
        return TRUE;
    }
    g_auto(GStrv) names = g_strsplit(requested, ",", -1);
    for (gchar **name = names; *name != NULL; name++) {
        if (**name == '\0')
            continue;
        if (!is_known_factory(*name)) {
            fprintf(stderr,
                    "collsim: check: --factories: unknown context factory '%s' (thread, "
                    "ucontext, raw or boost)\n",
                    *name);
            return FALSE;
        }
        if (!factory_available(*name)) {
            fprintf(stderr,
                    "collsim: check: --factories: this SimGrid cannot run the '%s' context "
                    "factory\n",
                    *name);
            return FALSE;
        }
        g_ptr_array_add(factories, g_strdup(*name));
    }
    if (factories->len == 0) {
        fprintf(stderr, "collsim: check: --factories: no factory named\n");
        return FALSE;
    }
    return TRUE;
}

/* ---------------------------------------------------------------- one run */

struct check_run {
    gchar *label;     /* "default engine", "SimGrid core, factory thread" */
    enum sim_engine_choice engine;
    gchar **cfg;      /* SimGrid items for the children, or NULL */
    GPtrArray *texts; /* gchar *: each point's canonical text, sweep order */
    gchar *digest;    /* the run's digest (hex), or NULL if the run did not complete */
    struct report *report;
};

static gboolean
check_sink(const struct run_point *point, const struct point_result *result, gpointer data,
           GError **error)
{
    struct check_run *run = data;
    g_ptr_array_add(run->texts, report_canonical_text(point, result));
    return report_add(run->report, point, result, error);
}

/* Run the sweep once; FALSE (with a message) if it could not complete. */
static gboolean
check_run_sweep(const struct scenario *scenario, int jobs, struct check_run *run)
{
    GError *error = NULL;
    for (guint i = 0; i < scenario->points->len; i++)
        ((struct run_point *)scenario->points->pdata[i])->engine = run->engine;
    struct report_options ropt = {.scenario = scenario->name};
    run->report = report_open(&ropt, scenario->points->len, &error);
    gboolean ok =
        run->report != NULL &&
        run_sweep(scenario, jobs, (const char *const *)run->cfg, check_sink, run, &error) &&
        (run->digest = report_finish(run->report, &error)) != NULL;
    if (!ok)
        fprintf(stderr, "collsim: check: %s: %s\n", run->label, error->message);
    g_clear_error(&error);
    if (run->report != NULL)
        report_free(run->report);
    run->report = NULL;
    return ok;
}

static void
check_run_clear(struct check_run *run)
{
    g_free(run->label);
    g_strfreev(run->cfg);
    if (run->texts != NULL)
        g_ptr_array_free(run->texts, TRUE);
    g_free(run->digest);
}

/* ---------------------------------------------------------------- comparing */

/* Fields of one CSV line (RFC 4180: a quoted field may hold commas, doubled quotes and line
 * breaks), unquoted. */
static GPtrArray *
split_csv_line(const char *line, const char **rest)
{
    GPtrArray *fields = g_ptr_array_new_with_free_func(g_free);
    GString *field = g_string_new(NULL);
    const char *c = line;
    for (;;) {
        if (*c == '"') {
            for (c++; *c != '\0'; c++) {
                if (*c == '"' && c[1] == '"')
                    g_string_append_c(field, *c++);
                else if (*c == '"')
                    break;
                else
                    g_string_append_c(field, *c);
            }
            if (*c == '"')
                c++;
        }
        while (*c != '\0' && *c != ',' && *c != '\n')
            g_string_append_c(field, *c++);
        g_ptr_array_add(fields, g_strdup(field->str));
        g_string_truncate(field, 0);
        if (*c != ',')
            break;
        c++;
    }
    if (*c == '\n')
        c++;
    *rest = c;
    g_string_free(field, TRUE);
    return fields;
}

/* A program's output from the canonical text's rest ("output N\nTEXT\n" or "output none\n"),
 * split into lines; NULL for none. */
static gchar **
output_lines(const char *rest)
{
    guint64 length = 0;
    char *body = NULL;
    if (!g_str_has_prefix(rest, "output "))
        return NULL;
    length = g_ascii_strtoull(rest + 7, &body, 10);
    if (body == NULL || *body != '\n' || strlen(body + 1) < length)
        return NULL;
    g_autofree gchar *text = g_strndup(body + 1, length);
    return g_strsplit(text, "\n", -1);
}

/* Where programs' outputs differ: the first line not the same in every run, each run's copy. */
static void
print_output_difference(GPtrArray *runs, const char **rests)
{
    guint nruns = runs->len;
    gchar ***lines = g_new0(gchar **, nruns);
    guint longest = 0;
    for (guint r = 0; r < nruns; r++) {
        lines[r] = output_lines(rests[r]);
        longest = MAX(longest, lines[r] != NULL ? g_strv_length(lines[r]) : 0);
    }
    guint at = 0;
    for (; at < longest; at++) {
        gboolean same = TRUE;
        for (guint r = 1; r < nruns && same; r++) {
            const char *a = lines[0] != NULL && at < g_strv_length(lines[0]) ? lines[0][at] : NULL;
            const char *b = lines[r] != NULL && at < g_strv_length(lines[r]) ? lines[r][at] : NULL;
            same = g_strcmp0(a, b) == 0;
        }
        if (!same)
            break;
    }
    printf("    (first differing line of the output: %u)\n", at + 1);
    for (guint r = 0; r < nruns; r++) {
        const struct check_run *run = runs->pdata[r];
        if (lines[r] == NULL)
            printf("    run %u (%s): (no output)\n", r + 1, run->label);
        else if (at < g_strv_length(lines[r]))
            printf("    run %u (%s): %s\n", r + 1, run->label, lines[r][at]);
        else
            printf("    run %u (%s): (no such line)\n", r + 1, run->label);
        g_strfreev(lines[r]);
    }
    g_free(lines);
}

/* "point 3 (allreduce ring P=8, 8 B)" */
static gchar *
point_label(const struct run_point *point)
{
    if (point->program != NULL) {
        g_autofree gchar *name = g_path_get_basename(point->program);
        return g_strdup_printf("point %u (program %s P=%d)", point->index, name, point->nranks);
    }
    return g_strdup_printf(
        "point %u (%s %s P=%d, %" G_GUINT64_FORMAT " B)", point->index, coll_kind_name(point->kind),
        point->algorithm != NULL ? point->algorithm : "default", point->nranks, point->bytes);
}

/*
 * Name every field of point `p` that is not the same in all runs, with each run's value.
 * Returns the number of such fields.
 */
static guint
report_point_differences(const struct run_point *point, GPtrArray *runs, char **names)
{
    guint nruns = runs->len;
    GPtrArray **fields = g_new0(GPtrArray *, nruns);
    const char **rests = g_new0(const char *, nruns);
    for (guint r = 0; r < nruns; r++) {
        const struct check_run *run = runs->pdata[r];
        fields[r] = split_csv_line(run->texts->pdata[point->index], &rests[r]);
    }
    g_autofree gchar *label = point_label(point);
    guint nfields = fields[0]->len;
    guint differing = 0;
    /* the field names the digest uses; then a program's output, then anything left */
    for (guint f = 0; f <= nfields + 1; f++) {
        gboolean differs = FALSE;
        for (guint r = 1; r < nruns && !differs; r++) {
            const char *a = f < nfields    ? g_ptr_array_index(fields[0], f)
                            : f == nfields ? rests[0]
                                           : NULL;
            const char *b = f < fields[r]->len ? g_ptr_array_index(fields[r], f)
                            : f == nfields     ? rests[r]
                                               : NULL;
            if (f == nfields + 1)
                differs = fields[r]->len != nfields;
            else
                differs = g_strcmp0(a, b) != 0;
        }
        if (!differs)
            continue;
        differing++;
        const char *name = f < nfields && names[f] != NULL ? names[f]
                           : f == nfields                  ? "output"
                                                           : "number of fields";
        printf("%s: %s differs\n", label, name);
        if (f == nfields) {
            print_output_difference(runs, rests);
            continue;
        }
        for (guint r = 0; r < nruns; r++) {
            const struct check_run *run = runs->pdata[r];
            if (f == nfields + 1)
                printf("    run %u (%s): %u fields\n", r + 1, run->label, fields[r]->len);
            else if (f < fields[r]->len)
                printf("    run %u (%s): %s\n", r + 1, run->label,
                       (const char *)g_ptr_array_index(fields[r], f));
            else
                printf("    run %u (%s): (missing)\n", r + 1, run->label);
        }
    }
    for (guint r = 0; r < nruns; r++)
        g_ptr_array_free(fields[r], TRUE);
    g_free(fields);
    g_free(rests);
    return differing;
}

/* Compare every point of every run with the first run; returns the points that differ. */
static guint
compare_runs(const struct scenario *scenario, GPtrArray *runs)
{
    g_autofree gchar *header = report_canonical_header();
    g_strchomp(header);
    g_auto(GStrv) names = g_strsplit(header, ",", -1);
    guint differing_points = 0;
    const struct check_run *first = runs->pdata[0];
    for (guint p = 0; p < scenario->points->len; p++) {
        gboolean same = TRUE;
        for (guint r = 1; r < runs->len && same; r++) {
            const struct check_run *run = runs->pdata[r];
            same = strcmp(first->texts->pdata[p], run->texts->pdata[p]) == 0;
        }
        if (same)
            continue;
        differing_points++;
        if (report_point_differences(scenario->points->pdata[p], runs, names) == 0) {
            g_autofree gchar *label = point_label(scenario->points->pdata[p]);
            printf("%s: the texts differ, though no field does\n", label);
        }
    }
    return differing_points;
}

/* ---------------------------------------------------------------- the command */

struct check_options {
    gchar **overrides;
    gchar *factories;
    gint jobs;
};

static void
add_run(GPtrArray *runs, gchar *label, enum sim_engine_choice engine, const char *factory)
{
    struct check_run *run = g_new0(struct check_run, 1);
    run->label = label;
    run->engine = engine;
    if (factory != NULL) {
        run->cfg = g_new0(gchar *, 3);
        run->cfg[0] = g_strdup_printf("--cfg=contexts/factory:%s", factory);
        /* threads have the system's stacks: SimGrid would warn, once per point, that the
         * engine's stack size is ignored */
        if (strcmp(factory, "thread") == 0)
            run->cfg[1] = g_strdup("--log=ker_context.thres:error");
    }
    run->texts = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(runs, run);
}

static void
free_run(gpointer data)
{
    check_run_clear(data);
    g_free(data);
}

int
collsim_command_check(int argc, char **argv)
{
    struct check_options opt = {.jobs = 1};
    GOptionEntry entries[] = {
        SCENARIO_OPTION_SET(&opt.overrides),
        {"factories", 0, 0, G_OPTION_ARG_STRING, &opt.factories,
         "Context factories to run under (default: every one this SimGrid has)",
         "thread,ucontext,raw,boost"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs, "Simulate up to N points at once", "N"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    static const struct scenario_command_help help = {
        "FILE.ini - check that a scenario's output is deterministic, under both cores",
        "Runs the scenario's sweep twice under the default engine (collsim's own core where\n"
        "it models the run), then once under SimGrid's core with each context factory this\n"
        "SimGrid has (thread, ucontext, raw, boost), and compares every point's simulated\n"
        "outputs (what the digest covers: every field of its CSV row but wall_s, and a\n"
        "program's output) byte for byte. Prints each run's digest and every difference: the\n"
        "point, the field, each run's value. The scenario's engine key is set aside.",
        "Exit status: 0 all runs identical, 1 a difference (or a run that could not\ncomplete), "
        "2 a bad scenario, override or option (nothing ran).",
    };
    GError *error = NULL;
    int rc = 0;
    struct scenario *scenario = NULL;
    GPtrArray *factories = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *runs = g_ptr_array_new_with_free_func(free_run);
    (void)argc;
    scenario = scenario_command_load(entries, &help, argv, "check", &opt.jobs, &opt.overrides);
    if (scenario == NULL) {
        rc = CHECK_EXIT_USAGE;
        goto out;
    }
    if (!choose_factories(opt.factories, factories)) {
        rc = CHECK_EXIT_USAGE;
        goto out;
    }

    add_run(runs, g_strdup("default engine"), SIM_ENGINE_AUTO, NULL);
    add_run(runs, g_strdup("default engine, again"), SIM_ENGINE_AUTO, NULL);
    for (guint i = 0; i < factories->len; i++)
        add_run(runs,
                g_strdup_printf("SimGrid core, factory %s", (const char *)factories->pdata[i]),
                SIM_ENGINE_SIMGRID, factories->pdata[i]);
    printf("check %s: %u point%s, %u runs; context factories:", scenario->name,
           scenario->points->len, scenario->points->len == 1 ? "" : "s", runs->len);
    for (guint i = 0; i < factories->len; i++)
        printf(" %s", (const char *)factories->pdata[i]);
    printf("\n");
    fflush(stdout);
    for (guint r = 0; r < runs->len; r++) {
        struct check_run *run = runs->pdata[r];
        if (!check_run_sweep(scenario, opt.jobs, run)) {
            rc = CHECK_EXIT_DIFFERENT;
            goto out;
        }
        printf("run %u (%s): digest sha256:%s\n", r + 1, run->label, run->digest);
        fflush(stdout);
    }
    guint differing = compare_runs(scenario, runs);
    if (differing > 0) {
        printf("NOT deterministic: %u of %u points differ between runs\n", differing,
               scenario->points->len);
        rc = CHECK_EXIT_DIFFERENT;
    } else {
        printf("deterministic: all %u runs identical, point by point\n", runs->len);
    }
out:
    if (scenario != NULL)
        scenario_free(scenario);
    g_ptr_array_free(runs, TRUE);
    g_ptr_array_free(factories, TRUE);
    g_clear_error(&error);
    g_strfreev(opt.overrides);
    g_free(opt.factories);
    return rc;
}
