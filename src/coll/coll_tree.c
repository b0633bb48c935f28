/*
 * coll_tree.c — trees, segments and tree walks shared by the broadcast and reduce algorithms
 * (see coll_tree.h). Standard MPI calls and libc only.
 */
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
block_start(const struct coll_blocks *bl, long long b)
{
    return (MPI_Aint)(b * bl->base + (b < bl->extra ? b : bl->extra));
}

int
coll_blocks_items(const struct coll_blocks *bl, long long lo, long long hi)
{
    if (hi > bl->size)
        hi = bl->size;
    if (lo >= hi)
        return 0;
    return (int)(block_start(bl, hi) - block_start(bl, lo));
}

void *
coll_blocks_ptr(const struct coll_blocks *bl, long long b)
{
    return coll_item(bl->buffer, block_start(bl, b < bl->size ? b : bl->size), bl->datatype);
}

int
coll_tree_bcast_scatter(void *buffer, int count, MPI_Datatype datatype, int root, int tag,
                        MPI_Comm comm, struct coll_blocks *bl, int *rank, int *relative)
{
    struct coll_knomial node;
    long long child, span;
    int size, my_rank, rc, n;

    rc = coll_tree_ranks(comm, root, &my_rank, &size, relative);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank != NULL)
        *rank = my_rank;
    *bl = (struct coll_blocks){buffer, datatype, size, count / size, count % size};
    if (size == 1 || count == 0)
        return MPI_SUCCESS;

    coll_knomial_init(&node, *relative, size, 2);
    if (node.parent >= 0) {
        n = coll_blocks_items(bl, *relative, (long long)*relative + node.span);
        if (n > 0) {
            rc = MPI_Recv(coll_blocks_ptr(bl, *relative), n, datatype, (node.parent + root) % size,
                          tag, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    while (coll_knomial_next_child(&node, &child, &span)) {
        n = coll_blocks_items(bl, child, child + span);
        if (n > 0) {
            rc = MPI_Send(coll_blocks_ptr(bl, child), n, datatype, (int)((child + root) % size),
                          tag, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}
