/*
 * check_core_model.c — collsim's own resource models (sim/core/model.h) on cases small enough
 * to work out by hand: each expected date is derived in the comment above its check. Bit-for-bit
 * agreement with SimGrid itself is tests/core/test_model_vs_simgrid.sh's job; here the dates
 * are compared to 1e-12 relative.
 *
 * The cases drive the models as SimGrid's engine does (run_until): delay = model_next, bounded
 * by the next "timer" date the case gives; now += delay; model_advance; pop the finished.
 */
#include <check.h>
#include <glib.h>
#include <math.h>

#include "sim/core/model.h"

#define MAX_DONE 64

struct run {
    model_sys *sys;
    double now;
    int n_done;
    int done[MAX_DONE]; /* the actions' ids, in completion order */
    double date[MAX_DONE];
};

static void
run_init(struct run *r, const struct model_net_config *config)
{
    *r = (struct run){.sys = model_sys_new(config)};
}

/* SimGrid's engine loop until the clock reaches `until` (a timer's date), or, with until < 0,
 * until nothing is left to run. */
static void
run_until(struct run *r, double until)
{
    while (until < 0 || r->now < until) {
        double delay = until >= 0 ? until - r->now : -1.0;
        double next = model_next(r->sys, r->now);
        if ((delay < 0 || next < delay) && next >= 0)
            delay = next;
        if (delay < 0)
            return;
        r->now += delay;
        model_advance(r->sys, r->now, delay);
        void *data;
        while ((data = model_pop_finished(r->sys)) != NULL) {
            ck_assert_int_lt(r->n_done, MAX_DONE);
            r->done[r->n_done] = GPOINTER_TO_INT(data);
            r->date[r->n_done++] = r->now;
        }
    }
}

static double
date_of(const struct run *r, int id)
{
    for (int i = 0; i < r->n_done; i++)
        if (r->done[i] == id)
            return r->date[i];
    ck_abort_msg("action %d never completed", id);
    return -1;
}

#define ck_assert_date(got, expected)                                                              \
    ck_assert_double_eq_tol((got), (expected), 1e-12 * fmax(1.0, fabs(expected)))

static struct model_net_config
cm02(gboolean crosstraffic)
{
    struct model_net_config config;
    model_net_config_cm02(&config);
    config.crosstraffic = crosstraffic;
    return config;
}

/* A flow of 1 MB over one link of 100 MB/s and 100 us: the latency, then the whole bandwidth
 * (TCP's window allows 4194304 / (2 x 1e-4) = 2.1e10 B/s): 1e-4 + 1e6 / 1e8 = 0.0101 s. */
START_TEST(test_model_lone_flow)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e8, 1e-4, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(1));
    ck_assert_uint_eq(model_running(r.sys), 1);
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 1);
    ck_assert_date(date_of(&r, 1), 0.0101);
    ck_assert_uint_eq(model_running(r.sys), 0);
    model_sys_free(r.sys);
}
END_TEST

/* Two equal flows on one link of 100 MB/s share it half and half: 1e-4 + 1e6 / 5e7 = 0.0201 s
 * for both. Both start sharing at the same latency event, each put at the front of the link's
 * list as it does: the second is then first in the list, so it is scheduled, and popped, first
 * (SimGrid's order). */
START_TEST(test_model_two_flows_share_a_link)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e8, 1e-4, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(2));
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 2);
    ck_assert_int_eq(r.done[0], 2);
    ck_assert_int_eq(r.done[1], 1);
    ck_assert_date(r.date[0], 0.0201);
    ck_assert_date(r.date[1], 0.0201);
    model_sys_free(r.sys);
}
END_TEST

/* 100 ms of latency caps TCP at 4194304 / (2 x 0.1) = 20971520 B/s, below the link's 1 GB/s:
 * 20971520 bytes take 0.1 + 1 = 1.1 s. */
START_TEST(test_model_tcp_window_bounds_a_flow)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e9, 0.1, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 0.1, 20971520, GINT_TO_POINTER(1));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 1.1);
    model_sys_free(r.sys);
}
END_TEST

