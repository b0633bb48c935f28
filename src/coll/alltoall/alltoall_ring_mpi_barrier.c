/*
 * Alltoall: ring of shifts, a barrier before each.
 *
 * Origin:   SMPI's alltoall "ring_mpi_barrier" (src/smpi/colls/alltoall/
 *           alltoall-ring-mpi-barrier.cpp, Ahmad Faraj): the ring's shifts, all ranks
 *           synchronised by a barrier before every step so that the steps cannot overlap.
 *           SMPI's barrier is the selected one; collsim calls its default barrier algorithm,
 *           dissemination, directly (coll_barrier_dissemination).
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     p·⌈lg p⌉α for the p barriers + (p-1)(α + bβ), b the bytes of one block.
 * Steps:    step i = 0 … p-1: a barrier, then rank r sends block r+i to r+i and receives
 *           block r-i from r-i (mod p); step 0 is the local copy of the own block (SMPI sends
 *           it to itself). For p = 4, rank 0 sends to 1, 2, 3 and receives from 3, 2, 1, one
 *           barrier before each. Blocks of no bytes are not sent; the barriers always run.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_RING_BARRIER = 0 };

int
coll_alltoall_barrier_steps_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                                   int by_xor, int tag, MPI_Comm comm)
{
    struct coll_params barrier_params = {0, 0};
    int rc, rank, size;

    rc = coll_rank_size(comm, &rank, &size);
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        int dst = by_xor ? rank ^ i : (rank + i) % size;
        int src = by_xor ? rank ^ i : (rank - i + size) % size;
        rc = coll_barrier_dissemination(comm, &barrier_params);
        if (rc != MPI_SUCCESS)
            break;
        if (i == 0)
            rc = coll_block_copy(send, rank, recv, rank);
        else
            rc = coll_sendrecv_nonempty(coll_block_at(send, dst), coll_block_count(send, dst),
                                        coll_block_type(send, dst), dst, tag,
                                        coll_block_at(recv, src), coll_block_count(recv, src),
                                        coll_block_type(recv, src), src, tag, comm);
    }
    return rc;
}

int
coll_alltoall_ring_mpi_barrier(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_barrier_steps_blocks(&send, &recv, 0, TAG_ALLTOALL_RING_BARRIER, comm);
}
