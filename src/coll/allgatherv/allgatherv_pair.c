/*
 * Allgatherv: pairwise exchange with rank xor k.
 *
 * Origin:   SMPI's allgatherv "pair" (src/smpi/colls/allgatherv/allgatherv-pair.cpp).
 * Requires: a power-of-two number of ranks (COLL_REQ_POWER_OF_TWO). Any counts including
 *           zeros, any displacements. Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the
 *           rank's own block is already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     (p-1)α + (p-1)nβ for equal blocks, n the bytes of one block.
 * Steps:    as allgather_pair.c: the own block into place, then for k = 1 … p-1 one
 *           MPI_Sendrecv with rank xor k, each side left out when its block holds no bytes.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_PAIR = 0 };

int
coll_allgatherv_pair(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                     MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_pair_blocks(&own, &recv, TAG_ALLGATHERV_PAIR, comm);
}