/* On a fat pipe each flow gets the whole 100 MB/s: both take 1e-4 + 1e6 / 1e8 = 0.0101 s. */
START_TEST(test_model_fatpipe_does_not_share)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e8, 1e-4, MODEL_FATPIPE);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(2));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 0.0101);
    ck_assert_date(date_of(&r, 2), 0.0101);
    model_sys_free(r.sys);
}
END_TEST

/*
 * Cross traffic: a -> b over (a_up, b_down) and b -> a over (b_up, a_down), 100 MB/s and 50 us
 * each. Each flow loads its reverse route with 5 % of its rate, so a_up carries x + 0.05 y and
 * by symmetry x = y = 1e8 / 1.05. 1 MB then takes 1e-4 + 1e6 x 1.05 / 1e8 = 0.0106 s. Without
 * cross traffic: 1e-4 + 0.01 = 0.0101 s.
 */
static void
crossing_flows(gboolean crosstraffic, double expected)
{
    struct model_net_config config = cm02(crosstraffic);
    struct run r;
    run_init(&r, &config);
    model_link *a_up = model_link_new(r.sys, 1e8, 5e-5, MODEL_SHARED);
    model_link *a_down = model_link_new(r.sys, 1e8, 5e-5, MODEL_SHARED);
    model_link *b_up = model_link_new(r.sys, 1e8, 5e-5, MODEL_SHARED);
    model_link *b_down = model_link_new(r.sys, 1e8, 5e-5, MODEL_SHARED);
    model_link *ab[] = {a_up, b_down}, *ba[] = {b_up, a_down};
    model_flow_start(r.sys, 0.0, ab, 2, ba, 2, 1e-4, 1e6, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, ba, 2, ab, 2, 1e-4, 1e6, GINT_TO_POINTER(2));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), expected);
    ck_assert_date(date_of(&r, 2), expected);
    model_sys_free(r.sys);
}

START_TEST(test_model_cross_traffic)
{
    crossing_flows(TRUE, 1e-4 + 1e6 * 1.05 / 1e8);
    crossing_flows(FALSE, 0.0101);
}
END_TEST

/* LV08: the latency times 13.01, the rate times 0.97 (the variable still gets the whole link):
 * 1 MB over 100 MB/s and 100 us takes 13.01e-4 + 1e6 / (0.97 x 1e8) s. weight_S changes
 * nothing for a lone flow. */
START_TEST(test_model_lv08_factors)
{
    struct model_net_config config = cm02(FALSE);
    config.latency_factor = 13.01;
    config.bandwidth_factor = 0.97;
    config.weight_S = 20537;
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e8, 1e-4, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 1e-4, 1e6, GINT_TO_POINTER(1));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 13.01e-4 + 1e6 / (0.97 * 1e8));
    model_sys_free(r.sys);
}
END_TEST

/*
 * LV08's weight_S: two flows of equal latency 1 ms share link s (1 MB/s); flow 1 also crosses a
 * 10 GB/s link, flow 2 a 100 MB/s one. Penalties: p = 1e-3 + 20537 / 1e6 + 20537 / b, so
 * p1 = 0.0225391 (b = 1e10) and p2 = 0.02259237 (b = 1e8); the link splits in proportion to
 * 1/p: x1 = 1e6 p2 / (p1 + p2), rate 0.97 x1. Flow 1's 1000 bytes end at 13.01e-3 + 1000 /
 * (0.97 x1).
 */
