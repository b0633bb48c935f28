/*
 * Allgather: neighbor exchange.
 *
 * Origin:   Chen, Zhang, Yang et al. 2005 ("Performance evaluation of Allgather algorithms on
 *           terascale Linux cluster with fast Ethernet"); Open MPI's
 *           ompi_coll_base_allgather_intra_neighborexchange.
 * Requires: an even number of ranks (COLL_REQ_EVEN_RANKS): the ranks pair up as (0,1),
 *           (2,3), … and then as (1,2), (3,4), …, (p-1,0). Open MPI falls back to the ring for
 *           an odd count; collsim refuses instead of substituting silently. Handles
 *           MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is already in
 *           place in recvbuf.
 * Cost:     (p/2)α + ((p-1)/p)nβ, n the bytes gathered on each rank.
 * Steps:    step 0: even rank r exchanges its own block with r+1 (odd r with r-1), so both
 *           hold the pair (2m, 2m+1). Steps 1 … p/2-1 alternate between the two neighbours
 *           (even r: r-1 at odd steps, r+1 at even steps; odd r the other way round); each
 *           step sends the pair received in the previous step and receives a new pair, which
 *           always starts at an even block and so is contiguous in recvbuf. For p = 6, rank 0
 *           holds {0,1} after step 0, {0,1,4,5} after step 1 (pair from 5), {0,…,5} after
 *           step 2 (pair from 1).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_NEIGHBOR_EXCHANGE = 0 };

int
coll_allgather_neighbor_exchange(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv,
                                   COLL_ALLGATHER_NEIGHBOR_EXCHANGE, TAG_ALLGATHER_NEIGHBOR_EXCHANGE, comm);
}
