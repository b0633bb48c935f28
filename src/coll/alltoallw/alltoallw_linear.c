/*
 * Alltoallw: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's mca_coll_basic_alltoallw_intra (coll/basic) and
 *           MPICH's MPIR_Alltoallw_intra_scattered (which posts in batches).
 * Requires: nothing (any number of ranks, any counts including zeros, any datatypes per peer,
 *           any byte displacements). MPI_IN_PLACE is resolved by the dispatcher (a copy of
 *           recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ) for equal blocks of b bytes; on a real network the
 *           transfers overlap and share the rank's links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, … r+p-1 and sends
 *           to r-1, … r-p+1 (mod p), non-blocking, each with the peer's count, datatype and
 *           byte displacement, then waits for all of them. A block of no bytes is neither
 *           sent nor received (both ends know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALLW_LINEAR = 0 };

int
coll_alltoallw_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                      const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_w(sendbuf, sendcounts, sdispls, sendtypes);
    struct coll_blocks recv = coll_blocks_w(recvbuf, recvcounts, rdispls, recvtypes);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_POST_ALL, TAG_ALLTOALLW_LINEAR, comm);
}