START_TEST(test_model_lv08_weight_s)
{
    struct model_net_config config = cm02(FALSE);
    config.latency_factor = 13.01;
    config.bandwidth_factor = 0.97;
    config.weight_S = 20537;
    struct run r;
    run_init(&r, &config);
    model_link *s = model_link_new(r.sys, 1e6, 0, MODEL_SHARED);
    model_link *fast = model_link_new(r.sys, 1e10, 1e-3, MODEL_SHARED);
    model_link *slow = model_link_new(r.sys, 1e8, 1e-3, MODEL_SHARED);
    model_link *r1[] = {fast, s}, *r2[] = {slow, s};
    model_flow_start(r.sys, 0.0, r1, 2, NULL, 0, 1e-3, 1000, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, r2, 2, NULL, 0, 1e-3, 1e6, GINT_TO_POINTER(2));
    run_until(&r, -1);
    double p1 = 1e-3 + 20537 / 1e10 + 20537 / 1e6, p2 = 1e-3 + 20537 / 1e8 + 20537 / 1e6;
    double x1 = 1e6 * p2 / (p1 + p2);
    ck_assert_date(date_of(&r, 1), 13.01e-3 + 1000 / (0.97 * x1));
    model_sys_free(r.sys);
}
END_TEST

/*
 * CM02 shares by 1/penalty = 1/latency. Link s: 1 MB/s, no latency; flow 2 comes through a link
 * of 3 ms, flow 1 through one of 1 ms, started 2 ms later, so that both start sharing at 3 ms:
 * x1 / x2 = 3, x1 = 750 kB/s, x2 = 250 kB/s. Flow 1's 750 kB end at 3e-3 + 1 = 1.003 s; flow 2
 * then has 500 - 250 = 250 kB left, alone at 1 MB/s: 1.253 s.
 */
START_TEST(test_model_penalty_weighted_sharing)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *s = model_link_new(r.sys, 1e6, 0, MODEL_SHARED);
    model_link *near = model_link_new(r.sys, 1e12, 1e-3, MODEL_SHARED);
    model_link *far = model_link_new(r.sys, 1e12, 3e-3, MODEL_SHARED);
    model_link *r1[] = {near, s}, *r2[] = {far, s};
    model_flow_start(r.sys, 0.0, r2, 2, NULL, 0, 3e-3, 5e5, GINT_TO_POINTER(2));
    run_until(&r, 2e-3);
    model_flow_start(r.sys, r.now, r1, 2, NULL, 0, 1e-3, 7.5e5, GINT_TO_POINTER(1));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 1.003);
    ck_assert_date(date_of(&r, 2), 1.253);
    model_sys_free(r.sys);
}
END_TEST

/* A route without latency (CM02): the flow shares at once, 1 MB at 100 MB/s: 0.01 s. A route
 * without links (a positive latency only): the flow ends when its latency is paid, 1 ms. */
START_TEST(test_model_route_without_latency_or_links)
{
    struct model_net_config config = cm02(TRUE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e8, 0, MODEL_FATPIPE);
    model_flow_start(r.sys, 0.0, &l, 1, &l, 1, 0.0, 1e6, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, NULL, 0, NULL, 0, 1e-3, 1e6, GINT_TO_POINTER(2));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 0.01);
    ck_assert_date(date_of(&r, 2), 1e-3);
    model_sys_free(r.sys);
}
END_TEST

/*
 * SMPI's piecewise factors: the piece of the largest threshold strictly below the size. Pieces
 * (given out of order) latency {100: 4, 0: 2}, bandwidth {0: 0.5, 100: 0.25}; link 1 kB/s and
 * 1 ms. 100 bytes: factors of the "0" piece, 2 x 1e-3 + 100 / (0.5 x 1000) = 0.202 s. 101
 * bytes: 4 x 1e-3 + 101 / (0.25 x 1000) = 0.408 s. Each flow is alone on its own link.
 */
START_TEST(test_model_smpi_piecewise_factors)
{
    struct model_net_config config = cm02(FALSE);
    const struct model_factor_piece lat[] = {{100, 4}, {0, 2}}, bw[] = {{0, 0.5}, {100, 0.25}};
    config.lat_pieces = lat;
    config.n_lat_pieces = 2;
    config.bw_pieces = bw;
    config.n_bw_pieces = 2;
    struct run r;
    run_init(&r, &config);
    model_link *l1 = model_link_new(r.sys, 1000, 1e-3, MODEL_SHARED);
    model_link *l2 = model_link_new(r.sys, 1000, 1e-3, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l1, 1, NULL, 0, 1e-3, 100, GINT_TO_POINTER(1));
    model_flow_start(r.sys, 0.0, &l2, 1, NULL, 0, 1e-3, 101, GINT_TO_POINTER(2));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 0.202);
    ck_assert_date(date_of(&r, 2), 0.408);
    model_sys_free(r.sys);
}
END_TEST

