/*
 * model.h — collsim's own resource models, the timing half of its own discrete-event core:
 * network links shared by max-min fairness (SimGrid 3.32's CM02 family: the CM02, LV08 and
 * SMPI network models) and CPUs with cores, both updated lazily as SimGrid's are.
 *
 * Why: SimGrid's network model costs 2-5 µs of bookkeeping per message (an s4u activity, a
 * kernel activity, a surf action, an LMM variable, each allocated and linked), more than a
 * whole message may cost for collsim to be several times faster than SMPI. These models keep
 * SimGrid's semantics, so that the same platform and the same sequence of starts give the
 * same completion dates, bit for bit where the arithmetic allows it:
 *  - a flow first pays its route's latency (times the latency factor) without using any
 *    bandwidth, then shares the bandwidth of every link of its route with the other flows by
 *    weighted max-min fairness (weight 1/penalty, penalty = its route's latency plus, for
 *    LV08, weight_S / bandwidth of each link), bounded by its route's smallest bandwidth times
 *    the bandwidth factor and by TCP's window (tcp_gamma / (2 × latency)); with cross
 *    traffic it also loads each link of the reverse route with 5 % of its rate;
 *  - an execution shares its CPU (capacity cores × speed) with the others on it, each bounded
 *    by one core's speed; a sleep uses nothing and lasts its seconds, at least the surf
 *    precision if positive (one of 0 s ends at the next advance);
 *  - dates: model_next() solves what changed and gives the delay to the earliest completion;
 *    the caller advances its clock by it (now + delay, as SimGrid adds it) and model_advance()
 *    finishes every action due within the surf precision (1e-9 s) of the new clock.
 * Finished actions come out of model_pop_finished() in SimGrid's order: the CPU model's
 * before the network model's, each model's cancelled actions first (in the order they were
 * cancelled), then its finished ones in the order its event heap released them (earliest date
 * first, equal dates in the order they were scheduled).
 *
 * The loop SimGrid's engine makes, which the caller makes to get SimGrid's dates:
 *     delay = model_next(sys, now);          (with a timer due: the timer's delay unless
 *     if (delay < 0) stop;                    delay >= 0 is smaller, as SimGrid compares)
 *     now += delay; model_advance(sys, now, delay);
 *     start what this date starts (at `now`), pop what finished (at `now`);
 * A finished action still counts on its resources until it is popped, and every start, pop
 * and cancel changes the order of the next solve: SimGrid runs its timers before it frees the
 * finished actions, and resumes the actors they woke after, so a timer's starts come before
 * the pops and an actor's after.
 *
 * No SimGrid header: the caller gives plain numbers (link bandwidths and latencies, routes as
 * arrays of links, CPU speeds); libc and GLib only.
 */
#ifndef COLLSIM_CORE_MODEL_H
#define COLLSIM_CORE_MODEL_H

#include <glib.h>

G_BEGIN_DECLS

typedef struct model_sys model_sys;
typedef struct model_link model_link;
typedef struct model_cpu model_cpu;
typedef struct model_action model_action;

enum model_sharing {
    MODEL_SHARED,  /* the flows on it share its bandwidth (SimGrid SHARED; each direction of
                    * a SPLITDUPLEX link is one SHARED link) */
    MODEL_FATPIPE, /* each flow on it gets up to its whole bandwidth (SimGrid FATPIPE) */
};

/* A piecewise factor (SMPI's smpi/bw-factor, smpi/lat-factor): a message of `bytes` takes the
 * factor of the last piece whose `from_bytes` is strictly below bytes, 1 if there is none (so
 * SMPI's "0:f" piece applies from 1 byte on); the pieces may come in any order. */
struct model_factor_piece {
    double from_bytes;
    double factor;
};

struct model_net_config {
    double latency_factor;                       /* network/latency-factor (CM02 1, LV08 13.01) */
    double bandwidth_factor;                     /* network/bandwidth-factor (CM02 1, LV08 0.97) */
    const struct model_factor_piece *lat_pieces; /* SMPI: replace latency_factor when n > 0 */
    gsize n_lat_pieces;
    const struct model_factor_piece *bw_pieces; /* SMPI: replace bandwidth_factor when n > 0 */
    gsize n_bw_pieces;
    double weight_S;         /* network/weight-S (CM02 0, LV08 20537) */
    double tcp_gamma;        /* network/TCP-gamma (4194304); 0: no window bound */
    gboolean crosstraffic;   /* network/crosstraffic */
    double maxmin_precision; /* maxmin/precision (1e-5) */
    double surf_precision;   /* surf/precision (1e-9) */
};

