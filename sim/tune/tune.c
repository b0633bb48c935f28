/*
 * tune.c — `collsim tune`: which algorithm is fastest for each (collective, P, size) on one
 * platform, and the tuning files that make Open MPI and MPICH use it.
 *
 *   collsim tune --platform SPEC|FILE.xml -n P1,P2,... --sizes 8,1KiB,... [--collectives ...]
 *                [--placement POLICY] [--network NAME] [--payload data|none] [-j N] -o PREFIX
 *
 * The sweep is a scenario made of the options (scenario_load_overrides, `algorithms = all`), run
 * by the point runner of `collsim run` (run_sweep): each time is exactly the one `collsim run`
 * reports for the same point. A point whose algorithm cannot serve the call (a requirement
 * unmet, or it needs payload data when the payload is none) is skipped and counted, never
 * credited with the time of the algorithm that served instead.
 *
 * Outputs: PREFIX-times.csv (every candidate's time), PREFIX-winners.csv, PREFIX-decisions.txt
 * (what each library's default decision picks at each point, run beside the candidates but never
 * one of them, divided by the winner: decision_summary.h), PREFIX-winners.svg
 * (or .png / .pdf with --picture), PREFIX-ompi.rules and PREFIX-mpich.json (tune_rules.h; only
 * when the build has the libraries' catalogues, tune_library_mapping()).
 *
 * Invariants: the fastest is the smallest slowest-rank time; a tie goes to the algorithm first
 * in registry order. Output is a function of the sweep's results only (no wall time).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "sim/bench/bench_ops.h"
#include "sim/report/decision_summary.h"
#include "sim/report/plot.h"
#include "sim/report/report.h"
#include "sim/scenario/run.h"
#include "sim/scenario/scenario.h"
#include "sim/tune/tune.h"
#include "sim/tune/tune_rules.h"
#include "src/coll_decision.h"
#include "src/coll/coll_kinds.h"

#define EXIT_USAGE 2

struct tune_options {
    gchar *platform;
    gchar *ranks;
    gchar *sizes;
    gchar *collectives;
    gchar *placement;
    gchar *network;
    gchar *payload;
    gchar *engine;
    gchar *wall_limit;
    gchar *prefix;
    gchar *picture;
    gboolean oversubscribe;
    gint jobs;
    gboolean quiet;
};

/* The scenario key each option sets: an error about a key is shown with the option. */
static const struct {
    const char *key;
    const char *option;
} option_keys[] = {
    {"platform.file", "--platform"},
    {"platform.placement", "--placement"},
    {"platform.network", "--network"},
    {"platform.oversubscribe", "--oversubscribe"},
    {"run.ranks", "-n"},
    {"run.sizes", "--sizes"},
    {"run.collectives", "--collectives"},
    {"run.payload", "--payload"},
    {"run.engine", "--engine"},
    {"run.wall_limit", "--wall-limit"},
};

static void
add_override(GPtrArray *overrides, const char *key, const char *value)
{
    if (value != NULL)
        g_ptr_array_add(overrides, g_strdup_printf("%s=%s", key, value));
}

/* "--set run.sizes=3x: [run] sizes: ..." -> "--sizes 3x: [run] sizes: ..." */
static gchar *
option_message(const char *message)
{
    for (gsize i = 0; i < G_N_ELEMENTS(option_keys); i++) {
        gchar *prefix = g_strdup_printf("--set %s=", option_keys[i].key);
        gboolean match = g_str_has_prefix(message, prefix);
        gchar *text =
            match ? g_strdup_printf("%s %s", option_keys[i].option, message + strlen(prefix))
                  : NULL;
        g_free(prefix);
        if (match)
            return text;
    }
    return g_strdup(message);
}

struct tune_state {
    struct tune_table *table;
    struct plot_data *plot;
    struct decision_summary *decisions; /* the libraries' defaults against the winners */
    guint done, total;
    guint skipped; /* algorithm could not serve the point */
    guint failed;  /* the simulation ended in an error */
    gboolean progress;
};