/* 2 Gflop on a 1 Gflop/s core: 2 s. */
START_TEST(test_model_exec_alone)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_cpu *cpu = model_cpu_new(r.sys, 1e9, 1);
    model_exec_start(r.sys, 0.0, cpu, 2e9, GINT_TO_POINTER(1));
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 1), 2.0);
    model_sys_free(r.sys);
}
END_TEST

/*
 * Three executions of 1, 2 and 3 Gflop on two cores of 1 Gflop/s: first 2/3 Gflop/s each, the
 * first ends at 1e9 / (2e9 / 3) = 1.5 s; the others (1 and 2 Gflop left) then get a core each:
 * 1 s more for the second (2.5 s), and the third, 1 Gflop left at 2.5 s, ends at 3.5 s.
 */
START_TEST(test_model_three_execs_on_two_cores)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_cpu *cpu = model_cpu_new(r.sys, 1e9, 2);
    for (int i = 1; i <= 3; i++)
        model_exec_start(r.sys, 0.0, cpu, i * 1e9, GINT_TO_POINTER(i));
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 3);
    ck_assert_date(date_of(&r, 1), 1.5);
    ck_assert_date(date_of(&r, 2), 2.5);
    ck_assert_date(date_of(&r, 3), 3.5);
    model_sys_free(r.sys);
}
END_TEST

/*
 * A sleep uses nothing: the execution beside it keeps its core, 1 Gflop in 1 s; the sleep of
 * 0.5 s ends at 0.5 s, one of 1e-12 s lasts the surf precision (1e-9 s), one of 0 s ends at
 * once (the next advance, 0 s later).
 */
START_TEST(test_model_sleeps)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_cpu *cpu = model_cpu_new(r.sys, 1e9, 1);
    model_exec_start(r.sys, 0.0, cpu, 1e9, GINT_TO_POINTER(1));
    model_sleep_start(r.sys, 0.0, cpu, 0.5, GINT_TO_POINTER(2));
    model_sleep_start(r.sys, 0.0, cpu, 1e-12, GINT_TO_POINTER(3));
    model_sleep_start(r.sys, 0.0, cpu, 0.0, GINT_TO_POINTER(4));
    ck_assert_uint_eq(model_running(r.sys), 4);
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 4);
    ck_assert_int_eq(r.done[0], 4);
    ck_assert_date(r.date[0], 0.0);
    ck_assert_date(date_of(&r, 3), 1e-9);
    ck_assert_date(date_of(&r, 2), 0.5);
    ck_assert_date(date_of(&r, 1), 1.0);
    model_sys_free(r.sys);
}
END_TEST

/*
 * Equal dates come out in the order the actions were scheduled: four equal executions on four
 * CPUs all end at 1 s, popped in their start order whichever it is; the CPU model's before the
 * network model's (a flow of 1 MB at 1 MB/s without latency also ends at 1 s).
 */
START_TEST(test_model_ties_pop_in_start_order)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e6, 0, MODEL_SHARED);
    model_cpu *cpus[4];
    for (int i = 0; i < 4; i++)
        cpus[i] = model_cpu_new(r.sys, 1e9, 1);
    static const int order[] = {3, 1, 4, 2};
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 0.0, 1e6, GINT_TO_POINTER(9));
    for (int i = 0; i < 4; i++)
        model_exec_start(r.sys, 0.0, cpus[order[i] - 1], 1e9, GINT_TO_POINTER(order[i]));
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 5);
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(r.done[i], order[i]);
        ck_assert_date(r.date[i], 1.0);
    }
    ck_assert_int_eq(r.done[4], 9);
    model_sys_free(r.sys);
}
END_TEST

