/*
 * coll_tree.c — trees, segments and tree walks shared by the broadcast and reduce algorithms
 * (see coll_tree.h). Standard MPI calls and libc only.
 */
#include <stdlib.h>

#include "coll.h"
#include "coll_tree.h"
#include "coll_util.h"

int
coll_tree_ranks(MPI_Comm comm, int root, int *rank, int *size, int *relative)
{
    int rc = MPI_Comm_size(comm, size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_rank(comm, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    if (relative != NULL)
        *relative = (*rank - root + *size) % *size;
    return MPI_SUCCESS;
}

int
coll_tree_deliver_result(const void *result, void *recvbuf, int count, MPI_Datatype datatype,
                         int rank, int holder, int root, int tag, MPI_Comm comm)
{
    if (holder != root) {
        if (rank == holder)
            return MPI_Send(result, count, datatype, root, tag, comm);
        if (rank == root)
            return MPI_Recv(recvbuf, count, datatype, holder, tag, comm, MPI_STATUS_IGNORE);
        return MPI_SUCCESS;
    }
    if (rank == root && result != recvbuf)
        return coll_copy(result, recvbuf, count, datatype);
    return MPI_SUCCESS;
}

void
coll_segments_init(struct coll_segments *sg, void *buffer, int count, MPI_Datatype datatype,
                   const struct coll_params *params)
{
    int type_size = 0, items = count;
    MPI_Type_size(datatype, &type_size);
    if (params != NULL && params->segment_bytes > 0 && type_size > 0) {
        items = params->segment_bytes / type_size;
        if (items < 1)
            items = 1;
        if (items > count)
            items = count;
    }
    if (items < 1)
        items = 1; /* count 0: no segment, and no division by zero below */
    sg->buffer = buffer;
    sg->datatype = datatype;
    sg->count = count;
    sg->items = items;
    sg->nsegs = (int)(((long long)count + items - 1) / items);
}

void *
coll_segment_ptr(const struct coll_segments *sg, int s)
{
    return coll_item(sg->buffer, (MPI_Aint)s * sg->items, sg->datatype);
}

int
coll_segment_len(const struct coll_segments *sg, int s)
{
    return s == sg->nsegs - 1 ? sg->count - s * sg->items : sg->items;
}

int
coll_tree_forward_segments(const struct coll_segments *sg, int parent, const int children[],
                           int nchildren, int tag, MPI_Comm comm)
{
    MPI_Request req[2];
    int rc;

    if (parent >= 0 && sg->nsegs > 0) {
        rc = MPI_Irecv(coll_segment_ptr(sg, 0), coll_segment_len(sg, 0), sg->datatype, parent, tag,
                       comm, &req[0]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int s = 0; s < sg->nsegs; s++) {
        if (parent >= 0) {
            if (s + 1 < sg->nsegs) {
                rc = MPI_Irecv(coll_segment_ptr(sg, s + 1), coll_segment_len(sg, s + 1),
                               sg->datatype, parent, tag, comm, &req[(s + 1) % 2]);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
            rc = MPI_Wait(&req[s % 2], MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Send(coll_segment_ptr(sg, s), coll_segment_len(sg, s), sg->datatype,
                          children[c], tag, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

void
coll_knomial_init(struct coll_knomial *node, int relative, int size, long long radix)
{
    long long mask;

    node->relative = relative;
    node->size = size;
    node->radix = radix;
    node->parent = -1;
    for (mask = 1; mask < size; mask *= radix) {
        long long digit = (relative / mask) % radix;
        if (digit != 0) {
            node->parent = (int)(relative - digit * mask);
            break;
        }
    }
    node->span = mask;
    node->mask = mask / radix;
    node->j = 1;
}

int
coll_knomial_next_child(struct coll_knomial *node, long long *child, long long *span)
{
    while (node->mask > 0) {
        if (node->j < node->radix && node->relative + node->j * node->mask < node->size) {
            *child = node->relative + node->j * node->mask;
            if (span != NULL)
                *span = node->mask;
            node->j++;
            return 1;
        }
        node->mask /= node->radix;
        node->j = 1;
    }
    return 0;
}

int
coll_tree_bcast_knomial(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                        long long radix, int tag)
{
    struct coll_knomial node;
    long long child;
    int rc, size, rank, relative;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;
    coll_knomial_init(&node, relative, size, radix);
    if (node.parent >= 0) {
        rc = MPI_Recv(buffer, count, datatype, (node.parent + root) % size, tag, comm,
                      MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    while (coll_knomial_next_child(&node, &child, NULL)) {
        rc = MPI_Send(buffer, count, datatype, (int)((child + root) % size), tag, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* First item of block b (0 <= b <= size). */
static MPI_Aint
block_start(const struct coll_bcast_blocks *bl, long long b)
{
    return (MPI_Aint)(b * bl->base + (b < bl->extra ? b : bl->extra));
}

int
coll_bcast_items(const struct coll_bcast_blocks *bl, long long lo, long long hi)
{
    if (hi > bl->size)
        hi = bl->size;
    if (lo >= hi)
        return 0;
    return (int)(block_start(bl, hi) - block_start(bl, lo));
}

void *
coll_bcast_block(const struct coll_bcast_blocks *bl, long long b)
{
    return coll_item(bl->buffer, block_start(bl, b < bl->size ? b : bl->size), bl->datatype);
}

int
coll_tree_bcast_scatter(void *buffer, int count, MPI_Datatype datatype, int root, int tag,
                        MPI_Comm comm, struct coll_bcast_blocks *bl, int *rank, int *relative)
{
    struct coll_knomial node;
    long long child, span;
    int size, my_rank, rc, n;

    rc = coll_tree_ranks(comm, root, &my_rank, &size, relative);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank != NULL)
        *rank = my_rank;
    *bl = (struct coll_bcast_blocks){buffer, datatype, size, count / size, count % size};
    if (size == 1 || count == 0)
        return MPI_SUCCESS;

    coll_knomial_init(&node, *relative, size, 2);
    if (node.parent >= 0) {
        n = coll_bcast_items(bl, *relative, (long long)*relative + node.span);
        if (n > 0) {
            rc = MPI_Recv(coll_bcast_block(bl, *relative), n, datatype, (node.parent + root) % size,
                          tag, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    while (coll_knomial_next_child(&node, &child, &span)) {
        n = coll_bcast_items(bl, child, child + span);
        if (n > 0) {
            rc = MPI_Send(coll_bcast_block(bl, child), n, datatype, (int)((child + root) % size),
                          tag, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

int
coll_tree_reduce_ranks(MPI_Comm comm, MPI_Op op, int root, int *rank, int *size, int *tree_root,
                       int *relative)
{
    int commutative;
    int rc = coll_tree_ranks(comm, root, rank, size, NULL);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Op_commutative(op, &commutative);
    if (rc != MPI_SUCCESS)
        return rc;
    *tree_root = commutative ? root : 0;
    *relative = (*rank - *tree_root + *size) % *size;
    return MPI_SUCCESS;
}

void
coll_tree_in_order_binary(int rank, int size, int *parent, int *low, int *high)
{
    int lo = 0, hi = size - 1, up = -1;
    for (;;) {
        int nlow = (hi - lo + 1) / 2;
        if (rank == hi) {
            *parent = up;
            *low = nlow > 0 ? lo + nlow - 1 : -1;
            *high = hi - 1 >= lo + nlow ? hi - 1 : -1;
            return;
        }
        up = hi;
        if (rank < lo + nlow) {
            hi = lo + nlow - 1;
        } else {
            lo = lo + nlow;
            hi = hi - 1;
        }
    }
}

int
coll_tree_wait_fold(MPI_Request *req, const void *in, void *acc, int count, MPI_Datatype datatype,
                    MPI_Op op)
{
    int rc = MPI_Wait(req, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    return MPI_Reduce_local(in, acc, count, datatype, op);
}

enum { LOW = 0, HIGH = 1 };

/* A node of coll_tree_reduce_segmented's tree; `top` is the rank without a parent, which ends
 * with the result. */
struct coll_reduce_node {
    int rank, top, parent; /* parent -1 at the top */
    int low, high;         /* children, -1 when absent; a node with children has a low one */
    int tag, result_tag;   /* up the tree; from the top to the root */
};

/* coll_tree_reduce_segmented with more than one rank and count > 0. */
static int
reduce_segmented(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 int root, MPI_Comm comm, const struct coll_params *params,
                 const struct coll_reduce_node *node)
{
    struct coll_segments sg;
    int rc = MPI_SUCCESS, rank = node->rank, child[2] = {node->low, node->high};
    void *mem[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    void *rbuf[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [child][segment parity] */
    void *abuf[2] = {NULL, NULL};
    MPI_Request rreq[2][2] = {{MPI_REQUEST_NULL, MPI_REQUEST_NULL},
                              {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};
    MPI_Request sreq = MPI_REQUEST_NULL;
    MPI_Request *final = NULL;

    coll_segments_init(&sg, recvbuf, count, datatype, params);
    int seg = sg.items, nseg = sg.nsegs;
    int dest = node->parent >= 0 ? node->parent : (rank != root ? root : -1);
    int tag_out = node->parent >= 0 ? node->tag : node->result_tag;
    int internal = child[LOW] >= 0;
    int into_recvbuf = rank == node->top && rank == root;

    /* The root's receives of the finished segments, posted before anything else, so that a
     * rendezvous-sized stream from the top never waits on it. */
    if (rank == root && rank != node->top) {
        final = malloc((size_t)nseg * sizeof *final);
        if (final == NULL)
            return MPI_ERR_NO_MEM;
        for (int s = 0; s < nseg; s++) {
            rc = MPI_Irecv(coll_segment_ptr(&sg, s), coll_segment_len(&sg, s), datatype, node->top,
                           node->result_tag, comm, &final[s]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    if (internal) {
        for (int b = 0; b < 6; b++) {
            void **slot = b < 4 ? &rbuf[b / 2][b % 2] : &abuf[b - 4];
            if ((b < 4 && child[b / 2] < 0) || (b >= 4 && into_recvbuf))
                continue;
            *slot = coll_tmp_alloc(seg, datatype, &mem[b]);
            if (*slot == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
        for (int c = LOW; c <= HIGH; c++) {
            if (child[c] < 0)
                continue;
            rc = MPI_Irecv(rbuf[c][0], seg, datatype, child[c], node->tag, comm, &rreq[c][0]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    for (int s = 0; s < nseg; s++) {
        int off = s * seg, len = coll_segment_len(&sg, s);
        const void *out = coll_citem(sendbuf, off, datatype);
        if (internal) {
            if (s + 1 < nseg) {
                for (int c = LOW; c <= HIGH; c++) {
                    if (child[c] < 0)
                        continue;
                    rc = MPI_Irecv(rbuf[c][(s + 1) & 1], coll_segment_len(&sg, s + 1), datatype,
                                   child[c], node->tag, comm, &rreq[c][(s + 1) & 1]);
                    if (rc != MPI_SUCCESS)
                        goto out_free;
                }
            }
            void *acc = into_recvbuf ? coll_item(recvbuf, off, datatype) : abuf[s & 1];
            rc = coll_copy(out, acc, len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
            /* acc = low ∘ (high ∘ own) on this segment */
            for (int c = HIGH; c >= LOW; c--) {
                if (child[c] < 0)
                    continue;
                rc = coll_tree_wait_fold(&rreq[c][s & 1], rbuf[c][s & 1], acc, len, datatype, op);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            out = acc;
        }
        if (dest >= 0) {
            rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE); /* frees the other accumulation buffer */
            if (rc != MPI_SUCCESS)
                goto out_free;
            rc = MPI_Isend(out, len, datatype, dest, tag_out, comm, &sreq);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }
    rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out_free;
    if (final != NULL)
        rc = MPI_Waitall(nseg, final, MPI_STATUSES_IGNORE);

out_free:
    free(final);
    for (int b = 0; b < 6; b++)
        free(mem[b]);
    return rc;
}

int
coll_tree_reduce_segmented(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params,
                           coll_tree_shape_fn *shape, int tag, int result_tag)
{
    int rank, size, rc = coll_tree_ranks(comm, root, &rank, &size, NULL);

    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return coll_copy(sendbuf, recvbuf, count, datatype);

    struct coll_reduce_node node = {
        .rank = rank, .top = size - 1, .tag = tag, .result_tag = result_tag};
    shape(rank, size, &node.parent, &node.low, &node.high);
    return reduce_segmented(sendbuf, recvbuf, count, datatype, op, root, comm, params, &node);
}

int
coll_tree_reduce_rooted_segmented(const void *sendbuf, void *recvbuf, int count,
                                  MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                  const struct coll_params *params, int parent,
                                  const int children[], int nchildren, int tag)
{
    struct coll_segments sg;
    int rank, size, rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    void **mem = NULL, **rbuf = NULL;
    MPI_Request *rreq = NULL, sreq = MPI_REQUEST_NULL;
    void *amem[2] = {NULL, NULL}, *abuf[2] = {NULL, NULL};

    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return coll_copy(sendbuf, recvbuf, count, datatype);

    coll_segments_init(&sg, recvbuf, count, datatype, params);
    int seg = sg.items, nseg = sg.nsegs;

    /* rbuf[2c + parity], rreq[2c + parity]: child c's segments of that parity */
    if (nchildren > 0) {
        mem = calloc((size_t)(2 * nchildren), sizeof *mem);
        rbuf = calloc((size_t)(2 * nchildren), sizeof *rbuf);
        rreq = malloc((size_t)(2 * nchildren) * sizeof *rreq);
        if (mem == NULL || rbuf == NULL || rreq == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
        for (int b = 0; b < 2 * nchildren; b++) {
            rreq[b] = MPI_REQUEST_NULL;
            rbuf[b] = coll_tmp_alloc(seg, datatype, &mem[b]);
            if (rbuf[b] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
        for (int b = 0; b < 2 && parent >= 0; b++) {
            abuf[b] = coll_tmp_alloc(seg, datatype, &amem[b]);
            if (abuf[b] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Irecv(rbuf[2 * c], coll_segment_len(&sg, 0), datatype, children[c], tag,
                           comm, &rreq[2 * c]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    for (int s = 0; s < nseg; s++) {
        int off = s * seg, len = coll_segment_len(&sg, s), par = s & 1;
        const void *out = coll_citem(sendbuf, off, datatype);
        if (nchildren > 0) {
            if (s + 1 < nseg) {
                for (int c = 0; c < nchildren; c++) {
                    rc = MPI_Irecv(rbuf[2 * c + (par ^ 1)], coll_segment_len(&sg, s + 1), datatype,
                                   children[c], tag, comm, &rreq[2 * c + (par ^ 1)]);
                    if (rc != MPI_SUCCESS)
                        goto out_free;
                }
            }
            void *acc = parent < 0 ? coll_item(recvbuf, off, datatype) : abuf[par];
            rc = coll_copy(out, acc, len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
            for (int c = 0; c < nchildren; c++) {
                rc = coll_tree_wait_fold(&rreq[2 * c + par], rbuf[2 * c + par], acc, len, datatype,
                                         op);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            out = acc;
        } else if (parent < 0) {
            rc = coll_copy(out, coll_item(recvbuf, off, datatype), len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        if (parent >= 0) {
            rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE); /* frees the other accumulation buffer */
            if (rc != MPI_SUCCESS)
                goto out_free;
            rc = MPI_Isend(out, len, datatype, parent, tag, comm, &sreq);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }
    rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);

out_free:
    for (int b = 0; mem != NULL && b < 2 * nchildren; b++)
        free(mem[b]);
    free(mem);
    free(rbuf);
    free(rreq);
    free(amem[0]);
    free(amem[1]);
    return rc;
}
