/*
 * Allgatherv: ring.
 *
 * Origin:   MPICH's MPIR_Allgatherv_intra_ring (without its splitting of long blocks into
 *           pipelined chunks) and Open MPI's ompi_coll_base_allgatherv_intra_ring.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     (p-1)α + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 * Steps:    each rank places its own block, then in step k = 0 … p-2 sends block (r-k) mod p
 *           to r+1 and receives block (r-k-1) mod p from r-1, each straight into its place
 *           (recvcounts[b] items at displs[b]). A block of zero bytes is neither sent nor
 *           received; sender and receiver know its size alike.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_RING = 0 };

int
coll_allgatherv_ring(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv, COLL_ALLGATHER_RING,
                                   TAG_ALLGATHERV_RING, comm);
}
