/*
 * Bcast: segmented binomial (Open MPI's binomial tree, in segments, pipelined).
 *
 * Origin:   Open MPI coll/base ompi_coll_base_bcast_intra_binomial (coll_tuned bcast algorithm
 *           5, "binomial") over ompi_coll_base_topo_build_bmtree; SMPI's ompi_binomial. The
 *           segment loop is the registry's other pipelined broadcasts' (one receive posted
 *           ahead, blocking sends).
 * Requires: nothing (any root, any count, any datatype).
 * Params:   segment_bytes: a segment is segment_bytes / type size whole items (at least one).
 * Cost:     S = ⌈n/s⌉ segments, L = ⌈lg p⌉: the root sends each segment to its L children in
 *           turn: about (L·S + L - 1)(α + sβ).
 * Steps:    Open MPI's tree differs from the registry's binomial: the parent of relative rank
 *           v clears v's highest set bit, and v's children are v + 2^j for every 2^j above v
 *           (below p), nearest first. Each segment goes to the children in that order. p = 8:
 *
 *     0 -> 1, 2, 4      1 -> 3, 5      2 -> 6      3 -> 7
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_BMTREE = 1 };

int
coll_bcast_segmented_binomial(void *buffer, int count, MPI_Datatype datatype, int root,
                              MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, parent = -1, nchildren = 0, children[64];
    long long mask = 1;
    struct coll_segments sg;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    while (mask <= relative)
        mask <<= 1;
    if (relative > 0)
        parent = (int)(((relative ^ (mask >> 1)) + root) % size);
    for (; relative + mask < size; mask <<= 1)
        children[nchildren++] = (int)((relative + mask + root) % size);
    coll_segments_init(&sg, buffer, count, datatype, params);
    return coll_tree_forward_segments(&sg, parent, children, nchildren, TAG_BCAST_BMTREE, comm);
}