/*
 * The event heap with many entries (several levels deep) and removals from its middle: 600
 * sleeps of (i x 7919 mod 97) ms started in the order of i, one in five cancelled before the
 * clock moves. The others end at their durations, equal durations in the reverse of their start
 * order (a sleep enters the front of its CPU's modified list, as in SimGrid, so the last one
 * started takes its heap date first); the cancelled ones come out at the first date, in the
 * order they were cancelled.
 */
#define HEAP_SLEEPS 600

static double
heap_sleep_duration(int i)
{
    return (double)(i * 7919 % 97) * 1e-3;
}

static gint
heap_sleep_compare(gconstpointer a, gconstpointer b)
{
    int i = *(const int *)a, j = *(const int *)b;
    double di = heap_sleep_duration(i), dj = heap_sleep_duration(j);
    return di < dj ? -1 : di > dj ? 1 : j - i;
}

START_TEST(test_model_many_sleeps_pop_in_date_then_start_order)
{
    struct model_net_config config = cm02(FALSE);
    model_sys *sys = model_sys_new(&config);
    model_cpu *cpu = model_cpu_new(sys, 1e9, 1);
    model_action *sleeps[HEAP_SLEEPS];
    for (int i = 0; i < HEAP_SLEEPS; i++)
        sleeps[i] = model_sleep_start(sys, 0.0, cpu, heap_sleep_duration(i), GINT_TO_POINTER(i + 1));
    GArray *expected = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 0; i < HEAP_SLEEPS; i++)
        if (i % 5 == 3)
            model_action_cancel(sys, sleeps[i]);
        else
            g_array_append_val(expected, i);
    g_array_sort(expected, heap_sleep_compare);
    double now = 0.0;
    int cancelled = 0, ended = 0;
    for (double delay; (delay = model_next(sys, now)) >= 0;) {
        now += delay;
        model_advance(sys, now, delay);
        for (void *data; (data = model_pop_finished(sys)) != NULL;) {
            int i = GPOINTER_TO_INT(data) - 1;
            if (i % 5 == 3) {
                ck_assert_int_eq(ended, 0);
                ck_assert_int_eq(i, 5 * cancelled++ + 3);
                continue;
            }
            ck_assert_int_lt(ended, (int)expected->len);
            ck_assert_int_eq(i, g_array_index(expected, int, ended));
            ck_assert_date(now, heap_sleep_duration(i));
            ended++;
        }
    }
    ck_assert_int_eq(cancelled, HEAP_SLEEPS / 5);
    ck_assert_int_eq(ended, (int)expected->len);
    g_array_free(expected, TRUE);
    model_sys_free(sys);
}
END_TEST

/*
 * Sleeps started as a run starts them: at each of STREAM_STEPS dates 1 ms apart, sleeps of
 * each of STREAMS durations (10 of each for the first half of the steps, 120 for the second),
 * while earlier ones end. Each duration's sleeps end in the order they started, as most of a
 * run's events do, so the model's queue takes them into its lanes (more streams than lanes:
 * some go to its heap; more than a lane's first ring once the steps grow, after it has given
 * entries from its front: it grows with its first entry anywhere in it); one sleep in 7 is
 * cancelled a step after it started, leaving a hole. What must come out: the cancelled ones when cancelled, and the others by end date (a
 * sleep's start plus its duration), equal dates in the order the sleeps took their dates: by
 * start date, and the sleeps of one date in the reverse of their start order (the case above),
 * worked out here by sorting.
 */
#define STREAMS 6
#define STREAM_STEPS 40
#define STREAM_EACH(step) ((step) < STREAM_STEPS / 2 ? 10 : 120)
#define STREAM_SLEEPS (STREAMS * STREAM_STEPS / 2 * (10 + 120))

struct stream_sleep {
    int id, step;
    double end;
};

