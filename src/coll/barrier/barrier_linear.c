/*
 * Barrier: linear (flat fan-in to rank 0, then fan-out).
 *
 * Origin:   the textbook barrier from point-to-point messages; Open MPI's basic_linear.
 * Requires: nothing.
 * Cost:     2(p-1)α (rank 0 receives p-1 empty messages, then sends p-1).
 * Steps:    every rank r > 0 sends an empty message to 0; once 0 has them all it answers
 *           each rank, which may then leave.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

#define TAG_BARRIER_IN 1
#define TAG_BARRIER_OUT 2

int
coll_barrier_linear(MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    return coll_token_barrier(comm, COLL_TOKEN_LINEAR, TAG_BARRIER_IN, TAG_BARRIER_OUT);
}
