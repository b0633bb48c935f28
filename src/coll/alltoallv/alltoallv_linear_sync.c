/*
 * Alltoallv: linear with a bounded number of requests in flight.
 *
 * Origin:   the scheme of Open MPI's ompi_coll_base_alltoall_intra_linear_sync (max_requests is
 *           collsim's radix) applied to blocks of their own sizes: alltoall's linear_sync schedule
 *           (src/coll/alltoall/alltoall_linear_sync.c).
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements); radix >=
 *           2 (COLL_RADIX, default 4). MPI_IN_PLACE is resolved by the dispatcher (a copy of
 *           recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) one-port for equal blocks of b bytes; up to k transfers in and k out of a
 *           rank overlap on a real network.
 * Steps:    the own block is copied locally; receives from r+1, … r+k and sends to r-1, … r-k
 *           posted; each one that MPI_Waitany reports done is replaced by the next of its kind. A
 *           block of no bytes is neither sent nor received.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_LINEAR_SYNC = 0 };

int
coll_alltoallv_linear_sync(const void *sendbuf, const int sendcounts[], const int sdispls[],
                           MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                           const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                           const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);
    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_alltoall_linear_sync_blocks(&send, &recv, radix, TAG_ALLTOALLV_LINEAR_SYNC, comm);
}
