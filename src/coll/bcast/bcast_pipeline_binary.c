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
#include "coll/coll_tree.h"

enum { TAG_BCAST_BINARY = 1 };

int
coll_bcast_pipeline_binary(void *buffer, int count, MPI_Datatype datatype, int root,
                           MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, parent = -1, nchildren = 0, children[2];
    struct coll_segments sg;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    if (relative > 0)
        parent = ((relative - 1) / 2 + root) % size;
    for (long long c = 2LL * relative + 1; c <= 2LL * relative + 2 && c < size; c++)
        children[nchildren++] = (int)((c + root) % size);
    coll_segments_init(&sg, buffer, count, datatype, params);
    return coll_tree_forward_segments(&sg, parent, children, nchildren, TAG_BCAST_BINARY, comm);
}
