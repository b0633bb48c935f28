/*
 * order_picture.h — `collsim order ... --picture FILE`: the reduction tree of one result of a
 * certificate, drawn with cairo (sim/picture/picture.h) as PNG, SVG or PDF.
 *
 * The leaves r0 ... r(P-1) stand in a row at the bottom; every application of the op is a
 * circle at the height of its depth, labelled with the rank that applied it, joined to its two
 * operands (left operand drawn first, so a tree in rank order reads left to right). An
 * application that breaks rank order — its left operand holds a rank above one of its right
 * operand's (swapped operands), or its ranks are not consecutive (a gap that a later rank must
 * fill from outside) — is filled in another colour; a legend says which.
 *
 * Which rank applied a node is not kept by the witness table (equal expressions computed by
 * several ranks are one node), so it is recorded while the witness simulation runs
 * (order_picture_record_begin, in the same process as order_certify). A node is labelled with
 * the rank whose result is drawn when that rank applied it, else with the lowest rank that did.
 *
 * Invariants: the drawing depends only on the certificate and the recorded appliers, both
 * deterministic, so the same point gives the same file.
 */
#ifndef COLLSIM_SIM_ORDER_PICTURE_H
#define COLLSIM_SIM_ORDER_PICTURE_H

#include <glib.h>

#include "sim/order/order.h"

/* Beyond this many ranks the leaves (and labels) would be too small to read. */
#define ORDER_PICTURE_MAX_RANKS 256

/* Which rank's result is drawn when --picture-rank is not given: the rank whose result folds
 * the most contributions, the lowest such (reduce: the root; allreduce and reduce_scatter:
 * rank 0; scan and exscan: the last rank). */
int order_picture_default_rank(const struct order_request *request);

/* Before anything runs: the path (extension, writable), P within ORDER_PICTURE_MAX_RANKS and
 * `rank` (-1: the default) a rank that holds a defined result. FALSE with a message. */
gboolean order_picture_check(const struct order_request *request, const char *path, int rank,
                             GError **error);

/* Record which rank applies each node from now on (before order_certify, in its process);
 * order_picture_record_end forgets the records and stops. */
void order_picture_record_begin(void);
void order_picture_record_end(void);

/* Draw element 0 of `rank`'s result (-1: the default rank) of `cert` to `path`. */
gboolean order_picture_draw(const struct order_certificate *cert, int rank, const char *path,
                            GError **error);

#endif