static gint
stream_sleep_compare(gconstpointer a, gconstpointer b)
{
    const struct stream_sleep *x = a, *y = b;
    if (x->end != y->end)
        return x->end < y->end ? -1 : 1;
    return x->step != y->step ? x->step - y->step : y->id - x->id;
}

START_TEST(test_model_sleep_streams_pop_in_date_then_start_order)
{
    struct model_net_config config = cm02(FALSE);
    model_sys *sys = model_sys_new(&config);
    model_cpu *cpu = model_cpu_new(sys, 1e9, 1);
    model_action **sleeps = g_new0(model_action *, STREAM_SLEEPS);
    gboolean *cancelled = g_new0(gboolean, STREAM_SLEEPS), *ended = g_new0(gboolean, STREAM_SLEEPS);
    GArray *expected = g_array_new(FALSE, FALSE, sizeof(struct stream_sleep));
    GArray *popped = g_array_new(FALSE, FALSE, sizeof(int));
    double now = 0.0;
    int next_id = 0, n_cancelled = 0;
    for (int step = 0; step <= STREAM_STEPS + 1; step++) {
        double start = step * 1e-3;
        /* run up to the step's date (after the last step: until nothing is left) */
        for (double delay; (delay = model_next(sys, now)) >= 0 &&
                           (step > STREAM_STEPS || now + delay <= start);) {
            now += delay;
            model_advance(sys, now, delay);
            for (void *data; (data = model_pop_finished(sys)) != NULL;) {
                int id = GPOINTER_TO_INT(data) - 1;
                ck_assert(!ended[id]);
                ended[id] = TRUE;
                if (!cancelled[id])
                    g_array_append_val(popped, id);
            }
        }
        if (step > STREAM_STEPS)
            break;
        now = start;
        /* the last step's one in 7 are cancelled before they can end (the shortest lasts
         * 1.3 ms) */
        for (int id = 0; id < next_id; id++)
            if (id % 7 == 3 && !cancelled[id] && !ended[id]) {
                model_action_cancel(sys, sleeps[id]);
                cancelled[id] = TRUE;
                n_cancelled++;
            }
        if (step == STREAM_STEPS)
            continue;
        for (int k = 0; k < STREAM_EACH(step); k++)
            for (int stream = 0; stream < STREAMS; stream++) {
                double duration = (stream + 1) * 1.3e-3;
                int id = next_id++;
                sleeps[id] = model_sleep_start(sys, now, cpu, duration, GINT_TO_POINTER(id + 1));
                if (id % 7 != 3)
                    g_array_append_val(expected,
                                       ((struct stream_sleep){id, step, now + duration}));
            }
    }
    g_array_sort(expected, stream_sleep_compare);
    ck_assert_int_eq(n_cancelled, (STREAM_SLEEPS + 3) / 7);
    ck_assert_uint_eq(popped->len, expected->len);
    for (guint i = 0; i < expected->len; i++)
        if (g_array_index(popped, int, i) != g_array_index(expected, struct stream_sleep, i).id)
            ck_abort_msg("completion %u: sleep %d, expected %d", i, g_array_index(popped, int, i),
                         g_array_index(expected, struct stream_sleep, i).id);
    for (int id = 0; id < STREAM_SLEEPS; id++)
        ck_assert(ended[id]);
    g_array_free(expected, TRUE);
    g_array_free(popped, TRUE);
    g_free(sleeps);
    g_free(cancelled);
    g_free(ended);
    model_sys_free(sys);
}
END_TEST

/*
 * A cancelled flow leaves its share: two flows of 1 MB on 1 MB/s share it until 1 s, when the
 * second is cancelled with 0.5 MB left; it stops at once, and leaves the link when popped (as
 * SimGrid frees a cancelled action when it handles ended actions). The first, 0.5 MB left, then
 * runs alone: 1.5 s.
 */
