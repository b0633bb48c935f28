/*
 * deadline.h — waiting for the first of several transfers, or for a moment of simulated time.
 *
 * SimGrid 3.32's C binding offers a wait-any with a timeout (sg_comm_wait_any_for), but when
 * the timeout expires it releases the caller's handle of every transfer it was given, so the
 * transfers still in flight are lost to the caller. A rank whose nonblocking collectives move
 * on while it computes (the asynchronous progress model, p2p.c) needs exactly that wait and
 * needs the transfers afterwards: this one keeps them.
 */
#ifndef COLLSIM_SIM_DEADLINE_H
#define COLLSIM_SIM_DEADLINE_H

#include <sys/types.h>

#include <simgrid/forward.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Block until one of comms[0..count) finishes or `timeout` seconds of simulated time have
 * passed. Returns the index of the finished transfer, whose handle is consumed as
 * sg_comm_wait_any consumes it, or -1 on timeout, every handle still the caller's.
 */
ssize_t sim_comm_wait_any_until(sg_comm_t *comms, size_t count, double timeout);

#ifdef __cplusplus
}
#endif

#endif