static gboolean
collect(const struct run_point *point, const struct point_result *result, gpointer data,
        GError **error)
{
    (void)error;
    struct tune_state *st = data;
    st->done++;
    if (st->progress)
        fprintf(stderr, "\rcollsim tune: %u/%u runs", st->done, st->total);
    if (result->exit_code != 0 || result->check == POINT_CHECK_ERROR ||
        result->check == POINT_CHECK_FAIL) {
        st->failed++;
        if (st->progress)
            fputc('\n', stderr);
        fprintf(stderr, "collsim tune: %s %s at %d ranks, %" G_GUINT64_FORMAT " B: %s (left out)\n",
                coll_kind_name(point->kind), point->algorithm, point->nranks, point->bytes,
                result->check_detail != NULL ? result->check_detail : "error");
        return TRUE;
    }
    decision_summary_add(st->decisions, point, result);
    if (point->algorithm != NULL && coll_decision_is_library(point->algorithm))
        return TRUE; /* what a library's default picks: measured, never a candidate */
    if (result->fallback_reason != NULL) {
        st->skipped++;
        return TRUE;
    }
    const struct bench_datatype *type =
        bench_datatype_find(point->datatype != NULL ? point->datatype : "byte");
    guint64 bytes = point->kind == COLL_BARRIER ? 0 : point->bytes;
    /* a barrier has one point per P in the sweep already; keep the first of any repeat */
    tune_table_add(st->table, point->kind, point->nranks, bytes,
                   type != NULL ? (guint)type->size : 1, point->algorithm, result->time_max);
    plot_data_add(st->plot, point, result);
    return TRUE;
}

static void
csv_time(GString *s, const struct tune_candidate *c)
{
    if (c == NULL) {
        g_string_append(s, ",,");
        return;
    }
    char text[G_ASCII_DTOSTR_BUF_SIZE];
    report_format_double_exact(c->time, text, sizeof text);
    g_string_append_printf(s, ",%s,%s", c->algorithm, text);
}

/* PREFIX-winners.csv: a row per point, the fastest, the runner-up, each library's fastest. */
static gboolean
write_winners(const struct tune_table *table, const struct tune_mapping *mapping, const char *path,
              GError **error)
{
    GString *s = g_string_new("collective,ranks,bytes,winner,time_s,runner_up,runner_up_time_s");
    for (int l = 0; l < TUNE_LIBRARY_COUNT; l++)
        g_string_append_printf(s, ",%s_winner,%s_time_s", tune_library_name(l),
                               tune_library_name(l));
    g_string_append_c(s, '\n');
    for (guint i = 0; i < table->points->len; i++) {
        const struct tune_point *p = g_ptr_array_index(table->points, i);
        const struct tune_candidate *second = NULL;
        const struct tune_candidate *best =
            tune_point_fastest(p, TUNE_LIBRARY_COUNT, NULL, &second);
        g_string_append_printf(s, "%s,%d,%" G_GUINT64_FORMAT, coll_kind_name(p->kind), p->nranks,
                               p->bytes);
        csv_time(s, best);
        csv_time(s, second);
        for (int l = 0; l < TUNE_LIBRARY_COUNT; l++)
            csv_time(s, mapping != NULL ? tune_point_fastest(p, l, mapping, NULL) : NULL);
        g_string_append_c(s, '\n');
    }
    gboolean ok = g_file_set_contents(path, s->str, (gssize)s->len, error);
    g_string_free(s, TRUE);
    return ok;
}

static gboolean
write_rules(const struct tune_table *table, const struct tune_mapping *mapping,
            const struct tune_options *opt, gchar **written)
{
    gchar *origin = g_strdup_printf("collsim %s tune --platform %s -n %s --sizes %s%s%s",
                                    PACKAGE_VERSION, opt->platform, opt->ranks, opt->sizes,
                                    opt->network != NULL ? " --network " : "",
                                    opt->network != NULL ? opt->network : "");
    struct tune_rules_source source = {table, mapping, origin};
    gchar *ompi = g_strdup_printf("%s-ompi.rules", opt->prefix);
    gchar *mpich = g_strdup_printf("%s-mpich.json", opt->prefix);
    GError *error = NULL;
    gboolean ok = TRUE;
    GString *list = g_string_new(NULL);
    if (tune_ompi_write(&source, ompi, &error)) {
        g_string_append_printf(list, ", %s", ompi);
    } else {
        fprintf(stderr, "collsim tune: %s\n", error->message);
        g_clear_error(&error);
        ok = FALSE;
    }
    if (tune_mpich_write(&source, mpich, &error)) {
        g_string_append_printf(list, ", %s", mpich);
    } else {
        fprintf(stderr, "collsim tune: %s\n", error->message);
        g_clear_error(&error);
        ok = FALSE;
    }
    *written = g_string_free(list, FALSE);
    g_free(ompi);
    g_free(mpich);
    g_free(origin);
    return ok;
}

