/*
 * model_vs_simgrid.cpp — runs one pseudo-random workload (flows and executions started at
 * chosen dates) twice: in SimGrid 3.32 itself, and in collsim's own models (sim/core/model.h)
 * driven by a loop that takes SimGrid's engine steps in SimGrid's order. Then it compares the
 * completion dates, action by action, and the completion order.
 *
 *   model_vs_simgrid --platform=a|b|c|d|e|f [--actors|--ties|--reads|--cancels] [--seed=N]
 *                    [--actions=N] [--verbose] --cfg=...
 *   model_vs_simgrid --ring=P --rounds=R --cfg=...
 *
 * Platforms (written here as SimGrid XML, in a temporary file):
 *   a  a <cluster> of SPLITDUPLEX private links, no backbone
 *   b  a cluster of SHARED private links and a SHARED backbone
 *   c  a cluster of SPLITDUPLEX links, a FATPIPE backbone and a loopback per host, of no
 *      latency (a flow to its own host shares bandwidth from its start)
 *   d  two clusters of different links joined by one link (routes of up to five links)
 *   e  hosts of 4 cores on SPLITDUPLEX links (executions share the cores)
 *   f  hosts on links of unequal latencies around a FATPIPE switch slower than them (Full
 *      routing; a host to itself through SimGrid's implicit loopback)
 *
 * Output (one line): model platform actions identical max_relative_difference order. Exits 1
 * if a date differs by more than 1e-9 relative or the completion order differs.
 * --ring prints SimGrid's flows per second on a ring of P flows repeated R times (each chain
 * starts its next flow when the previous one completes), for tests/bench/model_speed.sh, whose
 * model_speed.c runs the same ring on collsim's model.
 *
 * Timer workloads: everything is started from maestro (no actor) by kernel timers, one timer
 * per distinct date (timers of equal dates have no defined order); completions are recorded by
 * Activity::on_completion with the engine's clock. Model side: per round, delta = min(next
 * timer - now, model_next(now)); now += delta; model_advance; the timers' starts; then the
 * finished actions are popped (SimGrid frees finished actions after its timers ran).
 * --reads adds to the timer workload reads of what remains of flows started earlier (SimGrid's
 * Activity::get_remaining, model_action_remains): a read brings a flow's lazy progress up to
 * its date, which changes how the later updates round, as SimGrid's irecv does when it reads a
 * transfer already started for a permanent receiver. --cancels makes half of those reads
 * cancels (SimGrid's Activity::cancel, model_action_cancel): a cancelled flow stays on its links
 * until the handling of ended actions that follows the timers, so the flows started by the same
 * timer after the cancel still meet it; a cancelled flow has no completion date.
 *
 * --actors workloads: two actors per host, each a chain of steps (a flow from its host, an
 * execution on it, a sleep), the next step once the previous is over: the pattern of collsim's
 * ranks, where finished actions are freed before the woken actors start new ones. The model side
 * takes SimGrid's steps: an actor's s4u calls reach the kernel one simcall per scheduling
 * sub-round (a flow starts in its first sub-round; an execution in its fourth, after
 * set_flops_amount, set_host and set_priority), and each blocking wait starts a wait detector on
 * the actor's CPU in the sub-round after the start (model_wait_start), freed right after the
 * awaited action. --ties runs a fixed pair of such chains built to order two equal dates by
 * a rule the random workloads do not reach (tie_chains says which).
 */
#include <glib.h>
#include <glib/gstdio.h>

