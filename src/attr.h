/*
 * attr.h — what communicators and datatypes need from attribute caching (attr.c).
 */
#ifndef COLLSIM_ATTR_H
#define COLLSIM_ATTR_H

#include "mpi.h"

struct collsim_attr_store;

/* MPI_Comm_dup: run the calling rank's copy callbacks of oldcomm, setting what they keep on
 * newcomm; the first callback error. */
int collsim_attr_copy_all(MPI_Comm oldcomm, MPI_Comm newcomm);
/* MPI_Comm_free, MPI_Finalize: run the calling rank's delete callbacks on comm, last set
 * first, and forget its attributes there; the first callback error. */
int collsim_attr_delete_all(MPI_Comm comm);
/* A communicator is destroyed: drop what is left in its store (no callbacks). */
void collsim_attr_store_free(MPI_Comm comm);
/* The same three for datatypes: MPI_Type_dup (copy callbacks of oldtype's attributes onto
 * newtype), MPI_Type_free (delete callbacks, last set first), the type's destruction. */
int collsim_attr_type_copy_all(MPI_Datatype oldtype, MPI_Datatype newtype);
int collsim_attr_type_delete_all(MPI_Datatype type);
void collsim_attr_type_store_free(MPI_Datatype type);
/* End of a simulation: forget every keyval, and the attributes left on datatypes. */
void collsim_attr_teardown(void);

#endif
