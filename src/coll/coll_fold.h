/*
 * coll_fold.h — pieces of the reduction algorithms (allreduce, reduce_scatter,
 * reduce_scatter_block, scan, exscan) that several of them run exactly alike: the fold of a
 * non-power-of-two number of ranks before recursive doubling or halving and the unfold after
 * it, the ring pass over blocks, the block layout of a vector, the prefix exchange by
 * recursive doubling, and Reduce_scatter_block as a Reduce_scatter of equal counts.
 *
 * Standard MPI calls and libc only, so the file compiles against a real MPI too. Each helper
 * makes exactly the MPI calls, in the order, and applies the op with exactly the operands its
 * callers made and applied before they shared it: moving code here never changes a message,
 * a time or the bracketing of a result.
 */
#ifndef COLLSIM_COLL_FOLD_H
#define COLLSIM_COLL_FOLD_H

#include "mpi.h"
#include "coll/coll.h"

/*
 * Reduce_scatter_block by a Reduce_scatter algorithm: MPI-3.1 §5.10.1 defines the block form
 * as the general one with recvcounts[i] = recvcount for every rank. MPI_ERR_COUNT when the
 * whole vector (size·recvcount items) does not fit an int.
 */
int coll_fold_equal_blocks(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, const struct coll_params *params,
                           coll_reduce_scatter_fn *reduce_scatter);

/*
 * The caller's rank and the communicator's size, and where each block of a Reduce_scatter
 * vector starts: (*displs)[i] = recvcounts[0] + ... + recvcounts[i-1], *total the sum of all.
 * *displs is what to free (NULL after a failure). MPI_ERR_COUNT when the total does not fit
 * an int, MPI_ERR_NO_MEM when the array cannot be allocated.
 */
int coll_fold_block_displs(const int recvcounts[], MPI_Comm comm, int *rank, int *size,
                           int **displs, int *total);

/*
 * Scratch space of a Reduce_scatter algorithm that works on the whole vector: *work, a copy
 * of the `total` items of `input`, and *incoming, room for `incoming_count` items. *work_mem
 * and *incoming_mem are what to free (also after a failure). Local: no message.
 */
int coll_fold_working_copy(const void *input, int total, int incoming_count, MPI_Datatype datatype,
                           void **work, void **work_mem, void **incoming, void **incoming_mem);

#endif