#include "sim/core/model.h"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace
{

/* ---------------------------------------------------------------- the workload */

struct item {
    double date;
    bool flow;
    int src, dst;  /* host indices; dst unused for executions */
    double amount; /* bytes or flops */
    int read_of;   /* >= 0: no action, a read of what remains of that earlier flow */
    bool cancel;   /* with read_of: a cancel of that flow rather than a read */
};

/* splitmix64: the same sequence on every machine */
struct rng {
    guint64 state;
    guint64
    next()
    {
        guint64 z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    int
    below(int n)
    {
        return (int)(next() % (guint64)n);
    }
    double
    unit()
    {
        return (double)(next() >> 11) * (1.0 / 9007199254740992.0);
    }
};

/* Platform f: 10 hosts, each on a link of its own latency and bandwidth, all joined by a fat
 * pipe slower than any of them (the pipe is what flows share, by their unequal penalties);
 * a host to itself goes through SimGrid's implicit loopback (10 GB/s, no latency, fat pipe). */
const char *
star_xml()
{
    static std::string xml;
    if (!xml.empty())
        return xml.c_str();
    const int n = 10;
    xml = "<zone id='star' routing='Full'>";
    for (int i = 0; i < n; i++)
        xml +=
            "<host id='s-" + std::to_string(i) + "' speed='" + std::to_string(1 + i % 3) + "Gf'/>";
    for (int i = 0; i < n; i++)
        xml += "<link id='l-" + std::to_string(i) + "' bandwidth='" +
               std::to_string(200 + 100 * (i % 4)) + "MBps' latency='" +
               std::to_string(5 + 37 * i) + "us'/>";
    xml += "<link id='switch' bandwidth='120MBps' latency='2us' sharing_policy='FATPIPE'/>";
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            xml += "<route src='s-" + std::to_string(i) + "' dst='s-" + std::to_string(j) +
                   "'><link_ctn id='l-" + std::to_string(i) + "'/><link_ctn id='switch'/>" +
                   "<link_ctn id='l-" + std::to_string(j) + "'/></route>";
    xml += "</zone>";
    return xml.c_str();
}

const char *
platform_xml(char kind)
{
    switch (kind) {
    case 'a':
        return "<cluster id='c' prefix='h-' suffix='' radical='0-15' speed='1Gf' "
               "bw='125MBps' lat='50us' sharing_policy='SPLITDUPLEX'/>";
    case 'b':
        return "<cluster id='c' prefix='h-' suffix='' radical='0-15' speed='1Gf' "
               "bw='125MBps' lat='50us' sharing_policy='SHARED' bb_bw='500MBps' "
               "bb_lat='20us' bb_sharing_policy='SHARED'/>";
    case 'c':
        return "<cluster id='c' prefix='h-' suffix='' radical='0-15' speed='1Gf' "
               "bw='125MBps' lat='50us' sharing_policy='SPLITDUPLEX' bb_bw='1GBps' "
               "bb_lat='15us' bb_sharing_policy='FATPIPE' loopback_bw='2GBps' "
               "loopback_lat='0'/>";
    case 'd':
        return "<zone id='world' routing='Full'>"
               "<cluster id='c1' prefix='a-' suffix='' radical='0-7' speed='1Gf' bw='125MBps' "
               "lat='50us' sharing_policy='SPLITDUPLEX' bb_bw='400MBps' bb_lat='30us' "
               "router_id='r1'/>"
               "<cluster id='c2' prefix='b-' suffix='' radical='0-7' speed='2Gf' bw='1.25GBps' "
               "lat='7us' sharing_policy='SHARED' router_id='r2'/>"
               "<link id='inter' bandwidth='80MBps' latency='1.5ms'/>"
               "<zoneRoute src='c1' dst='c2' gw_src='r1' gw_dst='r2'>"
               "<link_ctn id='inter'/></zoneRoute>"
               "</zone>";
    case 'e':
        return "<cluster id='c' prefix='h-' suffix='' radical='0-7' speed='1.5Gf' core='4' "
               "bw='1.25GBps' lat='3us' sharing_policy='SPLITDUPLEX'/>";
    case 'f':
        return star_xml();
    default:
        return nullptr;
    }
}

std::string
write_platform(const char *body, const std::string &dir)
{
    std::string path = dir + "/platform.xml";
    gchar *text = g_strdup_printf("<?xml version='1.0'?>\n"
                                  "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                                  "<platform version=\"4.1\">\n%s\n</platform>\n",
                                  body);
    if (!g_file_set_contents(path.c_str(), text, -1, nullptr)) {
        fprintf(stderr, "cannot write %s\n", path.c_str());
        exit(2);
    }
    g_free(text);
    return path;
}

/* Reads of what remains of earlier flows, one for every fifth item, each at a date after its
 * flow's start (often within the flow's life, sometimes after its end), merged into the sorted
 * items; with `cancels`, half of them cancel the flow instead. */
void
add_reads(std::vector<item> &items, guint64 seed, bool cancels)
{
    struct read {
        double date;
        size_t flow; /* its position in `items` */
        bool cancel;
    };
    rng r{seed ^ 0x5eedULL};
    std::vector<read> reads;
    size_t n = items.size();
    for (size_t i = 0; i < n / 5; i++) {
        size_t k = (size_t)r.below((int)n);
        if (!items[k].flow)
            continue;
        /* a burst date or just after the start: within the life of most flows */
        double date = r.below(2) ? items[k].date + 1e-4 * r.unit() : 0.07 * r.unit();
        if (date > items[k].date)
            reads.push_back({date, k, cancels && r.below(2) == 0});
    }
    std::stable_sort(reads.begin(), reads.end(),
                     [](const read &x, const read &y) { return x.date < y.date; });
    std::vector<item> merged;
    std::vector<size_t> position(n); /* a flow's position in `merged` */
    size_t next_read = 0;
    for (size_t i = 0; i <= n; i++) {
        for (; next_read < reads.size() && (i == n || reads[next_read].date < items[i].date);
             next_read++) {
            const read &rd = reads[next_read];
            const item &flow = items[rd.flow];
            merged.push_back(
                {rd.date, false, flow.src, flow.dst, 0.0, (int)position[rd.flow], rd.cancel});
        }
        if (i < n) {
            position[i] = merged.size();
            merged.push_back(items[i]);
        }
    }
    items = merged;
}

std::vector<item>
make_workload(guint64 seed, int n_actions, int n_hosts, int cores)
{
    rng r{seed};
    /* a few burst dates many actions share, the rest spread out */
    std::vector<double> bursts = {0.0};
    for (int i = 0; i < 5; i++)
        bursts.push_back(0.05 * r.unit());
    static const double sizes[] = {1, 8, 65536, 1048576};
    std::vector<item> items;
    for (int i = 0; i < n_actions; i++) {
        item it;
        it.read_of = -1;
        it.cancel = false;
        it.date = r.below(10) < 4 ? bursts[r.below((int)bursts.size())] : 0.06 * r.unit();
        it.flow = r.below(10) < (cores > 1 ? 6 : 8);
        it.src = r.below(n_hosts);
        it.dst = r.below(n_hosts);
        if (it.flow)
            it.amount = r.below(10) < 6 ? sizes[r.below(4)] : (double)(1 + r.below(4 << 20));
        else
            it.amount = 1e5 + (double)r.below(50000000);
        items.push_back(it);
    }
    std::stable_sort(items.begin(), items.end(),
                     [](const item &x, const item &y) { return x.date < y.date; });
    return items;
}

/* ---------------------------------------------------------------- collsim's model */

std::vector<model_factor_piece>
parse_pieces(const std::string &text)
{
    std::vector<model_factor_piece> pieces;
    gchar **chunks = g_strsplit(text.c_str(), ";", -1);
    for (gchar **c = chunks; *c != nullptr; c++) {
        if (**c == '\0')
            continue;
        gchar **kv = g_strsplit(*c, ":", 2);
        pieces.push_back({(double)atoi(kv[0]), g_ascii_strtod(kv[1], nullptr)});
        g_strfreev(kv);
    }
    g_strfreev(chunks);
    return pieces;
}

struct model_side {
    model_net_config config;
    std::vector<model_factor_piece> lat_pieces, bw_pieces;
    model_sys *sys = nullptr;
    std::map<std::string, model_link *> links; /* by SimGrid link name */
    std::vector<model_cpu *> cpus;
    const std::vector<sg4::Host *> *hosts = nullptr;

    void
    setup(const std::vector<sg4::Host *> &all_hosts)
    {
        using simgrid::config::get_value;
        model_net_config_cm02(&config);
        config.latency_factor = get_value<double>("network/latency-factor");
        config.bandwidth_factor = get_value<double>("network/bandwidth-factor");
        config.weight_S = get_value<double>("network/weight-S");
        config.tcp_gamma = get_value<double>("network/TCP-gamma");
        config.crosstraffic = get_value<bool>("network/crosstraffic");
        config.maxmin_precision = get_value<double>("maxmin/precision");
        config.surf_precision = get_value<double>("surf/precision");
        if (get_value<std::string>("network/model") == "SMPI") {
            lat_pieces = parse_pieces(get_value<std::string>("smpi/lat-factor"));
            bw_pieces = parse_pieces(get_value<std::string>("smpi/bw-factor"));
            config.lat_pieces = lat_pieces.data();
            config.n_lat_pieces = lat_pieces.size();
            config.bw_pieces = bw_pieces.data();
            config.n_bw_pieces = bw_pieces.size();
        }
        sys = model_sys_new(&config);
        hosts = &all_hosts;
        for (sg4::Host *h : all_hosts)
            cpus.push_back(model_cpu_new(sys, h->get_speed(), h->get_core_count()));
    }

    model_link *
    link_of(const sg4::Link *l)
    {
        auto it = links.find(l->get_name());
        if (it != links.end())
            return it->second;
        enum model_sharing sharing = l->get_sharing_policy() == sg4::Link::SharingPolicy::FATPIPE
                                         ? MODEL_FATPIPE
                                         : MODEL_SHARED;
        model_link *m = model_link_new(sys, l->get_bandwidth(), l->get_latency(), sharing);
        links[l->get_name()] = m;
        return m;
    }

    model_action *
    start(const item &it, double now, gpointer data)
    {
        if (!it.flow)
            return model_exec_start(sys, now, cpus[it.src], it.amount, data);
        sg4::Host *src = (*hosts)[it.src], *dst = (*hosts)[it.dst];
        std::vector<sg4::Link *> route, back;
        double latency = 0.0;
        src->route_to(dst, route, &latency);
        dst->route_to(src, back, nullptr);
        std::vector<model_link *> r, b;
        for (auto *l : route)
            r.push_back(link_of(l));
        for (auto *l : back)
            b.push_back(link_of(l));
        return model_flow_start(sys, now, r.data(), r.size(), b.data(), b.size(), latency,
                                it.amount, data);
    }
};

struct completion {
    int id;
    double date;
};

/* The engine loop of SimGrid (EngineImpl::run and solve), over collsim's model. */
std::vector<completion>
run_model(model_side &m, const std::vector<item> &items)
{
    std::vector<completion> done;
    std::vector<model_action *> actions(items.size(), nullptr); /* until popped */
    std::vector<bool> cancelled(items.size(), false);
    double now = 0.0;
    size_t next = 0;
    for (;;) {
        double delta = next < items.size() ? items[next].date - now : -1.0;
        double model_delay = model_next(m.sys, now);
        if ((delta < 0.0 || model_delay < delta) && model_delay >= 0.0)
            delta = model_delay;
        if (delta < 0.0)
            break;
        now += delta;
        model_advance(m.sys, now, delta);
        while (next < items.size() && now >= items[next].date) {
            double date = items[next].date;
            while (next < items.size() && items[next].date == date) {
                const item &it = items[next];
                if (it.read_of < 0) {
                    actions[next] = m.start(it, now, GINT_TO_POINTER((int)next + 1));
                } else if (actions[it.read_of] != nullptr && it.cancel) {
                    model_action_cancel(m.sys, actions[it.read_of]);
                    cancelled[it.read_of] = true;
                } else if (actions[it.read_of] != nullptr) {
                    model_action_remains(m.sys, actions[it.read_of], now);
                }
                next++;
            }
        }
        while (gpointer data = model_pop_finished(m.sys)) {
            int id = GPOINTER_TO_INT(data) - 1;
            if (!cancelled[id])
                done.push_back({id, now});
            actions[id] = nullptr;
        }
    }
    return done;
}

/* ---------------------------------------------------------------- actor chains */

enum step_kind { STEP_FLOW, STEP_EXEC, STEP_SLEEP };

struct step {
    enum step_kind kind;
    int dst;
    double amount; /* bytes, flops or seconds */
};

struct chain {
    int host;
    int first_id; /* ids of its steps: first_id, first_id + 1, ... */
    std::vector<step> steps;
};

std::vector<chain>
make_chains(guint64 seed, int n_actions, int n_hosts)
{
    rng r{seed};
    static const double sizes[] = {1, 8, 65536, 1048576};
    int n_chains = 2 * n_hosts;
    int per_chain = std::max(1, n_actions / n_chains);
    std::vector<chain> chains;
    int id = 0;
    for (int c = 0; c < n_chains; c++) {
        chain ch{c % n_hosts, id, {}};
        for (int k = 0; k < per_chain; k++, id++) {
            step st;
            int dice = r.below(10);
            st.kind = dice < 6 ? STEP_FLOW : dice < 8 ? STEP_EXEC : STEP_SLEEP;
            st.dst = r.below(n_hosts);
            if (st.kind == STEP_FLOW)
                st.amount = r.below(10) < 6 ? sizes[r.below(4)] : (double)(1 + r.below(4 << 20));
            else if (st.kind == STEP_EXEC) /* equal amounts end together: ties to order */
                st.amount = r.below(2) ? 1e6 * (1 + r.below(2)) : 1e5 + (double)r.below(20000000);
            else
                st.amount = r.below(10) == 0 ? 1e-11 : r.below(3) == 0 ? 1e-3 : 4e-3 * r.unit();
            ch.steps.push_back(st);
        }
        chains.push_back(ch);
    }
    return chains;
}

/*
 * A fixed pair of chains where a CPU is emptied and refilled within one round: at 1 ms, the
 * sleep on host 0 and the execution on host 1 end together (the sleep first); host 1's CPU,
 * modified by the end of its execution, empties when the wait detector goes, so when both
 * chains start equal executions, host 0's CPU is modified first and its execution is rescheduled
 * (and will end) first. Were host 1 kept at its first place, the order would flip.
 */
std::vector<chain>
tie_chains(const std::vector<sg4::Host *> &hosts)
{
    double speed = hosts[1]->get_speed();
    return {
        {0, 0, {{STEP_SLEEP, 0, 1e-3}, {STEP_EXEC, 0, 1e6}, {STEP_EXEC, 0, 1e6}}},
        {1, 3, {{STEP_EXEC, 1, speed * 1e-3}, {STEP_EXEC, 1, 1e6}, {STEP_EXEC, 1, 1e6}}},
    };
}

/* The sub-round (1-based) in which a step's action starts: one per simcall before it. */
int
start_subround(enum step_kind kind)
{
    return kind == STEP_EXEC ? 4 : 1;
}

std::vector<completion>
run_model_chains(model_side &m, const std::vector<chain> &chains)
{
    std::vector<completion> done;
    size_t n = chains.size();
    std::vector<size_t> next_step(n, 0);
    std::vector<model_action *> detector(n, nullptr);
    std::vector<int> chain_of;
    for (size_t c = 0; c < n; c++)
        chain_of.insert(chain_of.end(), chains[c].steps.size(), (int)c);
    std::vector<int> resumed;
    for (size_t c = 0; c < n; c++)
        resumed.push_back((int)c);
    double now = 0.0;
    for (;;) {
        /* the resumed actors' simcalls, sub-round by sub-round, in the order they resumed */
        for (int sub = 1; sub <= 5; sub++)
            for (int c : resumed) {
                const chain &ch = chains[c];
                if (next_step[c] >= ch.steps.size())
                    continue;
                const step &st = ch.steps[next_step[c]];
                int id = ch.first_id + (int)next_step[c];
                int begin = start_subround(st.kind);
                if (sub == begin) {
                    if (st.kind == STEP_SLEEP)
                        model_sleep_start(m.sys, now, m.cpus[ch.host], st.amount,
                                          GINT_TO_POINTER(id + 1));
                    else
                        m.start({now, st.kind == STEP_FLOW, ch.host, st.dst, st.amount, -1, false},
                                now, GINT_TO_POINTER(id + 1));
                } else if (sub == begin + 1 && st.kind != STEP_SLEEP) {
                    detector[c] = model_wait_start(m.sys, now, m.cpus[ch.host]);
                }
            }
        double delta = model_next(m.sys, now);
        if (delta < 0.0)
            break;
        now += delta;
        model_advance(m.sys, now, delta);
        resumed.clear();
        while (gpointer data = model_pop_finished(m.sys)) {
            int id = GPOINTER_TO_INT(data) - 1;
            int c = chain_of[id];
            done.push_back({id, now});
            if (detector[c] != nullptr)
                model_action_free(m.sys, detector[c]);
            detector[c] = nullptr;
            next_step[c]++;
            resumed.push_back(c);
        }
    }
    return done;
}

void
run_simgrid_chains(std::vector<completion> &done, const std::vector<chain> &chains,
                   const std::vector<sg4::Host *> &hosts)
{
    for (size_t c = 0; c < chains.size(); c++) {
        const chain *ch = &chains[c];
        sg4::Actor::create("chain", hosts[ch->host], [ch, &done, &hosts] {
            for (size_t k = 0; k < ch->steps.size(); k++) {
                const step &st = ch->steps[k];
                if (st.kind == STEP_FLOW)
                    sg4::Comm::sendto_async(hosts[ch->host], hosts[st.dst], (uint64_t)st.amount)
                        ->wait();
                else if (st.kind == STEP_EXEC)
                    sg4::this_actor::execute(st.amount);
                else
                    sg4::this_actor::sleep_for(st.amount);
                done.push_back({ch->first_id + (int)k, sg4::Engine::get_clock()});
            }
        });
    }
    sg4::Engine::get_instance()->run();
}

/* ---------------------------------------------------------------- SimGrid */

struct simgrid_side {
    std::vector<sg4::ActivityPtr> started; /* SimGrid's objects must outlive their completion */
    std::unordered_map<const sg4::Activity *, int> ids;
    std::unordered_map<int, sg4::ActivityPtr> by_id;
    std::vector<completion> done;

    void
    start(const item &it, const std::vector<sg4::Host *> &hosts, int id)
    {
        if (it.read_of >= 0 && it.cancel) {
            by_id.at(it.read_of)->cancel();
            return;
        }
        if (it.read_of >= 0) {
            by_id.at(it.read_of)->get_remaining(); /* its kernel's get_remains: a lazy update */
            return;
        }
        sg4::ActivityPtr a;
        if (it.flow)
            a = sg4::Comm::sendto_async(hosts[it.src], hosts[it.dst], (uint64_t)it.amount);
        else
            a = sg4::Exec::init()->set_host(hosts[it.src])->set_flops_amount(it.amount)->start();
        ids[a.get()] = id;
        by_id[id] = a;
        started.push_back(a);
    }
};

void
run_simgrid(simgrid_side &s, const std::vector<item> &items, const std::vector<sg4::Host *> &hosts)
{
    sg4::Activity::on_completion_cb([&s](const sg4::Activity &a) {
        auto it = s.ids.find(&a);
        /* a cancelled flow completes too, FAILED or CANCELED: no date */
        if (it != s.ids.end() && a.get_state() == sg4::Activity::State::FINISHED)
            s.done.push_back({it->second, sg4::Engine::get_clock()});
    });
    for (size_t i = 0; i < items.size();) {
        size_t j = i;
        while (j < items.size() && items[j].date == items[i].date)
            j++;
        simgrid::kernel::timer::Timer::set(items[i].date, [&s, &items, &hosts, i, j] {
            for (size_t k = i; k < j; k++)
                s.start(items[k], hosts, (int)k);
        });
        i = j;
    }
    sg4::Engine::get_instance()->run();
}

int
compare(const char *model, char platform, const std::vector<item> &items,
        const std::vector<completion> &sg, const std::vector<completion> &ours, bool verbose)
{
    std::vector<double> sg_date(items.size(), -1), our_date(items.size(), -1);
    for (auto *side : {&sg, &ours})
        for (auto &c : *side)
            if (c.id < 0 || (size_t)c.id >= items.size()) {
                fprintf(stderr, "completion of an unknown action %d\n", c.id);
                return 1;
            }
    for (auto &c : sg)
        sg_date[c.id] = c.date;
    for (auto &c : ours)
        our_date[c.id] = c.date;
    size_t actions = 0; /* compared: reads and flows cancelled before their end aside */
    size_t identical = 0, missing = 0;
    double worst = 0.0;
    std::vector<bool> cancelled(items.size(), false);
    for (auto &it : items)
        if (it.read_of >= 0 && it.cancel)
            cancelled[it.read_of] = true;
    for (size_t i = 0; i < items.size(); i++) {
        if (items[i].read_of >= 0)
            continue; /* a read, not an action */
        if (cancelled[i] && sg_date[i] < 0 && our_date[i] < 0)
            continue; /* cancelled before its end on both sides */
        actions++;
        if (sg_date[i] < 0 || our_date[i] < 0) {
            missing++;
            continue;
        }
        if (sg_date[i] == our_date[i])
            identical++;
        double rel = fabs(sg_date[i] - our_date[i]) / std::max(fabs(sg_date[i]), 1e-300);
        if (verbose && sg_date[i] != our_date[i])
            printf("  #%zu %s %d->%d %.17g: simgrid %.17g model %.17g (rel %.3g)\n", i,
                   items[i].flow      ? "flow"
                   : items[i].dst < 0 ? "sleep"
                                      : "exec",
                   items[i].src, items[i].dst, items[i].amount, sg_date[i], our_date[i], rel);
        worst = std::max(worst, rel);
    }
    bool same_order = sg.size() == ours.size();
    size_t first_diff = 0;
    for (size_t i = 0; same_order && i < sg.size(); i++)
        if (sg[i].id != ours[i].id) {
            same_order = false;
            first_diff = i;
        }
    if (verbose && !same_order)
        printf("  order differs at completion %zu (simgrid #%d, model #%d)\n", first_diff,
               first_diff < sg.size() ? sg[first_diff].id : -1,
               first_diff < ours.size() ? ours[first_diff].id : -1);
    printf("%-9s %c %7zu %9zu %10.3g %s", model, platform, actions, identical, worst,
           same_order ? "same" : "DIFFERENT");
    if (missing > 0)
        printf(" (%zu without a date on one side)", missing);
    printf("\n");
    return (worst > 1e-9 || !same_order || missing > 0) ? 1 : 0;
}

/* ---------------------------------------------------------------- the ring benchmark */

int
ring(int p, int rounds, const std::string &dir)
{
    gchar *body = g_strdup_printf("<cluster id='c' prefix='h-' suffix='' radical='0-%d' "
                                  "speed='1Gf' bw='12.5GBps' lat='0.3us' "
                                  "sharing_policy='SPLITDUPLEX'/>",
                                  p - 1);
    std::string path = write_platform(body, dir);
    g_free(body);
    sg4::Engine *e = sg4::Engine::get_instance();
    e->load_platform(path);
    std::vector<sg4::Host *> hosts = e->get_all_hosts();
    std::sort(hosts.begin(), hosts.end(), [](sg4::Host *x, sg4::Host *y) {
        return atoi(x->get_cname() + 2) < atoi(y->get_cname() + 2);
    });
    const double bytes = 8;
    long flows = (long)p * rounds;
    std::vector<int> left(p, rounds);
    std::vector<sg4::CommPtr> comms(p);
    std::unordered_map<const sg4::Activity *, int> chain;
    auto launch = [&](int i) {
        left[i]--;
        if (comms[i])
            chain.erase(comms[i].get());
        comms[i] = sg4::Comm::sendto_async(hosts[i], hosts[(i + 1) % p], (uint64_t)bytes);
        chain[comms[i].get()] = i;
    };
    sg4::Activity::on_completion_cb([&](const sg4::Activity &a) {
        auto it = chain.find(&a);
        if (it == chain.end())
            return;
        int i = it->second;
        /* started by a timer of the same date, out of SimGrid's handling of ended actions */
        if (left[i] > 0)
            simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock(),
                                               [&launch, i] { launch(i); });
    });
    simgrid::kernel::timer::Timer::set(0.0, [&] {
        for (int i = 0; i < p; i++)
            launch(i);
    });
    auto t0 = std::chrono::steady_clock::now();
    e->run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("simgrid P=%-6d rounds=%-5d flows=%-9ld wall=%8.3fs  %10.0f flows/s  "
           "simulated=%.9g\n",
           p, rounds, flows, wall, flows / wall, sg4::Engine::get_clock());
    return 0;
}

} // namespace

