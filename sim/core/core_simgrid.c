/*
 * core_simgrid.c — the core (core.h) on SimGrid 3.32: each call is the SimGrid call of the
 * same name, so a run under this core is what collsim always ran. Handles are SimGrid's own,
 * cast: nothing is allocated here.
 */
#include "config.h"

#include <simgrid/actor.h>
#include <simgrid/barrier.h>
#include <simgrid/comm.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/mailbox.h>
#include <simgrid/mutex.h>

#include "sim/core/core_backend.h"
#include "sim/core/platform_query.h"
#include "sim/engine/deadline.h"

static gsize
sg_setup(gsize stack_bytes, gboolean share_stack)
{
    (void)share_stack; /* never set: each SimGrid actor has a stack of its own */
    return stack_bytes; /* SimGrid's contexts/stack-size item, set with the other items */
}

static void
sg_run(void)
{
    if (core_trace_enabled())
        platform_trace_steps(core_trace_step);
    simgrid_run();
}

static double
sg_clock(void)
{
    return simgrid_get_clock();
}

/* sg_actor_start wants fn(argc, argv): the data is the actor's own, and fn and its argument
 * travel in a small record that the actor frees once it has read it. */
struct sg_start {
    void (*fn)(void *);
    void *data;
};

static void
sg_actor_main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    struct sg_start *start = sg_actor_self_get_data();
    void (*fn)(void *) = start->fn;
    void *data = start->data;
    sg_actor_set_data(sg_actor_self(), data);
    g_free(start);
    fn(data);
}

static core_actor *
sg_make_actor(const char *name, core_host *host, void (*fn)(void *), void *data)
{
    /* SimGrid's core runs on platforms SimGrid loaded (engine.c): every host has its own */
    sg_actor_t actor = sg_actor_init(name, core_host_simgrid(host));
    struct sg_start *start = g_new(struct sg_start, 1);
    start->fn = fn;
    start->data = data;
    sg_actor_set_data(actor, start);
    sg_actor_start(actor, sg_actor_main, 0, NULL);
    return (core_actor *)actor;
}

static core_actor *
sg_self_actor(void)
{
    return (core_actor *)sg_actor_self();
}

static void *
sg_self_data(void)
{
    return sg_actor_self() != NULL ? sg_actor_self_get_data() : NULL;
}

static void
sg_daemonize(void)
{
    sg_actor_daemonize(sg_actor_self());
}

static void
sg_exit(void)
{
    sg_actor_exit();
}

static core_mailbox *
sg_by_name(const char *name)
{
    return (core_mailbox *)sg_mailbox_by_name(name);
}

static core_comm *
sg_put_async(core_mailbox *mbox, void *payload, long bytes)
{
    return (core_comm *)sg_mailbox_put_async((sg_mailbox_t)mbox, payload, bytes);
}

static core_comm *
sg_put_init(core_mailbox *mbox, void *payload, long bytes)
{
    return (core_comm *)sg_mailbox_put_init((sg_mailbox_t)mbox, payload, bytes);
}

static core_comm *
sg_get_async(core_mailbox *mbox, void **payload)
{
    return (core_comm *)sg_mailbox_get_async((sg_mailbox_t)mbox, payload);
}

static int
sg_test(core_comm *comm)
{
    return sg_comm_test((sg_comm_t)comm);
}

static void
sg_wait(core_comm *comm)
{
    sg_comm_wait((sg_comm_t)comm);
}

static ssize_t
sg_wait_any(core_comm **comms, size_t count)
{
    return sg_comm_wait_any((sg_comm_t *)comms, count);
}

static ssize_t
sg_wait_any_until(core_comm **comms, size_t count, double timeout)
{
    return sim_comm_wait_any_until((sg_comm_t *)comms, count, timeout);
}

static void
sg_unref(core_comm *comm)
{
    sg_comm_unref((sg_comm_t)comm);
}

static core_mutex *
sg_make_mutex(void)
{
    return (core_mutex *)sg_mutex_init();
}

static void
sg_lock(core_mutex *mutex)
{
    sg_mutex_lock((sg_mutex_t)mutex);
}

static core_cond *
sg_make_cond(void)
{
    return (core_cond *)sg_cond_init();
}

static void
sg_wait_cond(core_cond *cond, core_mutex *mutex)
{
    sg_cond_wait((sg_cond_t)cond, (sg_mutex_t)mutex);
}

static gboolean
sg_wait_cond_for(core_cond *cond, core_mutex *mutex, double timeout)
{
    return sg_cond_wait_for((sg_cond_t)cond, (sg_mutex_t)mutex, timeout) != 0;
}

static void
sg_notify(core_cond *cond)
{
    sg_cond_notify_one((sg_cond_t)cond);
}

static core_barrier *
sg_make_barrier(unsigned count)
{
    return (core_barrier *)sg_barrier_init(count);
}

static void
sg_barrier_pass(core_barrier *barrier)
{
    sg_barrier_wait((sg_bar_t)barrier);
}

const struct core_backend core_backend_simgrid = {
    .setup = sg_setup,
    .run = sg_run,
    .clock = sg_clock,
    .actor_create = sg_make_actor,
    .actor_self = sg_self_actor,
    .actor_self_data = sg_self_data,
    .actor_daemonize = sg_daemonize,
    .actor_exit = sg_exit,
    .sleep_for = sg_actor_sleep_for,
    .sleep_until = sg_actor_sleep_until,
    .yield = sg_actor_yield,
    .execute = sg_actor_execute,
    .mailbox_by_name = sg_by_name,
    .mailbox_set_receiver = sg_mailbox_set_receiver,
    .put_async = sg_put_async,
    .put_init = sg_put_init,
    .get_async = sg_get_async,
    .comm_test = sg_test,
    .comm_wait = sg_wait,
    .comm_wait_any = sg_wait_any,
    .comm_wait_any_until = sg_wait_any_until,
    .comm_unref = sg_unref,
    .mutex_new = sg_make_mutex,
    .mutex_lock = sg_lock,
    .cond_new = sg_make_cond,
    .cond_wait = sg_wait_cond,
    .cond_wait_for = sg_wait_cond_for,
    .cond_notify_one = sg_notify,
    .barrier_new = sg_make_barrier,
    .barrier_wait = sg_barrier_pass,
};
