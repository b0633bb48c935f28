/*
 * env.c — the MPI environment of a simulated rank: Init, Finalize, Abort, the simulated clock.
 *
 * MPI_Wtime is the SimGrid clock: it only moves when simulated work, communication or
 * overheads are charged, so a program's timings are reproducible to the bit.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>


#include "mpi.h"
#include "sim/engine/payload_scratch.h"
#include "sim/engine/program_check.h"
#include "sim/engine/rank.h"
#include "src/callsite.h"
#include "src/comm.h"
#include "src/errhandler.h"
#include "src/info.h"
#include "src/runtime.h"

static struct sim_rank *
self_or_die(const char *call)
{
    struct sim_rank *me = sim_rank_self();
    if (me == NULL) {
        fprintf(stderr, "collsim: %s called outside a simulated rank\n", call);
        sim_engine_abort(COLLSIM_EXIT_MPI_ERROR);
    }
    return me;
}

int
MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    struct sim_rank *me = self_or_die("MPI_Init");
    if (me->mpi_state != 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Init",
                             "MPI_Init called twice");
    me->mpi_state = 1;
    return MPI_SUCCESS;
}

int
MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)required;
    self_or_die("MPI_Init_thread");
    int rc = sim_p2p_check_out(provided, "provided", "MPI_Init_thread");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Init(argc, argv);
    *provided = MPI_THREAD_SINGLE;
    return rc;
}

int
MPI_Finalize(void)
{
    struct sim_rank *me = self_or_die("MPI_Finalize");
    if (me->mpi_state != 1)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, "MPI_Finalize",
                             me->mpi_state == 0 ? "called before MPI_Init"
                                                : "MPI_Finalize called twice");
    sim_p2p_complete_freed(me);
    /* delete callbacks may still communicate (collsim's caches free their communicators) */
    int rc = collsim_comm_finalize_rank();
    sim_p2p_report_unfinished(me);
    sim_env_note_unfreed(me, sim_engine_config()->verbose);
    me->mpi_state = 2;
    return rc;
}

void
sim_env_note_unfreed(struct sim_rank *rank, gboolean verbose)
{
    GPtrArray *held = collsim_handles_held_by(rank->world_rank, rank->unfreed);
    GString *out = g_string_new(NULL);
    for (guint i = 0; verbose && i < held->len; i++) {
        const struct collsim_held *h = g_ptr_array_index(held, i);
        g_string_append_printf(out, "collsim: warning: rank %d never freed the %s made by %s",
                               rank->world_rank, collsim_held_kind_name(h->kind), h->call);
        collsim_callsite_describe(h->caller, out);
        if (h->handles > 1)
            g_string_append_printf(out, ", %d handles", h->handles);
        g_string_append_c(out, '\n');
    }
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
    g_ptr_array_free(held, TRUE);
}

/* "2 communicators, 1 datatype" */
static void
append_unfreed(GString *out, const guint unfreed[COLLSIM_HELD_KINDS])
{
    const char *sep = "";
    for (int k = 0; k < COLLSIM_HELD_KINDS; k++) {
        if (unfreed[k] == 0)
            continue;
        g_string_append_printf(out, "%s%u %s%s", sep, unfreed[k],
                               collsim_held_kind_name((enum collsim_held_kind)k),
                               unfreed[k] == 1 ? "" : "s");
        sep = ", ";
    }
}

/* How many groups of ranks the summary names before "and N more ranks". */
#define UNFREED_GROUPS_SHOWN 4

