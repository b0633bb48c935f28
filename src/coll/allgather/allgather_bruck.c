/*
 * Allgather: Bruck's dissemination (concatenation) algorithm.
 *
 * Origin:   Bruck, Ho, Kipnis, Upfal & Weathersby 1997; MPICH's MPIR_Allgather_intra_brucks,
 *           Open MPI's ompi_coll_base_allgather_intra_bruck.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ, n the bytes gathered on each rank.
 * Steps:    a scratch buffer holds the blocks rotated so that rank r's own block comes first:
 *           slot j holds block (r+j) mod p. In round k (2^k <= p/2) rank r sends its first 2^k
 *           slots to r - 2^k and receives 2^k slots from r + 2^k after them; a last round
 *           moves the remaining p - 2^⌊lg p⌋ slots the same way. Then slot j is copied to
 *           block (r+j) mod p of recvbuf. For p = 5, rank 0's slots: [0] -> [0 1] -> [0 1 2 3]
 *           -> [0 1 2 3 4].
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_BRUCK = 0 };

int
coll_allgather_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv, COLL_ALLGATHER_BRUCK,
                                   TAG_ALLGATHER_BRUCK, comm);
}
