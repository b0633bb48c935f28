/*
 * Allgather: recursive doubling.
 *
 * Origin:   MPICH's MPIR_Allgather_intra_recursive_doubling (Thakur, Rabenseifner & Gropp
 *           2005), including its fix-up for a number of ranks that is not a power of two.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     p = 2^F: Fα + ((p-1)/p)nβ, n the bytes gathered on each rank. Otherwise ⌈lg p⌉
 *           exchange rounds plus the fix-up messages below.
 * Steps:    the blocks stay in rank order in recvbuf. In round i (mask = 2^i) rank r holds the
 *           blocks of its aligned group of 2^i ranks and exchanges them with partner r xor
 *           mask, which holds the neighbouring group: afterwards both hold the 2^(i+1) blocks
 *           of the doubled group. For p = 8, the blocks rank 0 holds: {0} -> {0,1} -> {0..3}
 *           -> {0..7}.
 *
 *           When p is not a power of two, a partner r xor mask >= p does not exist. Then the
 *           lower half-group of 2^i ranks contains some (the first p - root - mask of them)
 *           that did get the upper group's blocks and some that did not; those that did pass
 *           them on inside the half-group along a binomial tree (MPICH's "nprocs_completed"
 *           step), so that after every round each rank holds the blocks of its whole group,
 *           cut at p. For p = 5, round mask = 4: 0 <-> 4 exchange; then 0 -> 2, 0 -> 1, 2 -> 3
 *           pass on block 4.
 *
 * Message sizes are exact (computed from the groups), never taken from a status.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_RECURSIVE_DOUBLING = 0 };

int
coll_allgather_recursive_doubling(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_schedule(sendbuf, sendcount, sendtype, &recv,
                                   COLL_ALLGATHER_RECURSIVE_DOUBLING, TAG_ALLGATHER_RECURSIVE_DOUBLING, comm);
}
