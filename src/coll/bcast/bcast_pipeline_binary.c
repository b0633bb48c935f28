/*
 * Bcast: pipelined binary tree, in segments.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_bcast_intra_bintree (the generic segmented
 *           broadcast over a binary tree); SMPI's ompi_bintree. The tree here is the heap
 *           layout the analytic model assumes (models/predict/predict_bcast.c): the children of
 *           relative rank r are 2r+1 and 2r+2.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   segment_bytes: a segment is segment_bytes / type size whole items (at least one);
 *           without params the whole message is one segment.
 * Cost:     S = ⌈n/s⌉ segments of s bytes, height H = ⌊lg p⌋, f = min(2, p-1) children:
 *           f(H + S - 1)(α + sβ) (a node sends each segment to its children one after the
 *           other; its receive of the next segment overlaps those sends).
 * Steps (p = 7, relative ranks, segments a, b):
 *
 *                 0                t1: 0->1 a   t2: 0->2 a   t3: 0->1 b   t4: 0->2 b
 *             1       2                         1->3 a       1->4 a       1->3 b ...
 *           3   4   5   6                                    2->5 a       2->6 a ...
 *
 * A node keeps one receive from its parent posted ahead: it posts segment j+1's receive,
 * waits for segment j and sends it to its children (blocking sends), and so on.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_BINARY = 1 };

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
coll_bcast_pipeline_binary(void *buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, parent = -1, nchildren = 0, children[2], seg, nsegs;
    MPI_Request req[2];

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    if (relative > 0)
        parent = ((relative - 1) / 2 + root) % size;
    for (long long c = 2LL * relative + 1; c <= 2LL * relative + 2 && c < size; c++)
        children[nchildren++] = (int)((c + root) % size);
    seg = segment_items(count, datatype, params);
    nsegs = (int)(((long long)count + seg - 1) / seg);

#define SEG_PTR(s) coll_item(buffer, (MPI_Aint)(s) * seg, datatype)
#define SEG_LEN(s) ((s) == nsegs - 1 ? count - (s) * seg : seg)

    if (parent >= 0) {
        rc = MPI_Irecv(SEG_PTR(0), SEG_LEN(0), datatype, parent, TAG_BCAST_BINARY, comm,
                       &req[0]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int s = 0; s < nsegs; s++) {
        if (parent >= 0) {
            if (s + 1 < nsegs) {
                rc = MPI_Irecv(SEG_PTR(s + 1), SEG_LEN(s + 1), datatype, parent,
                               TAG_BCAST_BINARY, comm, &req[(s + 1) % 2]);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
            rc = MPI_Wait(&req[s % 2], MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        for (int c = 0; c < nchildren; c++) {
            rc = MPI_Send(SEG_PTR(s), SEG_LEN(s), datatype, children[c], TAG_BCAST_BINARY,
                          comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
#undef SEG_PTR
#undef SEG_LEN
}
