/*
 * info.h — what the rest of src/ needs from info objects (info.c).
 */
#ifndef COLLSIM_INFO_H
#define COLLSIM_INFO_H

#include "mpi.h"

/*
 * MPI_SUCCESS if info is a live info object (MPI_INFO_NULL is not), else MPI_ERR_INFO with
 * *why saying what is wrong, for the message. Reads the object only once it is known to live.
 */
int collsim_info_check(MPI_Info info, const char **why);

/* Make MPI_INFO_ENV hold these pairs (key, value, key, value, ..., NULL), in this order. */
void collsim_info_env_fill(const char *const *pairs);

#endif
