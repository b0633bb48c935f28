/*
 * core_backend.h — the table each implementation of the core (core.h) fills: core.c calls
 * through the one selected. Private to sim/core/.
 */
#ifndef COLLSIM_CORE_BACKEND_H
#define COLLSIM_CORE_BACKEND_H

#include "sim/core/core.h"

struct core_backend {
    gsize (*setup)(gsize stack_bytes, gboolean share_stack); /* the stack each actor will get */
    /* called only when the actors share a stack (core.c): NULL in a core that never does */
    void *(*actor_memory)(core_actor *owner, void *addr, gsize bytes);
    void (*stack_left)(const void *resumer);
    gboolean (*shared_stack_overlaps)(const void *addr, gsize bytes);
    /* the running actor's stack, from a signal handler; NULL where the core cannot say */
    gboolean (*running_stack)(const char **low, const char **top);
    void (*run)(void);
    double (*clock)(void);
    core_actor *(*actor_create)(const char *name, core_host *host, void (*fn)(void *), void *data);
    core_actor *(*actor_self)(void);
    void *(*actor_self_data)(void);
    void (*actor_daemonize)(void);
    void (*actor_exit)(void);
    void (*sleep_for)(double seconds);
    void (*sleep_until)(double date);
    void (*yield)(void);
    void (*execute)(double flops);
    core_mailbox *(*mailbox_by_name)(const char *name);
    void (*mailbox_set_receiver)(const char *name);
    core_comm *(*put_async)(core_mailbox *mbox, void *payload, long bytes);
    core_comm *(*put_init)(core_mailbox *mbox, void *payload, long bytes);
    core_comm *(*get_async)(core_mailbox *mbox, void **payload);
    int (*comm_test)(core_comm *comm);
    void (*comm_wait)(core_comm *comm);
    ssize_t (*comm_wait_any)(core_comm **comms, size_t count);
    ssize_t (*comm_wait_any_until)(core_comm **comms, size_t count, double timeout);
    void (*comm_unref)(core_comm *comm);
    core_mutex *(*mutex_new)(void);
    void (*mutex_lock)(core_mutex *mutex);
    core_cond *(*cond_new)(void);
    void (*cond_wait)(core_cond *cond, core_mutex *mutex);
    gboolean (*cond_wait_for)(core_cond *cond, core_mutex *mutex, double timeout);
    void (*cond_notify_one)(core_cond *cond);
    core_barrier *(*barrier_new)(unsigned count);
    void (*barrier_wait)(core_barrier *barrier);
};

/* in the SimGrid module (simgrid_glue.h), reached through simgrid_glue()->backend */
extern const struct core_backend core_backend_simgrid;
extern const struct core_backend core_backend_own;

#endif