/* SimGrid 3.32's defaults for its "CM02" model: factors 1, weight_S 0, TCP gamma 4194304,
 * cross traffic on (SimGrid's network/crosstraffic defaults to yes for every model; collsim's
 * presets set it explicitly), precisions 1e-5 and 1e-9. */
void model_net_config_cm02(struct model_net_config *config);

model_sys *model_sys_new(const struct model_net_config *config);
void model_sys_free(model_sys *sys);

/* Resources, owned by sys. bandwidth in bytes/s (> 0), latency in s (>= 0), speed in
 * flop/s (> 0), cores >= 1. */
model_link *model_link_new(model_sys *sys, double bandwidth, double latency,
                           enum model_sharing sharing);
model_cpu *model_cpu_new(model_sys *sys, double speed, int cores);

/*
 * Actions, started at the caller's clock `now` (the date of the last model_advance, or 0).
 * A flow of `bytes` over `route` (n links, in order; n may be 0 only with a positive
 * `latency`, as SimGrid requires) whose latency is the sum of its links' (passed by the
 * caller as SimGrid's routing computes it, so that the sum is SimGrid's own); `back` lists
 * the reverse route's links for cross traffic (ignored without it). `data` is returned by
 * model_pop_finished.
 */
model_action *model_flow_start(model_sys *sys, double now, model_link *const *route, gsize n,
                               model_link *const *back, gsize nback, double latency, double bytes,
                               void *data);
model_action *model_exec_start(model_sys *sys, double now, model_cpu *cpu, double flops,
                               void *data);
model_action *model_sleep_start(model_sys *sys, double now, model_cpu *cpu, double seconds,
                                void *data);

/*
 * The timeout detector SimGrid 3.32 starts on a host each time an actor there blocks in a wait
 * (ActivityImpl::wait_for makes a sleep without end on the waiter's CPU, even for an endless
 * wait): it uses nothing and never finishes, but its start marks the CPU changed (the
 * executions there are rescheduled) and it counts among the CPU's actions until it is
 * freed. SimGrid frees it right after the awaited action: a runtime that wants SimGrid's
 * execution dates to the last bit starts one when an actor blocks on an action and frees it
 * (model_action_free) just after popping that action. Not counted by model_running.
 */
model_action *model_wait_start(model_sys *sys, double now, model_cpu *cpu);

/* Free an action now, whatever its state (SimGrid's release of an action's last reference: a
 * wait detector or a condition's timeout when its wait ends otherwise, an actor's sleep when it
 * is killed): it leaves its resources at once, and its data is never returned. */
void model_action_free(model_sys *sys, model_action *action);

/*
 * Cancel an action, running or finished but not popped yet (SimGrid's Action::cancel, as an
 * ending actor's unfinished transfers get): it stops at once (no more progress, no event), but
 * it stays on its resources until model_pop_finished returns its data, before every finished
 * action of its model, as SimGrid frees a cancelled action only when it next handles ended
 * actions (after the current round of its actors, always before it next solves: pop it before
 * the next model_next). The starts made meanwhile still see it on the resources they share with
 * it, which decides the order of the next solve.
 */
void model_action_cancel(model_sys *sys, model_action *action);

/* What remains of an action at `now` (bytes or flops), read as SimGrid's Action::get_remains
 * reads it: a running action is first brought up to `now` at the rate it has had since its
 * last update. That update is not neutral: the action's remains then fall in two steps instead
 * of one, which rounds differently, so a caller that wants SimGrid's dates to the last bit calls
 * this exactly where SimGrid reads an action's remains (its CommImpl::irecv does, on a transfer
 * already started for a permanent receiver), and nowhere else. A flow found with nothing left
 * finishes here (model_pop_finished returns it); a finished action has 0 left. */
double model_action_remains(model_sys *sys, model_action *action, double now);

/* The delay from `now` to the earliest completion, after solving what changed; -1 if
 * nothing is running. */
double model_next(model_sys *sys, double now);

/* The clock moved to `now`, `delta` after the previous date: finish what is due. */
void model_advance(model_sys *sys, double now, double delta);

/* The data of the next cancelled or finished action (the action is freed), or NULL when none
 * is left. */
void *model_pop_finished(model_sys *sys);

/* Actions not finished yet (flows, executions and sleeps; not wait detectors). */
gsize model_running(const model_sys *sys);

G_END_DECLS

#endif
