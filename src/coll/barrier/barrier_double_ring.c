/*
 * Barrier: double ring (an empty token goes twice around the ring 0 -> 1 -> … -> p-1 -> 0).
 *
 * Origin:   Open MPI's ompi_coll_base_barrier_intra_doublering (SMPI's ompi_doublering).
 * Requires: nothing (any number of ranks).
 * Cost:     2pα, every message waiting for the previous one.
 * Steps:    round 1: rank 0 sends the token to 1; rank r > 0 receives it from r-1 and passes
 *           it to r+1 (p-1 to 0). When rank 0 gets it back every rank has arrived. Round 2
 *           carries the release the same way: rank r > 0 leaves once it has received the
 *           second token and passed it on; rank 0 leaves when it comes back.
 *
 *     round 1:  0->1->2->…->p-1->0      round 2:  0->1->2->…->p-1->0
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_RING_ARRIVE = 1, TAG_RING_RELEASE = 2 };

/* One trip of the token around the ring, started by rank 0. */
static int
token_round(int rank, int size, int tag, MPI_Comm comm)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, rc;

    if (rank != 0) {
        rc = coll_token_recv(left, tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = coll_token_send(right, tag, comm);
    if (rc == MPI_SUCCESS && rank == 0)
        rc = coll_token_recv(left, tag, comm);
    return rc;
}

int
coll_barrier_double_ring(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;
    rc = token_round(rank, size, TAG_RING_ARRIVE, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return token_round(rank, size, TAG_RING_RELEASE, comm);
}
