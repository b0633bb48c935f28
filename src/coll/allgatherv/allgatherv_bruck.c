/*
 * Allgatherv: Bruck's dissemination (concatenation) algorithm.
 *
 * Origin:   Bruck, Ho, Kipnis, Upfal & Weathersby 1997; MPICH's MPIR_Allgatherv_intra_brucks.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 * Steps:    as allgather_bruck.c: a scratch buffer holds the blocks packed in rotated order
 *           (slot j is block (r+j) mod p, slots back to back); round k sends the first 2^k
 *           slots to r - 2^k and receives the next 2^k from r + 2^k, a last round the
 *           remainder; then each slot is copied to displs[(r+j) mod p] of recvbuf. A message
 *           whose blocks have no bytes is not sent (both ends know its size alike).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHERV_BRUCK = 0 };

int
coll_allgatherv_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv, COLL_ALLGATHER_BRUCK,
                                   TAG_ALLGATHERV_BRUCK, comm);
}
