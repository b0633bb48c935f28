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
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_NEIGHBOR_EXCHANGE = 0 };

int
coll_allgather_neighbor_exchange(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                 void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                                 const struct coll_params *params)
{
    const int tag = TAG_ALLGATHER_NEIGHBOR_EXCHANGE;
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, done, neighbor[2], recv_from[2], offset[2], send_from;

    (void)params;
    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;

    if (rank % 2 == 0) {
        neighbor[0] = (rank + 1) % size;
        neighbor[1] = (rank - 1 + size) % size;
        recv_from[0] = recv_from[1] = rank;
        offset[0] = 2;
        offset[1] = -2;
    } else {
        neighbor[0] = (rank - 1 + size) % size;
        neighbor[1] = (rank + 1) % size;
        recv_from[0] = recv_from[1] = neighbor[0];
        offset[0] = -2;
        offset[1] = 2;
    }

    /* step 0: one block with neighbor[0] */
    rc = MPI_Sendrecv(coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype), recvcount, recvtype,
                      neighbor[0], tag,
                      coll_item(recvbuf, (MPI_Aint)neighbor[0] * recvcount, recvtype), recvcount,
                      recvtype, neighbor[0], tag, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;

    /* steps 1 … p/2-1: pairs, forwarding what came in the step before */
    send_from = rank % 2 == 0 ? rank : recv_from[0];
    for (int i = 1; i < size / 2; i++) {
        int parity = i % 2;
        recv_from[parity] = (recv_from[parity] + offset[parity] + size) % size;
        rc = MPI_Sendrecv(coll_item(recvbuf, (MPI_Aint)send_from * recvcount, recvtype),
                          2 * recvcount, recvtype, neighbor[parity], tag,
                          coll_item(recvbuf, (MPI_Aint)recv_from[parity] * recvcount, recvtype),
                          2 * recvcount, recvtype, neighbor[parity], tag, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        send_from = recv_from[parity];
    }
    return MPI_SUCCESS;
}
