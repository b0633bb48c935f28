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
#include "coll/coll_util.h"

enum { TAG_ALLGATHERV_NEIGHBOR_EXCHANGE = 0 };

/* The indexed type of blocks b and b+1 of recvbuf. */
static int
pair_type(const int recvcounts[], const int displs[], int b, MPI_Datatype recvtype,
          MPI_Datatype *pair)
{
    int lengths[2] = {recvcounts[b], recvcounts[b + 1]};
    int places[2] = {displs[b], displs[b + 1]};
    int rc = MPI_Type_indexed(2, lengths, places, recvtype, pair);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_commit(pair);
    if (rc != MPI_SUCCESS)
        MPI_Type_free(pair);
    return rc;
}

int
coll_allgatherv_neighbor_exchange(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, const int recvcounts[], const int displs[],
                                  MPI_Datatype recvtype, MPI_Comm comm,
                                  const struct coll_params *params)
{
    const int tag = TAG_ALLGATHERV_NEIGHBOR_EXCHANGE;
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);
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
    rc = coll_sendrecv_nonempty(coll_item(recvbuf, displs[rank], recvtype), recvcounts[rank],
                                recvtype, neighbor[0], tag,
                                coll_item(recvbuf, displs[neighbor[0]], recvtype),
                                recvcounts[neighbor[0]], recvtype, neighbor[0], tag, comm);
    if (rc != MPI_SUCCESS)
        return rc;

    /* steps 1 … p/2-1: pairs, forwarding what came in the step before */
    send_from = rank % 2 == 0 ? rank : recv_from[0];
    for (int i = 1; i < size / 2; i++) {
        int parity = i % 2;
        MPI_Datatype send_pair, recv_pair;
        recv_from[parity] = (recv_from[parity] + offset[parity] + size) % size;
        rc = pair_type(recvcounts, displs, send_from, recvtype, &send_pair);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = pair_type(recvcounts, displs, recv_from[parity], recvtype, &recv_pair);
        if (rc != MPI_SUCCESS) {
            MPI_Type_free(&send_pair);
            return rc;
        }
        rc = coll_sendrecv_nonempty(recvbuf, 1, send_pair, neighbor[parity], tag, recvbuf, 1,
                                    recv_pair, neighbor[parity], tag, comm);
        MPI_Type_free(&recv_pair);
        MPI_Type_free(&send_pair);
        if (rc != MPI_SUCCESS)
            return rc;
        send_from = recv_from[parity];
    }
    return MPI_SUCCESS;
}
