/*
 * Alltoall: pairwise exchange.
 *
 * Origin:   MPICH's MPIR_Alltoall_intra_pairwise (Thakur, Rabenseifner & Gropp 2005): partners
 *           by exclusive or when p is a power of two, else by shifts; Open MPI's
 *           ompi_coll_base_alltoall_intra_pairwise uses the shifts always (collsim's "ring").
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ), b the bytes of one block (what one rank sends one other rank).
 * Steps:    the own block is copied locally; then in step k = 1 … p-1 rank r exchanges one
 *           block with one partner: p a power of two: r xor k (both ways); otherwise it sends
 *           to r+k and receives from r-k. For p = 4, rank 0 meets 1, 2, 3 in turn; for p = 3,
 *           rank 0 sends to 1 and receives from 2, then sends to 2 and receives from 1.
 *           A call whose blocks have no bytes sends nothing.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_PAIRWISE = 0 };

int
coll_alltoall_pairwise(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_PAIRWISE, TAG_ALLTOALL_PAIRWISE, comm);
}
