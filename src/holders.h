/*
 * holders.h — which handles each simulated rank holds, for objects that ranks share.
 *
 * A group or an error handler can be one object used by several ranks at once (every member
 * of a communicator gets the same group from MPI_Comm_group) and by communicators, so the
 * registry of live objects (handles.h) cannot tell that one rank freed its handle while the
 * object lives on for the others. Here each rank's handles are counted, per object: a rank
 * that holds none passes a handle it freed, or never had (MPI handles belong to one process),
 * and that is an MPI error instead of a silent use.
 *
 * Costs one table entry per (object, rank) that holds it: never more than the handles the
 * program holds, where a real MPI would keep a whole object per process.
 *
 * Not handles.h's holds: those record that a rank holds an object at all (communicators,
 * datatypes, ops: one handle each), for the end-of-run report; a rank may hold several
 * handles to one group or error handler (MPI_Comm_group twice), and each free gives back one.
 */
#ifndef COLLSIM_HOLDERS_H
#define COLLSIM_HOLDERS_H

/* The calling rank receives one more handle to object. */
void collsim_holders_take(const void *object);
/* The calling rank gives one handle to object back; FALSE if it held none. */
int collsim_holders_drop(const void *object);
/* Whether the calling rank holds at least one handle to object. */
int collsim_holders_has(const void *object);
/* End of a simulation: no rank holds anything any more. */
void collsim_holders_reset(void);

#endif
