/*
 * engine.c — start SimGrid, load the platform, place the ranks, run one actor per rank.
 *
 * Invariants:
 *  - ranks are placed on hosts in natural name order (node-2 before node-10), so placement
 *    does not depend on SimGrid's internal host ordering;
 *  - every inbox has its permanent receiver before any rank runs user code (a start barrier),
 *    so the first eager messages flow at once like all later ones;
 *  - the simulated clock is the only clock; nothing here reads the host's time.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <ucontext.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "mpi.h"
#include "sim/core/core_cfg.h"
#include "sim/core/page_batch.h"
#include "sim/core/simgrid_glue.h"
#include "sim/engine/compute.h"
#include "sim/engine/platform_file.h"
#include "sim/engine/platform_gen.h"
#include "sim/engine/privatize.h"
#include "sim/engine/proc.h"
#include "sim/engine/rank.h"
#include "sim/trace/recorder.h"
#include "src/coll_check.h"
#include "src/comm.h"
#include "src/info.h"
#include "src/runtime.h"

G_DEFINE_QUARK(collsim-sim-error-quark, sim_error)

static const struct sim_config *run_config;
static struct sim_rank *ranks;
static int world_size;
static core_barrier *start_barrier;

void
sim_config_defaults(struct sim_config *config)
{
    memset(config, 0, sizeof *config);
    config->nranks = 1;
    config->placement = SIM_PLACEMENT_BLOCK;
    config->stack_kib = 0;
    config->payload = SIM_PAYLOAD_DATA;
    config->network = model_network_default();
    model_transport_defaults(&config->transport);
    config->compute_scale = 1.0;
    config->privatize = TRUE;
    config->engine = SIM_ENGINE_AUTO;
}

gboolean
sim_engine_parse(const char *text, enum sim_engine_choice *choice)
{
    static const struct {
        const char *name;
        enum sim_engine_choice choice;
    } names[] = {{"auto", SIM_ENGINE_AUTO},
                 {"simgrid", SIM_ENGINE_SIMGRID},
                 {"collsim", SIM_ENGINE_COLLSIM}};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        if (g_strcmp0(text, names[i].name) == 0) {
            *choice = names[i].choice;
            return TRUE;
        }
    return FALSE;
}

#define GUARDED_RANKS_MAX 16384

/* The stack size without --stack-kib (engine.h says why). */
static guint
automatic_stack_kib(guint64 nranks)
{
    if (nranks <= GUARDED_RANKS_MAX)
        return 256;
    return nranks <= 262144 ? 16 : 8;
}

guint
sim_engine_stack_kib(const struct sim_config *config)
{
    return config->stack_kib != 0 ? config->stack_kib
                                  : automatic_stack_kib((guint64)config->nranks);
}

gboolean
sim_engine_stack_guarded(const struct sim_config *config)
{
    return config->nranks <= GUARDED_RANKS_MAX;
}

gboolean
sim_stacks_parse(const char *text, enum sim_stacks *stacks)
{
    static const struct {
        const char *name;
        enum sim_stacks stacks;
    } names[] = {{"auto", SIM_STACKS_AUTO},
                 {"shared", SIM_STACKS_SHARED},
                 {"separate", SIM_STACKS_SEPARATE}};
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        if (g_strcmp0(text, names[i].name) == 0) {
            *stacks = names[i].stacks;
            return TRUE;
        }
    return FALSE;
}

/* Whether `core` running `config` gives its ranks one stack. */
static gboolean
stacks_shared_on(const struct sim_config *config, enum core_kind core)
{
    return config->stacks != SIM_STACKS_SEPARATE && core_stack_sharing_available(core);
}

gboolean
sim_engine_stacks_shared(const struct sim_config *config)
{
    return config->engine != SIM_ENGINE_SIMGRID && stacks_shared_on(config, CORE_COLLSIM);
}

guint
sim_engine_shared_stack_kib(const struct sim_config *config)
{
    /* Linux's usual stack (ulimit -s): one mapping, whose untouched pages cost nothing, and
     * each rank's copy holds only the frames it uses; a program with a 256 KiB array on its
     * stack (MPI-CorrBench's correct sendrecv) ran under every MPI and died here */
    return config->stack_kib != 0 ? config->stack_kib : 8192;
}

const struct sim_config *
sim_engine_config(void)
{
    return run_config;
}

struct sim_rank *
sim_rank_self(void)
{
    if (ranks == NULL)
        return NULL;
    return core_actor_self_data();
}

struct sim_rank *
sim_rank_by_world(int world_rank)
{
    return &ranks[world_rank];
}

int
sim_world_size(void)
{
    return world_size;
}

/* The rank whose code runs now, for the crash handler (which may not call SimGrid). */
static volatile int running_rank = -1;

/* Where each rank is, the first 16 that have not finished, for a deadlock (all of them are
 * blocked) or a run stopped by a limit. */
static void
describe_positions(GString *out, gboolean deadlocked)
{
    int shown = 0, left = 0;
    for (int r = 0; r < world_size; r++) {
        if (ranks[r].finished)
            continue;
        if (shown == 16) {
            left++;
            continue;
        }
        g_string_append(out, "  ");
        if (deadlocked || ranks[r].blocked_in != NULL)
            sim_p2p_describe_blocked(&ranks[r], out);
        else
            g_string_append_printf(out, "rank %d is running (computing, or between MPI calls)%s",
                                   r, r == running_rank ? ", the one on the CPU" : "");
        g_string_append_c(out, '\n');
        shown++;
    }
    if (left > 0)
        g_string_append_printf(out, "  ... and %d more\n", left);
}

G_GNUC_NORETURN static void
stop_at_limit(const char *what)
{
    GString *out = g_string_new(NULL);
    g_string_append_printf(out, "collsim: %s reached at simulated t=%.9f s; the run stops\n", what,
                           core_clock());
    describe_positions(out, FALSE);
    fflush(stdout);
    if (write(STDERR_FILENO, out->str, out->len) < 0)
        _exit(SIM_EXIT_LIMIT);
    _exit(SIM_EXIT_LIMIT);
}

/* The wall-clock limit fires in a signal handler, possibly in the middle of a rank's own
 * loop: the run is over, so the report may use what it needs (GLib, SimGrid's clock). */
static void
wall_limit_handler(int sig)
{
    (void)sig;
    char what[64];
    g_snprintf(what, sizeof what, "wall-time limit of %g s", run_config->wall_limit);
    stop_at_limit(what);
}

void
sim_after_yield(void)
{
    const struct sim_rank *me = sim_rank_self();
    if (me == NULL)
        return; /* the transport's own actor: no program runs on it */
    if (run_config->time_limit > 0 && core_clock() > run_config->time_limit) {
        char what[64];
        g_snprintf(what, sizeof what, "simulated-time limit of %g s", run_config->time_limit);
        stop_at_limit(what);
    }
    int rank = me->world_rank;
    running_rank = rank;
    sim_globals_show(rank);
    sim_env_show_getopt(rank);
}

/* The privatized pages exist only once sim_privatize_setup ran (privatization on, a program
 * loaded): their size alone says whether globals are private. */
gboolean
sim_globals_overlap(gconstpointer p, gsize len)
{
    return sim_privatize_overlaps(p, len);
}

gboolean
sim_globals_private(void)
{
    return sim_privatize_bytes_per_rank() > 0;
}

void
sim_globals_show(int world_rank)
{
    if (run_config->privatize && run_config->privatize_anchor != NULL)
        sim_privatize_switch(world_rank);
}

#ifndef __SANITIZE_ADDRESS__
/*
 * A rank that crashes takes the whole simulation down; say which one, and the likeliest
 * cause in a simulator (a stack smaller than the program's local arrays), then exit. Only
 * async-signal-safe calls here.
 */
