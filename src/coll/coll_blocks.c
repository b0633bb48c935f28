/*
 * coll_blocks.c — block addressing (uniform, v, w) and the message patterns shared by the
 * gather, scatter, allgather, alltoall and barrier algorithms (see coll_blocks.h for the
 * list). Standard MPI calls and libc only.
 *
 * Invariant: every helper issues exactly the MPI calls its header comment lists, in that
 * order, so that an algorithm calling it sends the same messages as when it spelled them out.
 * Local calls (MPI_Type_size, MPI_Type_get_extent) may come in another order: they cost no
 * simulated time and move nothing.
 */
#include <limits.h>
#include <stdlib.h>

#include "coll_algos.h"
#include "coll_blocks.h"
#include "coll_node.h"
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

/* One trip of the token around the ring, started by rank 0. */
static int
token_round(int rank, int size, int tag, MPI_Comm comm)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size, rc;

    if (rank != 0) {
        rc = coll_token_recv(left, tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = coll_token_send(right, tag, comm);
    if (rc == MPI_SUCCESS && rank == 0)
        rc = coll_token_recv(left, tag, comm);
    return rc;
}

/* One wave of a linear barrier: towards rank 0 (!out) or from it (out). */
static int
token_linear(int out, int rank, int size, int tag, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;

    if (rank != 0)
        return out ? coll_token_recv(0, tag, comm) : coll_token_send(0, tag, comm);
    for (int r = 1; r < size && rc == MPI_SUCCESS; r++)
        rc = out ? coll_token_send(r, tag, comm) : coll_token_recv(r, tag, comm);
    return rc;
}

/* One wave of coll_token_barrier: in (!out) or out. */
static int
token_wave(enum coll_token_shape shape, int out, int rank, int size, int tag, MPI_Comm comm)
{
    if (shape == COLL_TOKEN_LINEAR)
        return token_linear(out, rank, size, tag, comm);
    if (shape == COLL_TOKEN_BINOMIAL)
        return out ? coll_token_fan_out(comm, rank, size, tag)
                   : coll_token_fan_in(comm, rank, size, tag);
    return token_round(rank, size, tag, comm);
}

int
coll_token_barrier(MPI_Comm comm, enum coll_token_shape shape, int tag_in, int tag_out)
{
    int rank, size, rc;

    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS || size == 1)
        return rc;
    rc = token_wave(shape, 0, rank, size, tag_in, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return token_wave(shape, 1, rank, size, tag_out, comm);
}

int
coll_blocks_permute(const struct coll_blocks *from, const int from_index[],
                    const struct coll_blocks *to, const int to_index[], int n)
{
    int rc = MPI_SUCCESS;
    for (int r = 0; r < n && rc == MPI_SUCCESS; r++) {
        int i = from_index != NULL ? from_index[r] : r, j = to_index != NULL ? to_index[r] : r;
        rc = coll_copy_typed(coll_block_at(from, i), coll_block_count(from, i),
                             coll_block_type(from, i), coll_block_at(to, j),
                             coll_block_count(to, j), coll_block_type(to, j));
    }
    return rc;
}

int
coll_alltoall_bruck_rotate(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *slots, int count, const struct coll_layout *lay, int rank,
                           int size)
{
    int same_blocks = sendtype == lay->dt && sendcount == count;
    int rc = MPI_SUCCESS;
    for (int j = 0; j < size && rc == MPI_SUCCESS; j++) {
        int dst = (rank + j) % size;
        void *slot = coll_at(slots, (MPI_Aint)j * count, lay);
        if (same_blocks)
            rc = coll_copy_laid(coll_at((void *)sendbuf, (MPI_Aint)dst * count, lay), slot, count,
                                lay);
        else
            rc = coll_copy_typed(coll_citem(sendbuf, (MPI_Aint)dst * sendcount, sendtype),
                                 sendcount, sendtype, slot, count, lay->dt);
    }
    return rc;
}

int
coll_alltoall_bruck_unrotate(void *slots, void *recvbuf, int count, const struct coll_layout *lay,
                             int rank, int size)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++)
        rc = coll_copy_laid(coll_at(slots, (MPI_Aint)((rank - i + size) % size) * count, lay),
                            coll_at(recvbuf, (MPI_Aint)i * count, lay), count, lay);
    return rc;
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

