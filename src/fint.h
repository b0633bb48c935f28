/*
 * fint.h — the Fortran handles of MPI's handle conversions (MPI_*_c2f, MPI_*_f2c; fint.c).
 */
#ifndef COLLSIM_FINT_H
#define COLLSIM_FINT_H

/* An object is destroyed: its Fortran handle, if it was given one, names nothing any more
 * (collsim_handle_remove calls this for every kind of object). */
void collsim_fint_forget(const void *object);

#endif
