/*
 * check_proc.c — the process runner of sim/engine/proc.c: a child's output captured (each stream on
 * its own, both interleaved, to a file, discarded), its exit code, its death by a signal, its
 * time limit, output far larger than a pipe holds on both streams at once (no deadlock), the
 * reset of the parent's signal handlers, and the pool functions (start, wait for any, stop).
 */
#include "config.h"

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "sim/engine/proc.h"

/* Write all of `text` to `fd` (a pipe may take it in pieces). */
static gboolean
write_all(int fd, const char *text, gsize len)
{
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n <= 0)
            return FALSE;
        text += n;
        len -= (gsize)n;
    }
    return TRUE;
}

static int
say_hello(gpointer data)
{
    (void)data;
    printf("out: hello\n");
    fprintf(stderr, "err: hello\n");
    fflush(stdout);
    return 0;
}

static void
assert_exited(const struct sim_proc_status *status, int code)
{
    gchar *what = sim_proc_status_describe(status);
    gchar *want = g_strdup_printf("exit %d", code);
    ck_assert_str_eq(what, want);
    ck_assert_int_eq(status->end, SIM_PROC_EXITED);
    ck_assert_int_eq(status->exit_code, code);
    g_free(want);
    g_free(what);
}

START_TEST(test_proc_captures_each_stream)
{
    struct sim_proc_options options = {.stdout_to = SIM_PROC_CAPTURE,
                                       .stderr_to = SIM_PROC_CAPTURE};
    struct sim_proc_result result;
    GError *error = NULL;
    ck_assert(sim_proc_run(say_hello, NULL, &options, &result, &error));
    assert_exited(&result.status, 0);
    ck_assert_str_eq(result.out->str, "out: hello\n");
    ck_assert_str_eq(result.err->str, "err: hello\n");
    sim_proc_result_clear(&result);
    ck_assert(result.out == NULL && result.err == NULL);
}
END_TEST

START_TEST(test_proc_merges_stderr_into_stdout)
{
    struct sim_proc_options options = {.stdout_to = SIM_PROC_CAPTURE,
                                       .stderr_to = SIM_PROC_WITH_STDOUT};
    struct sim_proc_result result;
    ck_assert(sim_proc_run(say_hello, NULL, &options, &result, NULL));
    assert_exited(&result.status, 0);
    /* stdout was flushed after stderr was written (unbuffered): stderr's line comes first */
    ck_assert_str_eq(result.out->str, "err: hello\nout: hello\n");
    ck_assert(result.err == NULL);
    sim_proc_result_clear(&result);
}
END_TEST

START_TEST(test_proc_sends_streams_to_a_file_or_nowhere)
{
    gchar *path = NULL;
    int fd = g_file_open_tmp("check-proc-XXXXXX", &path, NULL);
    ck_assert_int_ge(fd, 0);
    struct sim_proc_options options = {
        .stdout_to = SIM_PROC_TO_FD, .stdout_fd = fd, .stderr_to = SIM_PROC_DISCARD};
    struct sim_proc_result result;
    ck_assert(sim_proc_run(say_hello, NULL, &options, &result, NULL));
    assert_exited(&result.status, 0);
    ck_assert(result.out == NULL && result.err == NULL);
    close(fd);
    gchar *text = NULL;
    ck_assert(g_file_get_contents(path, &text, NULL, NULL));
    ck_assert_str_eq(text, "out: hello\n");
    g_free(text);
    g_unlink(path);
    g_free(path);
}
END_TEST

static int
exit_with(gpointer data)
{
    return GPOINTER_TO_INT(data);
}

START_TEST(test_proc_reports_the_exit_code)
{
    struct sim_proc_result result;
    ck_assert(sim_proc_run(exit_with, GINT_TO_POINTER(3), NULL, &result, NULL));
    assert_exited(&result.status, 3);
    ck_assert(result.out == NULL && result.err == NULL);
    sim_proc_result_clear(&result);
}
END_TEST

static int
die_of_segv(gpointer data)
{
    (void)data;
    raise(SIGSEGV);
    return 0;
}