static void
crash_handler(int sig, siginfo_t *info, void *context)
{
    char buf[512];
    int rank = running_rank;
    const char *what = sig == SIGSEGV ? "SIGSEGV (segmentation fault)"
                       : sig == SIGBUS ? "SIGBUS (bus error)"
                                       : "a fatal signal";
    int len;
    if (sig == SIGABRT) {
        /* abort() in a program (or an assertion that failed): the whole run ends with the
         * status a shell shows for an aborted process, as under mpirun */
        len = rank >= 0 ? snprintf(buf, sizeof buf,
                                   "collsim: rank %d aborted (SIGABRT: abort() or a failed "
                                   "assertion); the run ends\n",
                                   rank)
                        : snprintf(buf, sizeof buf,
                                   "collsim: aborted (SIGABRT) outside any rank\n");
        if (len > 0 && write(STDERR_FILENO, buf, (size_t)MIN(len, (int)sizeof buf - 1)) < 0)
            _exit(128 + SIGABRT);
        _exit(128 + SIGABRT);
    }
    /* where the fault lies against the rank's stack tells an overflow from an access past
     * the end of a local variable of main, whose frame is the stack's top one */
    const char *low = NULL, *top = NULL, *at = info != NULL ? info->si_addr : NULL;
    gboolean on_stack = rank >= 0 && at != NULL && core_running_stack(&low, &top);
    /* the faulting stack pointer below the stack: an overflow, however far the access */
    const char *sp = NULL;
#if defined(__x86_64__) && defined(REG_RSP)
    sp = context != NULL ? (const char *)((ucontext_t *)context)->uc_mcontext.gregs[REG_RSP] : NULL;
#elif defined(__aarch64__)
    sp = context != NULL ? (const char *)((ucontext_t *)context)->uc_mcontext.sp : NULL;
#else
    (void)context;
#endif
    if (on_stack && at >= top && at < top + 1024 * 1024)
        len = snprintf(buf, sizeof buf,
                       "collsim: rank %d died of %s, reaching past the top of its stack: "
                       "an access past the end of a local variable of main (or of the first "
                       "function it calls), such as a buffer passed with a count larger than "
                       "the variable it points to; under mpirun the same access reaches the "
                       "environment strings above main's frame and may go unnoticed.\n",
                       rank, what);
    else if (on_stack && ((sp != NULL && sp < low && sp + 64 * 1024 * 1024 >= low) ||
                          (at < low && at + 1024 * 1024 >= low)))
        len = snprintf(buf, sizeof buf,
                       "collsim: rank %d died of %s: its stack overflowed (%u KiB each rank "
                       "has): try --stack-kib.\n",
                       rank, what, (unsigned)(core_stack_bytes() / 1024));
    else if (rank >= 0)
        len = snprintf(buf, sizeof buf,
                       "collsim: rank %d died of %s. If it keeps large arrays on its stack, the "
                       "%u KiB each rank has may be too small: try --stack-kib.\n",
                       rank, what, (unsigned)(core_stack_bytes() / 1024));
    else
        len = snprintf(buf, sizeof buf, "collsim: died of %s outside any rank.\n", what);
    if (len > 0 && write(STDERR_FILENO, buf, (size_t)MIN(len, (int)sizeof buf - 1)) < 0)
        _exit(SIM_EXIT_CRASH);
    _exit(SIM_EXIT_CRASH);
}

#endif

static void
install_crash_handler(void)
{
#ifndef __SANITIZE_ADDRESS__
    static char alt_stack[64 * 1024];
    stack_t ss = {.ss_sp = alt_stack, .ss_size = sizeof alt_stack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_ONSTACK | SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
#endif
}

void
sim_engine_abort(int exit_code)
{
    fflush(NULL);
    _exit(exit_code);
}

/* ---------------------------------------------------------------- runtime hooks for src/ */

static int
hook_world_rank(void)
{
    struct sim_rank *me = sim_rank_self();
    return me != NULL ? me->world_rank : 0;
}

static int
hook_world_size(void)
{
    return world_size;
}

static void
hook_charge_op(MPI_Op op, MPI_Datatype dt, int count)
{
    double flops = sim_compute_flops(op, dt, count) * run_config->compute_scale;
    if (flops > 0 && sim_rank_self() != NULL) {
        core_execute(flops);
        sim_after_yield();
    }
}

static GArray *served;

static void
hook_coll_served(int kind, const char *algorithm)
{
    for (guint i = 0; i < served->len; i++) {
        struct sim_served *s = &g_array_index(served, struct sim_served, i);
        if (s->kind == kind && s->algorithm == algorithm) {
            s->calls++;
            return;
        }
    }
    struct sim_served s = {kind, algorithm, 1};
    g_array_append_val(served, s);
}

static gint
served_cmp(gconstpointer a, gconstpointer b)
{
    const struct sim_served *x = a, *y = b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return strcmp(x->algorithm, y->algorithm);
}

static void G_GNUC_NORETURN
hook_abort(int exit_code)
{
    sim_engine_abort(exit_code);
}

static int
hook_mpi_state(void)
{
    const struct sim_rank *me = sim_rank_self();
    return me != NULL ? me->mpi_state : 1;
}

static void
hook_user_function(int entering)
{
    struct sim_rank *me = sim_rank_self();
    if (me != NULL)
        me->in_user_function += entering ? 1 : -1;
}

static int
hook_in_user_function(void)
{
    const struct sim_rank *me = sim_rank_self();
    return me != NULL && me->in_user_function > 0;
}

static int
hook_node_of(int world_rank)
{
    return world_rank >= 0 && world_rank < world_size ? ranks[world_rank].node : 0;
}

/* Payload none moves only sizes: src/ then skips applying ops (their time is still charged). */
static int
hook_moves_payload(void)
{
    return run_config == NULL || run_config->payload == SIM_PAYLOAD_DATA;
}

static const struct collsim_runtime_hooks sim_hooks = {
    .world_rank = hook_world_rank,
    .world_size = hook_world_size,
    .node_of = hook_node_of,
    .charge_op = hook_charge_op,
    .moves_payload = hook_moves_payload,
    .coll_served = hook_coll_served,
    .coll_traced = recorder_coll_hook,
    .start_nonblocking = sim_p2p_start_nonblocking,
    .watch_buffers = sim_p2p_watch_buffers,
    .result_written = sim_p2p_result_written,
    .make_persistent = sim_p2p_make_persistent,
    .acts_for_operation = sim_p2p_acts_for_operation,
    .abort = hook_abort,
    .mpi_state = hook_mpi_state,
    .user_function = hook_user_function,
    .in_user_function = hook_in_user_function,
};

/* ---------------------------------------------------------------- platform */

/* The flat cluster used without --platform: documented in README.md and platforms/cluster.xml;
 * its links are the network preset's. Numbers are written with %.17g, so they round-trip. */
/* Write `xml` to a temporary platform file; its path, or NULL with `error` set. */
static gchar *
write_platform_file(const char *xml, GError **error)
{
    gchar *path = NULL;
    int fd = g_file_open_tmp("collsim-cluster-XXXXXX.xml", &path, error);
    if (fd < 0)
        return NULL;
    gboolean ok = g_file_set_contents(path, xml, -1, error);
    close(fd);
    if (!ok) {
        g_unlink(path);
        g_free(path);
        return NULL;
    }
    return path;
}

gchar *
sim_engine_default_platform_xml(int nhosts, const struct model_network *network)
{
    char bw[G_ASCII_DTOSTR_BUF_SIZE], lat[G_ASCII_DTOSTR_BUF_SIZE];
    char lbw[G_ASCII_DTOSTR_BUF_SIZE], llat[G_ASCII_DTOSTR_BUF_SIZE];
    g_ascii_formatd(bw, sizeof bw, "%.17g", network->link_bandwidth);
    g_ascii_formatd(lat, sizeof lat, "%.17g", network->link_latency);
    g_ascii_formatd(lbw, sizeof lbw, "%.17g", network->intra_bandwidth);
    g_ascii_formatd(llat, sizeof llat, "%.17g", network->intra_latency);
    return g_strdup_printf(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"cluster\" prefix=\"node-\" suffix=\"\" radical=\"0-%d\"\n"
        "           speed=\"" SIM_DEFAULT_SPEED "\" bw=\"%sBps\" lat=\"%ss\"\n"
        "           loopback_bw=\"%sBps\" loopback_lat=\"%ss\"/>\n"
        "</platform>\n",
        nhosts - 1, bw, lat, lbw, llat);
}

void
sim_engine_default_cluster(int nhosts, const struct model_network *network,
                           struct core_flat_cluster *cluster)
{
    *cluster = (struct core_flat_cluster){
        .hosts = (guint64)nhosts,
        .speed = SIM_DEFAULT_SPEED_FLOPS,
        .cores = 1,
        .bandwidth = network->link_bandwidth,
        .latency = network->link_latency,
        .loopback_bandwidth = network->intra_bandwidth,
        .loopback_latency = network->intra_latency,
    };
}

static gchar *
write_default_platform(int nhosts, const struct model_network *network, GError **error)
{
    gchar *xml = sim_engine_default_platform_xml(nhosts, network);
    gchar *path = write_platform_file(xml, error);
    g_free(xml);
    return path;
}

/* How the child of inspect_platform() reports the core count, or a defect, after SimGrid's own
 * messages; the child's exit status vouches for its report. */
#define CORES_MARKER "\ncollsim-platform-cores="
#define DEFECT_MARKER "\ncollsim-platform-defect="
#define INSPECT_EXIT_DEFECT 3

/* PLATFORM_MAX_HOSTS (platform_gen.h) bounds the radicals too: more hosts than that is a typo
 * in a radical, not a cluster, and SimGrid would spend the machine's memory building them. */
/* Loading a platform that SimGrid accepts takes seconds; past this, give up on it. */
#define PLATFORM_LOAD_SECONDS 120

/* The line of `path` that declares `id="name"`, or 0. */
static int
xml_line_of(const char *path, const char *name)
{
    gchar *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return 0;
    gchar *dq = g_strdup_printf("id=\"%s\"", name), *sq = g_strdup_printf("id='%s'", name);
    int line = 0, at = 1;
    for (const char *c = text; *c != '\0' && line == 0; c++) {
        if (*c == '\n')
            at++;
        else if (strncmp(c, dq, strlen(dq)) == 0 || strncmp(c, sq, strlen(sq)) == 0)
            line = at;
    }
    g_free(dq);
    g_free(sq);
    g_free(text);
    return line;
}

/* `text` fit for a one-line message: line breaks and other control characters escaped (\n,
 * \001, ...), UTF-8 kept as it is. Names and radicals come from the file and may hold any. */
static gchar *
one_line(const char *text)
{
    char high_bytes[129];
    for (int i = 0; i < 128; i++)
        high_bytes[i] = (char)(0x80 + i);
    high_bytes[128] = '\0';
    return g_strescape(text, high_bytes);
}

/*
 * Hosts and links that SimGrid loads but cannot simulate (it aborts at the first action on
 * them): a speed or bandwidth of 0, inf or NaN, a negative or infinite latency. Runs in the
 * inspecting child; the first defect, or NULL.
 */
static gchar *
platform_defect(const char *path)
{
    const struct simgrid_glue *sg = simgrid_glue();
    gchar *defect = NULL;
    gsize nhosts = 0;
    sg_host_t *hosts = sg->host_list(&nhosts);
    for (gsize i = 0; i < nhosts && defect == NULL; i++) {
        const char *name = sg->host_name(hosts[i]);
        gchar *shown = one_line(name);
        for (gsize ps = 0; ps < sg->host_pstate_count(hosts[i]) && defect == NULL; ps++) {
            double speed = sg->host_pstate_speed(hosts[i], ps);
            if (!(speed > 0) || !isfinite(speed))
                defect = g_strdup_printf("%d: host '%s' has a speed of %g flop/s; a host needs "
                                         "a positive, finite speed",
                                         xml_line_of(path, name), shown, speed);
        }
        if (defect == NULL && sg->host_core_count(hosts[i]) < 1)
            defect = g_strdup_printf("%d: host '%s' has no core", xml_line_of(path, name), shown);
        g_free(shown);
    }
    g_free(hosts);
    gsize nlinks = 0;
    sg_link_t *links = sg->link_list(&nlinks);
    for (gsize i = 0; i < nlinks && defect == NULL; i++) {
        double bw = sg->link_bandwidth(links[i]), lat = sg->link_latency(links[i]);
        const char *name = sg->link_name(links[i]);
        gchar *shown = one_line(name);
        if (!(bw > 0) || !isfinite(bw))
            defect = g_strdup_printf("%d: link '%s' has a bandwidth of %g B/s; a link needs a "
                                     "positive, finite bandwidth",
                                     xml_line_of(path, name), shown, bw);
        else if (!(lat >= 0) || !isfinite(lat))
            defect = g_strdup_printf("%d: link '%s' has a latency of %g s; a link needs a "
                                     "finite latency of 0 or more",
                                     xml_line_of(path, name), shown, lat);
        g_free(shown);
    }
    g_free(links);
    return defect;
}

/* Cluster radicals that declare more hosts than PLATFORM_MAX_HOSTS ("0-999999999"), before
 * SimGrid tries to build them. */
static gboolean
check_radicals(const char *path, GError **error)
{
    gchar *text = NULL;
    if (!g_file_get_contents(path, &text, NULL, NULL))
        return TRUE; /* SimGrid reports unreadable files itself */
    /* bytes, not UTF-8: a file in Latin-1 (a comment saying "café") must be checked too */
    GRegex *re = g_regex_new("radical\\s*=\\s*[\"']([^\"']*)[\"']", G_REGEX_RAW, 0, NULL);
    GMatchInfo *match = NULL;
    guint64 total = 0;
    gboolean ok = TRUE;
    g_regex_match(re, text, 0, &match);
    while (ok && g_match_info_matches(match)) {
        gchar *radical = g_match_info_fetch(match, 1);
        gchar **parts = g_strsplit(radical, ",", -1);
        for (gchar **part = parts; *part != NULL; part++) {
            guint64 lo = 0, hi = 0;
            gchar *end = NULL;
            lo = g_ascii_strtoull(*part, &end, 10);
            hi = lo;
            if (end != NULL && *end == '-')
                hi = g_ascii_strtoull(end + 1, NULL, 10);
            if (hi >= lo)
                total += hi - lo + 1;
        }
        if (total > PLATFORM_MAX_HOSTS) {
            gint start = 0;
            g_match_info_fetch_pos(match, 0, &start, NULL);
            int line = 1;
            for (gint i = 0; i < start; i++)
                line += text[i] == '\n';
            gchar *shown = one_line(radical);
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                        "%s:%d: radical \"%s\" brings the platform to %" G_GUINT64_FORMAT
                        " hosts; collsim loads at most %u (ranks can share hosts: "
                        "--oversubscribe)",
                        path, line, shown, total, PLATFORM_MAX_HOSTS);
            g_free(shown);
            ok = FALSE;
        }
        g_strfreev(parts);
        g_free(radical);
        g_match_info_next(match, NULL);
    }
    g_match_info_free(match);
    g_regex_unref(re);
    g_free(text);
    return ok;
}

