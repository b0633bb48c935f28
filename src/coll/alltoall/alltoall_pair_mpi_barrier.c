/*
 * Alltoall: pairwise exchange with rank xor i, a barrier before each.
 *
 * Origin:   SMPI's alltoall "pair_mpi_barrier" (src/smpi/colls/alltoall/
 *           alltoall-pair-mpi-barrier.cpp, Ahmad Faraj): at step i rank r exchanges with
 *           r xor i, all ranks synchronised by a barrier before every step. SMPI's barrier is
 *           the selected one; collsim calls its default barrier algorithm, dissemination,
 *           directly (coll_barrier_dissemination).
 * Requires: a power-of-two number of ranks (COLL_REQ_POWER_OF_TWO: r xor i must be a rank;
 *           SMPI refuses other sizes too), any datatypes. MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     p·lg p·α for the p barriers + (p-1)(α + bβ), b the bytes of one block.
 * Steps:    step i = 0 … p-1: a barrier, then rank r exchanges blocks with r xor i (step 0 is
 *           the local copy of the own block; SMPI sends it to itself). For p = 4, rank 0 meets
 *           1, 2, 3 in turn, rank 1 meets 0, 3, 2. Blocks of no bytes are not sent; the
 *           barriers always run.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_PAIR_BARRIER = 0 };

int
coll_alltoall_pair_mpi_barrier(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                               const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_barrier_steps_blocks(&send, &recv, 1, TAG_ALLTOALL_PAIR_BARRIER, comm);
}
