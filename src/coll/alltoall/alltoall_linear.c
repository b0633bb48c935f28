/*
 * Alltoall: linear (every transfer posted at once, then one wait).
 *
 * Origin:   Open MPI's ompi_coll_base_alltoall_intra_basic_linear; MPICH's
 *           MPIR_Alltoall_intra_scattered is the same with the requests posted in batches.
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     one-port model (p-1)(α + bβ), b the bytes of one block; on a real network the
 *           p-1 transfers in and out of a rank overlap and share its links.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, r+2, … r+p-1 and
 *           sends to r-1, r-2, … r-p+1 (mod p), non-blocking, then waits for all of them. A
 *           call whose blocks have no bytes sends nothing.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_LINEAR = 0 };

int
coll_alltoall_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_alltoall_blocks(&send, &recv, COLL_ALLTOALL_POST_ALL, TAG_ALLTOALL_LINEAR, comm);
}
