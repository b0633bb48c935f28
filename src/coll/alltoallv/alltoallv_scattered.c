/*
 * Alltoallv: scattered (the linear algorithm in batches).
 *
 * Origin:   MPICH's MPIR_Alltoallv_intra_scattered: alltoall's scattered schedule
 *           (src/coll/alltoall/alltoall_scattered.c) on blocks of their own sizes; a batch of
 *           bblock receives and sends (collsim's radix; MPICH's MPIR_CVAR_ALLTOALL_THROTTLE, 32) is
 *           posted before waiting for all of them.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements); radix >=
 *           2 (COLL_RADIX, default 4, collsim's default radix; MPICH's 32 is radix=32).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) one-port for equal blocks of b bytes; the transfers of a batch overlap on
 *           a real network.
 * Steps:    batch ii = 0, k, 2k, …: receives from r+ii, … r+ii+k-1 and sends to r-ii, … r-ii-k+1
 *           (mod p) posted, then one MPI_Waitall; the own block is copied locally. A block of no
 *           bytes is neither sent nor received (both ends know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_SCATTERED = 0 };

int
coll_alltoallv_scattered(const void *sendbuf, const int sendcounts[], const int sdispls[],
                         MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                         const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                         const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);
    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_alltoall_scattered_blocks(&send, &recv, radix, TAG_ALLTOALLV_SCATTERED, comm);
}
