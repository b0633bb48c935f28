/*
 * Alltoallv: pairwise MPI_Sendrecv_replace (MPICH's in-place algorithm).
 *
 * Origin:   MPICH's MPIR_Alltoallv_intra_pairwise_sendrecv_replace, its algorithm for MPI_IN_PLACE:
 *           pair (i, j), i < j, swaps block j of rank i with block i of rank j in recvbuf itself,
 *           in the order i = 0 … p-1, j = i+1 … p-1 (the schedule of
 *           src/coll/alltoall/alltoall_pairwise_sendrecv_replace.c on blocks of their own sizes).
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements). Handles
 *           MPI_IN_PLACE itself (the standard then makes the counts and types symmetric); called
 *           with a send buffer it first copies every block into recvbuf, then swaps the same.
 * Cost:     (2p-3)(α + bβ) for equal blocks of b bytes: a wavefront of exchanges.
 * Steps:    rank r swaps with the ranks 0, 1, … r-1 and then r+1, … p-1, in that order. For p = 3:
 *           (0,1), then (0,2), then (1,2). Blocks of no bytes are not exchanged.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_SENDRECV_REPLACE = 0 };

int
coll_alltoallv_pairwise_sendrecv_replace(const void *sendbuf, const int sendcounts[],
                                         const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                                         const int recvcounts[], const int rdispls[],
                                         MPI_Datatype recvtype, MPI_Comm comm,
                                         const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);

    (void)params;
    return coll_alltoall_pairwise_sendrecv_replace_blocks(&send, &recv,
                                                          TAG_ALLTOALLV_SENDRECV_REPLACE, comm);
}
