/*
 * Allgather: binomial gather to rank 0, then binomial broadcast of the whole buffer.
 *
 * Origin:   the textbook composition (MPI standard's "gather followed by a broadcast");
 *           Open MPI's ompi_coll_base_allgather_intra_basic_linear and SMPI's allgather "GB"
 *           compose the same two steps (with their own gather and bcast).
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     p = 2^F: Fα + ((p-1)/p)nβ (gather) + F(α + nβ) (bcast), n the bytes gathered on
 *           each rank.
 * Steps:    gather: every rank's recvbuf serves as its gather buffer, since the blocks of a
 *           binomial subtree rooted at 0 (ranks r … r+2^k-1) are contiguous there. Rank r
 *           receives the subtrees of r+1, r+2, r+4, … (those below p, in that order) into
 *           their places, then sends its own subtree to its parent r - 2^k (k the lowest set
 *           bit of r). For p = 8: 1->0, 3->2, 5->4, 7->6; then 2->0 (2,3), 6->4 (6,7); then
 *           4->0 (4..7). Broadcast: coll_bcast_binomial of the p blocks from rank 0.
 */
#include "mpi.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_GATHER = 0 };

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

int
coll_allgather_gather_bcast(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                            const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, done;

    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;

    /* binomial gather to rank 0, in place in recvbuf */
    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            int blocks = min_int(rank + mask, size) - rank;
            rc = MPI_Send(coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype),
                          blocks * recvcount, recvtype, rank - mask, TAG_ALLGATHER_GATHER, comm);
            if (rc != MPI_SUCCESS)
                return rc;
            break;
        }
        if (rank + mask < size) {
            int child = rank + mask;
            int blocks = min_int(child + mask, size) - child;
            rc = MPI_Recv(coll_item(recvbuf, (MPI_Aint)child * recvcount, recvtype),
                          blocks * recvcount, recvtype, child, TAG_ALLGATHER_GATHER, comm,
                          MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }

    /* the whole buffer from rank 0 */
    return coll_bcast_binomial(recvbuf, size * recvcount, recvtype, 0, comm, params);
}
