/*
 * coll_watch.h — which bytes of the program's buffers a nonblocking collective reads and
 * writes on the calling rank, for the runtime's check that the program leaves them alone
 * until the operation completes (MPI-3.1 5.12; runtime hook watch_buffers).
 *
 * Like coll_entry.c this is collsim's runtime: it reads datatypes and communicators directly.
 */
#ifndef COLLSIM_COLL_WATCH_H
#define COLLSIM_COLL_WATCH_H

#include "coll/coll_kinds.h"
#include "runtime.h"

/*
 * Fill spans (room for COLLSIM_WATCHED_SPANS) with the calling rank's buffers of a checked
 * call of `kind` on the intra-communicator comm: the send buffer it reads, the receive buffer
 * it writes (the root's only where only the root receives; MPI_IN_PLACE's buffer, which the
 * operation both reads and writes, as written). Only buffers of contiguous types are
 * described, a vector form's blocks merged where they touch, the rest left out: what is
 * returned is always part of the operation's buffers, never a byte it may not touch.
 * Returns the number of spans.
 */
int coll_watch_spans(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm,
                     struct collsim_span *spans);

#endif
