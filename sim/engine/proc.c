/*
 * proc.c — run a function in a forked child process (proc.h).
 *
 * The parent of sim_proc_run watches one pipe per captured stream with poll(), reading each
 * to its end as the child writes, so that neither side waits on the other (a child blocked on
 * a full pipe while the parent sits in waitpid would be a deadlock). When a time limit is set,
 * one more pipe, which the child never writes to, reaches its end only when the child exits
 * (a child that closes its captured streams early is still watched), so poll() alone tells
 * the end of the child from the end of the limit. Only once every pipe is at its end is the
 * child reaped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/engine/proc.h"

/* The pipes of a child: [0] read end, [1] write end; -1 when not used. */
enum { PIPE_OUT, PIPE_ERR, PIPE_WATCH, PIPE_COUNT };

static gboolean
set_errno_error(GError **error, int errsv, const char *what)
{
    g_set_error(error, G_FILE_ERROR, g_file_error_from_errno(errsv), "%s: %s", what,
                g_strerror(errsv));
    return FALSE;
}

static void
close_pipes(int pipes[PIPE_COUNT][2])
{
    for (int i = 0; i < PIPE_COUNT; i++)
        for (int end = 0; end < 2; end++)
            if (pipes[i][end] >= 0) {
                close(pipes[i][end]);
                pipes[i][end] = -1;
            }
}

/* ---------------------------------------------------------------- the child */

static void
child_default_signals(void)
{
    static const int ends_the_child[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM};
    sigset_t alarm_only;
    sigemptyset(&alarm_only);
    sigaddset(&alarm_only, SIGALRM);
    sigprocmask(SIG_UNBLOCK, &alarm_only, NULL);
    for (size_t i = 0; i < G_N_ELEMENTS(ends_the_child); i++)
        signal(ends_the_child[i], SIG_DFL);
}

/* Point `target` (STDOUT_FILENO or STDERR_FILENO) where `to` says; the pipe is pipes[..][1]. */
static void
child_redirect(int target, enum sim_proc_stream to, int fd, int pipe_write)
{
    switch (to) {
    case SIM_PROC_INHERIT:
        break;
    case SIM_PROC_CAPTURE:
        dup2(pipe_write, target);
        break;
    case SIM_PROC_DISCARD: {
        int devnull = open("/dev/null", O_WRONLY);
        if (devnull >= 0) {
            dup2(devnull, target);
            close(devnull);
        }
        break;
    }
    case SIM_PROC_TO_FD:
        dup2(fd, target);
        break;
    case SIM_PROC_WITH_STDOUT:
        dup2(STDOUT_FILENO, target);
        break;
    }
}

static void G_GNUC_NORETURN
child_main(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options,
           int pipes[PIPE_COUNT][2])
{
    for (int i = 0; i < PIPE_COUNT; i++)
        if (pipes[i][0] >= 0)
            close(pipes[i][0]);
    child_redirect(STDOUT_FILENO, options->stdout_to, options->stdout_fd, pipes[PIPE_OUT][1]);
    child_redirect(STDERR_FILENO, options->stderr_to, options->stderr_fd, pipes[PIPE_ERR][1]);
    /* the streams hold their pipes now; the watch pipe stays open until the child ends */
    for (int i = PIPE_OUT; i <= PIPE_ERR; i++)
        if (pipes[i][1] > STDERR_FILENO)
            close(pipes[i][1]);
    if (options->default_signals)
        child_default_signals();
    _exit(fn(data));
}

/* fflush, then fork; in the child run fn and never return. */
static gboolean
fork_child(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options,
           int pipes[PIPE_COUNT][2], pid_t *pid, GError **error)
{
    fflush(NULL);
    *pid = fork();
    if (*pid < 0)
        return set_errno_error(error, errno, "fork");
    if (*pid == 0)
        child_main(fn, data, options, pipes);
    return TRUE;
}

/* ---------------------------------------------------------------- the parent */

static void
status_from_wait(int wstatus, gboolean killed_at_limit, guint time_limit,
                 struct sim_proc_status *status)
{
    *status = (struct sim_proc_status){.end = SIM_PROC_EXITED, .exit_code = -1};
    if (WIFEXITED(wstatus)) {
        status->exit_code = WEXITSTATUS(wstatus);
        return;
    }
    status->signal = WIFSIGNALED(wstatus) ? WTERMSIG(wstatus) : 0;
    /* a child that ended by itself just before the kill keeps its own end */
    if (killed_at_limit && status->signal == SIGKILL) {
        status->end = SIM_PROC_TIMED_OUT;
        status->time_limit = time_limit;
    } else {
        status->end = SIM_PROC_KILLED;
    }
}

static gboolean
wait_child(pid_t pid, int *wstatus, GError **error)
{
    while (waitpid(pid, wstatus, 0) < 0) {
        if (errno != EINTR)
            return set_errno_error(error, errno, "waitpid");
    }
    return TRUE;
}

/*
 * Read the open read ends of `pipes` until each is at its end, into `into[i]` (NULL: drop),
 * killing `pid` once `deadline` (monotonic µs, 0 for none) has passed. Whether it killed.
 */
