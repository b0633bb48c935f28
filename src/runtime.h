/*
 * runtime.h — what src/ needs from the simulator, as a table of hooks.
 *
 * src/ has no notion of time or of SimGrid. sim/ installs these hooks when a simulation
 * starts; until then (unit tests of src/), the defaults describe a single process that
 * charges nothing and aborts with exit().
 */
#ifndef COLLSIM_RUNTIME_H
#define COLLSIM_RUNTIME_H

#include "mpi.h"

/* A piece of a program's buffer that an operation reads (a send) or writes (a receive), whole
 * bytes at buf with no holes. */
struct collsim_span {
    const void *buf;
    size_t bytes;
    int writes;
};

/* The most spans one operation's buffers are watched by (runtime hook watch_buffers). */
#define COLLSIM_WATCHED_SPANS 8

struct collsim_runtime_hooks {
    /* Rank of the calling simulated process in MPI_COMM_WORLD, and the world's size. */
    int (*world_rank)(void);
    int (*world_size)(void);
    /* The node (simulated host) a world rank runs on, numbered from 0 in host order. */
    int (*node_of)(int world_rank);
    /* Charge the simulated compute time of applying op to count elements of dt. */
    void (*charge_op)(MPI_Op op, MPI_Datatype dt, int count);
    /*
     * Whether payload bytes are real (payload data). 0 in sizes-only runs (payload none): op
     * application is then skipped, its compute time still charged. NULL counts as 1.
     */
    int (*moves_payload)(void);
    /* A collective call of `kind` (enum coll_kind) was served by `algorithm`. */
    void (*coll_served)(int kind, const char *algorithm);
    /*
     * The calling rank starts (begin 1) or ends (begin 0) running a collective: the MPI call
     * `call`, of `kind` (enum coll_kind), served by `algorithm`, `bytes` per rank, on comm.
     * For the event recorder (sim/trace/recorder.h); it costs one test when recording is off.
     */
    void (*coll_traced)(int begin, const char *call, int kind, const char *algorithm,
                        size_t bytes, MPI_Comm comm);
    /*
     * Start fn(data) as a nonblocking operation of the calling rank (the MPI call `call` on
     * comm): it runs now until it would block, then whenever the rank makes progress, and
     * *request completes with fn's return value once fn has returned. fn owns data. The
     * default (no simulation) runs fn at once and answers MPI_REQUEST_NULL.
     */
    int (*start_nonblocking)(int (*fn)(void *data), void *data, MPI_Comm comm, const char *call,
                             MPI_Request *request);
    /*
     * Watch the program's buffers of the nonblocking operation *request has just started
     * (the MPI call `call`, a name that lives as long as the program, made at `site`, a
     * return address or NULL): the spans it reads must not
     * change until the program completes the request, and those it writes must not change
     * between the operation's end and that completion (MPI-3.1 5.12). NULL: not watched.
     */
    void (*watch_buffers)(MPI_Request request, const struct collsim_span *spans, int n,
                          const char *call, const void *site);
    /*
     * A nonblocking operation of the calling rank wrote count items of dt at buf into the
     * program's buffers on its own (a reduction's result, made aside): the watches of the
     * rank's other operations do not take that change for the program's. NULL: nothing kept.
     */
    void (*result_written)(const void *buf, int count, MPI_Datatype dt);
    /*
     * Make *request a persistent request of the calling rank (inactive): each MPI_Start calls
     * start(data, &op), which starts one operation into op (a nonblocking operation's
     * request, or MPI_REQUEST_NULL when it completed at once), and the request completes when
     * op does. free_data(data) when the request is freed. The default (no simulation)
     * answers MPI_ERR_INTERN.
     */
    int (*make_persistent)(int (*start)(void *data, MPI_Request *op), void *data,
                           void (*free_data)(void *data), MPI_Comm comm, const char *call,
                           MPI_Request *request);
    /*
     * Whether the calling code acts for an operation the program started earlier rather than
     * for a call of its own: a nonblocking collective's algorithm, or MPI_Start entering again
     * the call a persistent request keeps. A datatype or op the program has freed since stays
     * usable there, as the operation holds it (MPI_Type_free and MPI_Op_free let the
     * operations that use the object complete normally). The default answers 0.
     */
    int (*acts_for_operation)(void);
    /* End the whole simulation with this exit code (MPI_Abort, fatal errors). */
    void (*abort)(int exit_code) __attribute__((noreturn));
    /* Where the calling rank is in its life: 0 before MPI_Init, 1 between MPI_Init and the end
     * of MPI_Finalize, 2 after. NULL (or a caller outside any rank) counts as 1. */
    int (*mpi_state)(void);
    /* A user-defined reduction function (MPI_Op_create) starts (entering 1) or returns (0) on
     * the calling rank, and whether the rank is inside one now: MPI-3.1 5.9.5 allows no MPI
     * communication function there (collsim_check_communication). NULL: nothing is tracked,
     * and no rank is ever inside one. */
    void (*user_function)(int entering);
    int (*in_user_function)(void);
};

/*
 * Sizes-only runs say so to the algorithms through standard calls only: MPI_Comm_get_info
 * answers this key with the value "none", and MPI_Alloc_mem given an info holding it returns
 * shared scratch that must not be freed (sim/engine/payload_scratch.h). src/coll/coll_util.c
 * spells the same string, since it includes no collsim header.
 */
#define COLLSIM_INFO_PAYLOAD "collsim_payload"

/* The installed hooks; never NULL. */
extern const struct collsim_runtime_hooks *collsim_runtime;

void collsim_runtime_install(const struct collsim_runtime_hooks *hooks);

/* The default hooks, for tests that replace a few of them (copy, then override). */
const struct collsim_runtime_hooks *collsim_runtime_defaults(void);

#endif
