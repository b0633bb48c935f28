/*
 * Alltoallv: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's ompi_coll_base_alltoallv_intra_basic_linear; MPICH's
 *           MPIR_Alltoallv_intra_scattered is the same with the requests posted in batches.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ) for equal blocks of b bytes; on a real network the
 *           transfers overlap and share the rank's links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, … r+p-1 and sends
 *           to r-1, … r-p+1 (mod p), non-blocking, then waits for all of them. A block of no
 *           bytes is neither sent nor received (both ends know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLV_LINEAR = 0 };

int
coll_alltoallv_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_v(sendbuf, sendcounts, sdispls, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, rdispls, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_POST_ALL, TAG_ALLTOALLV_LINEAR, comm);
}
