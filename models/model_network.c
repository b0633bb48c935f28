/*
 * model_network.c — the table of network presets (see model_network.h; sources of every
 * number in platforms/README.md, "Network presets").
 */
#include <math.h>
#include <string.h>

#include "model_network.h"

#define GBPS(x) ((x) * 1e9 / 8.0) /* gigabits per second in bytes per second */
#define US(x) ((x) * 1e-6)
#define NS(x) ((x) * 1e-9)

/*
 * Link latency: the wire, switch and NIC latency of one link, so that a host-switch-host route
 * (two links) plus o_s and o_r equals the fabric's published 8-byte MPI one-way latency.
 */
static const struct model_network presets[] = {
    {
        .name = "ib-edr",
        .fabric = "InfiniBand EDR, 100 Gb/s (ConnectX-5 class NIC, one switch hop)",
        .link_bandwidth = GBPS(100),
        .link_latency = US(0.3),
        .intra_bandwidth = 20e9,
        .intra_latency = US(0.05),
        .send_overhead = US(0.2),
        .recv_overhead = US(0.2),
        .gap = NS(5),
        .eager_threshold = 16384,
        .simgrid_model = "CM02",
        .crosstraffic = FALSE,
    },
    {
        .name = "ib-hdr",
        .fabric = "InfiniBand HDR, 200 Gb/s (ConnectX-6 class NIC, one switch hop)",
        .link_bandwidth = GBPS(200),
        .link_latency = US(0.3),
        .intra_bandwidth = 20e9,
        .intra_latency = US(0.05),
        .send_overhead = US(0.15),
        .recv_overhead = US(0.15),
        .gap = NS(4.65),
        .eager_threshold = 16384,
        .simgrid_model = "CM02",
        .crosstraffic = FALSE,
    },
    {
        .name = "omnipath",
        .fabric = "Intel Omni-Path 100 (PSM2, one switch hop)",
        .link_bandwidth = GBPS(100),
        .link_latency = US(0.25),
        .intra_bandwidth = 20e9,
        .intra_latency = US(0.05),
        .send_overhead = US(0.25),
        .recv_overhead = US(0.25),
        .gap = NS(6.25),
        .eager_threshold = 16384,
        .simgrid_model = "CM02",
        .crosstraffic = FALSE,
    },
    {
        .name = "roce-100g",
        .fabric = "RoCE v2 over 100 Gb Ethernet (ConnectX-5 class NIC, one switch hop)",
        .link_bandwidth = GBPS(100),
        .link_latency = US(0.55),
        .intra_bandwidth = 20e9,
        .intra_latency = US(0.05),
        .send_overhead = US(0.2),
        .recv_overhead = US(0.2),
        .gap = NS(5),
        .eager_threshold = 16384,
        .simgrid_model = "CM02",
        .crosstraffic = FALSE,
    },
    {
        .name = "ethernet-10g",
        .fabric = "10 Gb Ethernet with the kernel's TCP stack (one switch hop)",
        .link_bandwidth = GBPS(10),
        .link_latency = US(2.5),
        .intra_bandwidth = 10e9,
        .intra_latency = US(0.1),
        .send_overhead = US(5),
        .recv_overhead = US(5),
        .gap = NS(500),
        .eager_threshold = 65536,
        .simgrid_model = "CM02",
        .crosstraffic = TRUE,
    },
    {
        .name = "cm02",
        .fabric = "SimGrid's CM02 model on the former default cluster: L + B/W, no overheads",
        .link_bandwidth = 12.5e9,
        .link_latency = US(1),
        .intra_bandwidth = 50e9,
        .intra_latency = US(0.1),
        .eager_threshold = 65536,
        .simgrid_model = "CM02",
        .crosstraffic = TRUE,
    },
    {
        .name = "lv08",
        .fabric = "SimGrid's default LV08 model (latency x 13.01, bandwidth x 0.97), no overheads",
        .link_bandwidth = 12.5e9,
        .link_latency = US(1),
        .intra_bandwidth = 50e9,
        .intra_latency = US(0.1),
        .eager_threshold = 65536,
        .simgrid_model = "LV08",
        .crosstraffic = TRUE,
    },
    {
        .name = "smpi",
        .fabric = "SMPI's default model (piecewise latency and bandwidth factors), no overheads",
        .link_bandwidth = 12.5e9,
        .link_latency = US(1),
        .intra_bandwidth = 50e9,
        .intra_latency = US(0.1),
        .eager_threshold = 65536,
        .simgrid_model = "SMPI",
        .crosstraffic = TRUE,
    },
};

const struct model_network *
model_network_list(gsize *count)
{
    *count = G_N_ELEMENTS(presets);
    return presets;
}

const struct model_network *
model_network_find(const char *name)
{
    if (name == NULL)
        return NULL;
    for (gsize i = 0; i < G_N_ELEMENTS(presets); i++)
        if (g_ascii_strcasecmp(presets[i].name, name) == 0)
            return &presets[i];
    return NULL;
}

const struct model_network *
model_network_default(void)
{
    return model_network_find(MODEL_NETWORK_DEFAULT);
}

const char *
model_network_names(void)
{
    static gchar *names;
    if (names == NULL) {
        GString *s = g_string_new(NULL);
        for (gsize i = 0; i < G_N_ELEMENTS(presets); i++)
            g_string_append_printf(s, "%s%s", i > 0 ? ", " : "", presets[i].name);
        names = g_string_free(s, FALSE);
    }
    return names;
}

void
model_network_apply(const struct model_network *network, struct model_transport *transport)
{
    transport->send_overhead = network->send_overhead;
    transport->recv_overhead = network->recv_overhead;
    transport->gap = network->gap;
    transport->eager_threshold = network->eager_threshold;
}

double
model_network_one_way(const struct model_network *network, int links, double bytes)
{
    if (g_ascii_strcasecmp(network->simgrid_model, "CM02") != 0 || links < 1 || bytes < 0)
        return NAN;
    double hop = links * network->link_latency;
    double beta = 1.0 / network->link_bandwidth;
    double overheads = network->send_overhead + network->recv_overhead;
    if (bytes <= (double)network->eager_threshold)
        return overheads + hop + MAX(bytes, 1.0) * beta;
    return overheads + 3.0 * hop + (bytes + 2.0) * beta;
}
