/*
 * Reduce_scatter_block: pairwise exchange (commutative ops).
 *
 * Origin:   coll_reduce_scatter_pairwise with recvcounts[i] = recvcount for every
 *           rank (MPI-3.1 §5.10.1 defines Reduce_scatter_block as exactly that); MPICH builds
 *           its block variants the same way.
 * Requires: commutative op (see reduce_scatter_pairwise.c).
 *           Handles MPI_IN_PLACE (the full input vector of p·recvcount items in recvbuf).
 * Cost:     that of coll_reduce_scatter_pairwise with n = p·recvcount items.
 * Steps:    see src/coll/reduce_scatter/reduce_scatter_pairwise.c.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"

int
coll_reduce_scatter_block_pairwise(const void *sendbuf, void *recvbuf, int recvcount,
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const struct coll_params *params)
{
    return coll_fold_equal_blocks(sendbuf, recvbuf, recvcount, datatype, op, comm, params,
                                  coll_reduce_scatter_pairwise);
}
