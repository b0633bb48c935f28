/*
 * Alltoallv: ring of shifts.
 *
 * Origin:   Open MPI's ompi_coll_base_alltoallv_intra_pairwise and SMPI's alltoallv "ring":
 *           step k pairs every rank with the ranks k places away, whatever p.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) for equal blocks of b bytes.
 * Steps:    the own block is copied locally; in step k = 1 … p-1 rank r sends sendcounts[r+k]
 *           items at sdispls[r+k] to r+k and receives recvcounts[r-k] items at rdispls[r-k]
 *           from r-k (mod p). A block of no bytes is neither sent nor received.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_RING = 0 };

int
coll_alltoallv_ring(const void *sendbuf, const int sendcounts[], const int sdispls[],
                    MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                    const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_RING, TAG_ALLTOALLV_RING, comm);
}