/*
 * A child that starts SimGrid dies of what SimGrid does to a bad input (abort() after an
 * uncaught exception, a fatal signal) or is killed at its time limit: the parent's handlers
 * are not for it (default_signals), and its stderr is where SimGrid says what went wrong.
 */
static const struct sim_proc_options inspect_options = {
    .stderr_to = SIM_PROC_CAPTURE,
    .default_signals = TRUE,
};

/* The child of inspect_platform: load the platform, then write its report on stderr. */
static int
inspect_in_child(gpointer data)
{
    const char *path = data;
    /* errors only: SimGrid's notes and warnings (a deprecated unit, an old file version)
     * come before the error that stops the load, and must not stand in for it */
    int argc = 3;
    char *argv[] = {"collsim", "--log=root.fmt:%m%n", "--log=root.thres:error", NULL};
    const struct simgrid_glue *sg = simgrid_glue();
    sg->start(&argc, argv, path);
    gchar *defect = platform_defect(path);
    if (defect != NULL) {
        /* freed before returning: a leak checker (valgrind) looks at the child's heap at its
         * _exit, after this frame is gone */
        gchar *report = g_strconcat(DEFECT_MARKER, defect, "\n", NULL);
        ssize_t len = (ssize_t)strlen(report);
        gboolean written = write(STDERR_FILENO, report, (size_t)len) == len;
        g_free(report);
        g_free(defect);
        return written ? INSPECT_EXIT_DEFECT : 1;
    }
    gsize nhosts = 0;
    sg_host_t *hosts = sg->host_list(&nhosts);
    guint64 total = 0;
    for (gsize i = 0; i < nhosts; i++)
        total += (guint64)sg->host_core_count(hosts[i]);
    g_free(hosts);
    char report[64];
    int len = g_snprintf(report, sizeof report, CORES_MARKER "%" G_GUINT64_FORMAT "\n", total);
    return write(STDERR_FILENO, report, (size_t)len) == len ? 0 : 1;
}

/*
 * The last platform file that loaded cleanly in a child, known by its identity on disk. The
 * points of a sweep are forked from the process that inspected the scenario's platform: they
 * inherit this and skip a second load in a child of their own, which cost as much as the rest
 * of a small point. A file changed since (size or modification time) is inspected again.
 */
static struct {
    gchar *path;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    guint64 cores;
} inspected;

static gboolean
inspected_already(const char *path, const struct stat *st)
{
    return inspected.path != NULL && strcmp(inspected.path, path) == 0 &&
           inspected.dev == st->st_dev && inspected.ino == st->st_ino &&
           inspected.size == st->st_size && inspected.mtime.tv_sec == st->st_mtim.tv_sec &&
           inspected.mtime.tv_nsec == st->st_mtim.tv_nsec;
}

static void
remember_inspected(const char *path, const struct stat *st, guint64 cores)
{
    g_free(inspected.path);
    inspected.path = g_strdup(path);
    inspected.dev = st->st_dev;
    inspected.ino = st->st_ino;
    inspected.size = st->st_size;
    inspected.mtime = st->st_mtim;
    inspected.cores = cores;
}

