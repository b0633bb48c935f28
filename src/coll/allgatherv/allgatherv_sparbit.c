/*
 * Allgatherv: Sparbit (sparse binomial-tree distribution, largest distance first).
 *
 * Origin:   Loch & Koslovski 2021; Open MPI 5's ompi_coll_base_allgatherv_intra_sparbit.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     for equal blocks, (p-1)(α + nβ) one-port (one message per block); ⌈lg p⌉α +
 *           (p-1)nβ where the messages of a round overlap their latencies.
 * Steps:    as allgather_sparbit.c, each block straight between displs[b] of the two
 *           recvbufs; a block of no bytes is neither sent nor received.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_SPARBIT = 0 };

int
coll_allgatherv_sparbit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_sparbit_blocks(&own, &recv, TAG_ALLGATHERV_SPARBIT, comm);
}
