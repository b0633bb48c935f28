/*
 * Alltoallv: ring of shifts, a barrier before each.
 *
 * Origin:   SMPI's alltoallv "ring_mpi_barrier" (src/smpi/colls/alltoallv/
 *           alltoallv-ring-mpi-barrier.cpp): step i sends to r+i and receives from r-i, all ranks
 *           synchronised by a barrier before every step; collsim's barrier is its default one,
 *           dissemination, called directly (the schedule of
 *           src/coll/alltoall/alltoall_ring_mpi_barrier.c).
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     p·⌈lg p⌉α for the p barriers + (p-1)(α + bβ) for equal blocks of b bytes.
 * Steps:    step i = 0 … p-1: a barrier, then the exchange with r+i and r-i (step 0 is the local
 *           copy of the own block). Blocks of no bytes are not sent; the barriers always run.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_RING_BARRIER = 0 };

int
coll_alltoallv_ring_mpi_barrier(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                                const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);

    (void)params;
    return coll_alltoall_barrier_steps_blocks(&send, &recv, 0, TAG_ALLTOALLV_RING_BARRIER, comm);
}
