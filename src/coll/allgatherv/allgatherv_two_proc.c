/*
 * Allgatherv: two processes, one exchange.
 *
 * Origin:   Open MPI's ompi_coll_base_allgatherv_intra_two_procs.
 * Requires: exactly two ranks (COLL_REQ_TWO_RANKS). Any counts including zeros, any
 *           displacements. Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own
 *           block is already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     α + nβ for equal blocks, n the bytes of one block.
 * Steps:    as allgather_two_proc.c: the own block into place, then one MPI_Sendrecv with
 *           rank xor 1, each side left out when its block holds no bytes.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_TWO_PROC = 0 };

int
coll_allgatherv_two_proc(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_two_proc_blocks(&own, &recv, TAG_ALLGATHERV_TWO_PROC, comm);
}
