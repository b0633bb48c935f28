/*
 * p2p_observe.h — an observer of the transport's MPI messages, for tools that explain a run
 * message by message (`collsim explain`, sim/cli/explain.c).
 *
 * Off by default; when off the transport pays one NULL test per message. The observer is told,
 * on the sending rank, of each message as it starts (its packed payload, or NULL when the run
 * moves only sizes), and, on the receiving rank, of each receive as it completes (the payload
 * is then in the receive buffer). `serial` pairs the two calls of one message. Nothing it does
 * may call MPI.
 */
#ifndef COLLSIM_SIM_P2P_OBSERVE_H
#define COLLSIM_SIM_P2P_OBSERVE_H

#include <glib.h>

struct sim_p2p_observer {
    void (*sent)(gpointer data, int src_world, int dst_world, guint64 serial, const void *packed,
                 gsize bytes);
    void (*received)(gpointer data, int src_world, int dst_world, guint64 serial);
};

/* Observe every message from now on (NULL: stop). The observer must outlive the run. */
void sim_p2p_set_observer(const struct sim_p2p_observer *observer, gpointer data);

#endif
