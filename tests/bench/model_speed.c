/*
 * model_speed.c — flows per second of collsim's own network model (sim/core/model.h) on a
 * ring: P hosts of a cluster without backbone (one split-duplex private link per host, 12.5 GB/s
 * and 0.3 us, as collsim's default cluster), host i sending BYTES to host i+1 mod P; each chain
 * starts its next flow as soon as its previous one is popped, R flows per chain. SimGrid's CM02
 * model with its default cross traffic, which joins the whole ring into one component: every
 * round of the ring is solved as one system, as SimGrid solves it.
 *
 *   model_speed P R [BYTES]
 *
 * Prints: P, R, flows, wall seconds, flows per second, and the simulated end date (which
 * tests/bench/model_speed.sh compares with SimGrid's own run of the same ring).
 */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/core/model.h"

int
main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: model_speed P R [BYTES]\n");
        return 2;
    }
    int p = atoi(argv[1]), rounds = atoi(argv[2]);
    double bytes = argc > 3 ? g_ascii_strtod(argv[3], NULL) : 8.0;
    if (p < 2 || rounds < 1 || !(bytes > 0)) {
        fprintf(stderr, "model_speed: P >= 2, R >= 1, BYTES > 0\n");
        return 2;
    }
    struct model_net_config config;
    model_net_config_cm02(&config);
    model_sys *sys = model_sys_new(&config);
    const double bandwidth = 12.5e9, latency = 0.3e-6;
    model_link **up = g_new(model_link *, p), **down = g_new(model_link *, p);
    for (int i = 0; i < p; i++) {
        up[i] = model_link_new(sys, bandwidth, latency, MODEL_SHARED);
        down[i] = model_link_new(sys, bandwidth, latency, MODEL_SHARED);
    }
    /* route i -> i+1: i's up link, then i+1's down link; the reverse for cross traffic */
    model_link **route = g_new(model_link *, 2 * p), **back = g_new(model_link *, 2 * p);
    for (int i = 0; i < p; i++) {
        int j = (i + 1) % p;
        route[2 * i] = up[i];
        route[2 * i + 1] = down[j];
        back[2 * i] = up[j];
        back[2 * i + 1] = down[i];
    }
    const double route_latency = 0.0 + latency + latency; /* summed as SimGrid's routing does */
    int *left = g_new(int, p);
    double now = 0.0;
    gint64 t0 = g_get_monotonic_time();
    for (int i = 0; i < p; i++) {
        left[i] = rounds - 1;
        model_flow_start(sys, now, route + 2 * i, 2, back + 2 * i, 2, route_latency, bytes,
                         GINT_TO_POINTER(i + 1));
    }
    for (;;) {
        double delay = model_next(sys, now);
        if (delay < 0)
            break;
        now += delay;
        model_advance(sys, now, delay);
        void *data;
        while ((data = model_pop_finished(sys)) != NULL) {
            int i = GPOINTER_TO_INT(data) - 1;
            if (left[i]-- > 0)
                model_flow_start(sys, now, route + 2 * i, 2, back + 2 * i, 2, route_latency, bytes,
                                 data);
        }
    }
    double wall = (double)(g_get_monotonic_time() - t0) / 1e6;
    long flows = (long)p * rounds;
    printf("model   P=%-6d rounds=%-5d flows=%-9ld wall=%8.3fs  %10.0f flows/s  simulated=%.9g\n",
           p, rounds, flows, wall, (double)flows / wall, now);
    model_sys_free(sys);
    g_free(left);
    g_free(route);
    g_free(back);
    g_free(up);
    g_free(down);
    return 0;
}
