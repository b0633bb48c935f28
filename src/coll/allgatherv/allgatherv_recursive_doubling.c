/*
 * Allgatherv: recursive doubling.
 *
 * Origin:   MPICH's MPIR_Allgatherv_intra_recursive_doubling (Thakur, Rabenseifner & Gropp
 *           2005), including its fix-up for a number of ranks that is not a power of two.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     p = 2^F: Fα + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 *           Otherwise ⌈lg p⌉ exchange rounds plus the fix-up messages.
 * Steps:    as allgather_recursive_doubling.c, on a scratch buffer that holds the blocks
 *           packed in rank order (block b at the sum of recvcounts[0 … b-1]), so that the
 *           blocks of a group of ranks are contiguous; at the end every block is copied to
 *           displs[b] of recvbuf. A message whose blocks have no bytes is not sent (both ends
 *           know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_RECURSIVE_DOUBLING = 0 };

int
coll_allgatherv_recursive_doubling(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv,
                                   COLL_ALLGATHER_RECURSIVE_DOUBLING,
                                   TAG_ALLGATHERV_RECURSIVE_DOUBLING, comm);
}
