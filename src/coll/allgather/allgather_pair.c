/*
 * Allgather: pairwise exchange with rank xor k.
 *
 * Origin:   SMPI's allgather "pair" (src/smpi/colls/allgather/allgather-pair.cpp, after
 *           Faraj & Yuan's generated routines): step k swaps the own block with rank xor k.
 * Requires: a power-of-two number of ranks (COLL_REQ_POWER_OF_TWO: otherwise rank xor k may
 *           not exist). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own
 *           block is already in place in recvbuf.
 * Cost:     (p-1)α + (p-1)nβ, n the bytes of one block: every rank sends only its own block,
 *           p-1 times.
 * Steps:    each rank copies its own block into place, then for k = 1 … p-1 one MPI_Sendrecv
 *           with partner r xor k: its own block out, the partner's into its place. For p = 4,
 *           rank 0 meets 1, 2, 3; rank 1 meets 0, 3, 2; rank 2 meets 3, 0, 1.
 *
 * coll_allgather_pair_blocks serves allgatherv too (an empty block is not sent; both ranks
 * of a pair know its size).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_PAIR = 0 };

int
coll_allgather_pair_blocks(const struct coll_blocks *own, const struct coll_blocks *recv, int tag,
                           MPI_Comm comm)
{
    int rc, rank, size, done;

    rc = coll_allgather_open(own, recv, comm, &rank, &size, &done);
    for (int k = 1; k < size && rc == MPI_SUCCESS && !done; k++) {
        int peer = rank ^ k;
        rc = coll_sendrecv_nonempty(coll_block_at(recv, rank), coll_block_count(recv, rank),
                                    recv->type, peer, tag, coll_block_at(recv, peer),
                                    coll_block_count(recv, peer), recv->type, peer, tag, comm);
    }
    return rc;
}

int
coll_allgather_pair(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_pair_blocks(&own, &recv, TAG_ALLGATHER_PAIR, comm);
}
