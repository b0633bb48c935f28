/*
 * main.c — the collsim command.
 *
 *   collsim run FILE.ini [options]                   run a scenario's sweep (sim/scenario/run.c)
 *   collsim exec PROG.so -n P [options] [-- ARGS]   run an MPI program on P simulated ranks
 *   collsim list [TOPIC]                             what is available
 *   collsim order COLLECTIVE ALGORITHM -n P [...]    reduction order certificates (order.c)
 *   collsim check FILE.ini [options]                 is a scenario's output deterministic (check.c)
 *   collsim decide COLLECTIVE -n P --bytes B [...]   a library's default decision (decide.c)
 *   collsim tune --platform SPEC -n P,... -o PREFIX  the fastest algorithm per point, and Open MPI
 *                                                    / MPICH tuning files (sim/tune/tune.c)
 *
 * Exit codes of exec: 0 success; 2 bad command line, program or platform (nothing ran; this
 * includes a program that needs MPI functions collsim lacks or was built for another MPI);
 * 3 fatal MPI error; 4 deadlock; 5 a rank skipped MPI_Finalize; otherwise the program's
 * own non-zero return or MPI_Abort code.
 */
#include "config.h"

#include <malloc.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib.h>
#include <gmodule.h>

#include "sim/cli/algorithm_option.h"
#include "sim/bench/bench.h"
#include "sim/cli/check.h"
#include "sim/cli/decide.h"
#include "sim/cli/explain.h"
#include "sim/engine/engine.h"
#include "sim/engine/memory_estimate.h"
#include "models/model_predict.h"
#include "sim/order/order.h"
#include "sim/engine/platform_gen.h"
#include "sim/engine/program_bind.h"
#include "sim/engine/program_check.h"
#include "sim/cli/merge.h"
#include "sim/scenario/run.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/outputs.h"
#include "sim/tune/tune.h"
#include "src/coll_check.h"
#include "src/coll_decision.h"
#include "src/coll/coll_registry.h"
#include "src/coll/coll_select.h"

#define EXIT_USAGE 2

static int
usage_error(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

static int
usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gchar *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    fprintf(stderr, "collsim: %s\n", msg);
    g_free(msg);
    return EXIT_USAGE;
}

/* ---------------------------------------------------------------- exec */

static void
print_served(const struct sim_outcome *outcome)
{
    for (guint i = 0; outcome->served != NULL && i < outcome->served->len; i++) {
        const struct sim_served *s = &g_array_index(outcome->served, struct sim_served, i);
        fprintf(stderr, "collsim: %s: %" G_GUINT64_FORMAT " call%s served by %s\n",
                coll_kind_mpi_name((enum coll_kind)s->kind), s->calls, s->calls == 1 ? "" : "s",
                s->algorithm);
    }
}

struct exec_options {
    gint nranks;
    gchar *platform;
    gchar *placement;
    gboolean oversubscribe;
    gint stack_kib;
    gboolean no_privatize;
    gboolean no_check;
    gboolean verbose;
    gchar *time_limit;
    gchar *wall_limit;
    gchar *payload;
    gchar *engine;
    gchar *stacks;
    gint64 eager_threshold;
    gchar *network;
    gchar *send_overhead;
    gchar *recv_overhead;
    gchar *gap;
    gchar *progress;
    gchar **simgrid_cfg;
    gchar **algorithms;
    gchar *decision;
    gboolean stats;
    gchar *trace;
    gchar *timeline;
};

static gboolean
parse_payload(const char *text, enum sim_payload *payload)
{
    if (g_strcmp0(text, "data") == 0)
        *payload = SIM_PAYLOAD_DATA;
    else if (g_strcmp0(text, "none") == 0)
        *payload = SIM_PAYLOAD_NONE;
    else
        return FALSE;
    return TRUE;
}

static long
peak_rss_kib(void)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss;
}