int
main(int argc, char **argv)
{
    sg4::Engine engine(&argc, argv); /* takes the --cfg= and --log= arguments */
    char platform = 0;
    guint64 seed = 1;
    int n_actions = 1500;
    int ring_p = 0, rounds = 10;
    bool verbose = false, actors = false, ties = false, reads = false, cancels = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (g_str_has_prefix(a, "--platform="))
            platform = a[strlen("--platform=")];
        else if (g_str_has_prefix(a, "--seed="))
            seed = g_ascii_strtoull(a + strlen("--seed="), nullptr, 10);
        else if (g_str_has_prefix(a, "--actions="))
            n_actions = atoi(a + strlen("--actions="));
        else if (g_str_has_prefix(a, "--ring="))
            ring_p = atoi(a + strlen("--ring="));
        else if (g_str_has_prefix(a, "--rounds="))
            rounds = atoi(a + strlen("--rounds="));
        else if (strcmp(a, "--actors") == 0)
            actors = true;
        else if (strcmp(a, "--ties") == 0)
            actors = ties = true;
        else if (strcmp(a, "--reads") == 0)
            reads = true;
        else if (strcmp(a, "--cancels") == 0)
            reads = cancels = true;
        else if (strcmp(a, "--verbose") == 0)
            verbose = true;
        else {
            fprintf(stderr, "model_vs_simgrid: unknown argument %s\n", a);
            return 2;
        }
    }
    gchar *dir = g_dir_make_tmp("model_vs_simgrid_XXXXXX", nullptr);
    int rc;
    if (ring_p > 0) {
        rc = ring(ring_p, rounds, dir);
    } else {
        const char *body = platform_xml(platform);
        if (body == nullptr) {
            fprintf(stderr, "model_vs_simgrid: --platform=a|b|c|d|e|f or --ring=P\n");
            return 2;
        }
        std::string path = write_platform(body, dir);
        engine.load_platform(path);
        engine.seal_platform(); /* routes are complete once sealed (a Full zone's loopbacks) */
        std::vector<sg4::Host *> hosts = engine.get_all_hosts();
        int cores = hosts.front()->get_core_count();
        model_side m;
        m.setup(hosts);
        std::vector<item> items;
        std::vector<completion> ours, theirs;
        if (!actors) {
            items = make_workload(seed, n_actions, (int)hosts.size(), cores);
            if (reads)
                add_reads(items, seed, cancels);
            ours = run_model(m, items);
            simgrid_side s;
            run_simgrid(s, items, hosts);
            theirs = s.done;
        } else {
            std::vector<chain> chains =
                ties ? tie_chains(hosts) : make_chains(seed, n_actions, (int)hosts.size());
            for (auto &ch : chains)
                for (auto &st : ch.steps)
                    items.push_back({0.0, st.kind == STEP_FLOW, ch.host,
                                     st.kind == STEP_SLEEP ? -1 : st.dst, st.amount, -1, false});
            ours = run_model_chains(m, chains);
            run_simgrid_chains(theirs, chains, hosts);
        }
        model_sys_free(m.sys);
        std::string model = simgrid::config::get_value<std::string>("network/model");
        if (!simgrid::config::get_value<bool>("network/crosstraffic"))
            model += "-nox";
        if (actors)
            model += ties ? "/T" : "/A";
        else if (reads)
            model += cancels ? "/C" : "/R";
        rc = compare(model.c_str(), platform, items, theirs, ours, verbose);
    }
    gchar *xml = g_build_filename(dir, "platform.xml", nullptr);
    g_unlink(xml);
    g_rmdir(dir);
    g_free(xml);
    g_free(dir);
    return rc;
}
