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
#include "coll/coll_util.h"

enum { TAG_ALLTOALLW_PAIRWISE = 0 };

int
coll_alltoallw_pairwise(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        const struct coll_params *params)
{
    const char *sbase = sendbuf;
    char *rbase = recvbuf;
    int rc, rank, size, pof2;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;

    rc = coll_copy_typed(sbase + sdispls[rank], sendcounts[rank], sendtypes[rank],
                         rbase + rdispls[rank], recvcounts[rank], recvtypes[rank]);
    if (rc != MPI_SUCCESS)
        return rc;

    pof2 = (size & (size - 1)) == 0;
    for (int k = 1; k < size; k++) {
        int dst = pof2 ? rank ^ k : (rank + k) % size;
        int src = pof2 ? rank ^ k : (rank - k + size) % size;
        rc = coll_sendrecv_nonempty(sbase + sdispls[dst], sendcounts[dst], sendtypes[dst], dst,
                                    TAG_ALLTOALLW_PAIRWISE, rbase + rdispls[src], recvcounts[src],
                                    recvtypes[src], src, TAG_ALLTOALLW_PAIRWISE, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