void
sim_env_report_unfreed(const struct sim_rank *ranks, int nranks, gboolean verbose)
{
    GString *out = g_string_new(NULL);
    int groups = 0, ranks_left_out = 0;
    /* consecutive ranks that left the same counts form one group: "ranks 0-7: 1 datatype" */
    for (int r = 0, next; r < nranks; r = next) {
        for (next = r + 1; next < nranks && memcmp(ranks[next].unfreed, ranks[r].unfreed,
                                                    sizeof ranks[r].unfreed) == 0;
             next++)
            ;
        guint total = 0;
        for (int k = 0; k < COLLSIM_HELD_KINDS; k++)
            total += ranks[r].unfreed[k];
        if (total == 0)
            continue;
        if (groups++ >= UNFREED_GROUPS_SHOWN) {
            ranks_left_out += next - r;
            continue;
        }
        g_string_append(out, groups == 1 ? "" : "; ");
        if (next - r == 1)
            g_string_append_printf(out, "rank %d: ", r);
        else
            g_string_append_printf(out, "ranks %d-%d: ", r, next - 1);
        append_unfreed(out, ranks[r].unfreed);
        if (next - r > 1)
            g_string_append(out, " each");
    }
    if (groups > 0) {
        fprintf(stderr, "collsim: warning: objects not freed at MPI_Finalize: %s", out->str);
        if (ranks_left_out > 0)
            fprintf(stderr, "; and %d more rank%s", ranks_left_out, ranks_left_out == 1 ? "" : "s");
        fprintf(stderr, verbose ? "\n" : " (collsim exec --verbose lists each)\n");
    }
    g_string_free(out, TRUE);
}

/* MPI_Initialized and MPI_Finalized: whether the calling rank's MPI state has reached
 * `state` (1 initialized, 2 finalized; a finalized rank was initialized too). */
static int
state_reached(int *flag, int state, const char *call)
{
    int rc = sim_p2p_check_out(flag, "flag", call);
    if (rc != MPI_SUCCESS)
        return rc;
    struct sim_rank *me = sim_rank_self();
    *flag = me != NULL && me->mpi_state >= state;
    return MPI_SUCCESS;
}

int
MPI_Initialized(int *flag)
{
    return state_reached(flag, 1, "MPI_Initialized");
}

int
MPI_Finalized(int *flag)
{
    return state_reached(flag, 2, "MPI_Finalized");
}

/* Ends every rank whatever comm is (collsim has one job): comm is never read, so even an
 * invalid handle cannot keep the run from ending. */
int
MPI_Abort(MPI_Comm comm, int errorcode)
{
    (void)comm;
    struct sim_rank *me = self_or_die("MPI_Abort");
    fflush(stdout);
    fprintf(stderr, "collsim: rank %d called MPI_Abort with error code %d at t=%.9f s\n",
            me->world_rank, errorcode, core_clock());
    /* an exit code of 0 would read as success: keep the failure visible */
    sim_engine_abort(errorcode != 0 ? errorcode & 0xff ? errorcode & 0xff : 1 : 1);
}

/*
 * exit() called by a rank. Every exit() of the process comes here (libcollsim is searched
 * before the C library), so a call from outside a rank goes on to the C library's. A rank's
 * exit(0) after MPI_Finalize ends that rank as a return from main would; any other exit ends
 * the whole run at once, as mpirun ends a job, with the rank's status (or, for exit(0) before
 * MPI_Finalize, the status of a rank that never finalized). Without this, the C library's
 * exit handlers would tear SimGrid down under the other ranks' feet (it aborted).
 */
void
exit(int status)
{
    struct sim_rank *me = sim_rank_self();
    if (me == NULL) {
        void (*libc_exit)(int) = (void (*)(int))dlsym(RTLD_NEXT, "exit");
        if (libc_exit != NULL)
            libc_exit(status);
        _exit(status);
    }
    if (status == 0 && me->mpi_state == 2) {
        sim_p2p_rank_finish(me);
        me->exit_status = 0;
        me->finished = TRUE;
        core_actor_exit();
    }
    fflush(stdout);
    fprintf(stderr, "collsim: rank %d called exit(%d)%s at t=%.9f s; the run ends\n",
            me->world_rank, status, me->mpi_state == 2 ? "" : " before MPI_Finalize",
            core_clock());
    sim_engine_abort(status != 0 ? status & 0xff ? status & 0xff : 1 : SIM_EXIT_NO_FINALIZE);
}

/*
 * fork() called by a rank: refused, ending the run. All ranks share collsim's one process, so
 * the child would be a second copy of the whole simulation running on from that instant
 * (OSU's osu_latency_mp forks its ranks: the copies printed their tables twice and reported
 * collectives their other halves never made). Outside a rank, and from collsim's own code or
 * GLib's (whose g_spawn forks for addr2line, to describe a call site), the C library's.
 */
