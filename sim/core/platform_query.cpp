/*
 * platform_query.cpp — SimGrid's C++ answers for collsim's own core (platform_query.h). C++
 * because SimGrid 3.32's C API gives neither the latency of a route as its routing sums it,
 * nor a link's sharing policy beyond shared/not shared, nor string configuration items.
 */
#include "config.h"

#include "sim/core/platform_query.h"

#include <string>
#include <vector>

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <xbt/config.hpp>

static enum platform_sharing
link_sharing(const simgrid::s4u::Link *link)
{
    switch (link->get_sharing_policy()) {
    case simgrid::s4u::Link::SharingPolicy::FATPIPE:
        return PLATFORM_FATPIPE;
    case simgrid::s4u::Link::SharingPolicy::SHARED:
    case simgrid::s4u::Link::SharingPolicy::SPLITDUPLEX:
        return PLATFORM_SHARED;
    default:
        return PLATFORM_OTHER;
    }
}

void
platform_route(sg_host_t src, sg_host_t dst, GArray *links, double *latency)
{
    std::vector<simgrid::s4u::Link *> route;
    double sum = 0.0;
    src->route_to(dst, route, &sum);
    for (simgrid::s4u::Link *link : route) {
        struct core_link l = {(guintptr)link, link->get_bandwidth(), link->get_latency(),
                              link_sharing(link)};
        g_array_append_val(links, l);
    }
    *latency = sum;
}

gchar *
platform_cfg_string(const char *name)
{
    return g_strdup(simgrid::config::get_value<std::string>(name).c_str());
}

void
platform_trace_steps(void (*step)(double now, double delta))
{
    simgrid::s4u::Engine::on_time_advance_cb(
        [step](double delta) { step(simgrid::s4u::Engine::get_clock(), delta); });
}
