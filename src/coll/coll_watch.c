/*
 * coll_watch.c — a nonblocking collective's buffers on the calling rank (coll_watch.h).
 */
#include "coll/coll_watch.h"

#include "comm.h"
#include "datatype.h"

struct span_list {
    struct collsim_span *at;
    int n;
};

/* Add bytes at buf; merged into the last span when it continues it. A span past the room is
 * left out (the watch is then partial, never wrong). */
static void
add_span(struct span_list *list, const void *buf, size_t bytes, int writes)
{
    if (bytes == 0 || buf == NULL || buf == MPI_IN_PLACE)
        return;
    if (list->n > 0) {
        struct collsim_span *last = &list->at[list->n - 1];
        if (last->writes == writes && (const char *)last->buf + last->bytes == (const char *)buf) {
            last->bytes += bytes;
            return;
        }
    }
    if (list->n < COLLSIM_WATCHED_SPANS)
        list->at[list->n++] = (struct collsim_span){buf, bytes, writes};
}

/* count items of dt at buf, when dt has no holes. */
static void
add_items(struct span_list *list, const void *buf, MPI_Aint count, MPI_Datatype dt, int writes)
{
    if (count > 0 && collsim_datatype_is_contiguous(dt))
        add_span(list, buf, (size_t)count * dt->size, writes);
}

/* A vector form's blocks: counts[i] items of dt at displs[i] extents from buf, in rank order. */
static void
add_blocks(struct span_list *list, const void *buf, const int counts[], const int displs[],
           MPI_Datatype dt, int size, int writes)
{
    if (buf == NULL || buf == MPI_IN_PLACE || !collsim_datatype_is_contiguous(dt))
        return;
    MPI_Aint extent = collsim_datatype_extent(dt);
    for (int i = 0; i < size; i++)
        add_items(list, (const char *)buf + (MPI_Aint)displs[i] * extent, counts[i], dt, writes);
}

/* The send side: sendbuf's items, or, under MPI_IN_PLACE, nothing (the receive side holds
 * the data and is watched as written). */
static void
add_send(struct span_list *list, const struct coll_args *a, MPI_Aint count, MPI_Datatype dt)
{
    if (a->sendbuf != MPI_IN_PLACE)
        add_items(list, a->sendbuf, count, dt, 0);
}

int
coll_watch_spans(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm,
                 struct collsim_span *spans)
{
    struct span_list list = {spans, 0};
    int size = collsim_comm_size(comm);
    int me = collsim_comm_my_rank(comm);
    int root = me == a->root;
    switch (kind) {
    case COLL_BARRIER:
        break;
    case COLL_BCAST:
        add_items(&list, a->buffer, a->count, a->datatype, !root);
        break;
    case COLL_REDUCE:
        add_send(&list, a, a->count, a->datatype);
        if (root)
            add_items(&list, a->recvbuf, a->count, a->datatype, 1);
        break;
    case COLL_ALLREDUCE:
    case COLL_SCAN:
    case COLL_EXSCAN:
        add_send(&list, a, a->count, a->datatype);
        add_items(&list, a->recvbuf, a->count, a->datatype, 1);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        add_send(&list, a, (MPI_Aint)a->recvcount * size, a->datatype);
        add_items(&list, a->recvbuf, (MPI_Aint)a->recvcount * (a->sendbuf == MPI_IN_PLACE ? size : 1),
                  a->datatype, 1);
        break;
    case COLL_REDUCE_SCATTER: {
        MPI_Aint total = 0;
        for (int i = 0; i < size; i++)
            total += a->recvcounts[i];
        add_send(&list, a, total, a->datatype);
        add_items(&list, a->recvbuf, a->sendbuf == MPI_IN_PLACE ? total : a->recvcounts[me],
                  a->datatype, 1);
        break;
    }
    case COLL_GATHER:
        if (!(root && a->sendbuf == MPI_IN_PLACE))
            add_items(&list, a->sendbuf, a->sendcount, a->sendtype, 0);
        if (root)
            add_items(&list, a->recvbuf, (MPI_Aint)a->recvcount * size, a->recvtype, 1);
        break;
    case COLL_GATHERV:
        if (!(root && a->sendbuf == MPI_IN_PLACE))
            add_items(&list, a->sendbuf, a->sendcount, a->sendtype, 0);
        if (root)
            add_blocks(&list, a->recvbuf, a->recvcounts, a->rdispls, a->recvtype, size, 1);
        break;
    case COLL_SCATTER:
        if (root)
            add_items(&list, a->sendbuf, (MPI_Aint)a->sendcount * size, a->sendtype, 0);
        add_items(&list, a->recvbuf, a->recvcount, a->recvtype, 1);
        break;
    case COLL_SCATTERV:
        if (root)
            add_blocks(&list, a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, size, 0);
        add_items(&list, a->recvbuf, a->recvcount, a->recvtype, 1);
        break;
    case COLL_ALLGATHER:
        add_send(&list, a, a->sendcount, a->sendtype);
        add_items(&list, a->recvbuf, (MPI_Aint)a->recvcount * size, a->recvtype, 1);
        break;
    case COLL_ALLGATHERV:
        add_send(&list, a, a->sendcount, a->sendtype);
        add_blocks(&list, a->recvbuf, a->recvcounts, a->rdispls, a->recvtype, size, 1);
        break;
    case COLL_ALLTOALL:
        add_send(&list, a, (MPI_Aint)a->sendcount * size, a->sendtype);
        add_items(&list, a->recvbuf, (MPI_Aint)a->recvcount * size, a->recvtype, 1);
        break;
    case COLL_ALLTOALLV:
        if (a->sendbuf != MPI_IN_PLACE)
            add_blocks(&list, a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, size, 0);
        add_blocks(&list, a->recvbuf, a->recvcounts, a->rdispls, a->recvtype, size, 1);
        break;
    case COLL_ALLTOALLW: /* per-rank types and byte displacements: left out */
    case COLL_KIND_COUNT:
        break;
    }
    return list.n;
}