pid_t
fork(void)
{
    struct sim_rank *me = sim_rank_self();
    const void *caller = COLLSIM_CALLER();
    /* (a static function stands for libcollsim: fork itself may be a sanitizer's) */
    if (me == NULL || program_same_object(caller, (const void *)self_or_die) ||
        program_same_object(caller, (const void *)g_spawn_sync)) {
        pid_t (*libc_fork)(void) = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
        if (libc_fork != NULL)
            return libc_fork();
        errno = ENOSYS;
        return -1;
    }
    GString *out = g_string_new(NULL);
    g_string_printf(out, "collsim: rank %d: fork()", me->world_rank);
    collsim_callsite_describe(caller, out);
    g_string_append(out, ": a simulated rank cannot fork, as all ranks share collsim's one "
                         "process; the run ends\n");
    fflush(stdout);
    fputs(out->str, stderr);
    g_string_free(out, TRUE);
    sim_engine_abort(COLLSIM_EXIT_MPI_ERROR);
}

/*
 * sleep(), usleep() and nanosleep() called by a rank: simulated time, as SMPI makes them. The
 * ranks share one process, so a real sleep stopped every rank for that long and moved no
 * simulated clock (4 ranks sleeping 1.5 s each took 6 s of wall time and 0 s of simulated
 * time). The rank is busy for the duration, as in collsim_compute. Outside a rank (collsim's
 * and SimGrid's own threads) the C library's, like exit() above.
 */
static struct sim_rank *
sleeping_rank(void)
{
    struct sim_rank *me = sim_rank_self();
    return me != NULL && !me->finished ? me : NULL;
}

static void
rank_sleep(double seconds)
{
    if (seconds > 0.0)
        sim_p2p_compute(seconds);
}

unsigned int
sleep(unsigned int seconds)
{
    if (sleeping_rank() == NULL) {
        unsigned int (*libc_sleep)(unsigned int) =
            (unsigned int (*)(unsigned int))dlsym(RTLD_NEXT, "sleep");
        return libc_sleep != NULL ? libc_sleep(seconds) : 0;
    }
    rank_sleep((double)seconds);
    return 0;
}

int
usleep(useconds_t usec)
{
    if (sleeping_rank() == NULL) {
        int (*libc_usleep)(useconds_t) = (int (*)(useconds_t))dlsym(RTLD_NEXT, "usleep");
        return libc_usleep != NULL ? libc_usleep(usec) : 0;
    }
    rank_sleep((double)usec * 1e-6);
    return 0;
}

int
nanosleep(const struct timespec *req, struct timespec *rem)
{
    if (sleeping_rank() == NULL) {
        int (*libc_nanosleep)(const struct timespec *, struct timespec *) =
            (int (*)(const struct timespec *, struct timespec *))dlsym(RTLD_NEXT, "nanosleep");
        return libc_nanosleep != NULL ? libc_nanosleep(req, rem) : 0;
    }
    if (req == NULL) {
        errno = EFAULT;
        return -1;
    }
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec >= 1000000000L) {
        errno = EINVAL;
        return -1;
    }
    rank_sleep((double)req->tv_sec + (double)req->tv_nsec * 1e-9);
    return 0;
}

/*
 * getopt keeps its state in the C library: optind, optarg, opterr, optopt and a private
 * cursor, one set for the process, where a real MPI gives each rank a process of its own.
 * Ranks that parse their arguments here each went on where the previous one stopped (the
 * second found no option at all, and under SimGrid's core read freed strings). So once a
 * rank calls getopt, each rank keeps its own copy of the four globals, shown while it runs
 * (sim_env_show_getopt, after every switch), and a rank's first call starts the library's
 * parse afresh (optind 0: glibc's full reset). The cursor inside one group of short options
 * ("-vn5") is not kept: only a rank that made an MPI call between two getopt calls of one
 * group could tell.
 */
struct getopt_globals {
    int optind, opterr, optopt;
    char *optarg;
    gboolean started;
};

