/*
 * Allgather: two processes, one exchange.
 *
 * Origin:   Open MPI's ompi_coll_base_allgather_intra_two_procs (and its allgatherv twin):
 *           the two ranks swap their blocks in one send-receive.
 * Requires: exactly two ranks (COLL_REQ_TWO_RANKS: the partner is rank xor 1, which does not
 *           exist for rank 2 of three). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means
 *           the rank's own block is already in place in recvbuf.
 * Cost:     α + nβ, n the bytes of one block.
 * Steps:    each rank copies its own block into place, then MPI_Sendrecv: its block to the
 *           other rank, the other's block into its place. For p = 2: 0 <-> 1.
 *
 * coll_allgather_two_proc_blocks serves allgatherv too (v blocks: each side's message is
 * left out when that block holds no bytes; both ranks know both sizes).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_TWO_PROC = 0 };

int
coll_allgather_two_proc_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                               int tag, MPI_Comm comm)
{
    int rc, rank, size, done, peer;

    rc = coll_allgather_open(own, recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    peer = rank ^ 1;
    return coll_sendrecv_nonempty(coll_block_at(recv, rank), coll_block_count(recv, rank),
                                  recv->type, peer, tag, coll_block_at(recv, peer),
                                  coll_block_count(recv, peer), recv->type, peer, tag, comm);
}

int
coll_allgather_two_proc(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_two_proc_blocks(&own, &recv, TAG_ALLGATHER_TWO_PROC, comm);
}
