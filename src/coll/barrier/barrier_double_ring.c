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

int
coll_barrier_double_ring(MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    return coll_token_barrier(comm, COLL_TOKEN_RING, TAG_RING_ARRIVE, TAG_RING_RELEASE);
}
