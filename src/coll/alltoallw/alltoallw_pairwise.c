/*
 * Alltoallw: pairwise exchange.
 *
 * Origin:   the pairwise scheme of MPICH's MPIR_Alltoall_intra_pairwise applied to blocks with
 *           a datatype and a byte displacement per peer (MPICH's MPIR_Alltoallw_intra_* and
 *           Open MPI's basic alltoallw are linear; this is their pairwise counterpart).
 * Requires: nothing (any number of ranks, any counts including zeros, any datatypes per peer,
 *           any byte displacements). MPI_IN_PLACE is resolved by the dispatcher (a copy of
 *           recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) for equal blocks of b bytes.
 * Steps:    the own block is copied locally; in step k = 1 … p-1 rank r sends sendcounts[d]
 *           items of sendtypes[d] at byte sdispls[d] to d and receives recvcounts[s] items of
 *           recvtypes[s] at byte rdispls[s] from s; d = s = r xor k when p is a power of two,
 *           else d = r+k, s = r-k (mod p). A block of no bytes is neither sent nor received.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLW_PAIRWISE = 0 };

int
coll_alltoallw_pairwise(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_w(sendbuf, sendcounts, sdispls, sendtypes);
    struct coll_blocks recv = coll_blocks_w(recvbuf, recvcounts, rdispls, recvtypes);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_PAIRWISE, TAG_ALLTOALLW_PAIRWISE, comm);
}
