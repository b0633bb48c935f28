/*
 * Allgatherv: k-port Bruck (radix k).
 *
 * Origin:   the v form of MPICH's MPIR_Allgather_intra_k_brucks and Open MPI's
 *           ompi_coll_base_allgather_intra_k_bruck (neither library ships one for
 *           allgatherv; the blocks travel as allgatherv_bruck's do, in packed slots).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4).
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     ⌈log_k p⌉(k-1)α + (p-1)nβ one-port for equal blocks.
 * Steps:    as allgather_k_bruck.c on a scratch buffer of the blocks packed in rotated order
 *           (slot j is block (r+j) mod p, slots back to back), then each slot copied to
 *           displs[(r+j) mod p]; a message of no bytes is not sent.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_K_BRUCK = 0 };

int
coll_allgatherv_k_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);
    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_allgather_k_bruck_blocks(&own, &recv, radix, TAG_ALLGATHERV_K_BRUCK, comm);
}