/* A crash handler of the parent's: the child must not run it when default_signals asks. */
static void
parents_crash_handler(int sig)
{
    (void)sig;
    _exit(42);
}

START_TEST(test_proc_reports_a_killing_signal)
{
    signal(SIGSEGV, parents_crash_handler);
    struct sim_proc_options options = {.default_signals = TRUE};
    struct sim_proc_result result;
    ck_assert(sim_proc_run(die_of_segv, NULL, &options, &result, NULL));
    ck_assert_int_eq(result.status.end, SIM_PROC_KILLED);
    ck_assert_int_eq(result.status.signal, SIGSEGV);
    ck_assert_int_eq(result.status.exit_code, -1);
    gchar *what = sim_proc_status_describe(&result.status);
    ck_assert_str_eq(what, "killed by SIGSEGV");
    g_free(what);
    sim_proc_result_clear(&result);

    /* without the reset, the inherited handler runs in the child */
    options.default_signals = FALSE;
    ck_assert(sim_proc_run(die_of_segv, NULL, &options, &result, NULL));
    assert_exited(&result.status, 42);
    sim_proc_result_clear(&result);
    signal(SIGSEGV, SIG_DFL);
}
END_TEST

static int
write_then_hang(gpointer data)
{
    const char line[] = "started\n";
    write_all(STDOUT_FILENO, line, sizeof line - 1);
    if (GPOINTER_TO_INT(data))
        close(STDOUT_FILENO);
    /* blocking SIGALRM too: the limit must not depend on the child's signal handling */
    sigset_t all;
    sigfillset(&all);
    sigprocmask(SIG_BLOCK, &all, NULL);
    for (;;)
        pause();
    return 0;
}

START_TEST(test_proc_stops_a_child_at_its_time_limit)
{
    /* with no stream captured, with stdout captured, and with stdout closed by the child
     * before it hangs (the end of the captured stream is not the end of the child) */
    for (int run = 0; run < 3; run++) {
        gboolean capture = run > 0, close_stdout = run == 2;
        struct sim_proc_options options = {
            .stdout_to = capture ? SIM_PROC_CAPTURE : SIM_PROC_DISCARD, .time_limit = 1};
        struct sim_proc_result result;
        gint64 start = g_get_monotonic_time();
        ck_assert(
            sim_proc_run(write_then_hang, GINT_TO_POINTER(close_stdout), &options, &result, NULL));
        gint64 took = g_get_monotonic_time() - start;
        ck_assert_msg(took >= G_USEC_PER_SEC && took < 20 * G_USEC_PER_SEC,
                      "took %" G_GINT64_FORMAT " µs", took);
        ck_assert_int_eq(result.status.end, SIM_PROC_TIMED_OUT);
        ck_assert_int_eq(result.status.signal, SIGKILL);
        gchar *what = sim_proc_status_describe(&result.status);
        ck_assert_str_eq(what, "killed at its time limit of 1 s");
        g_free(what);
        if (capture)
            ck_assert_str_eq(result.out->str, "started\n");
        sim_proc_result_clear(&result);
    }
}
END_TEST

START_TEST(test_proc_time_limit_spares_a_quick_child)
{
    struct sim_proc_options options = {
        .stdout_to = SIM_PROC_CAPTURE, .stderr_to = SIM_PROC_DISCARD, .time_limit = 60};
    struct sim_proc_result result;
    gint64 start = g_get_monotonic_time();
    ck_assert(sim_proc_run(say_hello, NULL, &options, &result, NULL));
    ck_assert(g_get_monotonic_time() - start < 30 * G_USEC_PER_SEC);
    assert_exited(&result.status, 0);
    ck_assert_str_eq(result.out->str, "out: hello\n");
    sim_proc_result_clear(&result);
}
END_TEST

#define LARGE_BYTES (3u << 20) /* 3 MiB on each stream: dozens of pipe buffers */

static char
large_byte(gsize i, int stream)
{
    return (char)('a' + (i * 7 + (gsize)stream * 3) % 26);
}

