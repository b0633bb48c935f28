/*
 * Alltoall: two processes (one exchange).
 *
 * Origin:   Open MPI's ompi_coll_base_alltoall_intra_two_procs: with two ranks an alltoall is
 *           one exchange of the block meant for the other rank, then a local copy.
 * Requires: exactly two ranks (COLL_REQ_TWO_RANKS). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     α + bβ, b the bytes of one block.
 * Steps (p = 2): rank r sends block 1-r to rank 1-r and receives that rank's block r into
 *           block 1-r of recvbuf, in one MPI_Sendrecv; then it copies its own block r. A call
 *           whose blocks have no bytes sends nothing.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_TWO_PROC = 0 };

int
coll_alltoall_two_proc(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, peer;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    /* the registry's COLL_REQ_TWO_RANKS keeps other sizes away; one rank only copies */
    if (size == 2) {
        peer = 1 - rank;
        rc = coll_sendrecv_nonempty(coll_block_at(&send, peer), sendcount, sendtype, peer,
                                    TAG_ALLTOALL_TWO_PROC, coll_block_at(&recv, peer), recvcount,
                                    recvtype, peer, TAG_ALLTOALL_TWO_PROC, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return coll_block_copy(&send, rank, &recv, rank);
}