static int
slot_block(const struct coll_slots *s, int j, int rank, int size)
{
    return s->rotate ? (rank + j) % size : j;
}

int
coll_slots_open(const struct coll_blocks *own, const struct coll_blocks *recv, int rotate,
                MPI_Comm comm, int *rank, int *size, struct coll_slots *s, int *done)
{
    int rc, tsize, mine;
    void *slot;

    s->rotate = rotate;
    s->start = NULL;
    s->tmp = s->mem = NULL;
    *done = 1;
    *rank = *size = 0; /* what coll_slots_close reads if MPI_Comm_rank/size fail */
    rc = coll_rank_size(comm, rank, size);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_size(recv->type, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    s->start = malloc(sizeof *s->start * (size_t)(*size + 1));
    if (s->start == NULL)
        return MPI_ERR_NO_MEM;
    s->start[0] = 0;
    for (int j = 0; j < *size; j++)
        s->start[j + 1] = s->start[j] + coll_block_count(recv, slot_block(s, j, *rank, *size));
    if (*size == 1 || s->start[*size] == 0 || tsize == 0)
        return coll_block_copy(own, 0, recv, *rank);

    s->tmp = coll_tmp_alloc(s->start[*size], recv->type, &s->mem);
    if (s->tmp == NULL)
        return MPI_ERR_NO_MEM;
    *done = 0;
    mine = coll_block_count(recv, *rank);
    slot = coll_item(s->tmp, s->start[rotate ? 0 : *rank], recv->type);
    if (own->base != MPI_IN_PLACE)
        return coll_copy_typed(own->base, own->count, own->type, slot, mine, recv->type);
    return coll_copy(coll_block_at(recv, *rank), slot, mine, recv->type);
}

int
coll_slots_close(int rc, const struct coll_blocks *own, const struct coll_blocks *recv, int rank,
                 int size, struct coll_slots *s)
{
    for (int j = 0; s->tmp != NULL && rc == MPI_SUCCESS && j < size; j++) {
        int block = slot_block(s, j, rank, size);
        if (block == rank && own->base == MPI_IN_PLACE)
            continue;
        rc = coll_copy(coll_item(s->tmp, s->start[j], recv->type), coll_block_at(recv, block),
                       coll_block_count(recv, block), recv->type);
    }
    free(s->mem);
    free(s->start);
    return rc;
}

int
coll_allgather_bruck_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                            int tag, MPI_Comm comm)
{
    int rc, rank, size, done;
    struct coll_slots s;
    MPI_Datatype type = recv->type;

    rc = coll_slots_open(own, recv, 1, comm, &rank, &size, &s, &done);
    for (int have = 1; have < size && rc == MPI_SUCCESS && !done;) {
        int n = have <= size - have ? have : size - have;
        int dst = (rank - have + size) % size;
        int src = (rank + have) % size;
        rc = coll_sendrecv_nonempty(s.tmp, s.start[n], type, dst, tag,
                                    coll_item(s.tmp, s.start[have], type),
                                    s.start[have + n] - s.start[have], type, src, tag, comm);
        have += n;
    }
    return coll_slots_close(rc, own, recv, rank, size, &s);
}

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

/* Where block b begins in coll_allgather_rd_rounds' buffer, in items. */
static MPI_Aint
rd_offset(const int start[], int count, int b)
{
    return start != NULL ? start[b] : (MPI_Aint)b * count;
}

/*
 * The partner group of round `mask` (= 2^round) is cut by p: only the first `completed` ranks
 * of my (lower) group had a partner. They pass the partner group's blocks [first, p) on to
 * the others along a binomial tree inside the group (MPICH's "nprocs_completed" step).
 */
