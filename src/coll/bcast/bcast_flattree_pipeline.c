/*
 * Bcast: flat tree, pipelined (the root sends every rank the buffer in segments; each rank
 * has posted the receives of all its segments first).
 *
 * Origin:   SMPI's bcast__flattree_pipeline (segments of flattree_segment_in_byte = 8192
 *           bytes). SMPI sends only the count / segment whole segments and falls back to
 *           its flat tree when there is none; here the rest goes as a last, shorter segment.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   segment_bytes: a segment is segment_bytes / type size whole items (at least one;
 *           the row's default is the registry's 65536; SMPI's is 8192).
 * Cost:     S = ⌈n/s⌉ segments: (p-1)·S messages out of the root, one after the other:
 *           (p-1)S(α + sβ) with blocking sends (eager segments overlap their latencies:
 *           α + (p-1)nβ).
 * Steps:    a rank other than the root posts an MPI_Irecv for each of its segments and waits
 *           for them all; the root sends, with blocking sends, every segment to rank 0, then
 *           every segment to rank 1, … skipping itself (SMPI's order). p = 3, root 1, segments
 *           a, b:   1 -> 0 a,  1 -> 0 b,  1 -> 2 a,  1 -> 2 b.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_FLATTREE = 1 };

int
coll_bcast_flattree_pipeline(void *buffer, int count, MPI_Datatype datatype, int root,
                             MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank;
    struct coll_segments sg;
    MPI_Request *reqs;

    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;
    coll_segments_init(&sg, buffer, count, datatype, params);

    if (rank == root) {
        for (int r = 0; r < size; r++) {
            if (r == root)
                continue;
            for (int s = 0; s < sg.nsegs; s++) {
                rc = MPI_Send(coll_segment_ptr(&sg, s), coll_segment_len(&sg, s), datatype, r,
                              TAG_BCAST_FLATTREE, comm);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
        }
        return MPI_SUCCESS;
    }

    reqs = malloc(sizeof *reqs * (size_t)sg.nsegs);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int posted = 0;
    for (; posted < sg.nsegs; posted++) {
        rc = MPI_Irecv(coll_segment_ptr(&sg, posted), coll_segment_len(&sg, posted), datatype,
                       root, TAG_BCAST_FLATTREE, comm, &reqs[posted]);
        if (rc != MPI_SUCCESS)
            break;
    }
    /* wait even after a failed post, so that no request is left behind */
    int wrc = MPI_Waitall(posted, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : wrc;
}