/* Alternate chunks on stdout and stderr, so that neither pipe is read only at the end. */
static int
write_large(gpointer data)
{
    (void)data;
    char *out = g_malloc(LARGE_BYTES), *err = g_malloc(LARGE_BYTES);
    for (gsize i = 0; i < LARGE_BYTES; i++) {
        out[i] = large_byte(i, 1);
        err[i] = large_byte(i, 2);
    }
    const gsize chunk = 100000;
    for (gsize at = 0; at < LARGE_BYTES; at += chunk) {
        gsize len = MIN(chunk, LARGE_BYTES - at);
        if (!write_all(STDOUT_FILENO, out + at, len) || !write_all(STDERR_FILENO, err + at, len))
            return 1;
    }
    return 0;
}

START_TEST(test_proc_reads_large_output_without_deadlock)
{
    struct sim_proc_options options = {.stdout_to = SIM_PROC_CAPTURE,
                                       .stderr_to = SIM_PROC_CAPTURE};
    struct sim_proc_result result;
    ck_assert(sim_proc_run(write_large, NULL, &options, &result, NULL));
    assert_exited(&result.status, 0);
    ck_assert_uint_eq(result.out->len, LARGE_BYTES);
    ck_assert_uint_eq(result.err->len, LARGE_BYTES);
    for (gsize i = 0; i < LARGE_BYTES; i++) {
        if (result.out->str[i] != large_byte(i, 1) || result.err->str[i] != large_byte(i, 2))
            ck_abort_msg("byte %" G_GSIZE_FORMAT " differs", i);
    }
    sim_proc_result_clear(&result);
}
END_TEST

static int
sleep_long(gpointer data)
{
    (void)data;
    for (;;)
        pause();
    return 0;
}

START_TEST(test_proc_pool_starts_waits_and_stops)
{
    pid_t first, second, sleeper;
    ck_assert(sim_proc_start(exit_with, GINT_TO_POINTER(5), NULL, &first, NULL));
    ck_assert(sim_proc_start(exit_with, GINT_TO_POINTER(6), NULL, &second, NULL));
    ck_assert(sim_proc_start(sleep_long, NULL, NULL, &sleeper, NULL));
    gboolean seen_first = FALSE, seen_second = FALSE;
    for (int i = 0; i < 2; i++) {
        pid_t pid;
        struct sim_proc_status status;
        ck_assert(sim_proc_wait_any(&pid, &status, NULL));
        ck_assert_int_eq(status.end, SIM_PROC_EXITED);
        if (pid == first) {
            ck_assert_int_eq(status.exit_code, 5);
            seen_first = TRUE;
        } else {
            ck_assert_int_eq(pid, second);
            ck_assert_int_eq(status.exit_code, 6);
            seen_second = TRUE;
        }
    }
    ck_assert(seen_first && seen_second);
    sim_proc_stop(sleeper);
    /* nothing left to wait for */
    pid_t pid;
    struct sim_proc_status status;
    GError *error = NULL;
    ck_assert(!sim_proc_wait_any(&pid, &status, &error));
    ck_assert(g_str_has_prefix(error->message, "waitpid: "));
    g_error_free(error);
}
END_TEST

static Suite *
proc_suite(void)
{
    Suite *s = suite_create("proc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, test_proc_captures_each_stream);
    tcase_add_test(tc, test_proc_merges_stderr_into_stdout);
    tcase_add_test(tc, test_proc_sends_streams_to_a_file_or_nowhere);
    tcase_add_test(tc, test_proc_reports_the_exit_code);
    tcase_add_test(tc, test_proc_reports_a_killing_signal);
    tcase_add_test(tc, test_proc_stops_a_child_at_its_time_limit);
    tcase_add_test(tc, test_proc_time_limit_spares_a_quick_child);
    tcase_add_test(tc, test_proc_reads_large_output_without_deadlock);
    tcase_add_test(tc, test_proc_pool_starts_waits_and_stops);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(proc_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
