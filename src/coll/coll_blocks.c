/*
 * coll_blocks.c — block addressing (uniform, v, w) and the message patterns shared by the
 * gather, scatter, allgather and alltoall algorithms. Standard MPI calls and libc only.
 *
 * Invariant: every helper issues exactly the MPI calls its header comment lists, in that
 * order, so that an algorithm calling it sends the same messages as when it spelled them out.
 */
#include <stdlib.h>

#include "coll_blocks.h"
#include "coll_util.h"

struct coll_blocks
coll_blocks_uniform(const void *buf, int count, MPI_Datatype type)
{
    struct coll_blocks b = {(char *)buf, count, type, NULL, NULL, NULL};
    return b;
}

struct coll_blocks
coll_blocks_v(const void *buf, const int counts[], const int displs[], MPI_Datatype type)
{
    struct coll_blocks b = {(char *)buf, 0, type, counts, displs, NULL};
    return b;
}

struct coll_blocks
coll_blocks_w(const void *buf, const int counts[], const int displs[], const MPI_Datatype types[])
{
    struct coll_blocks b = {(char *)buf, 0, MPI_DATATYPE_NULL, counts, displs, types};
    return b;
}

void *
coll_block_at(const struct coll_blocks *b, int i)
{
    if (b->types != NULL)
        return b->base + b->displs[i];
    if (b->counts != NULL)
        return coll_item(b->base, b->displs[i], b->type);
    return coll_item(b->base, (MPI_Aint)i * b->count, b->type);
}

int
coll_block_count(const struct coll_blocks *b, int i)
{
    return b->counts != NULL ? b->counts[i] : b->count;
}

MPI_Datatype
coll_block_type(const struct coll_blocks *b, int i)
{
    return b->types != NULL ? b->types[i] : b->type;
}

int
coll_block_is_empty(const struct coll_blocks *b, int i, int *empty)
{
    int rc, tsize;

    *empty = 1;
    if (coll_block_count(b, i) == 0)
        return MPI_SUCCESS;
    rc = MPI_Type_size(coll_block_type(b, i), &tsize);
    if (rc == MPI_SUCCESS)
        *empty = tsize == 0;
    return rc;
}

int
coll_block_copy(const struct coll_blocks *from, int i, const struct coll_blocks *to, int j)
{
    if (from->base == MPI_IN_PLACE || to->base == MPI_IN_PLACE)
        return MPI_SUCCESS;
    return coll_copy_typed(coll_block_at(from, i), coll_block_count(from, i),
                           coll_block_type(from, i), coll_block_at(to, j), coll_block_count(to, j),
                           coll_block_type(to, j));
}

int
coll_rank_size(MPI_Comm comm, int *rank, int *size)
{
    int rc = MPI_Comm_rank(comm, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Comm_size(comm, size);
}


int
coll_block_message(int to_peer, const struct coll_blocks *own, int peer, int tag, MPI_Comm comm)
{
    int rc, empty;

    rc = coll_block_is_empty(own, 0, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    if (to_peer)
        return MPI_Send(own->base, own->count, own->type, peer, tag, comm);
    return MPI_Recv(own->base, own->count, own->type, peer, tag, comm, MPI_STATUS_IGNORE);
}

/* Post the non-blocking send (to_peer) or receive of block i with `peer`, unless it is
 * empty; *nreq counts the requests posted in reqs. */
static int
post_block(int to_peer, const struct coll_blocks *b, int i, int peer, int tag, MPI_Comm comm,
           MPI_Request reqs[], int *nreq)
{
    int rc, empty;

    rc = coll_block_is_empty(b, i, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    if (to_peer)
        rc = MPI_Isend(coll_block_at(b, i), coll_block_count(b, i), coll_block_type(b, i), peer,
                       tag, comm, &reqs[*nreq]);
    else
        rc = MPI_Irecv(coll_block_at(b, i), coll_block_count(b, i), coll_block_type(b, i), peer,
                       tag, comm, &reqs[*nreq]);
    if (rc == MPI_SUCCESS)
        (*nreq)++;
    return rc;
}

/* Complete the nreq posted requests (also after an error: none may leak), free reqs, and
 * return rc, or the wait's error when rc was a success. */
static int
wait_and_free(int rc, int nreq, MPI_Request reqs[])
{
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}

/* *empty = b is uniform and its blocks hold no bytes (v/w blocks are looked at one by one). */
static int
uniform_blocks_empty(const struct coll_blocks *b, int *empty)
{
    *empty = 0;
    if (b->counts != NULL)
        return MPI_SUCCESS;
    return coll_block_is_empty(b, 0, empty);
}

int
coll_allgather_open(const struct coll_blocks *own, const struct coll_blocks *recv, MPI_Comm comm,
                    int *rank, int *size, int *done)
{
    int rc;

    *done = 1;
    rc = coll_rank_size(comm, rank, size);
    if (rc == MPI_SUCCESS)
        rc = coll_block_copy(own, 0, recv, *rank);
    if (rc != MPI_SUCCESS || *size == 1)
        return rc;
    return uniform_blocks_empty(recv, done);
}

int
coll_linear_gather_scatter(int to_root, const struct coll_blocks *blocks,
                           const struct coll_blocks *own, int root, int tag, MPI_Comm comm)
{
    int rc, rank, size, empty, nreq = 0;
    MPI_Request *reqs;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank != root)
        return coll_block_message(to_root, own, root, tag, comm);
    rc = uniform_blocks_empty(blocks, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        if (i != root)
            rc = post_block(!to_root, blocks, i, i, tag, comm, reqs, &nreq);
    }
    if (rc == MPI_SUCCESS)
        rc = to_root ? coll_block_copy(own, 0, blocks, root) : coll_block_copy(blocks, root, own, 0);
    return wait_and_free(rc, nreq, reqs);
}

/* POST_ALL: every receive, then every send, then one wait. */
static int
alltoall_post_all(const struct coll_blocks *send, const struct coll_blocks *recv, int rank,
                  int size, int tag, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, nreq = 0;
    MPI_Request *reqs = malloc(sizeof *reqs * 2 * (size_t)(size - 1));

    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 1; k < size && rc == MPI_SUCCESS; k++)
        rc = post_block(0, recv, (rank + k) % size, (rank + k) % size, tag, comm, reqs, &nreq);
    for (int k = 1; k < size && rc == MPI_SUCCESS; k++)
        rc = post_block(1, send, (rank - k + size) % size, (rank - k + size) % size, tag, comm,
                        reqs, &nreq);
    return wait_and_free(rc, nreq, reqs);
}

int
coll_alltoall_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                     enum coll_alltoall_schedule schedule, int tag, MPI_Comm comm)
{
    int rc, rank, size, empty, xor_partner;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_block_copy(send, rank, recv, rank);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;
    rc = uniform_blocks_empty(recv, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    if (schedule == COLL_ALLTOALL_POST_ALL)
        return alltoall_post_all(send, recv, rank, size, tag, comm);

    xor_partner = schedule == COLL_ALLTOALL_PAIRWISE && (size & (size - 1)) == 0;
    for (int k = 1; k < size; k++) {
        int dst = xor_partner ? rank ^ k : (rank + k) % size;
        int src = xor_partner ? rank ^ k : (rank - k + size) % size;
        rc = coll_sendrecv_nonempty(coll_block_at(send, dst), coll_block_count(send, dst),
                                    coll_block_type(send, dst), dst, tag, coll_block_at(recv, src),
                                    coll_block_count(recv, src), coll_block_type(recv, src), src,
                                    tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
