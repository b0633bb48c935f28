/*
 * deadline.cpp — a wait-any with a timeout that keeps the caller's transfer handles (deadline.h
 * says why it exists), for SimGrid's core (collsim's own keeps the handles itself). C++
 * because SimGrid's C++ interface lets us hold a reference of our own on each transfer for
 * the length of the wait, which its C binding does not.
 */
#include "sim/engine/deadline.h"

#include <simgrid/comm.h>
#include <simgrid/s4u/Comm.hpp>

#include <vector>

ssize_t
sim_comm_wait_any_until(sg_comm_t *comms, size_t count, double timeout)
{
    /* one more reference on each transfer while we wait: a timeout drops ours, not the
     * caller's */
    std::vector<simgrid::s4u::CommPtr> held(comms, comms + count);
    ssize_t index = simgrid::s4u::Comm::wait_any_for(held, timeout);
    if (index >= 0)
        sg_comm_unref(comms[index]); /* a finished transfer's handle is consumed, as by
                                      * sg_comm_wait_any */
    return index;
}