static int
rd_fix_up(void *buf, const int start[], int count, MPI_Datatype type, int rank, int size,
          int round, int mask, int tag, MPI_Comm comm)
{
    int my_root = rank & ~(mask - 1);
    int completed = size - my_root - mask;
    int first = my_root + mask;
    int items = (int)(rd_offset(start, count, size) - rd_offset(start, count, first));
    void *blocks = coll_item(buf, rd_offset(start, count, first), type);
    int rc = MPI_SUCCESS;

    if (items == 0)
        return MPI_SUCCESS;
    for (int k = round, sub = mask >> 1; sub > 0 && rc == MPI_SUCCESS; k--, sub >>= 1) {
        int peer = rank ^ sub;
        int tree_root = (rank >> k) << k;
        if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed)
            rc = MPI_Send(blocks, items, type, peer, tag, comm);
        else if (peer < rank && peer < tree_root + completed && rank >= tree_root + completed)
            rc = MPI_Recv(blocks, items, type, peer, tag, comm, MPI_STATUS_IGNORE);
    }
    return rc;
}

int
coll_allgather_rd_rounds(void *buf, const int start[], int count, MPI_Datatype type, int rank,
                         int size, int tag, MPI_Comm comm)
{
    int rc;

    for (int i = 0, mask = 1; mask < size; i++, mask <<= 1) {
        int partner = rank ^ mask;
        int my_root = rank & ~(mask - 1);
        int partner_root = partner & ~(mask - 1);

        /* exchange the groups: mine [my_root, +mask), the partner's [partner_root, +mask) */
        if (partner < size) {
            MPI_Aint my_at = rd_offset(start, count, my_root);
            MPI_Aint partner_at = rd_offset(start, count, partner_root);
            int mine = (int)(rd_offset(start, count, min_int(my_root + mask, size)) - my_at);
            int theirs =
                (int)(rd_offset(start, count, min_int(partner_root + mask, size)) - partner_at);
            rc = coll_sendrecv_nonempty(coll_item(buf, my_at, type), mine, type, partner, tag,
                                        coll_item(buf, partner_at, type), theirs, type, partner,
                                        tag, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        if (partner_root + mask > size && size - my_root - mask > 0) {
            rc = rd_fix_up(buf, start, count, type, rank, size, i, mask, tag, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

int
coll_allgather_ring_blocks(const struct coll_blocks *recv, int rank, int size, int tag,
                           MPI_Comm comm)
{
    int left = (rank - 1 + size) % size, right = (rank + 1) % size;

    for (int k = 0; k < size - 1; k++) {
        int sblock = (rank - k + size) % size;
        int rblock = (rank - k - 1 + size) % size;
        int rc = coll_sendrecv_nonempty(
            coll_block_at(recv, sblock), coll_block_count(recv, sblock), recv->type, right, tag,
            coll_block_at(recv, rblock), coll_block_count(recv, rblock), recv->type, left, tag,
            comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Blocks b and b+1 of `recv` as one message: *buf, *count items of *type. A v pair is a new
 * committed indexed type (*made = 1) that the caller frees. */
static int
block_pair(const struct coll_blocks *recv, int b, void **buf, int *count, MPI_Datatype *type,
           int *made)
{
    int lengths[2], places[2], rc;

    *made = 0;
    if (recv->counts == NULL) {
        *buf = coll_block_at(recv, b);
        *count = 2 * recv->count;
        *type = recv->type;
        return MPI_SUCCESS;
    }
    lengths[0] = recv->counts[b];
    lengths[1] = recv->counts[b + 1];
    places[0] = recv->displs[b];
    places[1] = recv->displs[b + 1];
    *buf = recv->base;
    *count = 1;
    rc = MPI_Type_indexed(2, lengths, places, recv->type, type);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_commit(type);
    if (rc != MPI_SUCCESS)
        MPI_Type_free(type);
    *made = rc == MPI_SUCCESS;
    return rc;
}

int
coll_allgather_neighbor_exchange_blocks(const struct coll_blocks *recv, int rank, int size,
                                        int tag, MPI_Comm comm)
{
    int rc, neighbor[2], recv_from[2], offset[2], send_from;

    if (rank % 2 == 0) {
        neighbor[0] = (rank + 1) % size;
        neighbor[1] = (rank - 1 + size) % size;
        recv_from[0] = recv_from[1] = rank;
        offset[0] = 2;
        offset[1] = -2;
    } else {
        neighbor[0] = (rank - 1 + size) % size;
        neighbor[1] = (rank + 1) % size;
        recv_from[0] = recv_from[1] = neighbor[0];
        offset[0] = -2;
        offset[1] = 2;
    }

    /* step 0: one block with neighbor[0] */
    rc = coll_sendrecv_nonempty(coll_block_at(recv, rank), coll_block_count(recv, rank),
                                recv->type, neighbor[0], tag, coll_block_at(recv, neighbor[0]),
                                coll_block_count(recv, neighbor[0]), recv->type, neighbor[0], tag,
                                comm);
    if (rc != MPI_SUCCESS)
        return rc;

    /* steps 1 … p/2-1: pairs, forwarding what came in the step before */
    send_from = rank % 2 == 0 ? rank : recv_from[0];
    for (int i = 1; i < size / 2; i++) {
        int parity = i % 2, scount, rcount, smade, rmade;
        void *sbuf, *rbuf;
        MPI_Datatype stype, rtype;
        recv_from[parity] = (recv_from[parity] + offset[parity] + size) % size;
        rc = block_pair(recv, send_from, &sbuf, &scount, &stype, &smade);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = block_pair(recv, recv_from[parity], &rbuf, &rcount, &rtype, &rmade);
        if (rc == MPI_SUCCESS)
            rc = coll_sendrecv_nonempty(sbuf, scount, stype, neighbor[parity], tag, rbuf, rcount,
                                        rtype, neighbor[parity], tag, comm);
        if (rmade)
            MPI_Type_free(&rtype);
        if (smade)
            MPI_Type_free(&stype);
        if (rc != MPI_SUCCESS)
            return rc;
        send_from = recv_from[parity];
    }
    return MPI_SUCCESS;
}

int
coll_allgather_schedule(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                        const struct coll_blocks *recv, enum coll_allgather_schedule schedule,
                        int tag, MPI_Comm comm)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_slots slots;
    int rc, rank, size, done;

    if (schedule == COLL_ALLGATHER_BRUCK)
        return coll_allgather_bruck_blocks(&own, recv, tag, comm);
    if (schedule == COLL_ALLGATHER_RECURSIVE_DOUBLING && recv->counts != NULL) {
        /* v blocks: in rank order in a scratch buffer, then copied to their displacements */
        rc = coll_slots_open(&own, recv, 0, comm, &rank, &size, &slots, &done);
        if (rc == MPI_SUCCESS && !done)
            rc = coll_allgather_rd_rounds(slots.tmp, slots.start, 0, recv->type, rank, size,
                                          tag, comm);
        return coll_slots_close(rc, &own, recv, rank, size, &slots);
    }
    rc = coll_allgather_open(&own, recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    if (schedule == COLL_ALLGATHER_RING)
        return coll_allgather_ring_blocks(recv, rank, size, tag, comm);
    if (schedule == COLL_ALLGATHER_NEIGHBOR_EXCHANGE)
        return coll_allgather_neighbor_exchange_blocks(recv, rank, size, tag, comm);
    /* uniform blocks stay in place in recv */
    return coll_allgather_rd_rounds(recv->base, NULL, recv->count, recv->type, rank, size, tag,
                                    comm);
}

int
coll_type_size_extent(MPI_Datatype type, int *tsize, MPI_Aint *extent)
{
    MPI_Aint lb;
    int rc = MPI_Type_size(type, tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Type_get_extent(type, &lb, extent);
}

long long
coll_subtree_bytes(const int counts[], int tsize, int child, int blocks, int size, int sizes[])
{
    long long total = 0;

    for (int j = 0; j < blocks; j++) {
        long long bytes = (long long)counts[(child + j) % size] * tsize;
        total += bytes;
        if (sizes != NULL)
            sizes[j] = bytes > INT_MAX ? -1 : (int)bytes;
    }
    return total;
}

int
coll_binomial_place(MPI_Comm comm, int root, struct coll_binomial *t)
{
    int rc = coll_rank_size(comm, &t->rank, &t->size);
    if (rc != MPI_SUCCESS)
        return rc;
    t->relative = (t->rank - root + t->size) % t->size;
    t->lowbit = t->relative & -t->relative;
    t->subtree = coll_subtree_ranks(t->relative, t->lowbit, t->size);
    t->parent = (t->rank - t->lowbit + t->size) % t->size;
    return MPI_SUCCESS;
}

int
coll_subtree_ranks(int head, int mask, int size)
{
    return mask < size - head ? mask : size - head;
}

/*
 * The root's message with the subtree of `nblocks` ranks from rank `first` on: straight from
 * or to `blocks` when they are consecutive there, else packed (`bytes` in all) in two pieces,
 * [first, p) and [0, …).
 */
static int
root_subtree_message(int to_root, const struct coll_blocks *blocks, int first, int nblocks,
                     int size, int bytes, int tag, MPI_Comm comm)
{
    int rc, position = 0, tail = size - first;
    char *packed;

    if (first + nblocks <= size) {
        if (to_root)
            return MPI_Recv(coll_block_at(blocks, first), nblocks * blocks->count, blocks->type,
                            first, tag, comm, MPI_STATUS_IGNORE);
        return MPI_Send(coll_block_at(blocks, first), nblocks * blocks->count, blocks->type,
                        first, tag, comm);
    }
    packed = malloc((size_t)bytes);
    if (packed == NULL)
        return MPI_ERR_NO_MEM;
    if (to_root) {
        rc = MPI_Recv(packed, bytes, MPI_PACKED, first, tag, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Unpack(packed, bytes, &position, coll_block_at(blocks, first),
                            tail * blocks->count, blocks->type, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Unpack(packed, bytes, &position, coll_block_at(blocks, 0),
                            (nblocks - tail) * blocks->count, blocks->type, comm);
    } else {
        rc = MPI_Pack(coll_block_at(blocks, first), tail * blocks->count, blocks->type, packed,
                      bytes, &position, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Pack(coll_block_at(blocks, 0), (nblocks - tail) * blocks->count,
                          blocks->type, packed, bytes, &position, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(packed, bytes, MPI_PACKED, first, tag, comm);
    }
    free(packed);
    return rc;
}

/* The root of coll_binomial_gather_scatter. */
static int
binomial_root(int to_root, const struct coll_blocks *blocks, const struct coll_blocks *own,
              int root, int size, long long nbytes, int tag, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, top;

    if (to_root) {
        rc = coll_block_copy(own, 0, blocks, root);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (top = 1; top < size; top <<= 1)
        ;
    for (int step = 1; step < top && rc == MPI_SUCCESS; step <<= 1) {
        int mask = to_root ? step : top / 2 / step; /* gather nearest first, scatter farthest */
        int nblocks = coll_subtree_ranks(mask, mask, size);
        rc = root_subtree_message(to_root, blocks, (root + mask) % size, nblocks, size,
                                  (int)(nblocks * nbytes), tag, comm);
    }
    if (rc == MPI_SUCCESS && !to_root)
        rc = coll_block_copy(blocks, root, own, 0);
    return rc;
}

int
coll_binomial_gather_scatter(int to_root, const struct coll_blocks *blocks,
                             const struct coll_blocks *own, int root, int tag, MPI_Comm comm)
{
    struct coll_binomial t;
    const struct coll_blocks *known;
    int rc, tsize, position = 0;
    long long nbytes;
    char *packed;

    rc = coll_binomial_place(comm, root, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    known = t.rank == root ? blocks : own; /* the other side's type is not significant here */
    rc = MPI_Type_size(known->type, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    nbytes = (long long)tsize * known->count;
    if (nbytes == 0)
        return MPI_SUCCESS; /* every block is empty: nothing to move */
    if (nbytes * t.size > INT_MAX)
        return MPI_ERR_COUNT; /* a packed message's byte count must fit an int */
    if (t.rank == root)
        return binomial_root(to_root, blocks, own, root, t.size, nbytes, tag, comm);
    if (t.subtree == 1)
        return coll_block_message(to_root, own, t.parent, tag, comm);

    /* In the middle: the subtree's blocks packed, own block first. */
    packed = malloc((size_t)(t.subtree * nbytes));
    if (packed == NULL)
        return MPI_ERR_NO_MEM;
    if (to_root)
        rc = MPI_Pack(own->base, own->count, own->type, packed, (int)nbytes, &position, comm);
    else
        rc = MPI_Recv(packed, (int)(t.subtree * nbytes), MPI_PACKED, t.parent, tag, comm,
                      MPI_STATUS_IGNORE);
    for (int step = 1; step < t.lowbit && rc == MPI_SUCCESS; step <<= 1) {
        int mask = to_root ? step : t.lowbit / 2 / step; /* as at the root */
        int child = (t.rank + mask) % t.size;
        void *slice = packed + mask * nbytes;
        int bytes;
        if (t.relative + mask >= t.size)
            continue;
        bytes = (int)(coll_subtree_ranks(t.relative + mask, mask, t.size) * nbytes);
        if (to_root)
            rc = MPI_Recv(slice, bytes, MPI_PACKED, child, tag, comm, MPI_STATUS_IGNORE);
        else
            rc = MPI_Send(slice, bytes, MPI_PACKED, child, tag, comm);
    }
    if (rc == MPI_SUCCESS && to_root)
        rc = MPI_Send(packed, (int)(t.subtree * nbytes), MPI_PACKED, t.parent, tag, comm);
    else if (rc == MPI_SUCCESS)
        rc = MPI_Unpack(packed, (int)nbytes, &position, own->base, own->count, own->type, comm);
    free(packed);
    return rc;
}

int
coll_token_send(int peer, int tag, MPI_Comm comm)
{
    return MPI_Send(NULL, 0, MPI_BYTE, peer, tag, comm);
}

int
coll_token_recv(int peer, int tag, MPI_Comm comm)
{
    return MPI_Recv(NULL, 0, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
}

/*
 * The binomial fan-in (!out) or fan-out (out) of coll_token_fan_in/out. lowbit is the lowest
 * set bit of rank (for rank 0 the first power of two >= size): the parent is rank - lowbit,
 * the children rank + m for m < lowbit, rank + m < size.
 */
static int
token_tree(int out, MPI_Comm comm, int rank, int size, int tag)
{
    int lowbit = 1, rc = MPI_SUCCESS;

    while (lowbit < size && !(rank & lowbit))
        lowbit <<= 1;
    if (out && rank != 0)
        rc = coll_token_recv(rank - lowbit, tag, comm);
    if (out) {
        for (int m = lowbit >> 1; m > 0 && rc == MPI_SUCCESS; m >>= 1)
            if (rank + m < size)
                rc = coll_token_send(rank + m, tag, comm);
        return rc;
    }
    for (int m = 1; m < lowbit && rc == MPI_SUCCESS; m <<= 1)
        if (rank + m < size)
            rc = coll_token_recv(rank + m, tag, comm);
    if (rc == MPI_SUCCESS && rank != 0)
        rc = coll_token_send(rank - lowbit, tag, comm);
    return rc;
}

int
coll_token_fan_in(MPI_Comm comm, int rank, int size, int tag)
{
    return token_tree(0, comm, rank, size, tag);
}

int
coll_token_fan_out(MPI_Comm comm, int rank, int size, int tag)
{
    return token_tree(1, comm, rank, size, tag);
}

int
coll_node_order_copy(const struct coll_node_layout *layout, int to_rank_order, const void *from,
                     int from_count, MPI_Datatype from_type, void *to, int to_count,
                     MPI_Datatype to_type)
{
    int *position = coll_node_positions(layout);
    if (position == NULL)
        return MPI_ERR_NO_MEM;
    struct coll_blocks f = coll_blocks_uniform(from, from_count, from_type);
    struct coll_blocks t = coll_blocks_uniform(to, to_count, to_type);
    int rc = coll_blocks_permute(&f, to_rank_order ? position : NULL, &t,
                                 to_rank_order ? NULL : position, layout->size);
    free(position);
    return rc;
}

int
coll_node_leaders_gather_scatter(int to_root, const struct coll_node_layout *layout, void *all,
                                 void *nodebuf, int count, MPI_Datatype type, int root_node,
                                 const struct coll_params *params)
{
    int *counts, *displs;
    int rc = coll_node_blocks(layout, count, &counts, &displs);
    if (rc != MPI_SUCCESS)
        return rc;
    if (to_root)
        rc = coll_gatherv_binomial(nodebuf, layout->node_size * count, type, all, counts,
                                   displs, type, root_node, layout->leaders, params);
    else
        rc = coll_scatterv_binomial(all, counts, displs, type, nodebuf,
                                    layout->node_size * count, type, root_node,
                                    layout->leaders, params);
    free(counts);
    return rc;
}
