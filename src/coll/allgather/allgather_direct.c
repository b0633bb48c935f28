/*
 * Allgather: direct (every send and every receive posted at once).
 *
 * Origin:   Open MPI's ompi_coll_base_allgather_direct_messaging and SMPI's allgather
 *           "spreading_simple" (src/smpi/colls/allgather/allgather-spreading-simple.cpp): each
 *           rank posts a receive from every other rank and a send of its block to every other
 *           rank, then waits for all of them.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     (p-1)α + (p-1)nβ on a one-port model (n the bytes of one block); the p-1 messages
 *           of a rank leave back to back, so their latencies overlap: α + (p-1)nβ.
 * Steps:    each rank copies its own block into place, then for i = 1 … p-1 posts a receive
 *           from r-i (into that rank's place) and a send of its own block to r+i, then one
 *           MPI_Waitall. For p = 4, rank 0 receives from 3, 2, 1 and sends to 1, 2, 3.
 *
 * coll_allgather_direct_blocks serves allgatherv too (an empty block is neither sent nor
 * received: both ends know its size).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_DIRECT = 0 };

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
coll_allgather_direct_blocks(const struct coll_blocks *own, const struct coll_blocks *recv, int tag,
                             MPI_Comm comm)
{
    int rc, rank, size, done, nreq = 0;
    MPI_Request *reqs;

    rc = coll_allgather_open(own, recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    reqs = malloc(sizeof *reqs * 2 * (size_t)(size - 1));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 1; i < size && rc == MPI_SUCCESS; i++) {
        int from = (rank - i + size) % size, to = (rank + i) % size;
        rc = post(0, recv, from, from, tag, comm, reqs, &nreq);
        if (rc == MPI_SUCCESS)
            rc = post(1, recv, rank, to, tag, comm, reqs, &nreq);
    }
    /* even after an error: no request may leak */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}

int
coll_allgather_direct(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    (void)params;
    return coll_allgather_direct_blocks(&own, &recv, TAG_ALLGATHER_DIRECT, comm);
}
