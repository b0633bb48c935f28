/*
 * witness_expr.h — the witness op: reductions of symbols instead of numbers.
 *
 * Every element of a witness buffer is an 8-byte handle (MPI_INT64_T) naming an expression:
 * a leaf r<i> (rank i's contribution) or an application (a · b) of the op to two expressions,
 * `a` being the operand MPI passes as `in` (the lower ranks' part). Applying the witness op
 * never computes anything: it finds or creates the node (in[k], inout[k]) in one table shared
 * by the whole process (hash-consing) and stores its handle in inout[k]. So equal expressions
 * have equal handles, and the table costs O(distinct nodes).
 *
 * Invariants:
 *  - handles are assigned in creation order, from 1; 0 (WITNESS_EXPR_UNDEFINED) is never a
 *    valid expression, so a zeroed buffer that no one wrote reads as undefined. Since the
 *    simulation order is deterministic, so are the handles.
 *  - the table lives in the process, not in a rank: all simulated ranks of a run share it,
 *    which is why this lives in sim/ and why it cannot work with payload none (the handles
 *    travel in the messages).
 *  - an application to an undefined or unknown handle yields UNDEFINED and is counted as
 *    invalid, never a crash: it means an algorithm combined data no rank contributed.
 *  - the structural hash depends only on the expression: hash(r<i>) = SHA-256("r<i>"),
 *    hash(a · b) = SHA-256(hash(a) || hash(b)) (raw 32-byte digests), memoised per node.
 *
 * Not thread-safe: simulated ranks run one at a time.
 */
#ifndef COLLSIM_SIM_WITNESS_EXPR_H
#define COLLSIM_SIM_WITNESS_EXPR_H

#include <glib.h>

#include "mpi.h"

#define WITNESS_EXPR_UNDEFINED ((gint64)0)
#define WITNESS_EXPR_HASH_BYTES 32

/* Forget every expression and zero the counters (a new run). Invalidates all handles. */
void witness_expr_reset(void);

/* The leaf r<rank> (rank >= 0). */
gint64 witness_expr_leaf(int rank);

/* The expression (left · right), counted as one application. UNDEFINED if an operand is not
 * a valid handle (and the invalid counter grows). */
gint64 witness_expr_apply(gint64 left, gint64 right);

/* The MPI user function: inout[k] = in[k] · inout[k] for k < *len, on MPI_INT64_T elements.
 * Counts one op call. Give it to MPI_Op_create with the commutativity to declare. */
void witness_expr_op(void *in, void *inout, int *len, MPI_Datatype *datatype);

/* What happened since the last reset. */
guint64 witness_expr_applications(void); /* element applications (a · b) */
guint64 witness_expr_op_calls(void);     /* calls of witness_expr_op */
guint64 witness_expr_invalid(void);      /* applications with an undefined operand */
gsize witness_expr_node_count(void);     /* distinct expressions, leaves included */

/* Queries on a handle; all are FALSE / 0 / NULL for an invalid one. */
gboolean witness_expr_valid(gint64 handle);
/* The critical path in applications: 0 for a leaf, 1 + max of the operands otherwise. */
guint witness_expr_depth(gint64 handle);
/* Number of leaves. */
guint witness_expr_size(gint64 handle);
/* TRUE if the leaves, left to right, are exactly first, first+1, ..., last. O(1). */
gboolean witness_expr_is_range(gint64 handle, int first, int last);
/* The leaves' ranks, left to right (gint elements). */
GArray *witness_expr_leaves(gint64 handle);
/* The bracketed text, e.g. "((r0·r1)·(r2·r3))"; a leaf alone is "r0". "?" if invalid. */
gchar *witness_expr_text(gint64 handle);
/* The bracketing drawn as an indented tree, one node per line, each line starting with
 * `indent`; an application is drawn as "·" above its two operands. */
gchar *witness_expr_tree(gint64 handle, const char *indent);
/* An application's two operands (FALSE for a leaf or an invalid handle). */
gboolean witness_expr_operands(gint64 handle, gint64 *left, gint64 *right);
/* A leaf's rank, or -1 for an application or an invalid handle. */
int witness_expr_leaf_rank(gint64 handle);
/* The lowest and highest leaf ranks of a valid handle (any order of its leaves). */
void witness_expr_span(gint64 handle, int *lowest, int *highest);

/* Called after every valid application with the handle it yields (found or new), on the
 * simulated rank that applied the op; NULL (the default) to stop. Survives resets: pictures
 * and walks use it to learn which rank applied what, which the table itself does not keep
 * (equal expressions computed by several ranks are one node). */
typedef void witness_expr_observer(gint64 result, gpointer data);
void witness_expr_set_observer(witness_expr_observer *observer, gpointer data);

/* The structural hash (WITNESS_EXPR_HASH_BYTES bytes, owned by the table), or NULL. */
const guint8 *witness_expr_hash(gint64 handle);
/* The same as lower-case hexadecimal (caller frees). */
gchar *witness_expr_hash_hex(gint64 handle);

#endif
