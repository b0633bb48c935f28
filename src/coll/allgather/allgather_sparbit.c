/*
 * Allgather: Sparbit (sparse binomial-tree distribution, largest distance first).
 *
 * Origin:   Loch & Koslovski, "Sparbit: a new logarithmic-cost and data locality-aware MPI
 *           Allgather algorithm" (2021); Open MPI 5's ompi_coll_base_allgather_intra_sparbit
 *           and ompi_coll_base_allgatherv_intra_sparbit.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     p-1 messages per rank (every block its own) in ⌈lg p⌉ rounds: (p-1)(α + nβ) on
 *           a one-port model, n the bytes of one block; ⌈lg p⌉α + (p-1)nβ where the messages
 *           of a round leave back to back and their latencies overlap.
 * Steps:    L = ⌈lg p⌉ rounds with distance d = 2^(L-1), 2^(L-2), … 1. A rank holding h
 *           blocks (h = 1 at first: its own) sends, in round d, the blocks r, r-2d, r-4d, …
 *           (h of them, mod p) to r+d and receives r-d, r-3d, … from r-d, each block straight
 *           into its place, one message per block, all posted and then waited for; then
 *           h doubles. Where p is not a power of two some blocks would arrive twice: a round
 *           whose distance is p's lowest set bit, or a bit above it that is clear in p, sends
 *           one block fewer, and h grows to 2h-1 (Open MPI's "ignore_steps" mask). For p = 3
 *           (L = 2): d = 2: r -> r+2 block r;
 *           d = 1 (one fewer): r -> r+1 block r; every rank then holds r, r-2, r-1.
 *
 * coll_allgather_sparbit_blocks serves allgatherv too (an empty block is neither sent nor
 * received: both ends know its size). One tag serves every message: MPI's non-overtaking
 * order matches the t-th send of a round to the t-th receive, which name the same block.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_SPARBIT = 0 };

/* Post the receive (to_peer == 0) or the send of block `block` of `recv` with `peer`, unless
 * it holds no bytes; *nreq counts the requests posted. */
static int
post(int to_peer, const struct coll_blocks *recv, int block, int peer, int tag, MPI_Comm comm,
     MPI_Request reqs[], int *nreq)
{
    int rc, empty;

    rc = coll_block_is_empty(recv, block, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    if (to_peer)
        rc = MPI_Isend(coll_block_at(recv, block), coll_block_count(recv, block), recv->type, peer,
                       tag, comm, &reqs[*nreq]);
    else
        rc = MPI_Irecv(coll_block_at(recv, block), coll_block_count(recv, block), recv->type, peer,
                       tag, comm, &reqs[*nreq]);
    if (rc == MPI_SUCCESS)
        (*nreq)++;
    return rc;
}

int
coll_allgather_sparbit_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                              int tag, MPI_Comm comm)
{
    int rc, rank, size, done, rounds = 0, low = 0;
    unsigned ignore;
    long long distance;
    MPI_Request *reqs;

    rc = coll_allgather_open(own, recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    while ((1LL << rounds) < size)
        rounds++;
    while (((unsigned)size >> low & 1u) == 0)
        low++;
    /* the distances whose sends would repeat a block: bits clear in p at or above its lowest
     * set bit, plus that bit's position itself */
    ignore = (~((unsigned)size >> low) | 1u) << low;
    reqs = malloc(sizeof *reqs * 2 * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;

    distance = 1LL << (rounds - 1);
    for (int i = 0, expected = 1; i < rounds && rc == MPI_SUCCESS; i++, distance >>= 1) {
        int d = (int)distance, nreq = 0;
        int to = (rank + d) % size, from = (rank - d + size) % size;
        int exclusion = ((unsigned)d & ignore) == (unsigned)d;
        for (int t = 0; t < expected - exclusion && rc == MPI_SUCCESS; t++) {
            int sblock = (int)((rank - 2LL * t * d % size + 2LL * size) % size);
            int rblock = (int)((rank - (2LL * t + 1) * d % size + 2LL * size) % size);
            rc = post(1, recv, sblock, to, tag, comm, reqs, &nreq);
            if (rc == MPI_SUCCESS)
                rc = post(0, recv, rblock, from, tag, comm, reqs, &nreq);
        }
        if (nreq > 0) {
            int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = wrc;
        }
        expected = 2 * expected - exclusion;
    }
    free(reqs);
    return rc;
}

int
coll_allgather_sparbit(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_sparbit_blocks(&own, &recv, TAG_ALLGATHER_SPARBIT, comm);
}