static struct getopt_globals *getopt_ranks; /* per world rank, from a rank's first getopt */
static int getopt_world_size;
static int getopt_shown = -1;               /* the rank whose values the globals hold */

void
sim_env_getopt_reset(int world_size)
{
    g_free(getopt_ranks);
    getopt_ranks = NULL;
    getopt_world_size = world_size;
    getopt_shown = -1;
    /* as a fresh process has them, for the next run's ranks and for collsim itself */
    optind = 1;
    opterr = 1;
    optopt = '?';
    optarg = NULL;
}

static void
getopt_save(struct getopt_globals *g)
{
    g->optind = optind;
    g->opterr = opterr;
    g->optopt = optopt;
    g->optarg = optarg;
}

void
sim_env_show_getopt(int world_rank)
{
    if (getopt_ranks == NULL || world_rank == getopt_shown || world_rank < 0 ||
        world_rank >= getopt_world_size)
        return;
    getopt_save(&getopt_ranks[getopt_shown]);
    const struct getopt_globals *g = &getopt_ranks[world_rank];
    optind = g->optind;
    opterr = g->opterr;
    optopt = g->optopt;
    optarg = g->optarg;
    getopt_shown = world_rank;
}

/* Before the calling rank's getopt call: its own globals from now on, and a fresh parse on its
 * first call. Outside a rank (collsim's own threads), nothing. */
static void
getopt_enter(void)
{
    const struct sim_rank *me = sim_rank_self();
    if (me == NULL || me->world_rank >= getopt_world_size)
        return;
    if (getopt_ranks == NULL) {
        getopt_ranks = g_new(struct getopt_globals, getopt_world_size);
        for (int r = 0; r < getopt_world_size; r++)
            getopt_ranks[r] = (struct getopt_globals){1, 1, '?', NULL, FALSE};
        getopt_shown = me->world_rank; /* the globals are the running rank's */
    }
    struct getopt_globals *mine = &getopt_ranks[me->world_rank];
    if (!mine->started) {
        mine->started = TRUE;
        if (optind == 1)
            optind = 0;
    }
}

typedef int getopt_fn(int, char *const *, const char *);
typedef int getopt_long_fn(int, char *const *, const char *, const struct option *, int *);

int
getopt(int argc, char *const argv[], const char *optstring)
{
    getopt_enter();
    getopt_fn *libc_getopt = (getopt_fn *)dlsym(RTLD_NEXT, "getopt");
    return libc_getopt != NULL ? libc_getopt(argc, argv, optstring) : -1;
}

/* what <unistd.h> calls getopt under strict POSIX (no _GNU_SOURCE) */
int __posix_getopt(int argc, char *const argv[], const char *optstring);

int
__posix_getopt(int argc, char *const argv[], const char *optstring)
{
    getopt_enter();
    getopt_fn *libc_getopt = (getopt_fn *)dlsym(RTLD_NEXT, "__posix_getopt");
    return libc_getopt != NULL ? libc_getopt(argc, argv, optstring) : -1;
}

int
getopt_long(int argc, char *const argv[], const char *optstring, const struct option *longopts,
            int *longindex)
{
    getopt_enter();
    getopt_long_fn *libc_getopt = (getopt_long_fn *)dlsym(RTLD_NEXT, "getopt_long");
    return libc_getopt != NULL ? libc_getopt(argc, argv, optstring, longopts, longindex) : -1;
}

int
getopt_long_only(int argc, char *const argv[], const char *optstring,
                 const struct option *longopts, int *longindex)
{
    getopt_enter();
    getopt_long_fn *libc_getopt = (getopt_long_fn *)dlsym(RTLD_NEXT, "getopt_long_only");
    return libc_getopt != NULL ? libc_getopt(argc, argv, optstring, longopts, longindex) : -1;
}