int
collsim_command_tune(int argc, char **argv)
{
    (void)argc;
    struct tune_options opt = {.jobs = 1};
    GOptionEntry entries[] = {
        {"platform", 'p', 0, G_OPTION_ARG_FILENAME, &opt.platform,
         "SimGrid platform file, or a generator NAME[:key=value,...] (collsim list platforms); "
         "default a flat cluster of P hosts",
         "FILE|SPEC"},
        {"np", 'n', 0, G_OPTION_ARG_STRING, &opt.ranks,
         "Rank counts, as the scenario key run.ranks: 4,8,16 or 2..1024*2 (required)", "P,..."},
        {"sizes", 0, 0, G_OPTION_ARG_STRING, &opt.sizes,
         "Message sizes, as run.sizes: 8,1KiB,64KiB,1MiB (default 8)", "SIZES"},
        {"collectives", 0, 0, G_OPTION_ARG_STRING, &opt.collectives,
         "Collectives, as run.collectives (default all)", "LIST"},
        {"placement", 0, 0, G_OPTION_ARG_STRING, &opt.placement,
         "Rank placement: block (default), cyclic, random:SEED or hostfile:FILE", "POLICY"},
        {"oversubscribe", 0, 0, G_OPTION_ARG_NONE, &opt.oversubscribe,
         "Allow more ranks than the platform has cores", NULL},
        {"network", 0, 0, G_OPTION_ARG_STRING, &opt.network,
         "Network preset (collsim list networks)", "NAME"},
        {"payload", 0, 0, G_OPTION_ARG_STRING, &opt.payload,
         "data (default: move and check real bytes) or none (sizes only: faster at scale; the "
         "algorithms that need data are skipped)",
         "MODE"},
        {"engine", 0, 0, G_OPTION_ARG_STRING, &opt.engine,
         "auto (default), simgrid or collsim: the discrete-event core, as collsim exec --engine",
         "CORE"},
        {"wall-limit", 0, 0, G_OPTION_ARG_STRING, &opt.wall_limit,
         "Give up a run that takes longer than this much real time, e.g. 600s (it counts as "
         "failed, never as a winner; default: no limit)",
         "SECONDS"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &opt.prefix,
         "Prefix of the files written: PREFIX-times.csv, PREFIX-winners.csv, "
         "PREFIX-decisions.txt, PREFIX-winners.svg, PREFIX-ompi.rules, PREFIX-mpich.json "
         "(required)",
         "PREFIX"},
        {"picture", 0, 0, G_OPTION_ARG_STRING, &opt.picture,
         "Format of the winner map: svg (default), png or pdf", "FORMAT"},
        {"jobs", 'j', 0, G_OPTION_ARG_INT, &opt.jobs, "Simulate N points at once (default 1)", "N"},
        {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt.quiet, "No progress count on a terminal", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context =
        g_option_context_new("- the fastest algorithm per collective, P and size, as CSV, a "
                             "picture and Open MPI / MPICH tuning files");
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = 0;
    gchar **args = g_strdupv(argv);
    GPtrArray *overrides = g_ptr_array_new_with_free_func(g_free);
    struct scenario *scenario = NULL;
    struct tune_state st = {0};
    gchar *svg = NULL, *times = NULL, *winners = NULL, *decisions = NULL, *rules = NULL;

    if (!g_option_context_parse_strv(context, &args, &error)) {
        fprintf(stderr, "collsim: tune: %s\n", error->message);
        rc = EXIT_USAGE;
        goto out;
    }
    if (g_strv_length(args) > 1) {
        fprintf(stderr, "collsim: tune: unexpected argument '%s' (every input is an option)\n",
                args[1]);
        rc = EXIT_USAGE;
        goto out;
    }
    if (opt.ranks == NULL || opt.prefix == NULL) {
        fprintf(stderr, "collsim: tune: %s is required (collsim tune --help)\n",
                opt.ranks == NULL ? "-n P1,P2,..." : "-o PREFIX");
        rc = EXIT_USAGE;
        goto out;
    }
    if (opt.jobs < 1) {
        fprintf(stderr, "collsim: tune: --jobs must be at least 1 (got %d)\n", opt.jobs);
        rc = EXIT_USAGE;
        goto out;
    }
    const char *format = opt.picture != NULL ? opt.picture : "svg";
    if (strcmp(format, "svg") != 0 && strcmp(format, "png") != 0 && strcmp(format, "pdf") != 0) {
        fprintf(stderr, "collsim: tune: --picture must be svg, png or pdf (got '%s')\n", format);
        rc = EXIT_USAGE;
        goto out;
    }
    svg = g_strdup_printf("%s-winners.%s", opt.prefix, format);
    times = g_strdup_printf("%s-times.csv", opt.prefix);
    winners = g_strdup_printf("%s-winners.csv", opt.prefix);
    decisions = g_strdup_printf("%s-decisions.txt", opt.prefix);
    if (!plot_check(svg, &error)) {
        fprintf(stderr, "collsim: tune: -o: %s\n", error->message);
        rc = EXIT_USAGE;
        goto out;
    }

    add_override(overrides, "scenario.name", "tune");
    add_override(overrides, "platform.file", opt.platform);
    add_override(overrides, "platform.placement", opt.placement);
    add_override(overrides, "platform.network", opt.network);
    add_override(overrides, "platform.oversubscribe", opt.oversubscribe ? "true" : NULL);
    add_override(overrides, "run.ranks", opt.ranks);
    add_override(overrides, "run.sizes", opt.sizes);
    add_override(overrides, "run.collectives", opt.collectives != NULL ? opt.collectives : "all");
    /* every algorithm, and what each library's default decision picks (for PREFIX-decisions) */
    gchar **libraries = coll_decision_libraries();
    gchar *library_list = g_strjoinv(",", libraries);
    gchar *algorithms = g_strdup_printf("all%s%s", *library_list != '\0' ? "," : "", library_list);
    add_override(overrides, "run.algorithms", algorithms);
    g_free(algorithms);
    g_free(library_list);
    g_strfreev(libraries);
    add_override(overrides, "run.payload", opt.payload);
    add_override(overrides, "run.engine", opt.engine);
    add_override(overrides, "run.wall_limit", opt.wall_limit);
    g_ptr_array_add(overrides, NULL);
    scenario =
        scenario_load_overrides("collsim tune", (const char *const *)overrides->pdata, &error);
    if (scenario == NULL) {
        gchar *msg = option_message(error->message);
        fprintf(stderr, "collsim: tune: %s\n", msg);
        g_free(msg);
        rc = EXIT_USAGE;
        goto out;
    }

    st.table = tune_table_new();
    st.plot = plot_data_new();
    st.decisions = decision_summary_new();
    st.total = scenario->points->len;
    st.progress = !opt.quiet && isatty(STDERR_FILENO);
    if (!run_sweep(scenario, opt.jobs, NULL, collect, &st, &error)) {
        if (st.progress)
            fputc('\n', stderr);
        fprintf(stderr, "collsim: tune: %s\n", error->message);
        rc = 1;
        goto out;
    }
    if (st.progress)
        fputc('\n', stderr);
    tune_table_finish(st.table);

    const struct tune_mapping *mapping = tune_library_mapping();
    GError *werror = NULL;
    gchar *title = g_strdup_printf("collsim tune on %s: the fastest algorithm per P and size",
                                   opt.platform != NULL ? opt.platform : "a flat cluster");
    GString *against = g_string_new(NULL);
    decision_summary_write(st.decisions, against);
    if (!tune_table_write_times(st.table, times, &werror) ||
        !write_winners(st.table, mapping, winners, &werror) ||
        !g_file_set_contents(decisions, against->str, (gssize)against->len, &werror) ||
        !plot_write_winner_maps(st.plot, svg, title, &werror)) {
        fprintf(stderr, "collsim: tune: %s\n", werror->message);
        g_error_free(werror);
        g_free(title);
        g_string_free(against, TRUE);
        rc = 1;
        goto out;
    }
    g_free(title);
    if (mapping != NULL) {
        if (!write_rules(st.table, mapping, &opt, &rules))
            rc = 1;
    } else {
        fprintf(stderr,
                "collsim: tune: %s-ompi.rules and %s-mpich.json NOT written: this build has no "
                "catalogue of the libraries' algorithms (src/coll_decision.h) to name them\n",
                opt.prefix, opt.prefix);
        rc = 1;
    }
    printf("collsim tune: %u points of %u collective runs; %u runs skipped (the algorithm "
           "cannot serve the call: a requirement unmet, or it needs --payload data), %u failed; "
           "wrote %s, %s, %s, %s%s\n",
           st.table->points->len, st.total, st.skipped, st.failed, times, winners, decisions, svg,
           rules != NULL ? rules : "");
    /* how much the tuned choice gains over each library's default, per collective */
    const char *per_collective = strstr(against->str, "per collective");
    if (per_collective != NULL && !opt.quiet)
        fputs(per_collective, stdout);
    g_string_free(against, TRUE);
    if (st.failed > 0)
        rc = 1;
out:
    if (st.table != NULL)
        tune_table_free(st.table);
    plot_data_free(st.plot);
    decision_summary_free(st.decisions);
    scenario_free(scenario);
    g_ptr_array_free(overrides, TRUE);
    g_clear_error(&error);
    g_strfreev(args);
    g_free(svg);
    g_free(times);
    g_free(winners);
    g_free(decisions);
    g_free(rules);
    g_free(opt.platform);
    g_free(opt.ranks);
    g_free(opt.sizes);
    g_free(opt.collectives);
    g_free(opt.placement);
    g_free(opt.network);
    g_free(opt.payload);
    g_free(opt.engine);
    g_free(opt.wall_limit);
    g_free(opt.prefix);
    g_free(opt.picture);
    g_option_context_free(context);
    return rc;
}
