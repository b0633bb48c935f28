/*
 * core.c — calls into the selected core (core.h). One indirect call per operation: the
 * transport and the engine are written once for both cores.
 */
#include "config.h"

#include "sim/core/core_backend.h"

static enum core_kind selected = CORE_SIMGRID;
static const struct core_backend *backend = &core_backend_simgrid;

void
core_select(enum core_kind kind)
{
    selected = kind;
    backend = kind == CORE_COLLSIM ? &core_backend_own : &core_backend_simgrid;
}

enum core_kind
core_selected(void)
{
    return selected;
}

const char *
core_kind_name(enum core_kind kind)
{
    return kind == CORE_COLLSIM ? "collsim" : "simgrid";
}

void core_setup(gsize stack_bytes) { backend->setup(stack_bytes); }
void core_run(void) { backend->run(); }
double core_clock(void) { return backend->clock(); }

core_actor *
core_actor_create(const char *name, sg_host_t host, void (*fn)(void *), void *data)
{
    return backend->actor_create(name, host, fn, data);
}

core_actor *core_actor_self(void) { return backend->actor_self(); }
void *core_actor_self_data(void) { return backend->actor_self_data(); }
void core_actor_daemonize(void) { backend->actor_daemonize(); }

void
core_actor_exit(void)
{
    backend->actor_exit();
    g_assert_not_reached();
}

void core_sleep_for(double seconds) { backend->sleep_for(seconds); }
void core_sleep_until(double date) { backend->sleep_until(date); }
void core_yield(void) { backend->yield(); }
void core_execute(double flops) { backend->execute(flops); }
core_mailbox *core_mailbox_by_name(const char *name) { return backend->mailbox_by_name(name); }
void core_mailbox_set_receiver(const char *name) { backend->mailbox_set_receiver(name); }

core_comm *
core_put_async(core_mailbox *mbox, void *payload, long bytes)
{
    return backend->put_async(mbox, payload, bytes);
}

core_comm *
core_put_init(core_mailbox *mbox, void *payload, long bytes)
{
    return backend->put_init(mbox, payload, bytes);
}

core_comm *
core_get_async(core_mailbox *mbox, void **payload)
{
    return backend->get_async(mbox, payload);
}

int core_comm_test(core_comm *comm) { return backend->comm_test(comm); }
void core_comm_wait(core_comm *comm) { backend->comm_wait(comm); }

ssize_t
core_comm_wait_any(core_comm **comms, size_t count)
{
    return backend->comm_wait_any(comms, count);
}

ssize_t
core_comm_wait_any_until(core_comm **comms, size_t count, double timeout)
{
    return backend->comm_wait_any_until(comms, count, timeout);
}

void core_comm_unref(core_comm *comm) { backend->comm_unref(comm); }
core_mutex *core_mutex_new(void) { return backend->mutex_new(); }
void core_mutex_lock(core_mutex *mutex) { backend->mutex_lock(mutex); }
core_cond *core_cond_new(void) { return backend->cond_new(); }
void core_cond_wait(core_cond *cond, core_mutex *mutex) { backend->cond_wait(cond, mutex); }

gboolean
core_cond_wait_for(core_cond *cond, core_mutex *mutex, double timeout)
{
    return backend->cond_wait_for(cond, mutex, timeout);
}

void core_cond_notify_one(core_cond *cond) { backend->cond_notify_one(cond); }
core_barrier *core_barrier_new(unsigned count) { return backend->barrier_new(count); }
void core_barrier_wait(core_barrier *barrier) { backend->barrier_wait(barrier); }