static int
command_exec(int argc, char **argv)
{
    struct exec_options opt = {.nranks = 1, .stack_kib = 0, .eager_threshold = G_MININT64};
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_INT, &opt.nranks, "Number of simulated ranks (default 1)",
         "P"},
        {"platform", 'p', 0, G_OPTION_ARG_FILENAME, &opt.platform,
         "SimGrid platform file, or a generator NAME[:key=value,...] (flat, fattree, torus, "
         "dragonfly: collsim list platforms); default a flat cluster of P hosts",
         "FILE|SPEC"},
        {"placement", 0, 0, G_OPTION_ARG_STRING, &opt.placement,
         "Rank placement on hosts: block (default, fills each host's cores), cyclic, "
         "random:SEED or hostfile:FILE (a host name per line, NAME:COUNT or NAME slots=COUNT)",
         "POLICY"},
        {"oversubscribe", 0, 0, G_OPTION_ARG_NONE, &opt.oversubscribe,
         "Allow more ranks than the platform has cores", NULL},
        {"stack-kib", 0, 0, G_OPTION_ARG_INT, &opt.stack_kib,
         "Stack of each rank in KiB (default: 256 up to 16384 ranks, then 16, then 8 on "
         "SimGrid's core; collsim's own core gives at least 16, and 256 to the stack its "
         "ranks share)",
         "KIB"},
        {"stacks", 0, 0, G_OPTION_ARG_STRING, &opt.stacks,
         "shared (collsim's own core, the default wherever it can: the ranks take turns on "
         "one stack, each stopped rank's frames copied aside) or separate (a stack each; "
         "faster for programs with large arrays on their stack)",
         "MODE"},
        {"no-privatize", 0, 0, G_OPTION_ARG_NONE, &opt.no_privatize,
         "Share the program's global variables between ranks (saves memory at scale)", NULL},
        {"time-limit", 0, 0, G_OPTION_ARG_STRING, &opt.time_limit,
         "Stop the run once the simulated clock passes this, e.g. 10s (exit 8, with where "
         "each rank is)",
         "SECONDS"},
        {"wall-limit", 0, 0, G_OPTION_ARG_STRING, &opt.wall_limit,
         "Stop the run after this much real time, e.g. 60s (exit 8, with where each rank is)",
         "SECONDS"},
        {"no-check", 0, 0, G_OPTION_ARG_NONE, &opt.no_check,
         "Do not check that the ranks' collective calls match (root, op, counts, order)",
         NULL},
        {"verbose", 'v', 0, G_OPTION_ARG_NONE, &opt.verbose,
         "End-of-run warnings in detail: each communicator, group, datatype, op and error "
         "handler a rank never freed, with the call and source line that made it",
         NULL},
        {"payload", 0, 0, G_OPTION_ARG_STRING, &opt.payload,
         "data (default: move real bytes) or none (sizes only)", "MODE"},
        {"engine", 0, 0, G_OPTION_ARG_STRING, &opt.engine,
         "The discrete-event core: auto (default: collsim's own wherever it models the run), "
         "simgrid (SimGrid's actors and network model) or collsim (its own, several times "
         "faster, same times)",
         "CORE"},
        {"eager-threshold", 0, 0, G_OPTION_ARG_INT64, &opt.eager_threshold,
         "Largest message in bytes sent eagerly (default 65536)", "BYTES"},
        {"network", 0, 0, G_OPTION_ARG_STRING, &opt.network,
         "Network preset: overheads, gap, eager threshold, SimGrid model and generated links "
         "(default " MODEL_NETWORK_DEFAULT "; collsim list networks)",
         "NAME"},
        {"send-overhead", 0, 0, G_OPTION_ARG_STRING, &opt.send_overhead,
         "Sender CPU time per message, e.g. 0.2us (default: the preset's)", "SECONDS"},
        {"recv-overhead", 0, 0, G_OPTION_ARG_STRING, &opt.recv_overhead,
         "Receiver CPU time per message, e.g. 0.2us (default: the preset's)", "SECONDS"},
        {"progress", 0, 0, G_OPTION_ARG_STRING, &opt.progress,
         "When nonblocking collectives move: calls (default: inside MPI calls only) or async "
         "(also while the rank computes, as with a progress thread)",
         "MODEL"},
        {"gap", 0, 0, G_OPTION_ARG_STRING, &opt.gap,
         "Time between two message starts of one NIC, e.g. 5ns (default: the preset's)",
         "SECONDS"},
        {"decision", 0, 0, G_OPTION_ARG_STRING, &opt.decision,
         "Choose algorithms as a library's default decision does: ompi, mpich, mvapich2, impi, "
         "collsim (default) or FILE.rules (collsim decide shows a choice); --algorithm wins for "
         "its collective",
         "LIB"},
        {"algorithm", 'a', 0, G_OPTION_ARG_STRING_ARRAY, &opt.algorithms,
         "Force an algorithm: COLLECTIVE=NAME[,segment_bytes=B][,radix=K] (repeatable), or "
         "'reproducible': every reduction in one order fixed by P and count",
         "SPEC"},
        {"cfg", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt.simgrid_cfg,
         "A SimGrid configuration item, e.g. network/model:CM02 (repeatable)", "ITEM"},
        {"stats", 0, 0, G_OPTION_ARG_NONE, &opt.stats,
         "Print simulated time, messages, wall time and memory on stderr at the end", NULL},
        {"trace", 0, 0, G_OPTION_ARG_FILENAME, &opt.trace,
         "Write every rank's calls and messages: FILE.json for ui.perfetto.dev and "
         "chrome://tracing, FILE.paje for ViTE",
         "FILE"},
        {"timeline", 0, 0, G_OPTION_ARG_FILENAME, &opt.timeline,
         "Draw the run: ranks as rows, calls as boxes, messages as lines (FILE.png, .svg or "
         ".pdf; ranks grouped beyond 64)",
         "FILE"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context = g_option_context_new("PROG.so [-- ARGS...] - run an MPI program");
    g_option_context_set_summary(
        context, "Runs main() of PROG.so on every simulated rank. Build the program with\n"
                 "  cc -shared -fPIC $(pkg-config --cflags collsim) prog.c -o prog.so");
    g_option_context_add_main_entries(context, entries, NULL);
    g_option_context_set_strict_posix(context, FALSE);
    GError *error = NULL;
    int rc = 0;
    gchar **args = g_strdupv(argv);
    int nargs = argc;
    /* the strv variant frees the arguments it consumes */
    if (!g_option_context_parse_strv(context, &args, &error)) {
        rc = usage_error("exec: %s", error->message);
        goto out;
    }
    /* args: "exec" PROG.so [--] ARGS... */
    nargs = (int)g_strv_length(args);
    if (nargs < 2) {
        rc = usage_error("exec: which program? (collsim exec PROG.so -n P)");
        goto out;
    }
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = opt.nranks;
    config.platform_file = opt.platform;
    config.oversubscribe = opt.oversubscribe;
    config.privatize = !opt.no_privatize;
    config.verbose = opt.verbose;
    coll_check_set_enabled(!opt.no_check);
    if (opt.nranks < 1) {
        rc = usage_error("exec: -n must be at least 1 (got %d)", opt.nranks);
        goto out;
    }
    if (opt.stack_kib != 0 && (opt.stack_kib < 8 || opt.stack_kib % 4 != 0)) {
        rc = usage_error("exec: --stack-kib must be a multiple of 4, at least 8 (got %d)",
                         opt.stack_kib);
        goto out;
    }
    config.stack_kib = (guint)opt.stack_kib;
    if (opt.engine != NULL && !sim_engine_parse(opt.engine, &config.engine)) {
        rc = usage_error("exec: --engine must be auto, simgrid or collsim (got '%s')", opt.engine);
        goto out;
    }
    if (opt.stacks != NULL && !sim_stacks_parse(opt.stacks, &config.stacks)) {
        rc = usage_error("exec: --stacks must be auto, shared or separate (got '%s')",
                         opt.stacks);
        goto out;
    }
    GError *memory = NULL;
    struct sim_memory_need need = {.nranks = (guint64)opt.nranks, .stack_kib = config.stack_kib,
                                   .shared_stack = sim_engine_stacks_shared(&config),
                                   .privatize = config.privatize};
    if (!sim_memory_check(&need, &memory)) {
        rc = usage_error("exec: -n %d: %s", opt.nranks, memory->message);
        g_error_free(memory);
        goto out;
    }
    if (opt.placement != NULL) {
        GError *bad = NULL;
        if (!sim_placement_parse(opt.placement, &config, &bad)) {
            rc = usage_error("exec: --placement: %s", bad->message);
            g_error_free(bad);
            goto out;
        }
    }
    if (opt.payload != NULL && !parse_payload(opt.payload, &config.payload)) {
        rc = usage_error("exec: --payload must be data or none (got '%s')", opt.payload);
        goto out;
    }
    if (opt.network != NULL) {
        config.network = model_network_find(opt.network);
        if (config.network == NULL) {
            rc = usage_error("exec: --network: unknown preset '%s' (presets: %s)", opt.network,
                             model_network_names());
            goto out;
        }
        model_network_apply(config.network, &config.transport);
    }
    if (opt.progress != NULL && !model_progress_parse(opt.progress, &config.transport.progress)) {
        rc = usage_error("exec: --progress must be calls or async (got '%s')", opt.progress);
        goto out;
    }
    if (opt.eager_threshold != G_MININT64) {
        if (opt.eager_threshold < 0) {
            rc = usage_error("exec: --eager-threshold must be at least 0 bytes (got %" G_GINT64_FORMAT
                             ")",
                             opt.eager_threshold);
            goto out;
        }
        config.transport.eager_threshold = (gsize)opt.eager_threshold;
    }
    const struct {
        const char *option, *text;
        double *value;
    } durations[] = {
        {"--send-overhead", opt.send_overhead, &config.transport.send_overhead},
        {"--recv-overhead", opt.recv_overhead, &config.transport.recv_overhead},
        {"--gap", opt.gap, &config.transport.gap},
        {"--time-limit", opt.time_limit, &config.time_limit},
        {"--wall-limit", opt.wall_limit, &config.wall_limit},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(durations); i++) {
        if (durations[i].text != NULL &&
            !scenario_parse_seconds(durations[i].text, durations[i].value)) {
            rc = usage_error("exec: %s: '%s' is not a duration >= 0 (e.g. 0.2us, 5ns, 1e-6)",
                             durations[i].option, durations[i].text);
            goto out;
        }
    }
    if (opt.decision != NULL) {
        GError *decision_error = NULL;
        if (!decide_option_install(opt.decision, &decision_error)) {
            rc = usage_error("exec: --decision: %s", decision_error->message);
            g_error_free(decision_error);
            goto out;
        }
    }
    for (gchar **a = opt.algorithms; a != NULL && *a != NULL; a++) {
        GError *algorithm_error = NULL;
        if (!algorithm_option_force(*a, &algorithm_error)) {
            rc = usage_error("exec: %s", algorithm_error->message);
            g_error_free(algorithm_error);
            goto out;
        }
    }
    for (int k = 0; k < COLL_KIND_COUNT && config.payload == SIM_PAYLOAD_NONE; k++) {
        const struct coll_algorithm *row = coll_select_forced((enum coll_kind)k);
        if (row != NULL && (row->caps & COLL_READS_DATA)) {
            rc = usage_error("exec: --algorithm %s=%s %s: it needs --payload data",
                             coll_kind_name(row->kind), row->name, coll_reads_data_why(row));
            goto out;
        }
    }
    GError *output_error = NULL;
    if (!trace_outputs_check(opt.trace, opt.timeline, &output_error)) {
        rc = usage_error("exec: %s", output_error->message);
        g_error_free(output_error);
        goto out;
    }
    GError *cfg_error = NULL;
    if (!sim_engine_check_cfg(opt.simgrid_cfg, &cfg_error)) {
        rc = usage_error("exec: %s", cfg_error->message);
        g_error_free(cfg_error);
        goto out;
    }
    GPtrArray *cfg = g_ptr_array_new_with_free_func(g_free);
    for (gchar **c = opt.simgrid_cfg; c != NULL && *c != NULL; c++)
        g_ptr_array_add(cfg, g_strdup_printf("--cfg=%s", *c));
    g_ptr_array_add(cfg, NULL);
    config.simgrid_cfg = (gchar **)cfg->pdata;

    int first_program_arg = 2;
    if (first_program_arg < nargs && strcmp(args[first_program_arg], "--") == 0)
        first_program_arg++;
    /* Before loading: a name collsim lacks would otherwise bind to libsimgrid's own MPI. */
    GError *check_error = NULL;
    gchar *check_note = NULL;
    if (!program_check(args[1], args[1], &check_note, &check_error)) {
        rc = usage_error("exec: %s", check_error->message);
        g_error_free(check_error);
        g_ptr_array_free(cfg, TRUE);
        goto out;
    }
    if (check_note != NULL)
        g_printerr("collsim: exec: note: %s\n", check_note);
    g_free(check_note);
    gchar *path = g_canonicalize_filename(args[1], NULL);
    GModule *module = g_module_open(path, G_MODULE_BIND_LOCAL);
    if (module == NULL) {
        rc = usage_error("exec: cannot load %s: %s", args[1], g_module_error());
        g_free(path);
        g_ptr_array_free(cfg, TRUE);
        goto out;
    }
    gpointer program = NULL;
    if (!g_module_symbol(module, "main", &program) || program == NULL) {
        rc = usage_error("exec: %s has no main() function", args[1]);
        g_module_close(module);
        g_free(path);
        g_ptr_array_free(cfg, TRUE);
        goto out;
    }
    config.program = (sim_rank_main)program;
    config.privatize_anchor = program;
    program_bind_own(program); /* its own globals, not libc's of the same names */
    GPtrArray *pargs = g_ptr_array_new();
    g_ptr_array_add(pargs, args[1]);
    for (int i = first_program_arg; i < nargs; i++)
        g_ptr_array_add(pargs, args[i]);
    config.argc = (int)pargs->len;
    g_ptr_array_add(pargs, NULL);
    config.argv = (char **)pargs->pdata;

    gint64 wall_start = g_get_monotonic_time();
    struct sim_outcome outcome;
    trace_outputs_begin(opt.trace, opt.timeline, config.nranks);
    if (!sim_engine_run(&config, &outcome, &error)) {
        rc = usage_error("%s", error->message);
    } else {
        rc = outcome.exit_code;
        fflush(stdout);
        GError *trace_error = NULL;
        if (!trace_outputs_finish(opt.trace, opt.timeline, args[1], outcome.simulated_time,
                                  &trace_error)) {
            fprintf(stderr, "collsim: %s\n", trace_error->message);
            g_error_free(trace_error);
            rc = rc != 0 ? rc : 1;
        }
        if (opt.stats) {
            double wall = (double)(g_get_monotonic_time() - wall_start) / 1e6;
            fprintf(stderr,
                    "collsim: ranks %d  simulated %.9f s  messages %" G_GUINT64_FORMAT
                    "  bytes %" G_GUINT64_FORMAT "  wall %.3f s  peak RSS %ld KiB"
                    "  (%.0f B/rank)  stack %u KiB%s  private globals %zu B/rank  engine %s\n",
                    config.nranks, outcome.simulated_time, outcome.messages, outcome.bytes, wall,
                    peak_rss_kib(), peak_rss_kib() * 1024.0 / config.nranks, outcome.stack_kib,
                    outcome.stack_shared ? " shared" : "",
                    outcome.privatized_bytes_per_rank, core_kind_name(outcome.core));
            print_served(&outcome);
        }
        if (outcome.served != NULL)
            g_array_free(outcome.served, TRUE);
    }
    /* the module stays loaded: SimGrid's engine may still reference the program's code */
    g_ptr_array_free(pargs, TRUE);
    g_ptr_array_free(cfg, TRUE);
    g_free(path);
out:
    g_clear_error(&error);
    g_strfreev(args);
    g_strfreev(opt.simgrid_cfg);
    g_free(opt.network);
    g_free(opt.send_overhead);
    g_free(opt.recv_overhead);
    g_free(opt.gap);
    g_free(opt.progress);
    g_free(opt.engine);
    g_free(opt.stacks);
    g_strfreev(opt.algorithms);
    g_free(opt.decision);
    g_free(opt.platform);
    g_free(opt.placement);
    g_free(opt.payload);
    g_free(opt.trace);
    g_free(opt.timeline);
    g_option_context_free(context);
    return rc;
}

