/*
 * Alltoall: ring of shifts.
 *
 * Origin:   SMPI's alltoall "ring" (src/smpi/colls/alltoall/alltoall-ring.cpp) and Open MPI's
 *           ompi_coll_base_alltoall_intra_pairwise: step k pairs every rank with the ranks k
 *           places away on the ring, whatever p.
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ), b the bytes of one block.
 * Steps:    the own block is copied locally; then in step k = 1 … p-1 rank r sends block r+k
 *           to r+k and receives block r-k from r-k (mod p). For p = 4, rank 0 sends to 1, 2, 3
 *           and receives from 3, 2, 1. (The pairwise algorithm differs at powers of two, where
 *           it pairs r with r xor k.) A call whose blocks have no bytes sends nothing.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_RING = 0 };

int
coll_alltoall_ring(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                   const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_RING, TAG_ALLTOALL_RING, comm);
}
