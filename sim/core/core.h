/*
 * core.h — the discrete-event core that runs the simulated ranks and times their messages:
 * actors, mailboxes, transfers, sleeps, computations, a mutex and condition, a barrier and
 * the clock. Two implementations sit behind it, chosen once per process (core_select):
 *
 *  - CORE_SIMGRID: SimGrid 3.32's actors, activities and network model, one call each
 *    (core_simgrid.c);
 *  - CORE_COLLSIM: collsim's own (core_own.c): ranks are coroutines scheduled in SimGrid's
 *    rounds, transfers and computations are timed by sim/core/model.h, which keeps SimGrid's
 *    network and CPU models, on SimGrid's platform or collsim's own flat cluster.
 *
 * The calls mirror SimGrid's C API (sg_mailbox_put_async, sg_comm_wait_any, ...) with the
 * same semantics, including which ones let other actors run (every call that SimGrid makes a
 * simcall yields here too, in the same order), so the transport's bookkeeping — which relies
 * on SimGrid's FIFO pairing of puts and gets on a mailbox — holds under both.
 *
 * Handles: a transfer handle returned by core_put_async, core_put_init or core_get_async
 * holds one reference; core_comm_wait, a successful core_comm_test and the winner of
 * core_comm_wait_any consume it, core_comm_unref drops it (as sg_comm_*).
 *
 * Hosts are the run's platform's (platform.h): SimGrid's core needs one SimGrid loaded.
 */
#ifndef COLLSIM_CORE_H
#define COLLSIM_CORE_H

#include <sys/types.h>

#include <glib.h>
#include <simgrid/forward.h>

#include "sim/core/platform.h"

enum core_kind {
    CORE_SIMGRID,
    CORE_COLLSIM,
};

typedef struct core_actor core_actor;
typedef struct core_mailbox core_mailbox;
typedef struct core_comm core_comm;
typedef struct core_mutex core_mutex;
typedef struct core_cond core_cond;
typedef struct core_barrier core_barrier;

/* Which core runs this process's simulation; before any other call, once. */
void core_select(enum core_kind kind);
enum core_kind core_selected(void);
const char *core_kind_name(enum core_kind kind);

/* After simgrid_init and the platform's choice (platform.h): get ready to run. The own core builds its
 * models from the network configuration SimGrid parsed and gives each actor a stack of
 * `stack_bytes` (SimGrid's is set by its contexts/stack-size item); with `share_stack`, where
 * core_stack_sharing_available(), all its actors take turns on one stack of that size (see
 * core_actor_memory). */
void core_setup(gsize stack_bytes, gboolean share_stack);

/* Whether a core can share one stack among its actors: the own core can, except under
 * AddressSanitizer, whose record of a stack's frames would have to move with them. */
gboolean core_stack_sharing_available(enum core_kind kind);
/* Whether this run's actors share one stack. */
gboolean core_stacks_shared(void);

/*
 * Where the `bytes` at `addr` of actor `owner`'s memory are now. On a shared stack a stopped
 * actor's frames are copied aside while another actor runs: an address among them (a buffer
 * the owner declared as a local variable) is then reached through the copy. Any other address
 * is its own. NULL: the range lies on the shared stack but not within the owner's frames
 * (partly or wholly), so there is nothing of the owner's to reach there.
 */
void *core_actor_memory(core_actor *owner, void *addr, gsize bytes);

/* Whether any of the `bytes` at `addr` lie on this run's shared stack. */
gboolean core_shared_stack_overlaps(const void *addr, gsize bytes);

/* An actor that leaves the shared stack for a stack of its own making (a flow: sim/engine/
 * flow.h) says where it left it: `resumer`, the context it will come back to, is the lowest
 * of its frames on the shared stack while it runs elsewhere. */
void core_stack_left(const void *resumer);

/* The own core's smallest stack: the textbook programs, with their printf calls, take 4.5 to
 * 13 KiB, and stacks beyond 16384 ranks have no guard page to report an
 * overflow. */
#define CORE_OWN_MIN_STACK_BYTES ((gsize)16 * 1024)

/* The bounds of the running actor's stack (its usable part: [*low, *top)), where the core can
 * say; async-signal-safe, for a crash report. */
gboolean core_running_stack(const char **low, const char **top);

/* The stack each actor gets once core_setup ran (what it was given, or the own core's
 * smallest), 0 before: what the run reports and an overflow's message names. */
gsize core_stack_bytes(void);

/* Run until every non-daemon actor has ended, or none can move (a deadlock). */
void core_run(void);

/* Simulated seconds. */
double core_clock(void);

/* Debugging the cores' agreement (core.c): whether COLLSIM_CORE_TRACE is set, how to print
 * an actor's rank, and a clock step (the cores call it as their clock advances). */
gboolean core_trace_enabled(void);
void core_trace_set_rank_of(int (*rank_of)(void *actor_data));
void core_trace_step(double now, double delta);

/* ---- actors */

/* An actor on `host` running fn(data), started at once (runs from the next round, in the
 * order of creation). The stack size is the run's (the engine's configuration). */
core_actor *core_actor_create(const char *name, core_host *host, void (*fn)(void *), void *data);
/* The calling actor, or NULL outside any (the engine's own code). */
core_actor *core_actor_self(void);
/* The data given at creation to the calling actor (NULL outside any). */
void *core_actor_self_data(void);
/* The calling actor ends with the others: the run does not wait for it. */
void core_actor_daemonize(void);
/* End the calling actor now (it does not return). */
G_GNUC_NORETURN void core_actor_exit(void);

void core_sleep_for(double seconds);
void core_sleep_until(double date);
/* Let the other ready actors run first (one round). */
void core_yield(void);
/* Compute `flops` on the actor's host (its cores shared with the other actors computing). */
void core_execute(double flops);

/* ---- mailboxes and transfers */

core_mailbox *core_mailbox_by_name(const char *name);
/* The calling actor receives everything put into `name` at once, before it asks. */
void core_mailbox_set_receiver(const char *name);

core_comm *core_put_async(core_mailbox *mbox, void *payload, long bytes);
/* A put prepared but not started: core_comm_test starts it. */
core_comm *core_put_init(core_mailbox *mbox, void *payload, long bytes);
core_comm *core_get_async(core_mailbox *mbox, void **payload);

/* Whether the transfer has finished (consumes the handle if so); starts a prepared put. */
int core_comm_test(core_comm *comm);
void core_comm_wait(core_comm *comm);
/* The index of the first of `count` transfers to finish (consumed), or -1 on timeout. */
ssize_t core_comm_wait_any(core_comm **comms, size_t count);
/* As core_comm_wait_any, giving up after `timeout` seconds; on timeout every handle stays
 * the caller's (SimGrid's C binding drops them: sim/engine/deadline.h). */
ssize_t core_comm_wait_any_until(core_comm **comms, size_t count, double timeout);
void core_comm_unref(core_comm *comm);

/* ---- synchronisation between actors */

core_mutex *core_mutex_new(void);
void core_mutex_lock(core_mutex *mutex);
core_cond *core_cond_new(void);
void core_cond_wait(core_cond *cond, core_mutex *mutex);
/* TRUE if `timeout` seconds passed before a notification. */
gboolean core_cond_wait_for(core_cond *cond, core_mutex *mutex, double timeout);
void core_cond_notify_one(core_cond *cond);
core_barrier *core_barrier_new(unsigned count);
void core_barrier_wait(core_barrier *barrier);

#endif
