/*
 * runtime.c — default runtime hooks: one process, no time, abort by exit().
 */
#include <stdlib.h>

#include "runtime.h"

static int
default_world_rank(void)
{
    return 0;
}

static int
default_world_size(void)
{
    return 1;
}

static int
default_node_of(int world_rank)
{
    (void)world_rank;
    return 0;
}

static void
default_charge_op(MPI_Op op, MPI_Datatype dt, int count)
{
    (void)op;
    (void)dt;
    (void)count;
}

static void
default_coll_served(int kind, const char *algorithm)
{
    (void)kind;
    (void)algorithm;
}

static void
default_coll_traced(int begin, const char *call, int kind, const char *algorithm, size_t bytes,
                    MPI_Comm comm)
{
    (void)begin;
    (void)call;
    (void)kind;
    (void)algorithm;
    (void)bytes;
    (void)comm;
}

static void __attribute__((noreturn))
default_abort(int exit_code)
{
    exit(exit_code);
}

static int
default_start_nonblocking(int (*fn)(void *data), void *data, MPI_Comm comm, const char *call,
                          MPI_Request *request)
{
    (void)comm;
    (void)call;
    *request = MPI_REQUEST_NULL;
    return fn(data);
}

static int
default_make_persistent(int (*start)(void *data, MPI_Request *op), void *data,
                        void (*free_data)(void *data), MPI_Comm comm, const char *call,
                        MPI_Request *request)
{
    (void)start;
    (void)comm;
    (void)call;
    free_data(data);
    *request = MPI_REQUEST_NULL;
    return MPI_ERR_INTERN;
}

static int
default_moves_payload(void)
{
    return 1;
}

static int
default_acts_for_operation(void)
{
    return 0;
}

static const struct collsim_runtime_hooks default_hooks = {
    .world_rank = default_world_rank,
    .world_size = default_world_size,
    .node_of = default_node_of,
    .charge_op = default_charge_op,
    .moves_payload = default_moves_payload,
    .coll_served = default_coll_served,
    .coll_traced = default_coll_traced,
    .start_nonblocking = default_start_nonblocking,
    .make_persistent = default_make_persistent,
    .acts_for_operation = default_acts_for_operation,
    .abort = default_abort,
};

const struct collsim_runtime_hooks *collsim_runtime = &default_hooks;

void
collsim_runtime_install(const struct collsim_runtime_hooks *hooks)
{
    collsim_runtime = hooks ? hooks : &default_hooks;
}

const struct collsim_runtime_hooks *
collsim_runtime_defaults(void)
{
    return &default_hooks;
}
