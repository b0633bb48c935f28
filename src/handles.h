/*
 * handles.h — which pointers are live MPI objects, so that a handle the program never
 * initialised, or already freed, is an MPI error (MPI_ERR_COMM, _TYPE, _OP) and not a crash.
 *
 * Every communicator, datatype and op is registered while it lives: the predefined ones from
 * the moment the library loads, the others from their creation to their destruction. A
 * pointer that is not registered is never read.
 */
#ifndef COLLSIM_HANDLES_H
#define COLLSIM_HANDLES_H

void collsim_handle_add(const void *object);
void collsim_handle_remove(const void *object);

/* Whether object is a live registered object (and so may be read). NULL is not. */
int collsim_handle_readable(const void *object);

#endif