/*
 * gettimeofday() and clock_gettime() on the wall clocks (REALTIME, MONOTONIC, BOOTTIME, TAI
 * and their variants), called by the program's own code in a rank: its simulated time, as
 * MPI_Wtime gives it (a spin on them ends as one on MPI_Wtime does), and as SMPI gives them. A
 * program that times itself with them printed the simulator's own wall time: meaningless, and
 * different at every run. Only the program's own calls: SimGrid's thread contexts read the
 * clocks through libstdc++ while switching ranks, in the rank's thread (a simulated answer
 * there would yield inside a switch: they hung), and so would a library the program uses
 * (C++'s std::chrono stays real). Under AddressSanitizer its interceptors stand between the
 * program and these functions, so there every clock stays real. Outside the ranks, the
 * CPU-time clocks, and time(): the real clocks.
 */
static gboolean
called_by_program(const void *caller)
{
    if (sim_rank_self() == NULL)
        return FALSE; /* not in a run: its configuration may be gone (collsim explain's was
                       * on a stack) */
    const struct sim_config *config = sim_engine_config();
    return config != NULL && config->program != NULL &&
           program_same_object(caller, (const void *)config->program);
}

static gboolean
wall_clock(clockid_t clock)
{
    switch (clock) {
    case CLOCK_REALTIME:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
    case CLOCK_TAI:
        return TRUE;
    default:
        return FALSE;
    }
}

int
gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    if (!called_by_program(COLLSIM_CALLER())) {
        int (*libc_gettimeofday)(struct timeval *, void *) =
            (int (*)(struct timeval *, void *))dlsym(RTLD_NEXT, "gettimeofday");
        return libc_gettimeofday != NULL ? libc_gettimeofday(tv, tz) : -1;
    }
    double now = MPI_Wtime();
    tv->tv_sec = (time_t)now;
    tv->tv_usec = (suseconds_t)((now - (double)tv->tv_sec) * 1e6);
    return 0;
}

int
clock_gettime(clockid_t clock, struct timespec *ts)
{
    if (!wall_clock(clock) || !called_by_program(COLLSIM_CALLER())) {
        int (*libc_clock_gettime)(clockid_t, struct timespec *) =
            (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
        return libc_clock_gettime != NULL ? libc_clock_gettime(clock, ts) : -1;
    }
    double now = MPI_Wtime();
    ts->tv_sec = (time_t)now;
    ts->tv_nsec = (long)((now - (double)ts->tv_sec) * 1e9);
    return 0;
}

/* reads of one instant MPI_Wtime answers for free (MPI_Wtime, below) */
#define WTIME_FREE_READS 100u

double
MPI_Wtime(void)
{
    double now = core_clock();
    struct sim_rank *me = sim_rank_self();
    if (me == NULL)
        return now;
    /*
     * The clock moves only in MPI calls, so a rank that waits by spinning on MPI_Wtime alone
     * (`while (MPI_Wtime() - t0 < 2.0);`) would spin forever. A call is free, as it always
     * was, unless the rank has already read this same instant WTIME_FREE_READS times in a row
     * (the clock moved by nothing but these reads): then each read costs simulated time, from
     * 10 ns (SMPI's smpi/wtime) doubling every WTIME_FREE_READS reads up to 1 ms, so that a
     * spin of T seconds ends within 1 % or 1 ms of T after a few thousand reads.
     */
    if (now != me->wtime_seen) {
        me->wtime_reads = 0;
        me->wtime_seen = now;
        return now;
    }
    if (++me->wtime_reads <= WTIME_FREE_READS)
        return now;
    unsigned doublings = (me->wtime_reads - WTIME_FREE_READS) / WTIME_FREE_READS;
    double step = 1e-8 * (double)(1u << MIN(doublings, 17u));
    sim_p2p_compute(MIN(step, 1e-3));
    me->wtime_seen = core_clock();
    return me->wtime_seen;
}

int
collsim_compute(double seconds)
{
    struct sim_rank *me = self_or_die("collsim_compute");
    if (!(seconds >= 0.0) || seconds > 1e9)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "collsim_compute",
                             "seconds is %g: not a duration between 0 and 1e9", seconds);
    (void)me;
    /* not an MPI call: the rank's nonblocking collectives move meanwhile only under the
     * asynchronous progress model */
    if (seconds > 0.0)
        sim_p2p_compute(seconds);
    return MPI_SUCCESS;
}

double
MPI_Wtick(void)
{
    /* the simulated clock is a double: resolution of one nanosecond is what we promise */
    return 1e-9;
}

