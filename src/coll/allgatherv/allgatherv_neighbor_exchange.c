/*
 * Allgatherv: neighbor exchange.
 *
 * Origin:   Chen, Zhang, Yang et al. 2005; Open MPI's
 *           ompi_coll_base_allgatherv_intra_neighborexchange (pairs of blocks described by an
 *           indexed datatype, as here).
 * Requires: an even number of ranks (COLL_REQ_EVEN_RANKS), as allgather_neighbor_exchange.c;
 *           Open MPI falls back to the ring for an odd count, collsim refuses. Any counts
 *           including zeros, any displacements. Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE
 *           means the rank's own block is already in place in recvbuf.
 * Cost:     (p/2)α + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 * Steps:    as allgather_neighbor_exchange.c: step 0 exchanges the own block with the pair
 *           partner; steps 1 … p/2-1 forward the pair (2m, 2m+1) received in the step before
 *           and receive a new pair, alternating between the two neighbours. A pair is sent as
 *           one message of an indexed type over its two blocks (recvcounts[b] items at
 *           displs[b]); a message whose blocks have no bytes is not sent.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_NEIGHBOR_EXCHANGE = 0 };

int
coll_allgatherv_neighbor_exchange(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv,
                                   COLL_ALLGATHER_NEIGHBOR_EXCHANGE, TAG_ALLGATHERV_NEIGHBOR_EXCHANGE, comm);
}