/*
 * SimGrid aborts the process on a malformed platform. Parse it once in a child first, so that
 * a bad file ends in one clear message instead of a core dump. The child also counts the
 * platform's cores, which the parent cannot ask SimGrid for without starting it (and SimGrid
 * starts only once per process). A child that takes more than `load_seconds` is stopped.
 */
static gboolean
inspect_platform(const char *path, guint load_seconds, guint64 *cores, GError **error)
{
    if (!g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                    "platform file %s: %s (nor is it a generator: flat, fattree, torus, "
                    "dragonfly)",
                    path, g_strerror(ENOENT));
        return FALSE;
    }
    /* a plain <cluster> is read here (platform_file.h), without SimGrid */
    struct core_flat_cluster plain;
    if (platform_file_plain_cluster(path, &plain)) {
        if (cores != NULL)
            *cores = plain.hosts * (guint64)plain.cores;
        platform_file_cluster_clear(&plain);
        return TRUE;
    }
    struct stat before;
    gboolean known = stat(path, &before) == 0;
    if (known && inspected_already(path, &before)) {
        if (cores != NULL)
            *cores = inspected.cores;
        return TRUE;
    }
    if (!check_radicals(path, error))
        return FALSE;
    struct sim_proc_options options = inspect_options;
    options.time_limit = load_seconds;
    struct sim_proc_result child;
    GError *proc_error = NULL;
    if (!sim_proc_run(inspect_in_child, (gpointer)path, &options, &child, &proc_error)) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "%s", proc_error->message);
        g_error_free(proc_error);
        return FALSE;
    }
    const struct sim_proc_status *status = &child.status;
    GString *messages = g_steal_pointer(&child.err);
    /* SimGrid's messages quote the file, which may hold a marker's text: the child's report is
     * the last one, and counts only with the exit status that goes with it */
    const char *marker = g_strrstr(messages->str, CORES_MARKER);
    if (status->end == SIM_PROC_EXITED && status->exit_code == 0 && marker != NULL) {
        guint64 counted = g_ascii_strtoull(marker + strlen(CORES_MARKER), NULL, 10);
        if (cores != NULL)
            *cores = counted;
        if (known)
            remember_inspected(path, &before, counted);
        g_string_free(messages, TRUE);
        return TRUE;
    }
    const char *defect = g_strrstr(messages->str, DEFECT_MARKER);
    if (status->end == SIM_PROC_EXITED && status->exit_code == INSPECT_EXIT_DEFECT &&
        defect != NULL) {
        gchar *what = g_strchomp(g_strdup(defect + strlen(DEFECT_MARKER)));
        /* "LINE: message", or "0: message" when no line declares the name */
        if (g_str_has_prefix(what, "0: "))
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "%s: %s", path, what + 3);
        else
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "%s:%s", path, what);
        g_free(what);
        g_string_free(messages, TRUE);
        return FALSE;
    }
    if (status->end == SIM_PROC_TIMED_OUT) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                    "platform %s: SimGrid did not finish loading it in %u s", path,
                    load_seconds);
        g_string_free(messages, TRUE);
        return FALSE;
    }
    /* keep SimGrid's first line that says what is wrong (it names file and line) */
    gchar **lines = g_strsplit(messages->str, "\n", -1);
    gchar *reason = NULL;
    for (gchar **l = lines; *l != NULL && reason == NULL; l++) {
        g_strstrip(*l);
        if (**l != '\0' && strstr(*l, "Exiting now") == NULL && strstr(*l, "backtrace") == NULL)
            reason = g_strdup(*l);
    }
    if (reason == NULL && status->end == SIM_PROC_KILLED)
        reason = g_strdup_printf("SimGrid died loading it (%s)", g_strsignal(status->signal));
    else if (reason == NULL)
        reason = g_strdup("SimGrid could not load it");
    g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "platform %s: %s", path, reason);
    g_free(reason);
    g_strfreev(lines);
    g_string_free(messages, TRUE);
    return FALSE;
}

/* One --cfg item to try, on the two-host platform written for the trial. */
struct cfg_trial {
    const char *item;
    const char *platform;
};

/* SimGrid's words on the item, on stdout or stderr, are its reason for refusing it. */
static const struct sim_proc_options cfg_trial_options = {
    .stdout_to = SIM_PROC_CAPTURE,
    .stderr_to = SIM_PROC_WITH_STDOUT,
    .time_limit = PLATFORM_LOAD_SECONDS,
    .default_signals = TRUE,
};

static int
cfg_trial_in_child(gpointer data)
{
    const struct cfg_trial *trial = data;
    gchar *cfg = g_strconcat("--cfg=", trial->item, NULL);
    int argc = 4;
    char *argv[] = {"collsim", "--log=root.fmt:%m%n", "--log=xbt_cfg.thres:warning", cfg, NULL};
    simgrid_glue()->start(&argc, argv, trial->platform);
    /* freed before returning: a leak checker (valgrind) looks at the child's heap at its
     * _exit, after this frame is gone */
    g_free(cfg);
    return 0;
}

/*
 * SimGrid aborts on a configuration item it does not know or cannot use (a bad form, an
 * unknown name, a value out of range, a network model that refuses links). Try each item in
 * a child that starts SimGrid with it and loads a two-host cluster, and report the first it
 * refuses with SimGrid's own reason.
 */
gboolean
sim_engine_check_cfg(gchar **items, GError **error)
{
    if (items == NULL || items[0] == NULL)
        return TRUE;
    gchar *platform = write_default_platform(2, model_network_default(), error);
    if (platform == NULL)
        return FALSE;
    gboolean ok = TRUE;
    for (gchar **item = items; ok && *item != NULL; item++) {
        const char *colon = strchr(*item, ':');
        if (colon == NULL || colon == *item) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                        "--cfg %s: not of the form NAME:VALUE (e.g. network/model:CM02)", *item);
            ok = FALSE;
            break;
        }
        if (g_str_has_prefix(*item, "tracing")) {
            /* SimGrid's own tracing expects its SMPI layer, which collsim replaces: it aborts
             * in the middle of the run */
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                        "--cfg %s: SimGrid's own tracing does not work under collsim; use "
                        "--trace FILE.json (ui.perfetto.dev, chrome://tracing) or --trace "
                        "FILE.paje (ViTE) instead",
                        *item);
            ok = FALSE;
            break;
        }
        if (g_str_has_prefix(*item, "contexts/nthreads:") &&
            g_ascii_strtoll(colon + 1, NULL, 10) != 1) {
            /* the ranks share the transport's queues, the running rank and the swapped-in
             * globals: they must run one at a time (tried: a ring of 64 ranks on two threads
             * mixes up communicators at once) */
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                        "--cfg %s: collsim runs its ranks one at a time (they share the "
                        "transport's state); parallel actors are not supported: run independent "
                        "points side by side instead (collsim run -j, or --shard)",
                        *item);
            ok = FALSE;
            break;
        }
        struct cfg_trial trial = {*item, platform};
        struct sim_proc_result child;
        GError *proc_error = NULL;
        if (!sim_proc_run(cfg_trial_in_child, &trial, &cfg_trial_options, &child, &proc_error)) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "%s", proc_error->message);
            g_error_free(proc_error);
            ok = FALSE;
            break;
        }
        GString *messages = g_steal_pointer(&child.out);
        if (child.status.end != SIM_PROC_EXITED || child.status.exit_code != 0) {
            gchar **lines = g_strsplit(messages->str, "\n", -1);
            const char *reason = "SimGrid refuses it";
            for (gchar **l = lines; *l != NULL; l++) {
                if (**l != '\0' && strstr(*l, "Backtrace") == NULL && strstr(*l, "->") == NULL) {
                    reason = g_strstrip(*l);
                    break;
                }
            }
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM, "--cfg %s: %s", *item, reason);
            g_strfreev(lines);
            ok = FALSE;
        }
        g_string_free(messages, TRUE);
    }
    g_unlink(platform);
    g_free(platform);
    return ok;
}

gboolean
sim_engine_platform_cores(const char *path, guint64 *cores, GError **error)
{
    g_return_val_if_fail(path != NULL && cores != NULL, FALSE);
    return inspect_platform(path, PLATFORM_LOAD_SECONDS, cores, error);
}

gboolean
sim_engine_check_platform(const char *path, guint load_seconds, GError **error)
{
    g_return_val_if_fail(path != NULL && load_seconds > 0, FALSE);
    return inspect_platform(path, load_seconds, NULL, error);
}

static gint
host_number_cmp(gconstpointer a, gconstpointer b, gpointer numbers)
{
    const guint64 *n = numbers;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    if (n[ia] != n[ib])
        return n[ia] < n[ib] ? -1 : 1;
    return (ia > ib) - (ia < ib);
}

