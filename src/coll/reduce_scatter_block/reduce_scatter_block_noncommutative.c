/*
 * Reduce_scatter_block: noncommutative (see src/coll/reduce_scatter/reduce_scatter_noncommutative.c).
 *
 * Origin:   coll_reduce_scatter_noncommutative with recvcounts[i] = recvcount for every rank (MPI-3.1
 *           §5.10.1 defines Reduce_scatter_block as exactly that); MPICH
 *           MPIR_Reduce_scatter_block_intra_noncommutative is this algorithm on equal blocks.
 * Requires: power-of-two ranks (order-preserving).
 *           Handles MPI_IN_PLACE (the full input vector of p·recvcount items in recvbuf).
 * Cost:     that of coll_reduce_scatter_noncommutative with n = p·recvcount items.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"

int
coll_reduce_scatter_block_noncommutative(const void *sendbuf, void *recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                         const struct coll_params *params)
{
    return coll_fold_equal_blocks(sendbuf, recvbuf, recvcount, datatype, op, comm, params,
                                  coll_reduce_scatter_noncommutative);
}