/* ---------------------------------------------------------------- list */

static gint
compare_names(gconstpointer a, gconstpointer b)
{
    return g_strcmp0(*(const char *const *)a, *(const char *const *)b);
}

static void
list_algorithms(void)
{
    size_t n;
    const struct coll_algorithm *rows = coll_registry_rows(&n);
    printf("algorithms (COLLECTIVE NAME  requirements; parameters: summary):\n");
    for (size_t i = 0; i < n; i++) {
        const struct coll_algorithm *r = &rows[i];
        char req[128];
        coll_requirements_describe(r->requires, req, sizeof req);
        GString *params = g_string_new(NULL);
        if (r->caps & COLL_SEGMENTED)
            g_string_append_printf(params, " segment_bytes=%d", r->defaults.segment_bytes);
        if (r->caps & COLL_RADIX)
            g_string_append_printf(params, " radix=%d", r->defaults.radix);
        const char *none = coll_kind_reduces(r->kind) ? "order-preserving" : "-";
        printf("  %-22s %-20s %s%s%s%s\n", coll_kind_name(r->kind), r->name,
               *req ? "requires " : none, req, params->len ? ";" : "", params->str);
        printf("  %-22s %-20s   %s%s\n", "", "", r->summary,
               (r->caps & COLL_IN_PLACE) ? " (takes MPI_IN_PLACE itself)" : "");
        g_string_free(params, TRUE);
    }
}