static gboolean
drain_pipes(int pipes[PIPE_COUNT][2], GString *into[PIPE_COUNT], pid_t pid, gint64 deadline)
{
    gboolean killed = FALSE;
    char buf[65536];
    for (;;) {
        struct pollfd fds[PIPE_COUNT];
        int which[PIPE_COUNT];
        nfds_t n = 0;
        for (int i = 0; i < PIPE_COUNT; i++)
            if (pipes[i][0] >= 0) {
                fds[n] = (struct pollfd){.fd = pipes[i][0], .events = POLLIN};
                which[n++] = i;
            }
        if (n == 0)
            return killed;
        int timeout = -1;
        if (deadline > 0 && !killed) {
            gint64 left = deadline - g_get_monotonic_time();
            if (left <= 0) {
                kill(pid, SIGKILL);
                killed = TRUE;
            } else {
                /* round up: waking early would only loop */
                timeout = (int)MIN((left + 999) / 1000, (gint64)G_MAXINT);
            }
        }
        int ready = poll(fds, n, timeout);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready < 0) {
            /* cannot watch: stop reading (a writing child then gets EPIPE, never blocks) */
            close_pipes(pipes);
            return killed;
        }
        for (nfds_t k = 0; k < n; k++) {
            if (fds[k].revents == 0)
                continue;
            int i = which[k];
            ssize_t got = read(pipes[i][0], buf, sizeof buf);
            if (got < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (got <= 0) {
                close(pipes[i][0]);
                pipes[i][0] = -1;
                continue;
            }
            if (into[i] != NULL)
                g_string_append_len(into[i], buf, got);
        }
    }
}

gboolean
sim_proc_run(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options,
             struct sim_proc_result *result, GError **error)
{
    static const struct sim_proc_options defaults = {0};
    g_return_val_if_fail(fn != NULL && result != NULL, FALSE);
    if (options == NULL)
        options = &defaults;
    g_return_val_if_fail(options->stdout_to != SIM_PROC_WITH_STDOUT, FALSE);
    *result = (struct sim_proc_result){0};

    int pipes[PIPE_COUNT][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    gboolean want[PIPE_COUNT] = {
        [PIPE_OUT] = options->stdout_to == SIM_PROC_CAPTURE,
        [PIPE_ERR] = options->stderr_to == SIM_PROC_CAPTURE,
    };
    want[PIPE_WATCH] = options->time_limit > 0;
    for (int i = 0; i < PIPE_COUNT; i++) {
        if (want[i] && pipe(pipes[i]) != 0) {
            int errsv = errno;
            close_pipes(pipes);
            return set_errno_error(error, errsv, "pipe");
        }
    }
    gint64 deadline = options->time_limit > 0
                          ? g_get_monotonic_time() + (gint64)options->time_limit * G_USEC_PER_SEC
                          : 0;
    pid_t pid;
    if (!fork_child(fn, data, options, pipes, &pid, error)) {
        close_pipes(pipes);
        return FALSE;
    }
    for (int i = 0; i < PIPE_COUNT; i++) {
        if (pipes[i][1] >= 0) {
            close(pipes[i][1]);
            pipes[i][1] = -1;
        }
    }
    GString *into[PIPE_COUNT] = {
        [PIPE_OUT] = want[PIPE_OUT] ? g_string_new(NULL) : NULL,
        [PIPE_ERR] = want[PIPE_ERR] ? g_string_new(NULL) : NULL,
    };
    gboolean killed = drain_pipes(pipes, into, pid, deadline);
    int wstatus = 0;
    if (!wait_child(pid, &wstatus, error)) {
        for (int i = 0; i < PIPE_COUNT; i++)
            if (into[i] != NULL)
                g_string_free(into[i], TRUE);
        return FALSE;
    }
    status_from_wait(wstatus, killed, options->time_limit, &result->status);
    result->out = into[PIPE_OUT];
    result->err = into[PIPE_ERR];
    return TRUE;
}

void
sim_proc_result_clear(struct sim_proc_result *result)
{
    if (result->out != NULL)
        g_string_free(result->out, TRUE);
    if (result->err != NULL)
        g_string_free(result->err, TRUE);
    result->out = result->err = NULL;
}

gboolean
sim_proc_start(sim_proc_fn fn, gpointer data, const struct sim_proc_options *options, pid_t *pid,
               GError **error)
{
    static const struct sim_proc_options defaults = {0};
    g_return_val_if_fail(fn != NULL && pid != NULL, FALSE);
    if (options == NULL)
        options = &defaults;
    g_return_val_if_fail(options->stdout_to != SIM_PROC_CAPTURE &&
                             options->stdout_to != SIM_PROC_WITH_STDOUT &&
                             options->stderr_to != SIM_PROC_CAPTURE && options->time_limit == 0,
                         FALSE);
    int pipes[PIPE_COUNT][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
    return fork_child(fn, data, options, pipes, pid, error);
}

gboolean
sim_proc_wait_any(pid_t *pid, struct sim_proc_status *status, GError **error)
{
    int wstatus = 0;
    pid_t ended;
    while ((ended = waitpid(-1, &wstatus, 0)) < 0) {
        if (errno != EINTR)
            return set_errno_error(error, errno, "waitpid");
    }
    *pid = ended;
    status_from_wait(wstatus, FALSE, 0, status);
    return TRUE;
}

void
sim_proc_stop(pid_t pid)
{
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

/* ---------------------------------------------------------------- descriptions */

static const char *
signal_name(int sig)
{
    static const struct {
        int number;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
        {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
        {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
    };
    for (gsize i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].number == sig)
            return names[i].name;
    return NULL;
}

gchar *
sim_proc_status_describe(const struct sim_proc_status *status)
{
    switch (status->end) {
    case SIM_PROC_EXITED:
        return g_strdup_printf("exit %d", status->exit_code);
    case SIM_PROC_TIMED_OUT:
        return g_strdup_printf("killed at its time limit of %u s", status->time_limit);
    case SIM_PROC_KILLED:
        break;
    }
    const char *name = signal_name(status->signal);
    return name != NULL ? g_strdup_printf("killed by %s", name)
                        : g_strdup_printf("killed by signal %d", status->signal);
}
