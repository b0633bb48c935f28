/*
 * Alltoallv: pairwise exchange.
 *
 * Origin:   the pairwise scheme of MPICH's MPIR_Alltoall_intra_pairwise applied to blocks of
 *           their own sizes (Open MPI's ompi_coll_base_alltoallv_intra_pairwise uses shifts
 *           always, which is collsim's "ring").
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) for equal blocks of b bytes.
 * Steps:    the own block is copied locally; in step k = 1 … p-1 rank r sends sendcounts[d]
 *           items at sdispls[d] to d and receives recvcounts[s] items at rdispls[s] from s,
 *           d = s = r xor k when p is a power of two, else d = r+k, s = r-k (mod p). A block of
 *           no bytes is neither sent nor received (both ends know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_PAIRWISE = 0 };

int
coll_alltoallv_pairwise(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_PAIRWISE, TAG_ALLTOALLV_PAIRWISE, comm);
}
