/*
 * check_recorder.c — the event recorder (sim/trace/recorder.c) and its trace writers
 * (sim/trace/trace_write.c) on small in-process runs: as many messages recorded as the run
 * counted, every one arrived; spans nested and in time order per rank; the JSON trace, read
 * back with json-glib, has one track per rank, a slice per span and a flow per message; the
 * Paje trace pushes as many states as it pops, in time order; off, nothing is recorded.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "mpi.h"
#include "sim/trace/recorder.h"
#include "sim/trace/trace_write.h"
#include "sim_harness.h"

#define RANKS 4
/* doubles in the big message: 1 MiB, past every preset's eager threshold */
#define BIG (128 * 1024)

/* A little of everything: a collective, a computation, point-to-point in a ring, a nonblocking
 * collective and its wait, a rendezvous-sized message. */
static void
mixed_rank(int rank, void *arg)
{
    (void)arg;
    double *in = g_new0(double, BIG), *out = g_new0(double, BIG);
    MPI_Allreduce(in, out, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    collsim_compute(1e-6 * (rank + 1));
    int right = (rank + 1) % RANKS, left = (rank + RANKS - 1) % RANKS;
    MPI_Sendrecv(in, 4, MPI_DOUBLE, right, 1, out, 4, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (rank == 0)
        MPI_Send(in, BIG, MPI_DOUBLE, 1, 2, MPI_COMM_WORLD);
    else if (rank == 1)
        MPI_Recv(out, BIG, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Request req;
    MPI_Ibcast(in, 8, MPI_DOUBLE, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    g_free(in);
    g_free(out);
}

static struct sim_outcome outcome;

static void
run_recorded(gboolean record)
{
    struct sim_config config;
    sim_config_defaults(&config);
    config.nranks = RANKS;
    if (record)
        recorder_start(RANKS);
    ck_assert_int_eq(collsim_test_run_config(&config, mixed_rank, NULL, &outcome), 0);
    recorder_stop(outcome.simulated_time);
}

START_TEST(test_messages_match_the_run)
{
    run_recorded(TRUE);
    ck_assert_uint_gt(outcome.messages, 0);
    ck_assert_uint_eq(recorder_message_count(), outcome.messages);
    guint n;
    const struct recorder_message *m = recorder_messages(&n);
    guint64 bytes = 0;
    gboolean rendezvous = FALSE;
    for (guint i = 0; i < n; i++) {
        ck_assert(m[i].arrived >= m[i].sent);
        ck_assert(m[i].src >= 0 && m[i].src < RANKS && m[i].dst >= 0 && m[i].dst < RANKS);
        bytes += m[i].bytes;
        rendezvous = rendezvous || !m[i].eager;
    }
    ck_assert_uint_eq(bytes, outcome.bytes);
    ck_assert(rendezvous); /* the big message */
}
END_TEST

START_TEST(test_spans_nest_and_follow_time)
{
    run_recorded(TRUE);
    int collectives = 0, computes = 0, nonblocking = 0;
    for (int r = 0; r < RANKS; r++) {
        for (int lane = 0; lane < RECORDER_LANES; lane++) {
            guint n;
            const struct recorder_span *s = recorder_spans(r, lane, &n);
            /* the spans still open, as a stack: a span at depth d sits inside the d before */
            double open_end[64];
            double prev_start = 0;
            for (guint i = 0; i < n; i++) {
                ck_assert(s[i].start >= prev_start);
                ck_assert(s[i].end >= s[i].start);
                ck_assert_int_lt(s[i].depth, 64);
                if (s[i].depth > 0) {
                    ck_assert(s[i].end <= open_end[s[i].depth - 1] + 1e-15);
                }
                open_end[s[i].depth] = s[i].end;
                prev_start = s[i].start;
                if (s[i].kind == RECORDER_COLLECTIVE) {
                    ck_assert_ptr_nonnull(s[i].algorithm);
                    ck_assert_str_eq(s[i].comm, "MPI_COMM_WORLD");
                    collectives++;
                    nonblocking += lane == 1;
                }
                if (s[i].kind == RECORDER_COMPUTE) {
                    ck_assert_int_eq(lane, 0);
                    ck_assert(fabs(s[i].end - s[i].start - 1e-6 * (r + 1)) < 1e-12);
                    computes++;
                }
            }
        }
    }
    ck_assert_int_eq(computes, RANKS);
    ck_assert_int_eq(collectives, 3 * RANKS); /* Allreduce, Ibcast, Barrier */
    ck_assert_int_eq(nonblocking, RANKS);
}
END_TEST

static const char *
member_string(JsonObject *o, const char *name)
{
    return json_object_has_member(o, name) ? json_object_get_string_member(o, name) : "";
}

START_TEST(test_json_trace_reads_back)
{
    run_recorded(TRUE);
    gchar *text = trace_json_text();
    JsonParser *parser = json_parser_new();
    GError *error = NULL;
    ck_assert_msg(json_parser_load_from_data(parser, text, -1, &error), "%s",
                  error ? error->message : "");
    JsonObject *root = json_node_get_object(json_parser_get_root(parser));
    JsonArray *events = json_object_get_array_member(root, "traceEvents");
    gboolean pid_seen[RANKS] = {FALSE};
    guint slices = 0, starts = 0, finishes = 0;
    guint64 id_sum_s = 0, id_sum_f = 0;
    double last_ts[RANKS][RECORDER_LANES];
    for (int r = 0; r < RANKS; r++)
        for (int l = 0; l < RECORDER_LANES; l++)
            last_ts[r][l] = -1;
    for (guint i = 0; i < json_array_get_length(events); i++) {
        JsonObject *e = json_array_get_object_element(events, i);
        const char *ph = member_string(e, "ph");
        int pid = (int)json_object_get_int_member(e, "pid");
        int tid = (int)json_object_get_int_member(e, "tid");
        ck_assert(pid >= 0 && pid < RANKS && tid >= 0 && tid < RECORDER_LANES);
        pid_seen[pid] = TRUE;
        if (strcmp(ph, "X") == 0) {
            double ts = json_object_get_double_member(e, "ts");
            ck_assert(ts >= last_ts[pid][tid]);
            ck_assert(json_object_get_double_member(e, "dur") >= 0);
            last_ts[pid][tid] = ts;
            slices++;
            if (strcmp(member_string(e, "cat"), "collective") == 0) {
                JsonObject *args = json_object_get_object_member(e, "args");
                ck_assert(json_object_has_member(args, "collective"));
                ck_assert(json_object_has_member(args, "algorithm"));
                ck_assert(json_object_has_member(args, "bytes"));
                ck_assert(json_object_has_member(args, "comm"));
            }
        } else if (strcmp(ph, "s") == 0) {
            starts++;
            id_sum_s += (guint64)json_object_get_int_member(e, "id");
        } else if (strcmp(ph, "f") == 0) {
            finishes++;
            id_sum_f += (guint64)json_object_get_int_member(e, "id");
        }
    }
    for (int r = 0; r < RANKS; r++)
        ck_assert(pid_seen[r]);
    guint spans = 0;
    for (int r = 0; r < RANKS; r++)
        for (int l = 0; l < RECORDER_LANES; l++) {
            guint n;
            recorder_spans(r, l, &n);
            spans += n;
        }
    ck_assert_uint_eq(slices, spans);
    ck_assert_uint_eq(starts, outcome.messages);
    ck_assert_uint_eq(finishes, outcome.messages);
    ck_assert_uint_eq(id_sum_s, id_sum_f);
    g_object_unref(parser);
    g_free(text);
}
END_TEST

START_TEST(test_paje_trace_is_balanced_and_ordered)
{
    run_recorded(TRUE);
    gchar *text = trace_paje_text();
    gchar **lines = g_strsplit(text, "\n", -1);
    int defs = 0, containers = 0, pushes = 0, pops = 0, links_s = 0, links_e = 0;
    double last = 0;
    for (gchar **l = lines; *l != NULL; l++) {
        if (g_str_has_prefix(*l, "%EventDef"))
            defs++;
        if (**l == '%' || **l == '\0')
            continue;
        int code = atoi(*l);
        if (code >= 4) {
            double t = g_ascii_strtod(strchr(*l, ' ') + 1, NULL);
            ck_assert_msg(t >= last, "out of order: %s", *l);
            last = t;
        }
        containers += code == 4;
        pushes += code == 7;
        pops += code == 8;
        links_s += code == 9;
        links_e += code == 10;
    }
    ck_assert_int_eq(defs, 11);
    ck_assert_int_eq(containers, RANKS + 1);
    ck_assert_int_gt(pushes, 0);
    ck_assert_int_eq(pushes, pops);
    ck_assert_int_eq(links_s, (int)outcome.messages);
    ck_assert_int_eq(links_e, (int)outcome.messages);
    g_strfreev(lines);
    g_free(text);
}
END_TEST

/* The program's own calls (depth 0: not those of a collective) on `rank`'s lane 0 named
 * `name`: how many, and the last one. */
static guint
spans_named(int rank, const char *name, const struct recorder_span **last)
{
    guint n, found = 0;
    const struct recorder_span *s = recorder_spans(rank, 0, &n);
    for (guint i = 0; i < n; i++) {
        if (s[i].depth == 0 && strcmp(s[i].name, name) == 0) {
            found++;
            *last = &s[i];
        }
    }
    return found;
}

/* A blocking call is one slice (no posting slice plus a wait slice), from its start to its
 * return: MPI_Send and MPI_Recv of the big message, and each rank's MPI_Sendrecv, which spans
 * the message it sends and the one it receives. */
START_TEST(test_blocking_calls_are_one_slice)
{
    run_recorded(TRUE);
    const struct recorder_span *send = NULL, *recv = NULL;
    ck_assert_uint_eq(spans_named(0, "MPI_Send", &send), 1);
    ck_assert_uint_eq(spans_named(1, "MPI_Recv", &recv), 1);
    ck_assert_int_eq(send->kind, RECORDER_CALL);
    ck_assert_int_eq(recv->kind, RECORDER_CALL);
    ck_assert_uint_eq(send->bytes, BIG * sizeof(double));
    guint n;
    const struct recorder_message *m = recorder_messages(&n);
    const struct recorder_message *big = NULL;
    for (guint i = 0; i < n; i++)
        if (m[i].bytes == BIG * sizeof(double))
            big = &m[i];
    ck_assert_ptr_nonnull(big);
    /* the rendezvous send returns only once its data has landed; the receive too */
    ck_assert(send->start <= big->sent && send->end >= big->arrived);
    ck_assert(recv->end >= big->arrived);
    for (int r = 0; r < RANKS; r++) {
        const struct recorder_span *sr = NULL;
        ck_assert_uint_eq(spans_named(r, "MPI_Sendrecv", &sr), 1);
        ck_assert_int_eq(sr->kind, RECORDER_CALL);
        ck_assert_uint_eq(sr->bytes, 4 * sizeof(double));
        /* the ring's 32-byte messages: the one r sends leaves inside its span, the one it
         * receives lands inside it */
        gboolean sent_inside = FALSE, received_inside = FALSE;
        for (guint i = 0; i < n; i++) {
            if (m[i].bytes != 4 * sizeof(double))
                continue;
            sent_inside |= m[i].src == r && m[i].sent >= sr->start && m[i].sent <= sr->end;
            received_inside |=
                m[i].dst == r && m[i].arrived >= sr->start && m[i].arrived <= sr->end;
        }
        ck_assert(sent_inside && received_inside);
    }
}
END_TEST

/* Every time in the JSON is microseconds with exactly three decimals. */
START_TEST(test_json_times_have_three_decimals)
{
    run_recorded(TRUE);
    gchar *text = trace_json_text();
    GRegex *time = g_regex_new("\"(ts|dur)\":([-0-9.eE+]+)", 0, 0, NULL);
    GRegex *fixed = g_regex_new("^[0-9]+\\.[0-9]{3}$", 0, 0, NULL);
    GMatchInfo *match = NULL;
    guint times = 0;
    g_regex_match(time, text, 0, &match);
    while (g_match_info_matches(match)) {
        gchar *value = g_match_info_fetch(match, 2);
        ck_assert_msg(g_regex_match(fixed, value, 0, NULL), "time %s", value);
        g_free(value);
        times++;
        g_match_info_next(match, NULL);
    }
    g_match_info_free(match);
    ck_assert_uint_gt(times, 2 * outcome.messages);
    g_regex_unref(fixed);
    g_regex_unref(time);
    g_free(text);
}
END_TEST

START_TEST(test_off_records_nothing)
{
    recorder_clear();
    run_recorded(FALSE);
    ck_assert_uint_gt(outcome.messages, 0);
    ck_assert_uint_eq(recorder_message_count(), 0);
    ck_assert_int_eq(recorder_nranks(), 0);
}
END_TEST

static Suite *
recorder_suite(void)
{
    Suite *s = suite_create("recorder");
    TCase *tc = tcase_create("record");
    tcase_add_test(tc, test_messages_match_the_run);
    tcase_add_test(tc, test_spans_nest_and_follow_time);
    tcase_add_test(tc, test_json_trace_reads_back);
    tcase_add_test(tc, test_paje_trace_is_balanced_and_ordered);
    tcase_add_test(tc, test_off_records_nothing);
    tcase_add_test(tc, test_blocking_calls_are_one_slice);
    tcase_add_test(tc, test_json_times_have_three_decimals);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(recorder_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