/* Natural order of host names: node-2 before node-10 (keys precomputed once per host). */
static gint
host_key_cmp(gconstpointer a, gconstpointer b, gpointer keys)
{
    const gchar *const *k = keys;
    size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
    int c = strcmp(k[ia], k[ib]);
    return c != 0 ? c : (ia > ib) - (ia < ib);
}

/*
 * The natural order of names that differ only in one number between a common prefix and a
 * common suffix, as a cluster's (node-0 ... node-65535): the order of the numbers, which is
 * what GLib's filename collation gives them, without its cost (5 µs a name: a third of a
 * second for 65536 hosts). FALSE when the names are not all of that form (then the collation
 * keys decide): a number with a leading zero, or anything else that differs.
 */
static gboolean
order_numbered_names(size_t nhosts, size_t *order)
{
    if (nhosts == 0)
        return TRUE;
    const char *first = core_host_name(core_host_at(0));
    size_t len = strlen(first), pre = 0, post = 0;
    while (pre < len && !g_ascii_isdigit(first[pre]))
        pre++;
    if (pre == len)
        return FALSE;
    while (pre + post < len && g_ascii_isdigit(first[pre + post]))
        post++;
    const char *suffix = first + pre + post;
    size_t suffix_len = strlen(suffix);
    guint64 *numbers = g_new(guint64, nhosts);
    gboolean ok = TRUE;
    for (size_t i = 0; i < nhosts && ok; i++) {
        const char *name = core_host_name(core_host_at(i));
        size_t n = strlen(name);
        ok = n > pre + suffix_len && strncmp(name, first, pre) == 0 &&
             strcmp(name + n - suffix_len, suffix) == 0;
        size_t digits = n - pre - suffix_len;
        const char *number = name + pre;
        for (size_t d = 0; ok && d < digits; d++)
            ok = g_ascii_isdigit(number[d]);
        ok = ok && digits <= 18 && (digits == 1 || number[0] != '0');
        numbers[i] = ok ? g_ascii_strtoull(number, NULL, 10) : 0;
    }
    if (ok) {
        for (size_t i = 0; i < nhosts; i++)
            order[i] = i;
        g_qsort_with_data(order, (gint)nhosts, sizeof(size_t), host_number_cmp, numbers);
    }
    g_free(numbers);
    return ok;
}

/*
 * Host file placement: one host per line in rank order, as "NAME", "NAME:COUNT" (MPICH) or
 * "NAME slots=COUNT" (Open MPI) for COUNT consecutive ranks; blank lines and # comments are
 * skipped. The file must give a host to every rank. Writes each rank's position in `order`.
 */
static gboolean
place_from_hostfile(const char *path, GHashTable *position_by_name, int p, size_t *node,
                    GError **error)
{
    gchar *text = NULL;
    GError *io = NULL;
    if (!g_file_get_contents(path, &text, NULL, &io)) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT, "host file %s", io->message);
        g_error_free(io);
        return FALSE;
    }
    gchar **lines = g_strsplit(text, "\n", -1);
    g_free(text);
    int r = 0;
    gboolean ok = TRUE;
    for (int l = 0; lines[l] != NULL && r < p && ok; l++) {
        gchar *hash = strchr(lines[l], '#');
        if (hash != NULL)
            *hash = '\0';
        gchar *line = g_strstrip(lines[l]);
        if (*line == '\0')
            continue;
        guint64 count = 1;
        gchar *name = line, *rest = NULL;
        if ((rest = strpbrk(line, " \t")) != NULL) {
            *rest++ = '\0';
            rest = g_strstrip(rest);
            if (!g_str_has_prefix(rest, "slots=") ||
                !g_ascii_string_to_unsigned(rest + 6, 10, 1, (guint64)p, &count, NULL)) {
                g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                            "%s:%d: '%s' after the host name: expected slots=COUNT (1 to %d)",
                            path, l + 1, rest, p);
                ok = FALSE;
                break;
            }
        } else if ((rest = strrchr(line, ':')) != NULL) {
            *rest++ = '\0';
            if (!g_ascii_string_to_unsigned(rest, 10, 1, (guint64)p, &count, NULL)) {
                g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                            "%s:%d: ':%s' after the host name: expected a count of 1 to %d",
                            path, l + 1, rest, p);
                ok = FALSE;
                break;
            }
        }
        gpointer position;
        if (!g_hash_table_lookup_extended(position_by_name, name, NULL, &position)) {
            g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                        "%s:%d: no host '%s' on the platform", path, l + 1, name);
            ok = FALSE;
            break;
        }
        for (guint64 k = 0; k < count && r < p; k++)
            node[r++] = GPOINTER_TO_SIZE(position);
    }
    g_strfreev(lines);
    if (ok && r < p) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                    "host file %s places %d of the %d ranks", path, r, p);
        ok = FALSE;
    }
    return ok;
}

/* Fisher-Yates with the placement's own seeded generator (the same on every machine). */
static void
shuffle_positions(size_t *positions, size_t n, guint64 seed)
{
    GRand *rng = g_rand_new_with_seed_array((const guint32[]){(guint32)seed,
                                                              (guint32)(seed >> 32)},
                                            2);
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)g_rand_int_range(rng, 0, (gint32)i);
        size_t t = positions[i - 1];
        positions[i - 1] = positions[j];
        positions[j] = t;
    }
    g_rand_free(rng);
}

/*
 * Assign a host to every rank according to the placement policy. Hosts are taken in the
 * natural order of their names; a rank's node is its host's position in that order.
 */
static gboolean
place_ranks(const struct sim_config *config, GError **error)
{
    size_t nhosts = core_host_count();
    GPtrArray *keys = g_ptr_array_new_full(nhosts, g_free);
    size_t *order = g_new(size_t, nhosts);
    if (core_platform_is_flat()) {
        /* node-0, node-1, ...: in their natural order already, and named only when asked */
        for (size_t i = 0; i < nhosts; i++)
            order[i] = i;
    } else if (!order_numbered_names(nhosts, order)) {
        for (size_t i = 0; i < nhosts; i++)
            g_ptr_array_add(keys, g_utf8_collate_key_for_filename(
                                      core_host_name(core_host_at(i)), -1));
        for (size_t i = 0; i < nhosts; i++)
            order[i] = i;
        g_qsort_with_data(order, (gint)nhosts, sizeof(size_t), host_key_cmp, keys->pdata);
    }

    guint64 cores = 0;
    int *host_cores = g_new(int, nhosts);
    for (size_t i = 0; i < nhosts; i++) {
        host_cores[i] = core_host_core_count(core_host_at(order[i]));
        cores += host_cores[i];
    }
    int p = config->nranks;
    size_t *node = g_new(size_t, (gsize)p);   /* each rank's position in `order` */
    gboolean ok = TRUE;
    if ((guint64)p > cores && !config->oversubscribe) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                    "%d ranks but the platform has only %" G_GUINT64_FORMAT
                    " cores on %zu hosts (use --oversubscribe to share cores)",
                    p, cores, nhosts);
        ok = FALSE;
        goto out;
    }
    switch (config->placement) {
    case SIM_PLACEMENT_BLOCK:
    case SIM_PLACEMENT_RANDOM:
        if ((guint64)p <= cores) {
            size_t h = 0;
            int used = 0;
            for (int r = 0; r < p; r++) {
                while (used >= host_cores[h]) {
                    h++;
                    used = 0;
                }
                node[r] = h;
                used++;
            }
        } else {
            for (int r = 0; r < p; r++)
                node[r] = (size_t)((guint64)r * nhosts / (guint64)p);
        }
        if (config->placement == SIM_PLACEMENT_RANDOM) {
            if ((guint64)p < cores) {
                /* any core of the platform, not only the first p: shuffle them all */
                size_t *slots = g_new(size_t, (gsize)cores);
                size_t n = 0;
                for (size_t h = 0; h < nhosts; h++)
                    for (int c = 0; c < host_cores[h]; c++)
                        slots[n++] = h;
                shuffle_positions(slots, n, config->placement_seed);
                memcpy(node, slots, (size_t)p * sizeof *node);
                g_free(slots);
            } else {
                shuffle_positions(node, (size_t)p, config->placement_seed);
            }
        }
        break;
    case SIM_PLACEMENT_CYCLIC:
        if ((guint64)p <= cores) {
            /* one rank per host per round, skipping hosts whose cores are full */
            int *used = g_new0(int, nhosts);
            size_t h = 0;
            for (int r = 0; r < p; r++) {
                while (used[h] >= host_cores[h])
                    h = (h + 1) % nhosts;
                node[r] = h;
                used[h]++;
                h = (h + 1) % nhosts;
            }
            g_free(used);
        } else {
            for (int r = 0; r < p; r++)
                node[r] = (size_t)r % nhosts;
        }
        break;
    case SIM_PLACEMENT_HOSTFILE: {
        GHashTable *by_name = g_hash_table_new(g_str_hash, g_str_equal);
        for (size_t h = 0; h < nhosts; h++)
            g_hash_table_insert(by_name, (gpointer)core_host_name(core_host_at(order[h])),
                                GSIZE_TO_POINTER(h));
        ok = place_from_hostfile(config->placement_file, by_name, p, node, error);
        g_hash_table_destroy(by_name);
        if (ok && !config->oversubscribe) {
            int *used = g_new0(int, nhosts);
            for (int r = 0; r < p && ok; r++) {
                if (++used[node[r]] > host_cores[node[r]]) {
                    g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                                "host file %s puts more ranks on %s than its %d cores (use "
                                "--oversubscribe to share cores)",
                                config->placement_file,
                                core_host_name(core_host_at(order[node[r]])),
                                host_cores[node[r]]);
                    ok = FALSE;
                }
            }
            g_free(used);
        }
        break;
    }
    }
    for (int r = 0; ok && r < p; r++) {
        ranks[r].host = core_host_at(order[node[r]]);
        ranks[r].node = (int)node[r];
    }
