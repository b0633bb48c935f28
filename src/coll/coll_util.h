/*
 * coll_util.h — small helpers that collective algorithms share, written with standard MPI
 * calls and libc only (so they compile against a real MPI too).
 */
#ifndef COLLSIM_COLL_UTIL_H
#define COLLSIM_COLL_UTIL_H

#include "mpi.h"

/*
 * A scratch buffer able to hold `count` items of `dt` laid out as in a user buffer (true
 * lower bound and extent respected). *mem receives what to free(); the return value is the
 * address to pass to MPI calls (it may differ from *mem when the true lower bound is not 0).
 * Returns NULL with *mem NULL when count is 0 or allocation fails (check count first).
 */
void *coll_tmp_alloc(int count, MPI_Datatype dt, void **mem);

/* Copy `count` items of `dt` from `src` to `dst` (both laid out as user buffers). Local: no
 * message, no simulated time. */
int coll_copy(const void *src, void *dst, int count, MPI_Datatype dt);

/* Address of item `index` in a buffer of `dt` items. */
void *coll_item(void *buf, MPI_Aint index, MPI_Datatype dt);
const void *coll_citem(const void *buf, MPI_Aint index, MPI_Datatype dt);

/* Largest power of two not above n (n >= 1). */
int coll_pof2_floor(int n);
/* ceil(log2(n)) for n >= 1. */
int coll_ceil_log2(int n);

#endif