/* The installed data directory, or the source tree's when running from the build tree. */
static const char *
data_dir(const char *installed, const char *source)
{
    return g_file_test(installed, G_FILE_TEST_IS_DIR) ? installed : source;
}

/* File names in `dir` ending in `suffix`, sorted (directory order is not deterministic). */
static GPtrArray *
sorted_files(const char *dir, const char *suffix)
{
    GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
    GDir *handle = g_dir_open(dir, 0, NULL);
    const char *name;
    while (handle != NULL && (name = g_dir_read_name(handle)) != NULL)
        if (g_str_has_suffix(name, suffix))
            g_ptr_array_add(names, g_strdup(name));
    if (handle != NULL)
        g_dir_close(handle);
    g_ptr_array_sort(names, compare_names);
    return names;
}

static void
list_collectives(void)
{
    printf("collectives (scenario key run.collectives; --algorithm COLLECTIVE=NAME):\n");
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        size_t nrows;
        const struct coll_algorithm *rows = coll_registry_rows(&nrows);
        int count = 0;
        for (size_t i = 0; i < nrows; i++)
            count += rows[i].kind == (enum coll_kind)k;
        printf("  %-22s %-22s %d algorithm%s\n", coll_kind_name((enum coll_kind)k),
               coll_kind_mpi_name((enum coll_kind)k), count, count == 1 ? "" : "s");
    }
}

