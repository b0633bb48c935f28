/*
 * proc.h — run a function in a forked child process, and say how the child ended.
 *
 * SimGrid starts once per process and ends the process on a fatal error (an abort on a bad
 * platform, a fatal MPI error), so whatever must survive a simulation, or run several, forks
 * a child for it: the platform inspection and the --cfg check (engine.c), the context factory
 * probe (check.c), each point of `collsim order` (order.c) and each point of a sweep (run.c).
 * This module is the one way they do it.
 *
 * Invariants:
 *  - stdio is flushed before every fork, so nothing the parent buffered is written twice;
 *  - the child leaves through _exit() with the function's return value: the parent's atexit
 *    work does not run in it, and its stdio buffers are not flushed (a function that wants its
 *    buffered output seen calls fflush itself), and after the function's frame is gone: a
 *    function frees what it allocated, or a leak checker (valgrind) finds it lost;
 *  - sim_proc_run reads every captured stream to its end while the child runs, then reaps the
 *    child: a child writing more than a pipe holds never blocks for ever;
 *  - a time limit is kept by the parent, which kills the child (SIGKILL) when it is reached;
 *    the child's own signal handling cannot stop that;
 *  - EINTR (a caller's timer, say) is retried everywhere.
 */
#ifndef COLLSIM_SIM_PROC_H
#define COLLSIM_SIM_PROC_H

#include <sys/types.h>

#include <glib.h>

/* The work of a child: its return value is the child's exit code (0 to 255). */
typedef int (*sim_proc_fn)(gpointer data);

/* Where one of the child's standard streams goes. */
enum sim_proc_stream {
    SIM_PROC_INHERIT = 0, /* the parent's */
    SIM_PROC_CAPTURE,     /* a pipe, read into sim_proc_result.out or .err (sim_proc_run only) */
    SIM_PROC_DISCARD,     /* /dev/null (the parent's stream if /dev/null cannot be opened) */
    SIM_PROC_TO_FD,       /* the file descriptor stdout_fd or stderr_fd of the options */
    SIM_PROC_WITH_STDOUT, /* stderr only: wherever stdout goes, the two interleaved as written */
};

struct sim_proc_options {
    enum sim_proc_stream stdout_to;
    enum sim_proc_stream stderr_to;
    int stdout_fd; /* for SIM_PROC_TO_FD */
    int stderr_fd;
    /* seconds of wall time before the child is killed; 0: no limit (sim_proc_run only) */
    guint time_limit;
    /*
     * Restore the default action of the signals that end a process (SIGABRT, SIGSEGV, SIGBUS,
     * SIGFPE, SIGILL, SIGALRM; SIGALRM also unblocked) in the child, for work that may die of
     * them: a crash reporter inherited from the parent (a fuzzer's) would report the child's
     * end as a crash of its own, and an inherited SIGALRM handler would keep the child's own
     * alarm() from ending it.
     */
    gboolean default_signals;
};

/* How a child ended. */
enum sim_proc_end {
    SIM_PROC_EXITED,    /* exit_code is set */
    SIM_PROC_KILLED,    /* signal is set: the signal that ended it */
    SIM_PROC_TIMED_OUT, /* killed (signal SIGKILL) by the parent at the time limit */
};

struct sim_proc_status {
    enum sim_proc_end end;
    int exit_code;    /* SIM_PROC_EXITED only, else -1 */
    int signal;       /* SIM_PROC_KILLED and SIM_PROC_TIMED_OUT, else 0 */
    guint time_limit; /* the limit it had, for SIM_PROC_TIMED_OUT */
};

struct sim_proc_result {
    struct sim_proc_status status;
    GString *out; /* what the child wrote to stdout (and stderr, with WITH_STDOUT), if captured */
    GString *err; /* what the child wrote to stderr, if captured on its own */
};

/*
 * Run fn(data) in a forked child and wait for it, capturing its streams as `options` say
 * (NULL: inherit both, no limit, no signal reset). TRUE with *result filled (free it with
 * sim_proc_result_clear) however the child ended; FALSE with `error` (G_FILE_ERROR, "pipe: ...",
 * "fork: ...", "waitpid: ...") only when no child could be run or reaped.
 */
gboolean sim_proc_run(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options,
                      struct sim_proc_result *result, GError **error);
void sim_proc_result_clear(struct sim_proc_result *result);

/*
 * For a pool of children running at once: start fn(data) in a child and return at once with
 * its *pid. Streams may not be captured and there is no time limit (the parent is not
 * watching); the caller reaps it with sim_proc_wait_any or sim_proc_stop.
 */
gboolean sim_proc_start(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options,
                        pid_t *pid, GError **error);
/* Wait for any child of this process to end: its *pid and *status. FALSE with `error` when
 * there is none (ECHILD) or waitpid fails otherwise. */
gboolean sim_proc_wait_any(pid_t *pid, struct sim_proc_status *status, GError **error);
/* Kill a started child (SIGKILL) and reap it. */
void sim_proc_stop(pid_t pid);

/* "exit 3", "killed by SIGSEGV", "killed at its time limit of 2 s" (free with g_free). */
gchar *sim_proc_status_describe(const struct sim_proc_status *status);

#endif
