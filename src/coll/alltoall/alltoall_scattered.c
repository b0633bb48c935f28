/*
 * Alltoall: scattered (the linear algorithm in batches).
 *
 * Origin:   MPICH's MPIR_Alltoall_intra_scattered (after Tony Ladd): the sources and destinations
 *           are scattered (rank r starts at r+1 and r-1) so that not every rank sends to the same
 *           one at the same time, and only a batch of bblock receives and sends is posted before
 *           waiting for all of them (collsim's radix is bblock; MPICH's MPIR_CVAR_ALLTOALL_THROTTLE
 *           defaults to 32).
 * Requires: nothing (any number of ranks, any datatypes); radix >= 2 (COLL_RADIX, default 4,
 *           collsim's default radix; MPICH's 32 is radix=32). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) one-port, b the bytes of one block; the transfers of a batch overlap on a
 *           real network: ⌈p/k⌉ waves of up to k transfers in and out of every rank.
 * Steps:    batch ii = 0, k, 2k, …: rank r posts receives from r+ii, … r+ii+k-1 and sends to r-ii,
 *           … r-ii-k+1 (mod p, at most p in all), then one MPI_Waitall. MPICH sends the own block
 *           to itself in the first batch; collsim copies it locally instead. For p = 5, k = 2: rank
 *           0 copies its block and exchanges with 1 and 4, then receives from 2, 3 and sends to 3,
 *           2, then receives from 4 and sends to 1. Blocks of no bytes are not sent or received.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_SCATTERED = 0 };

int
coll_alltoall_scattered_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                               int batch, int tag, MPI_Comm comm)
{
    int rc, rank, size, empty;
    MPI_Request *reqs;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_block_copy(send, rank, recv, rank);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;
    if (recv->counts == NULL) { /* uniform blocks: all empty or none */
        rc = coll_block_is_empty(recv, 0, &empty);
        if (rc != MPI_SUCCESS || empty)
            return rc;
    }
    if (batch > size)
        batch = size;
    reqs = malloc(sizeof *reqs * (size_t)(2 * batch));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;

    for (int ii = 0; ii < size && rc == MPI_SUCCESS; ii += batch) {
        int ss = size - ii < batch ? size - ii : batch, n = 0, wrc;
        for (int i = 0; i < ss && rc == MPI_SUCCESS; i++) {
            int src = (rank + i + ii) % size;
            if (src == rank)
                continue;
            rc = coll_block_is_empty(recv, src, &empty);
            if (rc == MPI_SUCCESS && !empty)
                rc = MPI_Irecv(coll_block_at(recv, src), coll_block_count(recv, src),
                               coll_block_type(recv, src), src, tag, comm, &reqs[n++]);
        }
        for (int i = 0; i < ss && rc == MPI_SUCCESS; i++) {
            int dst = (rank - i - ii + 2 * size) % size;
            if (dst == rank)
                continue;
            rc = coll_block_is_empty(send, dst, &empty);
            if (rc == MPI_SUCCESS && !empty)
                rc = MPI_Isend(coll_block_at(send, dst), coll_block_count(send, dst),
                               coll_block_type(send, dst), dst, tag, comm, &reqs[n++]);
        }
        /* also after an error, so that no request is left behind */
        wrc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}

int
coll_alltoall_scattered(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int batch = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_alltoall_scattered_blocks(&send, &recv, batch, TAG_ALLTOALL_SCATTERED, comm);
}