/* Each collective's default decision, rule by rule (src/coll/<collective>/<collective>.c). */
static void
list_decisions(void)
{
    printf("decisions (the default choice: the first rule that holds, with bytes per rank; an "
           "algorithm that cannot serve the call gives way to the first one that can):\n");
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        const struct coll_kind_desc *kind = coll_kind_info((enum coll_kind)k);
        for (size_t i = 0; i < kind->rule_count; i++) {
            char when[256];
            coll_rule_describe(&kind->rules[i], when, sizeof when);
            printf("  %-22s %-46s %s\n", i == 0 ? kind->name : "", when,
                   kind->rules[i].algorithm);
        }
    }
    gchar **libraries = coll_decision_libraries();
    gchar *names = g_strjoinv(", ", libraries);
    printf("libraries' decisions (--decision LIB, scenario key run.decision; collsim decide "
           "COLLECTIVE -n P --bytes B shows a choice): %s (in %s)\n", names, coll_decision_dir());
    g_free(names);
    g_strfreev(libraries);
}

static void
list_names(const char *title, const struct bench_name *names, gsize count)
{
    printf("%s\n", title);
    for (gsize i = 0; i < count; i++)
        printf("  %-22s %s\n", names[i].name, names[i].summary);
}

/* One line per formula: "COLLECTIVE ALGORITHM exact|approx FORMULA" (tests read it). */
static void
list_models(void)
{
    gsize n;
    const struct model_predict_entry *entries = model_predict_entries(&n);
    printf("models (COLLECTIVE ALGORITHM exact|approx: the textbook formula; a = latency, "
           "b = seconds per byte, c = op seconds per byte):\n");
    for (gsize i = 0; i < n; i++)
        printf("%s %s %s %s\n", entries[i].collective, entries[i].algorithm,
               entries[i].approximate ? "approx" : "exact", entries[i].formula);
}

