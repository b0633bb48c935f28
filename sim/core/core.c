/*
 * core.c — calls into the selected core (core.h). One indirect call per operation: the
 * transport and the engine are written once for both cores.
 *
 * COLLSIM_CORE_TRACE=1 in the environment prints, on stderr, every operation with the clock
 * (17 digits) and the calling actor's data address as "rank" when it is a rank, and every
 * advance of the clock: the same run under --engine simgrid and --engine collsim gives the
 * same lines, so the first line that differs is where the cores part (tests/core/README.md).
 */
#include "config.h"

#include <stdio.h>

#include "sim/core/core_backend.h"
#include "sim/core/fcontext.h"
#include "sim/core/simgrid_glue.h"

/* SimGrid's core lives in the SimGrid module (simgrid_glue.h), loaded when chosen */
static enum core_kind selected = CORE_COLLSIM;
static const struct core_backend *backend = &core_backend_own;

/* -1 until read from the environment */
static int tracing = -1;
static int (*trace_rank)(void *actor_data);

gboolean
core_trace_enabled(void)
{
    if (tracing < 0)
        tracing = g_getenv("COLLSIM_CORE_TRACE") != NULL;
    return tracing;
}

void
core_trace_set_rank_of(int (*rank_of)(void *actor_data))
{
    trace_rank = rank_of;
}

static void
trace(const char *operation)
{
    if (!core_trace_enabled())
        return;
    void *data = backend->actor_self_data();
    int rank = data != NULL && trace_rank != NULL ? trace_rank(data) : -1;
    fprintf(stderr, "core %.17g %s %d\n", backend->clock(), operation, rank);
}

void
core_trace_step(double now, double delta)
{
    if (core_trace_enabled())
        fprintf(stderr, "step %.17g %.17g\n", now, delta);
}

void
core_select(enum core_kind kind)
{
    selected = kind;
    backend = kind == CORE_COLLSIM ? &core_backend_own : simgrid_glue()->backend;
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

static gsize setup_stack_bytes;
static gboolean setup_share_stack;

void
core_setup(gsize stack_bytes, gboolean share_stack)
{
    setup_share_stack = share_stack && core_stack_sharing_available(selected);
    setup_stack_bytes = backend->setup(stack_bytes, setup_share_stack);
}

gboolean
core_stack_sharing_available(enum core_kind kind)
{
#ifdef CORE_ASAN
    (void)kind;
    return FALSE;
#else
    return kind == CORE_COLLSIM;
#endif
}

gboolean
core_stacks_shared(void)
{
    return setup_share_stack;
}

void *
core_actor_memory(core_actor *owner, void *addr, gsize bytes)
{
    return setup_share_stack ? backend->actor_memory(owner, addr, bytes) : addr;
}

gboolean
core_shared_stack_overlaps(const void *addr, gsize bytes)
{
    return setup_share_stack && backend->shared_stack_overlaps(addr, bytes);
}

void
core_stack_left(const void *resumer)
{
    if (setup_share_stack)
        backend->stack_left(resumer);
}

gboolean
core_running_stack(const char **low, const char **top)
{
    return backend->running_stack != NULL && backend->running_stack(low, top);
}

gsize
core_stack_bytes(void)
{
    return setup_stack_bytes;
}
void
core_run(void)
{
    backend->run();
}
double
core_clock(void)
{
    return backend->clock();
}

core_actor *
core_actor_create(const char *name, core_host *host, void (*fn)(void *), void *data)
{
    return backend->actor_create(name, host, fn, data);
}

core_actor *
core_actor_self(void)
{
    return backend->actor_self();
}
void *
core_actor_self_data(void)
{
    return backend->actor_self_data();
}
void
core_actor_daemonize(void)
{
    trace("actor_daemonize");
    backend->actor_daemonize();
}

void
core_actor_exit(void)
{
    backend->actor_exit();
    g_assert_not_reached();
}

void
core_sleep_for(double seconds)
{
    trace("sleep_for");
    backend->sleep_for(seconds);
}
void
core_sleep_until(double date)
{
    trace("sleep_until");
    backend->sleep_until(date);
}
void
core_yield(void)
{
    trace("yield");
    backend->yield();
}
void
core_execute(double flops)
{
    trace("execute");
    backend->execute(flops);
}
core_mailbox *
core_mailbox_by_name(const char *name)
{
    trace("mailbox_by_name");
    return backend->mailbox_by_name(name);
}
void
core_mailbox_set_receiver(const char *name)
{
    trace("mailbox_set_receiver");
    backend->mailbox_set_receiver(name);
}

core_comm *
core_put_async(core_mailbox *mbox, void *payload, long bytes)
{
    trace("put_async");
    return backend->put_async(mbox, payload, bytes);
}

core_comm *
core_put_init(core_mailbox *mbox, void *payload, long bytes)
{
    trace("put_init");
    return backend->put_init(mbox, payload, bytes);
}

core_comm *
core_get_async(core_mailbox *mbox, void **payload)
{
    trace("get_async");
    return backend->get_async(mbox, payload);
}

int
core_comm_test(core_comm *comm)
{
    trace("comm_test");
    return backend->comm_test(comm);
}
void
core_comm_wait(core_comm *comm)
{
    trace("comm_wait");
    backend->comm_wait(comm);
}

ssize_t
core_comm_wait_any(core_comm **comms, size_t count)
{
    trace("comm_wait_any");
    return backend->comm_wait_any(comms, count);
}

ssize_t
core_comm_wait_any_until(core_comm **comms, size_t count, double timeout)
{
    trace("comm_wait_any_until");
    return backend->comm_wait_any_until(comms, count, timeout);
}

void
core_comm_unref(core_comm *comm)
{
    backend->comm_unref(comm);
}
core_mutex *
core_mutex_new(void)
{
    return backend->mutex_new();
}
void
core_mutex_lock(core_mutex *mutex)
{
    trace("mutex_lock");
    backend->mutex_lock(mutex);
}
core_cond *
core_cond_new(void)
{
    trace("cond_new");
    return backend->cond_new();
}
void
core_cond_wait(core_cond *cond, core_mutex *mutex)
{
    trace("cond_wait");
    backend->cond_wait(cond, mutex);
}

gboolean
core_cond_wait_for(core_cond *cond, core_mutex *mutex, double timeout)
{
    trace("cond_wait_for");
    return backend->cond_wait_for(cond, mutex, timeout);
}

void
core_cond_notify_one(core_cond *cond)
{
    trace("cond_notify_one");
    backend->cond_notify_one(cond);
}
core_barrier *
core_barrier_new(unsigned count)
{
    return backend->barrier_new(count);
}
void
core_barrier_wait(core_barrier *barrier)
{
    trace("barrier_wait");
    backend->barrier_wait(barrier);
}
