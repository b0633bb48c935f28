/*
 * Allgather: linear gather to rank 0, then linear broadcast of the whole buffer.
 *
 * Origin:   Open MPI's ompi_coll_base_allgather_intra_basic_linear (a gather to rank 0, then
 *           a broadcast from it; Open MPI's basic component runs both linearly).
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     (p-1)(α + nβ) (gather, all on rank 0's link) + (p-1)(α + pnβ) (broadcast), n the
 *           bytes of one block.
 * Steps:    rank 0 posts a receive for every other rank's block straight into its place in
 *           recvbuf, every other rank sends its block; then rank 0 sends the p blocks to rank
 *           1, 2, … p-1 in turn (coll_bcast_linear). For p = 4: 1->0, 2->0, 3->0 (together);
 *           then 0->1, 0->2, 0->3 (one after the other), each with all 4 blocks.
 */
#include "mpi.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_LINEAR = 0 };

int
coll_allgather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    struct coll_blocks mine;
    int rc, rank, size, done;

    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;

    /* the own block is in place now: rank 0 copies nothing more, the others send from there */
    if (rank == 0)
        mine = coll_blocks_uniform(MPI_IN_PLACE, 0, recvtype);
    else
        mine = coll_blocks_uniform(coll_block_at(&recv, rank), recvcount, recvtype);
    rc = coll_linear_gather_scatter(1, &recv, &mine, 0, TAG_ALLGATHER_LINEAR, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return coll_bcast_linear(recvbuf, size * recvcount, recvtype, 0, comm, params);
}
