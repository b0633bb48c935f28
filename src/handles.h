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
 * constructor returns there until that member frees it. Groups and error handlers may be one
 * object shared by several ranks and communicators; each rank holds the handles it was given
 * (counted) until it frees them. A rank may pass only the objects it holds: MPI handles
 * belong to one process, and the registry alone cannot tell that this rank freed an object
 * that lives on for others.
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
    COLLSIM_HELD_GROUP,
    COLLSIM_HELD_DATATYPE,
    COLLSIM_HELD_OP,
    COLLSIM_HELD_ERRHANDLER,
    COLLSIM_HELD_KINDS
};

/* An object a rank holds: what made it and where. */
struct collsim_held {
    const void *object;
    enum collsim_held_kind kind;
    const char *call;       /* "MPI_Type_vector": a static string */
    const void *caller;     /* the program's call site, or NULL */
    guint64 serial;         /* creation order among all held objects */
    int handles;            /* how many handles to it the rank holds (MPI_Comm_group twice
                               gives two handles to one group; each free gives one back) */
};

/* The calling rank receives a handle to `object` (registered already), from `call` at
 * `caller` (the first handle's call and site are the ones reported). */
void collsim_handle_hold(const void *object, enum collsim_held_kind kind, const char *call,
                         const void *caller);
/* Whether the calling rank holds at least one handle to object. */
int collsim_handle_held(const void *object);
/* The calling rank gives one handle to object back (its free call); FALSE if it held none. */
int collsim_handle_let_go(const void *object);

/*
 * The objects world_rank still holds, sorted by kind then creation order (struct
 * collsim_held *, valid until the rank's next hold or free; free the array only).
 * counts[kind] receives the number of each kind if counts is not NULL.
 */
GPtrArray *collsim_handles_held_by(int world_rank, guint counts[COLLSIM_HELD_KINDS]);

/* Forget every hold (a new world is set up: its rank 0 is not the last world's). */
void collsim_handles_forget_holds(void);

/* "communicator", "group", "datatype", "op", "error handler" (plural: with an "s"). */
const char *collsim_held_kind_name(enum collsim_held_kind kind);

#endif
