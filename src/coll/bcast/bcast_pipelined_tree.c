/*
 * Bcast: pipelined k-ary tree (the k-ary tree of bcast_kary.c, in segments).
 *
 * Origin:   MPICH's MPIR_Bcast_intra_pipelined_tree with the kary tree type
 *           (MPIR_CVAR_BCAST_TREE_KVAL, chunks of MPIR_CVAR_BCAST_TREE_PIPELINE_CHUNK_SIZE,
 *           8192 bytes), in its blocking form (MPIR_CVAR_BCAST_IS_NON_BLOCKING = 0). Where
 *           MPICH posts either no receive ahead or all of them (MPIR_CVAR_BCAST_RECV_PRE_POST),
 *           this one keeps one posted ahead, as the registry's other pipelines do.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4; MPICH's is
 *           2); segment_bytes: a segment is segment_bytes / type size whole items (at least
 *           one; the row's default is the registry's 65536, MPICH's chunk 8192).
 * Cost:     S = ⌈n/s⌉ segments, depth D: a node sends each segment to its k children in
 *           turn: about (k(S - 1) + D·k)(α + sβ) at most.
 * Steps (p = 7, k = 3, relative ranks, segments a, b):
 *
 *            0               0 -> 1 a, 0 -> 2 a, 0 -> 3 a, 0 -> 1 b …
 *         1  2  3            1 -> 4 a, 1 -> 5 a, 1 -> 6 a (once a is in), 1 -> 4 b …
 *       4 5 6
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_PIPELINED_TREE = 1 };

int
coll_bcast_pipelined_tree(void *buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, parent = -1, nchildren = 0, *children;
    long long k = params != NULL && params->radix >= 2 ? params->radix : 4;
    struct coll_segments sg;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    if (k > size - 1)
        k = size - 1 >= 2 ? size - 1 : 2;
    children = malloc(sizeof *children * (size_t)k);
    if (children == NULL)
        return MPI_ERR_NO_MEM;
    if (relative > 0)
        parent = (int)(((relative - 1) / k + root) % size);
    for (long long c = relative * k + 1; c <= relative * k + k && c < size; c++)
        children[nchildren++] = (int)((c + root) % size);
    coll_segments_init(&sg, buffer, count, datatype, params);
    rc = coll_tree_forward_segments(&sg, parent, children, nchildren, TAG_BCAST_PIPELINED_TREE,
                                    comm);
    free(children);
    return rc;
}