START_TEST(test_model_cancel)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e6, 0, MODEL_SHARED);
    model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 0.0, 1e6, GINT_TO_POINTER(1));
    model_action *second =
        model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 0.0, 1e6, GINT_TO_POINTER(2));
    run_until(&r, 1.0);
    ck_assert_int_eq(r.n_done, 0);
    model_action_cancel(r.sys, second);
    ck_assert_uint_eq(model_running(r.sys), 1);
    ck_assert_ptr_eq(model_pop_finished(r.sys), GINT_TO_POINTER(2));
    ck_assert_ptr_null(model_pop_finished(r.sys));
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 1);
    ck_assert_date(date_of(&r, 1), 1.5);
    model_sys_free(r.sys);
}
END_TEST

/*
 * A model's cancelled actions are popped before its finished ones, as SimGrid handles a model's
 * failed actions first: flow 1 ends at 1 s on its own link; before it is popped, flow 2 (on
 * another link) is cancelled: 2 comes out first, then 1.
 */
START_TEST(test_model_cancelled_pop_first)
{
    struct model_net_config config = cm02(FALSE);
    model_sys *sys = model_sys_new(&config);
    model_link *a = model_link_new(sys, 1e6, 0, MODEL_SHARED);
    model_link *b = model_link_new(sys, 1e6, 0, MODEL_SHARED);
    model_flow_start(sys, 0.0, &a, 1, NULL, 0, 0.0, 1e6, GINT_TO_POINTER(1));
    model_action *second = model_flow_start(sys, 0.0, &b, 1, NULL, 0, 0.0, 2e6, GINT_TO_POINTER(2));
    double delay = model_next(sys, 0.0);
    ck_assert_date(delay, 1.0);
    model_advance(sys, delay, delay);
    model_action_cancel(sys, second);
    ck_assert_ptr_eq(model_pop_finished(sys), GINT_TO_POINTER(2));
    ck_assert_ptr_eq(model_pop_finished(sys), GINT_TO_POINTER(1));
    ck_assert_ptr_null(model_pop_finished(sys));
    ck_assert_double_eq(model_next(sys, delay), -1.0);
    model_sys_free(sys);
}
END_TEST

/*
 * Reading what remains: a flow of 1 MB alone on 1 MB/s, no latency, has 0.7 MB left at 0.3 s,
 * 0.3 MB at 0.7 s (read again from the first read's date), and still ends at 1 s; once
 * finished it has nothing left. A flow in its latency has all its bytes.
 */
START_TEST(test_model_remains)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_link *l = model_link_new(r.sys, 1e6, 0, MODEL_SHARED);
    model_link *slow = model_link_new(r.sys, 1e6, 2.0, MODEL_SHARED);
    model_action *flow = model_flow_start(r.sys, 0.0, &l, 1, NULL, 0, 0.0, 1e6, GINT_TO_POINTER(1));
    model_action *late =
        model_flow_start(r.sys, 0.0, &slow, 1, NULL, 0, 2.0, 1e6, GINT_TO_POINTER(2));
    run_until(&r, 0.3);
    ck_assert_double_eq_tol(model_action_remains(r.sys, flow, r.now), 7e5, 1e-6);
    ck_assert_double_eq(model_action_remains(r.sys, late, r.now), 1e6);
    run_until(&r, 0.7);
    ck_assert_double_eq_tol(model_action_remains(r.sys, flow, r.now), 3e5, 1e-6);
    run_until(&r, 1.0);
    ck_assert_int_eq(r.n_done, 1);
    ck_assert_date(date_of(&r, 1), 1.0);
    run_until(&r, -1);
    ck_assert_date(date_of(&r, 2), 3.0);
    model_sys_free(r.sys);
}
END_TEST

/*
 * A wait detector uses nothing, never finishes and is not counted as running: the execution
 * beside it still ends at 1 s, then the detector is freed and nothing is left.
 */
