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
        rc = MPI_Irecv(coll_segment_ptr(sg, 0), coll_segment_len(sg, 0), sg->datatype, parent,
                       tag, comm, &req[0]);
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