static void
list_platforms(void)
{
    const char *dir = scenario_platform_dir();
    printf("platforms (in %s):\n", dir);
    GPtrArray *names = sorted_files(dir, ".xml");
    for (guint i = 0; i < names->len; i++)
        printf("  %s\n", (char *)names->pdata[i]);
    const struct model_network *net = model_network_default();
    printf("  (generated) a flat cluster of one %s host per rank, links of the network preset "
           "(%s: %.4g GB/s, %.4g us)\n",
           SIM_DEFAULT_SPEED, net->name, net->link_bandwidth / 1e9, net->link_latency * 1e6);
    printf("generators (--platform NAME[:key=value,...], [platform] file; collsim platform "
           "describe SPEC):\n%s",
           platform_gen_help());
    g_ptr_array_free(names, TRUE);
}

/* One line per network preset (--network NAME, [platform] network). */
static void
list_networks(void)
{
    gsize n;
    const struct model_network *nets = model_network_list(&n);
    printf("networks (exec --network NAME, scenario key platform.network; default %s; sources in "
           "platforms/README.md):\n",
           MODEL_NETWORK_DEFAULT);
    printf("  %-13s %9s %8s %7s %7s %7s %8s %7s %s\n", "name", "link GB/s", "link us", "o_s us",
           "o_r us", "g ns", "eager B", "model", "fabric");
    for (gsize i = 0; i < n; i++) {
        const struct model_network *m = &nets[i];
        printf("  %-13s %9.4g %8.4g %7.4g %7.4g %7.4g %8zu %7s %s\n", m->name,
               m->link_bandwidth / 1e9, m->link_latency * 1e6, m->send_overhead * 1e6,
               m->recv_overhead * 1e6, m->gap * 1e9, m->eager_threshold, m->simgrid_model,
               m->fabric);
    }
}

/* A scenario's [scenario] description, or NULL if the file has none or does not parse. */
static gchar *
scenario_summary(const char *path)
{
    GKeyFile *keys = g_key_file_new();
    gchar *text = NULL;
    if (g_key_file_load_from_file(keys, path, G_KEY_FILE_NONE, NULL))
        text = g_key_file_get_string(keys, "scenario", "description", NULL);
    g_key_file_free(keys);
    return text;
}

static void
list_scenarios(void)
{
    const char *dir = data_dir(COLLSIM_SCENARIO_DIR, COLLSIM_SOURCE_SCENARIO_DIR);
    printf("scenarios (in %s; collsim run FILE):\n", dir);
    GPtrArray *names = sorted_files(dir, ".ini");
    for (guint i = 0; i < names->len; i++) {
        gchar *path = g_build_filename(dir, names->pdata[i], NULL);
        gchar *summary = scenario_summary(path);
        printf("  %-28s %s\n", (char *)names->pdata[i], summary != NULL ? summary : "");
        g_free(summary);
        g_free(path);
    }
    g_ptr_array_free(names, TRUE);
}