out:
    g_free(node);
    g_free(host_cores);
    g_free(order);
    g_ptr_array_free(keys, TRUE);
    return ok;
}

gboolean
sim_placement_parse(const char *text, struct sim_config *config, GError **error)
{
    guint64 seed = 0;
    if (g_strcmp0(text, "block") == 0) {
        config->placement = SIM_PLACEMENT_BLOCK;
    } else if (g_strcmp0(text, "cyclic") == 0) {
        config->placement = SIM_PLACEMENT_CYCLIC;
    } else if (text != NULL && g_str_has_prefix(text, "random:") &&
               g_ascii_string_to_unsigned(text + 7, 10, 0, G_MAXUINT64, &seed, NULL)) {
        config->placement = SIM_PLACEMENT_RANDOM;
        config->placement_seed = seed;
    } else if (text != NULL && g_str_has_prefix(text, "hostfile:") && text[9] != '\0') {
        config->placement = SIM_PLACEMENT_HOSTFILE;
        config->placement_file = text + 9;
    } else {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT,
                    "unknown placement '%s' (block, cyclic, random:SEED, hostfile:FILE)",
                    text != NULL ? text : "");
        return FALSE;
    }
    return TRUE;
}

/* ---------------------------------------------------------------- rank actors */

/* "in-<rank>", the name of a rank's inbox, written without printf: this runs on each rank's
 * own small stack, where glibc's printf machinery (a few KiB of stack) would fault in a page
 * that no MPI call needs, 4 KiB more per rank. */
static void
inbox_name(char name[static 16], int world_rank)
{
    char digits[12];
    int n = 0;
    unsigned v = (unsigned)world_rank;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v > 0);
    memcpy(name, "in-", 3);
    for (int i = 0; i < n; i++)
        name[3 + i] = digits[n - 1 - i];
    name[3 + n] = '\0';
}

/* Append KEY and VALUE (taken) to PAIRS; not a VALUE that is NULL or empty (an info value has
 * at least one character). */
static void
add_info_pair(GPtrArray *pairs, const char *key, gchar *value)
{
    if (value == NULL || value[0] == '\0') {
        g_free(value);
        return;
    }
    g_ptr_array_add(pairs, g_strdup(key));
    g_ptr_array_add(pairs, value);
}

/* MPI_INFO_ENV: the keys MPI-3.1 §8.7 names that a run has, valued as Open MPI 4.1 values
 * them (the command's base name, its arguments joined by spaces; no per-process key such as
 * host, which differs between ranks that share this one object). */
static void
fill_info_env(const struct sim_config *config)
{
    GPtrArray *pairs = g_ptr_array_new_with_free_func(g_free);
    add_info_pair(pairs, "command",
                  config->argc > 0 ? g_path_get_basename(config->argv[0]) : NULL);
    add_info_pair(pairs, "argv",
                  config->argc > 1 ? g_strjoinv(" ", (gchar **)config->argv + 1) : NULL);
    add_info_pair(pairs, "maxprocs", g_strdup_printf("%d", config->nranks));
    struct utsname host;
    add_info_pair(pairs, "arch", uname(&host) == 0 ? g_strdup(host.machine) : NULL);
    add_info_pair(pairs, "wdir", g_get_current_dir());
    add_info_pair(pairs, "thread_level", g_strdup("MPI_THREAD_SINGLE"));
    g_ptr_array_add(pairs, NULL);
    collsim_info_env_fill((const char *const *)pairs->pdata);
    g_ptr_array_free(pairs, TRUE);
}

static void
rank_actor(void *data)
{
    struct sim_rank *me = data;
    char name[16];
    inbox_name(name, me->world_rank);
    me->inbox = core_mailbox_by_name(name);
    core_mailbox_set_receiver(name);
    sim_p2p_rank_start(me);
    core_barrier_wait(start_barrier);
    sim_after_yield();

    char **args = g_new0(char *, run_config->argc + 1);
    for (int i = 0; i < run_config->argc; i++)
        args[i] = g_strdup(run_config->argv[i]);
    me->exit_status = run_config->program(run_config->argc, args);
    g_strfreev(args);
    sim_p2p_rank_finish(me);
    me->finished = TRUE;
}

/* How many ranks a wait-for chain names before "..." (the report must stay readable when
 * a ring of thousands of ranks waits on itself). */
#define CHAIN_SHOWN 8

/*
 * The wait-for chain that explains a deadlock: from the lowest blocked rank, follow "waits
 * for" (sim_p2p_waits_for) until a rank repeats (a cycle: the ranks in it wait for each
 * other and none can move first), a rank that has finished is reached (it will never send or
 * receive what is waited for), or a rank waits for any rank. The chain from the start to
 * the cycle is left out: the cycle alone is the cause.
 */
static void
describe_wait_chain(GString *out)
{
    int start = 0;
    while (start < world_size && ranks[start].finished)
        start++;
    if (start == world_size)
        return;
    /* position of each rank on the walk, or -1 */
    int *at = g_new(int, world_size);
    int *walk = g_new(int, world_size + 1);
    for (int r = 0; r < world_size; r++)
        at[r] = -1;
    int n = 0, r = start;
    while (r >= 0 && r < world_size && at[r] < 0 && !ranks[r].finished) {
        at[r] = n;
        walk[n++] = r;
        r = sim_p2p_waits_for(&ranks[r]);
    }
    int first = 0;
    const char *end = NULL;
    if (r >= 0 && r < world_size && at[r] >= 0) {
        first = at[r];
        walk[n++] = r;
        g_string_append(out, "  wait-for cycle: ");
        end = " (each waits for the next; none can move first)";
    } else if (r >= 0 && r < world_size && ranks[r].finished) {
        walk[n++] = r;
        g_string_append(out, "  wait-for chain: ");
        end = ranks[r].mpi_state == 2 ? " (which has called MPI_Finalize)"
                                      : " (which has returned from main)";
    }
    for (int i = first; end != NULL && i < n; i++) {
        if (i - first == CHAIN_SHOWN && n - first > CHAIN_SHOWN + 1) {
            g_string_append_printf(out, " -> ... %d more -> rank %d", n - first - 1 - CHAIN_SHOWN,
                                   walk[n - 1]);
            break;
        }
        g_string_append_printf(out, "%srank %d", i == first ? "" : " -> ", walk[i]);
    }
    if (end != NULL)
        g_string_append_printf(out, "%s\n", end);
    g_free(walk);
    g_free(at);
}

static void
report_deadlock(void)
{
    GString *out = g_string_new(NULL);
    int blocked = 0;
    for (int r = 0; r < world_size; r++)
        if (!ranks[r].finished)
            blocked++;
    g_string_append_printf(out, "collsim: deadlock: %d of %d ranks can never proceed\n", blocked,
                           world_size);
    describe_positions(out, TRUE);
    describe_wait_chain(out);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
}

/* The run's own SimGrid items, in the order SimGrid takes them: the environment's
 * (COLLSIM_SIMGRID_CFG: the sanitizer build picks thread contexts), then the user's --cfg. */