int
MPI_Get_processor_name(char *name, int *resultlen)
{
    struct sim_rank *me = self_or_die("MPI_Get_processor_name");
    int rc = sim_p2p_check_out(name, "name", "MPI_Get_processor_name");
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(resultlen, "resultlen", "MPI_Get_processor_name");
    if (rc != MPI_SUCCESS)
        return rc;
    g_strlcpy(name, core_host_name(me->host), MPI_MAX_PROCESSOR_NAME);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

int
MPI_Get_version(int *version, int *subversion)
{
    int rc = sim_p2p_check_out(version, "version", "MPI_Get_version");
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(subversion, "subversion", "MPI_Get_version");
    if (rc != MPI_SUCCESS)
        return rc;
    *version = MPI_VERSION;
    *subversion = MPI_SUBVERSION;
    return MPI_SUCCESS;
}

int
MPI_Get_library_version(char *version, int *resultlen)
{
    int rc = sim_p2p_check_out(version, "version", "MPI_Get_library_version");
    if (rc == MPI_SUCCESS)
        rc = sim_p2p_check_out(resultlen, "resultlen", "MPI_Get_library_version");
    if (rc != MPI_SUCCESS)
        return rc;
    g_strlcpy(version, PACKAGE_STRING ", simulated MPI 3.1 on SimGrid",
              MPI_MAX_LIBRARY_VERSION_STRING);
    *resultlen = (int)strlen(version);
    return MPI_SUCCESS;
}

/* A rank is one thread: MPI_Init_thread always provides MPI_THREAD_SINGLE. */
int
MPI_Query_thread(int *provided)
{
    int rc = sim_p2p_check_out(provided, "provided", "MPI_Query_thread");
    if (rc != MPI_SUCCESS)
        return rc;
    *provided = MPI_THREAD_SINGLE;
    return MPI_SUCCESS;
}

/* The only thread of a rank is the one that called MPI_Init. */
int
MPI_Is_thread_main(int *flag)
{
    int rc = sim_p2p_check_out(flag, "flag", "MPI_Is_thread_main");
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = 1;
    return MPI_SUCCESS;
}

/*
 * Plain memory, and MPI_Free_mem is free(). One hint is honoured: in a sizes-only run, an info
 * whose COLLSIM_INFO_PAYLOAD is "none" (the algorithms' temporaries, src/coll/coll_util.c)
 * gets shared scratch, which MPI_Free_mem leaves alone (sim/engine/payload_scratch.h).
 */
int
MPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    const char *why;
    void *mem;

    if (size < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem",
                             "size argument is negative (%lld)", (long long)size);
    if (info != MPI_INFO_NULL && collsim_info_check(info, &why) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_INFO, "MPI_Alloc_mem",
                             "info argument is not an info object (%s)", why);
    int rc = sim_p2p_check_out(baseptr, "baseptr", "MPI_Alloc_mem");
    if (rc != MPI_SUCCESS)
        return rc;
    if (info != MPI_INFO_NULL && sim_engine_config() != NULL &&
        sim_engine_config()->payload == SIM_PAYLOAD_NONE) {
        char value[8];
        int flag = 0;
        MPI_Info_get(info, COLLSIM_INFO_PAYLOAD, (int)sizeof value - 1, value, &flag);
        if (flag && strcmp(value, "none") == 0) {
            *(void **)baseptr = sim_scratch_get(SIM_SCRATCH_TEMP, (gsize)MAX(size, 1));
            return MPI_SUCCESS;
        }
    }
    mem = malloc(size > 0 ? (size_t)size : 1);
    if (mem == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem",
                             "cannot allocate %lld bytes", (long long)size);
    *(void **)baseptr = mem;
    return MPI_SUCCESS;
}

int
MPI_Free_mem(void *base)
{
    if (base != NULL && sim_scratch_contains(base))
        return MPI_SUCCESS;
    free(base);
    return MPI_SUCCESS;
}

/* Profiling control: collsim's own reports need no hint, so every level is accepted. */
int
MPI_Pcontrol(const int level, ...)
{
    (void)level;
    return MPI_SUCCESS;
}
