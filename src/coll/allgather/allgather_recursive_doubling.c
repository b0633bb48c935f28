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
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_RECURSIVE_DOUBLING = 0 };

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

int
coll_allgather_recursive_doubling(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm, const struct coll_params *params)
{
    const int tag = TAG_ALLGATHER_RECURSIVE_DOUBLING;
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, done;

    (void)params;
    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;

    for (int i = 0, mask = 1; mask < size; i++, mask <<= 1) {
        int partner = rank ^ mask;
        int my_root = rank & ~(mask - 1);
        int partner_root = partner & ~(mask - 1);

        /* exchange the groups: mine [my_root, +mask), the partner's [partner_root, +mask) */
        if (partner < size) {
            int mine = min_int(my_root + mask, size) - my_root;
            int theirs = min_int(partner_root + mask, size) - partner_root;
            rc = MPI_Sendrecv(coll_item(recvbuf, (MPI_Aint)my_root * recvcount, recvtype),
                              mine * recvcount, recvtype, partner, tag,
                              coll_item(recvbuf, (MPI_Aint)partner_root * recvcount, recvtype),
                              theirs * recvcount, recvtype, partner, tag, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }

        /*
         * The partner group is cut by p: only the first `completed` ranks of my (lower) group
         * had a partner. They pass the partner group's blocks [first, p) on to the others.
         */
        if (partner_root + mask > size && size - my_root - mask > 0) {
            int completed = size - my_root - mask;
            int first = my_root + mask;
            int nblocks = size - first;
            void *blocks = coll_item(recvbuf, (MPI_Aint)first * recvcount, recvtype);
            for (int k = i, sub = mask >> 1; sub > 0; k--, sub >>= 1) {
                int peer = rank ^ sub;
                int tree_root = (rank >> k) << k;
                if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed) {
                    rc = MPI_Send(blocks, nblocks * recvcount, recvtype, peer, tag, comm);
                } else if (peer < rank && peer < tree_root + completed &&
                           rank >= tree_root + completed) {
                    rc = MPI_Recv(blocks, nblocks * recvcount, recvtype, peer, tag, comm,
                                  MPI_STATUS_IGNORE);
                }
                if (rc != MPI_SUCCESS)
                    return rc;
            }
        }
    }
    return MPI_SUCCESS;
}