START_TEST(test_model_wait_detector)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_cpu *cpu = model_cpu_new(r.sys, 1e9, 1);
    model_exec_start(r.sys, 0.0, cpu, 1e9, GINT_TO_POINTER(1));
    model_action *detector = model_wait_start(r.sys, 0.0, cpu);
    ck_assert_uint_eq(model_running(r.sys), 1);
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 1);
    ck_assert_date(date_of(&r, 1), 1.0);
    model_action_free(r.sys, detector);
    ck_assert_double_eq(model_next(r.sys, r.now), -1.0);
    model_sys_free(r.sys);
}
END_TEST

/*
 * SimGrid's order of equal dates follows the order in which resources were marked modified,
 * and a CPU left with nothing on it leaves that list: CPU 0 ends an execution at 1 s and is
 * emptied; CPU 1's sleep ends then too. Both start 1 Gflop executions, CPU 1 first: CPU 1 is
 * marked first, so its execution is scheduled, and popped at 2 s, first. (Had CPU 0 kept the
 * place its ended execution gave it, the order would be reversed.)
 */
START_TEST(test_model_emptied_resource_marked_again_comes_last)
{
    struct model_net_config config = cm02(FALSE);
    struct run r;
    run_init(&r, &config);
    model_cpu *cpu0 = model_cpu_new(r.sys, 1e9, 1), *cpu1 = model_cpu_new(r.sys, 1e9, 1);
    model_sleep_start(r.sys, 0.0, cpu1, 1.0, GINT_TO_POINTER(1));
    model_exec_start(r.sys, 0.0, cpu0, 1e9, GINT_TO_POINTER(2));
    run_until(&r, 1.0);
    ck_assert_int_eq(r.n_done, 2);
    model_exec_start(r.sys, r.now, cpu1, 1e9, GINT_TO_POINTER(3));
    model_exec_start(r.sys, r.now, cpu0, 1e9, GINT_TO_POINTER(4));
    run_until(&r, -1);
    ck_assert_int_eq(r.n_done, 4);
    ck_assert_int_eq(r.done[2], 3);
    ck_assert_int_eq(r.done[3], 4);
    ck_assert_date(r.date[3], 2.0);
    model_sys_free(r.sys);
}
END_TEST

static Suite *
core_model_suite(void)
{
    Suite *s = suite_create("core_model");
    TCase *net = tcase_create("network");
    tcase_add_test(net, test_model_lone_flow);
    tcase_add_test(net, test_model_two_flows_share_a_link);
    tcase_add_test(net, test_model_tcp_window_bounds_a_flow);
    tcase_add_test(net, test_model_fatpipe_does_not_share);
    tcase_add_test(net, test_model_cross_traffic);
    tcase_add_test(net, test_model_lv08_factors);
    tcase_add_test(net, test_model_lv08_weight_s);
    tcase_add_test(net, test_model_penalty_weighted_sharing);
    tcase_add_test(net, test_model_route_without_latency_or_links);
    tcase_add_test(net, test_model_smpi_piecewise_factors);
    tcase_add_test(net, test_model_remains);
    suite_add_tcase(s, net);
    TCase *cpu = tcase_create("cpu");
    tcase_add_test(cpu, test_model_exec_alone);
    tcase_add_test(cpu, test_model_three_execs_on_two_cores);
    tcase_add_test(cpu, test_model_sleeps);
    tcase_add_test(cpu, test_model_wait_detector);
    suite_add_tcase(s, cpu);
    TCase *order = tcase_create("order");
    tcase_add_test(order, test_model_ties_pop_in_start_order);
    tcase_add_test(order, test_model_many_sleeps_pop_in_date_then_start_order);
    tcase_add_test(order, test_model_sleep_streams_pop_in_date_then_start_order);
    tcase_add_test(order, test_model_cancel);
    tcase_add_test(order, test_model_cancelled_pop_first);
    tcase_add_test(order, test_model_emptied_resource_marked_again_comes_last);
    suite_add_tcase(s, order);
    return s;
}

int
main(void)
{
    SRunner *runner = srunner_create(core_model_suite());
    srunner_run_all(runner, CK_NORMAL);
    int failed = srunner_ntests_failed(runner);
    srunner_free(runner);
    return failed == 0 ? 0 : 1;
}
