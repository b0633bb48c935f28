/*
 * Allgatherv: direct (every send and every receive posted at once).
 *
 * Origin:   the v form of Open MPI's ompi_coll_base_allgather_direct_messaging and SMPI's
 *           allgather "spreading_simple" (Open MPI's allgatherv has no such form; its basic
 *           default is a gatherv and a bcast).
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     (p-1)α + (p-1)nβ one-port for equal blocks (latencies overlap: α + (p-1)nβ).
 * Steps:    as allgather_direct.c: the own block into place, receives from r-i and sends to
 *           r+i for i = 1 … p-1 all posted, then one MPI_Waitall; empty blocks left out.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_DIRECT = 0 };

int
coll_allgatherv_direct(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_direct_blocks(&own, &recv, TAG_ALLGATHERV_DIRECT, comm);
}
