/*
 * Bcast: pipelined chain root -> root+1 -> … -> root+p-1 (mod p), in segments.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_bcast_intra_pipeline (the generic segmented
 *           broadcast over a chain of fan-out 1); SMPI's ompi_pipeline.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   segment_bytes: a segment is segment_bytes / type size whole items (at least one);
 *           without params the whole message is one segment.
 * Cost:     S = ⌈n/s⌉ segments of s bytes: (p - 1 + S - 1)(α + sβ) when a rank's receive of
 *           segment j+1 overlaps its send of segment j.
 * Steps (p = 4, segments a, b, c; time flows right):
 *
 *     root:  a->1   b->1   c->1
 *     1:            a->2   b->2   c->2
 *     2:                   a->3   b->3   c->3
 *
 * A rank in the middle keeps one receive posted ahead: it posts segment j+1's receive, waits
 * for segment j, forwards it (blocking send), and so on; the last rank receives one segment
 * after the other.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_CHAIN = 1 };

/* Items per segment: whole items, at least one, at most count. */
static int
segment_items(int count, MPI_Datatype datatype, const struct coll_params *params)
{
    int type_size = 0;
    MPI_Type_size(datatype, &type_size);
    if (params == NULL || params->segment_bytes <= 0 || type_size <= 0)
        return count;
    int items = params->segment_bytes / type_size;
    if (items < 1)
        items = 1;
    return items < count ? items : count;
}

int
coll_bcast_pipeline_chain(void *buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, prev, next, seg, nsegs;
    MPI_Request req[2];

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    prev = (rank - 1 + size) % size;
    next = (rank + 1) % size;
    seg = segment_items(count, datatype, params);
    nsegs = (int)(((long long)count + seg - 1) / seg);

#define SEG_PTR(s) coll_item(buffer, (MPI_Aint)(s) * seg, datatype)
#define SEG_LEN(s) ((s) == nsegs - 1 ? count - (s) * seg : seg)

    if (relative == 0) {
        for (int s = 0; s < nsegs; s++) {
            rc = MPI_Send(SEG_PTR(s), SEG_LEN(s), datatype, next, TAG_BCAST_CHAIN, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return MPI_SUCCESS;
    }
    if (relative == size - 1) {
        for (int s = 0; s < nsegs; s++) {
            rc = MPI_Recv(SEG_PTR(s), SEG_LEN(s), datatype, prev, TAG_BCAST_CHAIN, comm,
                          MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return MPI_SUCCESS;
    }

    /* In the middle: one receive posted ahead, forward each segment once it is in. */
    rc = MPI_Irecv(SEG_PTR(0), SEG_LEN(0), datatype, prev, TAG_BCAST_CHAIN, comm, &req[0]);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int s = 0; s < nsegs; s++) {
        if (s + 1 < nsegs) {
            rc = MPI_Irecv(SEG_PTR(s + 1), SEG_LEN(s + 1), datatype, prev, TAG_BCAST_CHAIN,
                           comm, &req[(s + 1) % 2]);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        rc = MPI_Wait(&req[s % 2], MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        rc = MPI_Send(SEG_PTR(s), SEG_LEN(s), datatype, next, TAG_BCAST_CHAIN, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
#undef SEG_PTR
#undef SEG_LEN
}
