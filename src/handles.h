/*
 * handles.h — which pointers are live MPI objects, so that a handle the program never
 * initialised, or already freed, is an MPI error (MPI_ERR_COMM, _TYPE, _OP) and not a crash;
 * and which objects each rank still holds, for the end-of-run report of what it never freed.
 *
 * Every communicator, datatype and op is registered while it lives: the predefined ones from
 * the moment the library loads, the others from their creation to their destruction. A
 * pointer that is not registered is never read.
 *
 * Holding: a datatype or op the program creates is held by the rank that made it until that
 * rank frees it (MPI_Type_free, MPI_Op_free; the object itself may live on while other
 * objects refer to it). A communicator is held by each of its members from the moment its
 * constructor returns there until that member frees it.
 */
#ifndef COLLSIM_HANDLES_H
#define COLLSIM_HANDLES_H

#include <glib.h>

void collsim_handle_add(const void *object);
void collsim_handle_remove(const void *object);

/* Whether object is a live registered object (and so may be read). NULL is not. */
int collsim_handle_readable(const void *object);

/* The kinds of objects a rank must free, in the order reports list them. */
enum collsim_held_kind {
    COLLSIM_HELD_COMM,
    COLLSIM_HELD_DATATYPE,
    COLLSIM_HELD_OP,
    COLLSIM_HELD_KINDS
};

/* An object a rank holds: what made it and where. */
struct collsim_held {
    enum collsim_held_kind kind;
    const char *call;       /* "MPI_Type_vector": a static string */
    const void *caller;     /* the program's call site, or NULL */
    guint64 serial;         /* creation order among all held objects */
};

/* The calling rank now holds `object` (registered already), made by `call` at `caller`. */
void collsim_handle_hold(const void *object, enum collsim_held_kind kind, const char *call,
                         const void *caller);
/* Whether the calling rank holds object. */
int collsim_handle_held(const void *object);
/* The calling rank lets go of object (its free call). No effect if it does not hold it. */
void collsim_handle_let_go(const void *object);

/*
 * The objects world_rank still holds, sorted by kind then creation order (struct
 * collsim_held *, valid until the rank's next hold or free; free the array only).
 * counts[kind] receives the number of each kind if counts is not NULL.
 */
GPtrArray *collsim_handles_held_by(int world_rank, guint counts[COLLSIM_HELD_KINDS]);

/* Forget every hold (a new world is set up: its rank 0 is not the last world's). */
void collsim_handles_forget_holds(void);

/* "communicator", "datatype", "op" (plural: with an "s"). */
const char *collsim_held_kind_name(enum collsim_held_kind kind);

#endif
