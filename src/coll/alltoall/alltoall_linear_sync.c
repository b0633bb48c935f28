/*
 * Alltoall: linear with a bounded number of requests in flight.
 *
 * Origin:   Open MPI's ompi_coll_base_alltoall_intra_linear_sync (its max_requests parameter is
 *           collsim's radix): the receives and sends of the linear algorithm, at most k of each
 *           outstanding; each one that completes is replaced by the next of its kind.
 * Requires: nothing (any number of ranks, any datatypes); radix k >= 2 (COLL_RADIX, default
 *           4). MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     (p-1)(α + bβ) one-port, b the bytes of one block; on a real network up to k
 *           transfers in and k out of a rank overlap: about ⌈(p-1)/k⌉ waves of k transfers.
 * Steps:    the own block is copied locally; rank r posts receives from r+1, … r+k and sends to
 *           r-1, … r-k (mod p); then, as MPI_Waitany reports a request done, it posts the next
 *           receive (from r+k+1, …) in a receive's place or the next send (to r-k-1, …) in a
 *           send's place, until all p-1 of each are done. With k >= p-1 everything is posted at
 *           once and one MPI_Waitall ends it (the linear algorithm). For p = 5, k = 2: rank 0
 *           posts receives from 1, 2 and sends to 4, 3; when the receive from 1 is done it
 *           posts the receive from 3, and so on. Blocks of no bytes are not sent or received.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLTOALL_LINEAR_SYNC = 0 };

/* The non-empty peers in posting order: receives from r+1, r+2 …, sends to r-1, r-2 … */
static int
list_peers(const struct coll_blocks *b, int rank, int size, int step, int *peers, int *n)
{
    int rc, empty;

    *n = 0;
    for (int k = 1; k < size; k++) {
        int peer = (rank + step * k + size) % size;
        rc = coll_block_is_empty(b, peer, &empty);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!empty)
            peers[(*n)++] = peer;
    }
    return MPI_SUCCESS;
}

/* Post the receive from, or the send to, `peer` into *req. */
static int
post(const struct coll_blocks *send, const struct coll_blocks *recv, int is_send, int peer, int tag,
     MPI_Comm comm, MPI_Request *req)
{
    if (is_send)
        return MPI_Isend(coll_block_at(send, peer), coll_block_count(send, peer),
                         coll_block_type(send, peer), peer, tag, comm, req);
    return MPI_Irecv(coll_block_at(recv, peer), coll_block_count(recv, peer),
                     coll_block_type(recv, peer), peer, tag, comm, req);
}

int
coll_alltoall_linear_sync_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                                 int max_requests, int tag, MPI_Comm comm)
{
    int rc, wrc, rank, size, nrecv, nsend, window, next_recv, next_send, done, empty;
    int *recv_peers = NULL, *send_peers = NULL;
    MPI_Request *reqs = NULL;

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

    window = max_requests < size - 1 ? max_requests : size - 1;
    recv_peers = malloc(sizeof *recv_peers * (size_t)size);
    send_peers = malloc(sizeof *send_peers * (size_t)size);
    reqs = malloc(sizeof *reqs * (size_t)(2 * window));
    if (recv_peers == NULL || send_peers == NULL || reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = list_peers(recv, rank, size, 1, recv_peers, &nrecv);
    if (rc == MPI_SUCCESS)
        rc = list_peers(send, rank, size, -1, send_peers, &nsend);
    if (rc != MPI_SUCCESS)
        goto out_free;
    for (int i = 0; i < 2 * window; i++)
        reqs[i] = MPI_REQUEST_NULL;

    /* the first wave: up to `window` receives, then up to `window` sends */
    for (next_recv = 0; rc == MPI_SUCCESS && next_recv < nrecv && next_recv < window; next_recv++)
        rc = post(send, recv, 0, recv_peers[next_recv], tag, comm, &reqs[next_recv]);
    for (next_send = 0; rc == MPI_SUCCESS && next_send < nsend && next_send < window; next_send++)
        rc = post(send, recv, 1, send_peers[next_send], tag, comm, &reqs[window + next_send]);
    if (rc != MPI_SUCCESS || (next_recv == nrecv && next_send == nsend))
        goto out_wait;

    /* each completed request makes room for the next one of its kind */
    for (done = 0; done < nrecv + nsend; done++) {
        int index;
        rc = MPI_Waitany(2 * window, reqs, &index, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS || index == MPI_UNDEFINED)
            break;
        if (index < window && next_recv < nrecv)
            rc = post(send, recv, 0, recv_peers[next_recv++], tag, comm, &reqs[index]);
        else if (index >= window && next_send < nsend)
            rc = post(send, recv, 1, send_peers[next_send++], tag, comm, &reqs[index]);
        if (rc != MPI_SUCCESS)
            break;
    }
out_wait:
    /* also after an error, so that no request is left behind */
    wrc = MPI_Waitall(2 * window, reqs, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = wrc;
out_free:
    free(reqs);
    free(send_peers);
    free(recv_peers);
    return rc;
}

int
coll_alltoall_linear_sync(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                          const struct coll_params *params)
{
    struct coll_blocks send = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_alltoall_linear_sync_blocks(&send, &recv, radix, TAG_ALLTOALL_LINEAR_SYNC, comm);
}