static gchar **
run_simgrid_items(const struct sim_config *config)
{
    GPtrArray *items = g_ptr_array_new();
    const char *extra = g_getenv("COLLSIM_SIMGRID_CFG");
    gchar **env_items = extra != NULL ? g_strsplit_set(extra, " \t", -1) : NULL;
    for (gchar **c = env_items; c != NULL && *c != NULL; c++)
        if (**c != '\0')
            g_ptr_array_add(items, g_strdup(*c));
    g_strfreev(env_items);
    for (gchar **c = config->simgrid_cfg; c != NULL && *c != NULL; c++)
        g_ptr_array_add(items, g_strdup(*c));
    g_ptr_array_add(items, NULL);
    return (gchar **)g_ptr_array_free(items, FALSE);
}

/* Whether `items` choose thread contexts (the last choice counts). */
static gboolean
thread_contexts(gchar **items)
{
    static const char factory[] = "--cfg=contexts/factory:";
    gboolean thread = FALSE;
    for (gchar **c = items; *c != NULL; c++)
        if (g_str_has_prefix(*c, factory))
            thread = strcmp(*c + strlen(factory), "thread") == 0;
    return thread;
}

static gchar **
simgrid_arguments(const struct sim_config *config, int *argc)
{
    GPtrArray *args = g_ptr_array_new();
    g_ptr_array_add(args, g_strdup("collsim"));
    /* quiet SimGrid's own chatter; our messages say what matters */
    g_ptr_array_add(args, g_strdup("--log=xbt_cfg.thres:warning"));
    /* SimGrid's own deadlock banner would precede ours, which names who waits for whom */
    g_ptr_array_add(args, g_strdup("--log=ker_engine.app:file:/dev/null"));
    g_ptr_array_add(args, g_strdup("--log=ker_engine.add:no"));
    g_ptr_array_add(args, g_strdup("--log=root.fmt:[%10.6r]%e%m%n"));
    g_ptr_array_add(args, g_strdup_printf("--cfg=contexts/guard-size:%d",
                                          sim_engine_stack_guarded(config) ? 4096 : 0));
    /* the stack size is set for all actors here, not per actor: SimGrid 3.32 maps per-actor
     * stacks one by one, and past glibc's 65536 live mappings they land on the heap, zeroed.
     * Not with thread contexts, whose stacks SimGrid does not size (it says so on stderr, in
     * runs of its core only: the two cores' messages would differ) */
    gchar **items = run_simgrid_items(config);
    if (!thread_contexts(items))
        g_ptr_array_add(
            args, g_strdup_printf("--cfg=contexts/stack-size:%u", sim_engine_stack_kib(config)));
    /* the preset's network model first: the environment and --cfg items below may override it */
    const struct model_network *network =
        config->network != NULL ? config->network : model_network_default();
    g_ptr_array_add(args, g_strdup_printf("--cfg=network/model:%s", network->simgrid_model));
    g_ptr_array_add(args,
                    g_strdup_printf("--cfg=network/crosstraffic:%d", network->crosstraffic ? 1 : 0));
    for (gchar **c = items; *c != NULL; c++)
        g_ptr_array_add(args, *c); /* the array's now */
    g_free(items);
    g_ptr_array_add(args, NULL);
    *argc = (int)args->len - 1;
    return (gchar **)g_ptr_array_free(args, FALSE);
}

/* A rank's number for COLLSIM_CORE_TRACE (the actors' data are ranks, the transport's own
 * actor has none). */
static int
trace_rank_of(void *actor_data)
{
    return ((const struct sim_rank *)actor_data)->world_rank;
}

/*
 * What collsim's own core does not model: SimGrid configuration items other than the network
 * model's parameters and the precisions (its own core keeps SimGrid's Lazy updates and
 * max-min solver, and none of the other models), and platform files with profiles (traces of
 * speed, bandwidth, latency or state) or Wi-Fi links. NULL when it models the run, else why
 * not, in a sentence.
 */
static const char *const own_core_cfg_items[] = {
    "network/model:CM02", "network/model:LV08", "network/model:SMPI", "network/latency-factor:",
    "network/bandwidth-factor:", "network/weight-S:", "network/TCP-gamma:",
    "network/crosstraffic:", "smpi/bw-factor:", "smpi/lat-factor:", "maxmin/precision:",
    "surf/precision:", "contexts/",
};

static gchar *
own_core_unsupported_item(const char *item)
{
    const char *body = item;
    if (g_str_has_prefix(body, "--log="))
        return NULL;
    if (g_str_has_prefix(body, "--cfg="))
        body += 6;
    for (gsize i = 0; i < G_N_ELEMENTS(own_core_cfg_items); i++)
        if (g_str_has_prefix(body, own_core_cfg_items[i]))
            return NULL;
    return g_strdup_printf("it does not model the SimGrid item %s", body);
}

static gchar *
own_core_unsupported(const struct sim_config *config, const char *platform, gboolean generated)
{
    const struct model_network *network =
        config->network != NULL ? config->network : model_network_default();
    const char *model = network->simgrid_model;
    if (g_strcmp0(model, "CM02") != 0 && g_strcmp0(model, "LV08") != 0 &&
        g_strcmp0(model, "SMPI") != 0)
        return g_strdup_printf("it does not model SimGrid's %s network model", model);
    gchar **items = run_simgrid_items(config);
    gchar *why = NULL;
    for (gchar **c = items; why == NULL && *c != NULL; c++)
        why = own_core_unsupported_item(*c);
    g_strfreev(items);
    if (why != NULL || generated)
        return why;
    /* attributes and elements of SimGrid's platform DTD that bring what the core lacks */
    static const char *const features[] = {
        "availability_file", "state_file", "speed_file", "bandwidth_file", "latency_file",
        "<trace", "<prop id=\"wifi", "WIFI", "NONLINEAR", "<profile",
    };
    gchar *text = NULL;
    if (!g_file_get_contents(platform, &text, NULL, NULL))
        return NULL; /* SimGrid says what is wrong with it */
    for (gsize i = 0; why == NULL && i < G_N_ELEMENTS(features); i++)
        if (strstr(text, features[i]) != NULL)
            why = g_strdup_printf("the platform file uses %s, which it does not model",
                                  features[i][0] == '<' ? features[i] + 1 : features[i]);
    g_free(text);
    return why;
}

/* The core that runs `config` on `platform`; an error when collsim's own core was asked for
 * and cannot model the run. */
static enum core_kind
choose_core(const struct sim_config *config, const char *platform, GError **error)
{
    if (config->engine == SIM_ENGINE_SIMGRID)
        return CORE_SIMGRID;
    gboolean generated =
        config->platform_file == NULL || platform_gen_is_spec(config->platform_file);
    gchar *why = own_core_unsupported(config, platform, generated);
    if (why == NULL)
        return CORE_COLLSIM;
    if (config->engine == SIM_ENGINE_COLLSIM)
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLATFORM,
                    "--engine collsim: %s (--engine simgrid runs it)", why);
    g_free(why);
    return CORE_SIMGRID;
}

/* Whether a run of `config` goes without SimGrid: collsim's own core on its own flat cluster
 * (the default platform, the `flat` generator or a file of one plain <cluster>). */
static gboolean
runs_without_simgrid(const struct sim_config *config)
{
    const char *platform = config->platform_file;
    struct core_flat_cluster plain;
    if (platform != NULL && !platform_gen_is_spec(platform)) {
        if (!platform_file_plain_cluster(platform, &plain))
            return FALSE;
        platform_file_cluster_clear(&plain);
    } else if (platform != NULL) {
        const struct model_network *network =
            config->network != NULL ? config->network : model_network_default();
        struct platform_spec spec = {0};
        if (!platform_gen_parse(platform, network, (guint)MAX(config->nranks, 1), &spec, NULL) ||
            spec.kind != PLATFORM_FLAT)
            return FALSE;
    }
    GError *error = NULL;
    gboolean own = choose_core(config, platform, &error) == CORE_COLLSIM;
    g_clear_error(&error);
    return own;
}

void
sim_engine_preload(const struct sim_config *config)
{
    if (!simgrid_glue_loaded() && !runs_without_simgrid(config))
        (void)simgrid_glue();
}

