/*
 * Alltoall: pairwise MPI_Sendrecv_replace (MPICH's in-place algorithm).
 *
 * Origin:   MPICH's MPIR_Alltoall_intra_pairwise_sendrecv_replace, its algorithm for
 *           MPI_IN_PLACE: pair (i, j), i < j, swaps block j of rank i with block i of rank j
 *           in recvbuf itself, the pairs taken in the order i = 0 … p-1, j = i+1 … p-1, so
 *           that no scratch buffer of p blocks is needed. MPICH exchanges rank i's block i with
 *           itself too; collsim leaves it in place.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE itself; called
 *           with a send buffer it first copies every block into recvbuf, then swaps the same.
 * Cost:     (2p-3)(α + bβ), b the bytes of one block: pair (i, j) can start once rank i has
 *           done (i, j-1) and rank j has done (i-1, j), a wavefront of 2p-3 exchanges.
 * Steps:    rank r swaps with the ranks 0, 1, … r-1 and then r+1, … p-1, in that order (its
 *           pairs in MPICH's order). For p = 3: (0,1), then (0,2), then (1,2). Blocks of no
 *           bytes are not exchanged (both ends know the size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_SENDRECV_REPLACE = 0 };

int
coll_alltoall_pairwise_sendrecv_replace_blocks(const struct coll_blocks *send,
                                               const struct coll_blocks *recv, int tag,
                                               MPI_Comm comm)
{
    int rc, rank, size, empty;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    /* without MPI_IN_PLACE: recvbuf starts as the send buffer would, then is swapped alike */
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
        rc = coll_block_copy(send, i, recv, i);
    for (int peer = 0; peer < size && rc == MPI_SUCCESS; peer++) {
        if (peer == rank)
            continue;
        rc = coll_block_is_empty(recv, peer, &empty);
        if (rc == MPI_SUCCESS && !empty)
            rc = MPI_Sendrecv_replace(coll_block_at(recv, peer), coll_block_count(recv, peer),
                                      coll_block_type(recv, peer), peer, tag, peer, tag, comm,
                                      MPI_STATUS_IGNORE);
    }
    return rc;
}

int
coll_alltoall_pairwise_sendrecv_replace(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                        void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                        MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_pairwise_sendrecv_replace_blocks(&send, &recv,
                                                          TAG_ALLTOALL_SENDRECV_REPLACE, comm);
}