static int
command_list(int argc, char **argv)
{
    static const char *const topics[] = {"collectives", "algorithms", "decisions",
                                         "models",      "ops",        "datatypes",
                                         "platforms",   "networks",   "scenarios"};
    const char *what = argc > 1 ? argv[1] : "all";
    gboolean all = strcmp(what, "all") == 0;
    gboolean known = all;
    for (gsize i = 0; i < G_N_ELEMENTS(topics); i++)
        known = known || strcmp(what, topics[i]) == 0;
    if (!known)
        return usage_error("list: unknown topic '%s' (try: collectives, algorithms, decisions, "
                           "models, ops, datatypes, platforms, networks, scenarios)",
                           what);
    gsize n;
    if (all || strcmp(what, "collectives") == 0)
        list_collectives();
    if (all || strcmp(what, "algorithms") == 0)
        list_algorithms();
    if (all || strcmp(what, "decisions") == 0)
        list_decisions();
    if (all || strcmp(what, "models") == 0)
        list_models();
    if (all || strcmp(what, "ops") == 0) {
        const struct bench_name *ops = bench_ops(&n);
        list_names("ops (scenario key run.op):", ops, n);
    }
    if (all || strcmp(what, "datatypes") == 0) {
        const struct bench_name *types = bench_datatypes(&n);
        list_names("datatypes (scenario key run.datatype):", types, n);
    }
    if (all || strcmp(what, "platforms") == 0)
        list_platforms();
    if (all || strcmp(what, "networks") == 0)
        list_networks();
    if (all || strcmp(what, "scenarios") == 0)
        list_scenarios();
    return 0;
}

/* ---------------------------------------------------------------- platform */

