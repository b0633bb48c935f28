/*
 * Allgather: ring.
 *
 * Origin:   MPICH's MPIR_Allgather_intra_ring (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           ompi_coll_base_allgather_intra_ring and SMPI's allgather ring have the same shape.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     (p-1)α + ((p-1)/p)nβ, n the bytes gathered on each rank.
 * Steps:    each rank copies its own block into recvbuf, then in step k = 0 … p-2 sends block
 *           (r-k) mod p to r+1 and receives block (r-k-1) mod p from r-1, straight into its
 *           place. For p = 4, the blocks that arrive at rank 0:
 *
 *               step 0: block 3 (from 3)   step 1: block 2 (via 3)   step 2: block 1 (via 3)
 *
 * Every message is one block; a call whose blocks have no bytes sends nothing.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_RING = 0 };

int
coll_allgather_ring(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv, COLL_ALLGATHER_RING,
                                   TAG_ALLGATHER_RING, comm);
}
