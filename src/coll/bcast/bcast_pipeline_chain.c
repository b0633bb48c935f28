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
#include "coll/coll_tree.h"

enum { TAG_BCAST_CHAIN = 1 };

int
coll_bcast_pipeline_chain(void *buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, prev, next;
    struct coll_segments sg;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    prev = (rank - 1 + size) % size;
    next = (rank + 1) % size;
    coll_segments_init(&sg, buffer, count, datatype, params);

    if (relative == size - 1) {
        /* the end of the chain: nothing to forward, so blocking receives */
        for (int s = 0; s < sg.nsegs; s++) {
            rc = MPI_Recv(coll_segment_ptr(&sg, s), coll_segment_len(&sg, s), datatype, prev,
                          TAG_BCAST_CHAIN, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        return MPI_SUCCESS;
    }
    /* the root sends each segment on; a rank in the middle forwards each once it is in */
    return coll_tree_forward_segments(&sg, relative == 0 ? -1 : prev, &next, 1, TAG_BCAST_CHAIN,
                                      comm);
}