/* collsim platform describe SPEC [-n P] [--network NAME] [--xml] */
static int
command_platform(int argc, char **argv)
{
    (void)argc;
    gint nranks = 1;
    gchar *network_name = NULL;
    gboolean xml = FALSE;
    GOptionEntry entries[] = {
        {"np", 'n', 0, G_OPTION_ARG_INT, &nranks, "Ranks (sizes a flat cluster without hosts=)",
         "P"},
        {"network", 0, 0, G_OPTION_ARG_STRING, &network_name,
         "Network preset whose links are the default (default " MODEL_NETWORK_DEFAULT ")", "NAME"},
        {"xml", 0, 0, G_OPTION_ARG_NONE, &xml, "Also print the SimGrid platform XML", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *context = g_option_context_new("describe SPEC - a virtual cluster's facts");
    g_option_context_set_summary(context, "Generators (SPEC = NAME[:key=value,...]):");
    g_option_context_set_description(context, platform_gen_help());
    g_option_context_add_main_entries(context, entries, NULL);
    GError *error = NULL;
    int rc = 0;
    gchar **args = g_strdupv(argv);
    const struct model_network *network = NULL;
    struct platform_spec spec;
    struct platform_facts f;
    if (!g_option_context_parse_strv(context, &args, &error)) {
        rc = usage_error("platform: %s", error->message);
        goto out;
    }
    if (g_strv_length(args) != 3 || strcmp(args[1], "describe") != 0) {
        rc = usage_error("platform: usage: collsim platform describe SPEC [-n P] [--network NAME] "
                         "[--xml] (collsim list platforms shows the generators)");
        goto out;
    }
    network = network_name != NULL ? model_network_find(network_name) : model_network_default();
    if (network == NULL) {
        rc = usage_error("platform: --network: unknown preset '%s' (presets: %s)", network_name,
                         model_network_names());
        goto out;
    }
    if (nranks < 1) {
        rc = usage_error("platform: -n must be at least 1 (got %d)", nranks);
        goto out;
    }
    if (!platform_gen_parse(args[2], network, (guint)nranks, &spec, &error)) {
        rc = usage_error("%s", error->message);
        goto out;
    }
    platform_gen_facts(&spec, &f);
    printf("platform %s\n", args[2]);
    printf("  hosts            %" G_GUINT64_FORMAT "\n", f.hosts);
    printf("  cores per host   %u\n", f.cores_per_host);
    printf("  cores            %" G_GUINT64_FORMAT "\n", f.cores);
    printf("  links            %" G_GUINT64_FORMAT "\n", f.links);
    printf("  diameter         %u links (%.4g us of latency)\n", f.diameter,
           f.diameter * spec.latency * 1e6);
    printf("  bisection        %.6g GB/s (%.4g links)\n", f.bisection / 1e9,
           f.bisection / spec.bandwidth);
    printf("  link             %.6g GB/s, %.4g us\n", spec.bandwidth / 1e9, spec.latency * 1e6);
    printf("  inside a node    %.6g GB/s, %.4g us\n", spec.intra_bandwidth / 1e9,
           spec.intra_latency * 1e6);
    if (xml) {
        gchar *text = platform_gen_xml(&spec);
        fputs(text, stdout);
        g_free(text);
    }
out:
    if (error != NULL)
        g_error_free(error);
    g_strfreev(args);
    g_free(network_name);
    g_option_context_free(context);
    return rc;
}

static void
print_usage(FILE *out)
{
    fputs("Usage: collsim COMMAND [OPTIONS]\n"
          "\n"
          "Commands:\n"
          "  run FILE.ini [--set G.K=V]   run a scenario: a sweep of collectives, algorithms, ranks\n"
          "                               and sizes, each point checked; table, CSV, JSON, digest\n"
          "  merge [-o OUT] SHARD...      join the files of run --shard I/N into the run's own\n"
          "  exec PROG.so -n P [-- ARGS]  run an MPI program (a shared object) on P simulated ranks\n"
          "  list [TOPIC]                 show collectives, algorithms, decisions, models, ops,\n"
          "                               datatypes, platforms, networks, scenarios (all without\n"
          "                               TOPIC)\n"
          "  order COLLECTIVE ALGORITHM -n P  in which order a reduction combines the ranks\n"
          "  explain COLLECTIVE ALGORITHM -n P  a walk through the algorithm's rounds, for class\n"
          "  decide COLLECTIVE -n P --bytes B  what Open MPI, MPICH, MVAPICH2, Intel MPI and\n"
          "                               collsim pick for a call (--decision LIB: one, and why)\n"
          "  check FILE.ini [--set G.K=V] run a scenario twice and under each SimGrid context\n"
          "                               factory; report any output that differs\n"
          "  platform describe SPEC       hosts, cores, links, diameter and bisection of a virtual\n"
          "                               cluster (flat, fattree, torus, dragonfly)\n"
          "  tune --platform SPEC -n P,... --sizes S,... -o PREFIX  the fastest algorithm of\n"
          "                               each collective per P and size: CSV, winner map, and\n"
          "                               Open MPI / MPICH tuning files that select it\n"
          "\n"
          "Run 'collsim COMMAND --help' for a command's options.\n",
          out);
}

int
main(int argc, char **argv)
{
    if (argc < 2) {
        print_usage(stderr);
        return EXIT_USAGE;
    }
    /* Options are read as UTF-8 whatever the locale (GLib would otherwise convert them from a
     * C locale's ASCII and refuse any other byte without saying which option held it), and
     * an argument that is not UTF-8 is refused by position. A program's own arguments, after
     * "--", are passed on untouched. */
    g_setenv("CHARSET", "UTF-8", FALSE);
    /* The simulation allocates hundreds of MiB to GiB on its thread's malloc arena, which
     * glibc grows a few pages at a time, an mprotect call each (a tenth of the start-up of
     * 2^18 ranks). Growing it 64 MiB at a time costs address space only: untouched pages
     * are never resident. */
    mallopt(M_TOP_PAD, 64 << 20);
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!g_utf8_validate(argv[i], -1, NULL)) {
            gchar *shown = g_strescape(argv[i], NULL);
            fprintf(stderr, "collsim: argument %d (\"%s\") is not valid UTF-8\n", i, shown);
            g_free(shown);
            return EXIT_USAGE;
        }
    }
    /* A write past the file size limit (ulimit -f) then fails with EFBIG, which the writer
     * reports naming its file, instead of SIGXFSZ dumping core in the middle of a row. The
     * forked simulations inherit it. */
    signal(SIGXFSZ, SIG_IGN);
    const char *command = argv[1];
    if (strcmp(command, "--help") == 0 || strcmp(command, "-h") == 0 ||
        strcmp(command, "help") == 0) {
        print_usage(stdout);
        return 0;
    }
    if (strcmp(command, "--version") == 0) {
        printf("collsim %s\n", PACKAGE_VERSION);
        return 0;
    }
    if (strcmp(command, "run") == 0)
        return collsim_command_run(argc - 1, argv + 1);
    if (strcmp(command, "merge") == 0)
        return command_merge(argc - 1, argv + 1);
    if (strcmp(command, "exec") == 0) {
        int rc = command_exec(argc - 1, argv + 1);
        /* everything is written: skip SimGrid's tear-down of the platform and its actors,
         * which takes longer than a small run (half a second at 65536 hosts) and leaves
         * nothing behind that the process's end does not */
        fflush(NULL);
        _exit(rc);
    }
    if (strcmp(command, "list") == 0)
        return command_list(argc - 1, argv + 1);
    if (strcmp(command, "order") == 0)
        return command_order(argc - 1, argv + 1);
    if (strcmp(command, "explain") == 0)
        return command_explain(argc - 1, argv + 1);
    if (strcmp(command, "decide") == 0)
        return command_decide(argc - 1, argv + 1);
    if (strcmp(command, "check") == 0)
        return collsim_command_check(argc - 1, argv + 1);
    if (strcmp(command, "platform") == 0)
        return command_platform(argc - 1, argv + 1);
    if (strcmp(command, "tune") == 0)
        return collsim_command_tune(argc - 1, argv + 1);
    fprintf(stderr, "collsim: unknown command '%s'\n", command);
    print_usage(stderr);
    return EXIT_USAGE;
}
