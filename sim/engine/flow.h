/*
 * flow.h — a second line of control inside a simulated rank, for its nonblocking collectives.
 *
 * A nonblocking collective runs the same algorithm as the blocking one, written with blocking
 * MPI calls, on a flow: its own stack, run by the rank's own actor. The flow runs until the
 * algorithm would block, then yields back to the code that resumed it (the rank's program, in
 * an MPI call); the transport resumes it again whenever the rank makes progress. Only the
 * rank's actor ever runs its flows, and switches happen only at those two points, so the
 * transport keeps its invariant of one waiter per rank, and the simulation stays a
 * deterministic function of the program.
 *
 * Stacks come from a pool (reused, never shrunk while the run lasts) of the rank stack size.
 */
#ifndef COLLSIM_SIM_FLOW_H
#define COLLSIM_SIM_FLOW_H

#include <glib.h>

struct sim_flow;

/* The work of a flow; its return value is kept (sim_flow_result) once it has returned. */
typedef int (*sim_flow_fn)(gpointer data);

/* A flow that will run fn(data) on its own stack of `stack_bytes`; not started yet. */
struct sim_flow *sim_flow_new(sim_flow_fn fn, gpointer data, gsize stack_bytes);
/* Run the flow until it yields or returns; TRUE once it has returned. Never call it from the
 * flow itself. */
gboolean sim_flow_resume(struct sim_flow *flow);
/* From inside a flow: go back to whoever resumed it. */
void sim_flow_yield(void);
/* The flow running now (NULL on the rank's own stack). */
struct sim_flow *sim_flow_current(void);
gboolean sim_flow_finished(const struct sim_flow *flow);
int sim_flow_result(const struct sim_flow *flow);
/* Free a flow (its stack goes back to the pool). A flow that has not returned is abandoned
 * where it stands: what its frames hold is lost (only an erroneous program leaves one). */
void sim_flow_free(struct sim_flow *flow);

#endif