static gboolean
engine_run(const struct sim_config *config, struct sim_outcome *outcome, GError **error)
{
    memset(outcome, 0, sizeof *outcome);
    if (config->nranks < 1) {
        g_set_error(error, SIM_ERROR, SIM_ERROR_PLACEMENT, "the number of ranks must be >= 1");
        return FALSE;
    }
    const struct model_network *network =
        config->network != NULL ? config->network : model_network_default();
    struct platform_spec spec = {0};
    gchar *generated = NULL;
    const char *platform = config->platform_file;
    /* a flat cluster, generated or by default, as `flat` says */
    gboolean is_flat = FALSE;
    struct core_flat_cluster flat = {0};
    if (platform == NULL) {
        sim_engine_default_cluster(config->nranks, network, &flat);
        is_flat = TRUE;
    } else if (platform_gen_is_spec(platform)) {
        /* a virtual cluster by name: its links default to the network preset's */
        GError *spec_error = NULL;
        if (!platform_gen_parse(platform, network, (guint)config->nranks, &spec, &spec_error)) {
            g_set_error_literal(error, SIM_ERROR, SIM_ERROR_PLATFORM, spec_error->message);
            g_error_free(spec_error);
            return FALSE;
        }
        is_flat = spec.kind == PLATFORM_FLAT;
        if (is_flat)
            platform_gen_flat_cluster(&spec, &flat);
    } else if (platform_file_plain_cluster(platform, &flat)) {
        is_flat = TRUE; /* built by the own core as the generated ones are */
    } else if (!inspect_platform(platform, PLATFORM_LOAD_SECONDS, NULL, error)) {
        return FALSE;
    }

    GError *core_error = NULL;
    enum core_kind core = choose_core(config, platform, &core_error);
    if (core_error == NULL && config->stacks == SIM_STACKS_SHARED &&
        !core_stack_sharing_available(core))
        g_set_error(&core_error, SIM_ERROR, SIM_ERROR_PLATFORM, "--stacks shared: %s",
                    core == CORE_SIMGRID
                        ? "SimGrid's core runs this, and gives each rank a stack of its own"
                        : "this build runs under AddressSanitizer, which follows each stack's "
                          "frames where they are: ranks get a stack each");
    if (core_error != NULL) {
        g_propagate_error(error, core_error);
        platform_file_cluster_clear(&flat);
        return FALSE;
    }
    gboolean share_stack = stacks_shared_on(config, core);
    /* collsim's own core simulates a flat cluster itself (sim/core/platform.h): SimGrid builds
     * none of its hosts and links, a third of the memory of a rank at 2^20 ranks */
    gboolean own_flat = is_flat && core == CORE_COLLSIM;
    if (!own_flat)
        (void)simgrid_glue(); /* loaded before a platform file is written: it exits if it can't */
    if (own_flat) {
        /* SimGrid is not started at all (not even loaded: simgrid_glue.h) */
    } else if (platform == NULL) {
        generated = write_default_platform(config->nranks, network, error);
        if (generated == NULL)
            return FALSE;
        platform = generated;
    } else if (platform_gen_is_spec(platform)) {
        gchar *xml = platform_gen_xml(&spec);
        generated = write_platform_file(xml, error);
        g_free(xml);
        if (generated == NULL)
            return FALSE;
        platform = generated;
    }
    core_select(core);
    core_trace_set_rank_of(trace_rank_of);
    int argc;
    gchar **argv = simgrid_arguments(config, &argc);
    /* simgrid_init removes the items it consumes from argv: free from a copy of the array */
    gchar **argv_owned = g_memdup2(argv, sizeof(gchar *) * (gsize)(argc + 1));
    if (own_flat) {
        core_cfg_use_own(argv);
        core_platform_use_flat(&flat); /* copies the names' prefix and suffix */
    } else {
        simgrid_glue()->start(&argc, argv, platform);
        core_cfg_use_simgrid();
        core_platform_use_simgrid();
    }
    platform_file_cluster_clear(&flat);
    core_setup((gsize)(share_stack ? sim_engine_shared_stack_kib(config)
                                   : sim_engine_stack_kib(config)) *
                   1024,
               share_stack);
    if (generated != NULL) {
        g_unlink(generated);
        g_free(generated);
    }

    run_config = config;
    world_size = config->nranks;
    ranks = core_alloc_populated((gsize)world_size * sizeof *ranks);
    memset(ranks, 0, (gsize)world_size * sizeof *ranks);
    for (int r = 0; r < world_size; r++)
        ranks[r].world_rank = r;
    if (!place_ranks(config, error)) {
        g_free(ranks);
        ranks = NULL;
        g_strfreev(argv_owned);
        g_free(argv);
        return FALSE;
    }
    if (config->privatize && config->privatize_anchor != NULL &&
        !sim_privatize_setup(config->privatize_anchor, world_size, error)) {
        g_free(ranks);
        ranks = NULL;
        g_strfreev(argv_owned);
        g_free(argv);
        return FALSE;
    }
    collsim_comm_world_setup(world_size);
    fill_info_env(config);
    served = g_array_new(FALSE, FALSE, sizeof(struct sim_served));
    collsim_runtime_install(&sim_hooks);
    install_crash_handler();
    start_barrier = core_barrier_new(world_size);
    sim_env_getopt_reset(world_size);

    for (int r = 0; r < world_size; r++) {
        char name[24];
        g_snprintf(name, sizeof name, "rank-%d", r);
        ranks[r].actor = core_actor_create(name, ranks[r].host, rank_actor, &ranks[r]);
    }
    sim_p2p_start(ranks[0].host);
    if (config->wall_limit > 0) {
        signal(SIGALRM, wall_limit_handler);
        struct itimerval limit = {.it_value = {.tv_sec = (time_t)config->wall_limit,
                                               .tv_usec = (suseconds_t)((config->wall_limit -
                                                   floor(config->wall_limit)) * 1e6)}};
        setitimer(ITIMER_REAL, &limit, NULL);
    }
    core_run();
    if (config->wall_limit > 0) {
        struct itimerval off = {0};
        setitimer(ITIMER_REAL, &off, NULL);
    }
    sim_env_getopt_reset(0);

    outcome->simulated_time = core_clock();
    gboolean deadlock = FALSE;
    int first_failure = 0;
    for (int r = 0; r < world_size; r++) {
        outcome->messages += ranks[r].messages_sent;
        outcome->bytes += ranks[r].bytes_sent;
        if (!ranks[r].finished) {
            deadlock = TRUE;
        } else if (first_failure == 0 && ranks[r].exit_status != 0) {
            first_failure = ranks[r].exit_status;
            fprintf(stderr, "collsim: rank %d returned %d from main\n", r, ranks[r].exit_status);
        }
    }
    /* collective calls some members never made: the cause of a deadlock, or an error alone
     * (the deadlock report first: it names each rank's collective from the checker's state) */
    if (deadlock)
        report_deadlock();
    else
        for (int r = 0; r < world_size; r++)
            sim_p2p_report_unreceived(&ranks[r]);
    sim_env_report_unfreed(ranks, world_size, config->verbose);
    int unmatched = coll_check_finish();
    if (deadlock) {
        outcome->exit_code = SIM_EXIT_DEADLOCK;
    } else if (first_failure != 0) {
        outcome->exit_code = first_failure;
    } else if (unmatched > 0) {
        outcome->exit_code = SIM_EXIT_MISMATCH;
    } else {
        for (int r = 0; r < world_size; r++) {
            if (ranks[r].mpi_state == 1) {
                fprintf(stderr, "collsim: rank %d returned from main without calling MPI_Finalize\n",
                        r);
                outcome->exit_code = SIM_EXIT_NO_FINALIZE;
                break;
            }
        }
    }
    outcome->core = core;
    outcome->privatized_bytes_per_rank = sim_privatize_bytes_per_rank();
    outcome->stack_kib = (guint)(core_stack_bytes() / 1024);
    outcome->stack_shared = core_stacks_shared();
    g_array_sort(served, served_cmp);
    outcome->served = served;
    served = NULL;
    collsim_runtime_install(NULL);
    g_strfreev(argv_owned);
    g_free(argv);
    return TRUE;
}

/* SimGrid's kernel runs on the calling thread's stack and recurses through the network
 * model's constraint graph: a ring of 65536 ranks nests 2^17 deep, more than the 8 MiB of a
 * main thread. The simulation therefore runs on a thread of its own with a large stack
 * (virtual memory: only the pages used are paid for). */
#define ENGINE_STACK_BYTES ((gsize)1 << 30)

struct engine_job {
    const struct sim_config *config;
    struct sim_outcome *outcome;
    GError *error;
    gboolean ok;
};

static void *
engine_thread(void *data)
{
    struct engine_job *job = data;
    job->ok = engine_run(job->config, job->outcome, &job->error);
    return NULL;
}

gboolean
sim_engine_run(const struct sim_config *config, struct sim_outcome *outcome, GError **error)
{
    struct engine_job job = {config, outcome, NULL, FALSE};
    pthread_attr_t attr;
    pthread_t thread;
    pthread_attr_init(&attr);
    if (pthread_attr_setstacksize(&attr, ENGINE_STACK_BYTES) != 0 ||
        pthread_create(&thread, &attr, engine_thread, &job) != 0) {
        pthread_attr_destroy(&attr);
        return engine_run(config, outcome, error);   /* the caller's stack, then */
    }
    pthread_attr_destroy(&attr);
    pthread_join(thread, NULL);
    if (job.error != NULL)
        g_propagate_error(error, job.error);
    return job.ok;
}
