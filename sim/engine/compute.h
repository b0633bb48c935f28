/*
 * compute.h — simulated cost of applying a reduction operation.
 */
#ifndef COLLSIM_SIM_COMPUTE_H
#define COLLSIM_SIM_COMPUTE_H

#include "mpi.h"

/* Flops charged for applying `op` to `count` items of `dt` (before the run's scale factor). */
double sim_compute_flops(MPI_Op op, MPI_Datatype dt, int count);

#endif
