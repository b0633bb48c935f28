/*
 * Reduce_scatter_block: butterfly (see src/coll/reduce_scatter/reduce_scatter_butterfly.c).
 *
 * Origin:   coll_reduce_scatter_butterfly with recvcounts[i] = recvcount for every rank (MPI-3.1
 *           §5.10.1 defines Reduce_scatter_block as exactly that); Open MPI
 *           ompi_coll_base_reduce_scatter_block_intra_butterfly does the same.
 * Requires: nothing (order-preserving, any number of ranks).
 *           Handles MPI_IN_PLACE (the full input vector of p·recvcount items in recvbuf).
 * Cost:     that of coll_reduce_scatter_butterfly with n = p·recvcount items.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"

int
coll_reduce_scatter_block_butterfly(const void *sendbuf, void *recvbuf, int recvcount,
                                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                    const struct coll_params *params)
{
    return coll_fold_equal_blocks(sendbuf, recvbuf, recvcount, datatype, op, comm, params,
                                  coll_reduce_scatter_butterfly);
}
