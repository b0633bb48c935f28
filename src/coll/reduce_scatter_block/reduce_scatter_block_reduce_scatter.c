/*
 * Reduce_scatter_block: in-order reduce to rank 0, then linear scatter of the blocks.
 *
 * Origin:   coll_reduce_scatter_reduce_scatterv with recvcounts[i] = recvcount for every
 *           rank (MPI-3.1 §5.10.1 defines Reduce_scatter_block as exactly that); MPICH builds
 *           its block variants the same way.
 * Requires: nothing: order-preserving for any op and any p.
 *           Handles MPI_IN_PLACE (the full input vector of p·recvcount items in recvbuf).
 * Cost:     that of coll_reduce_scatter_reduce_scatterv with n = p·recvcount items.
 * Steps:    see src/coll/reduce_scatter/reduce_scatter_reduce_scatterv.c.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"

int
coll_reduce_scatter_block_reduce_scatter(const void *sendbuf, void *recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                         const struct coll_params *params)
{
    int size, rc;
    int *recvcounts;

    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvcount > 0 && size > INT_MAX / recvcount)
        return MPI_ERR_COUNT;
    recvcounts = malloc(sizeof *recvcounts * (size_t)size);
    if (recvcounts == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++)
        recvcounts[i] = recvcount;
    rc = coll_reduce_scatter_reduce_scatterv(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                                             params);
    free(recvcounts);
    return rc;
}
