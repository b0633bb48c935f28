/*
 * Bcast: chain (the root heads `radix` chains of consecutive ranks, in segments, pipelined).
 *
 * Origin:   Open MPI coll/base ompi_coll_base_bcast_intra_chain (coll_tuned bcast algorithm 2,
 *           "chain", fanout coll_tuned_bcast_chain_fanout = 4) over the topology of
 *           ompi_coll_base_topo_build_chain; SMPI's ompi_chain. The segment loop is the
 *           registry's other pipelined broadcasts' (one receive posted ahead, blocking sends).
 * Requires: nothing (any root, any count, any datatype).
 * Params:   radix f: the number of chains (>= 2; default 4; cut to p-1); segment_bytes: a
 *           segment is segment_bytes / type size whole items (at least one).
 * Cost:     S = ⌈n/s⌉ segments, chains of L = ⌈(p-1)/f⌉ ranks: the root sends each segment
 *           to the f heads in turn, so (f(S-1) + f + L - 1)(α + sβ) at most.
 * Steps:    relative ranks 1 … p-1 are cut into f chains of consecutive ranks, the first
 *           (p-1) mod f of them one rank longer; the root sends each segment to every chain's
 *           head, a rank forwards it to the next rank of its chain. p = 8, f = 3:
 *
 *     root -> 1 -> 2 -> 3
 *          -> 4 -> 5
 *          -> 6 -> 7
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_CHAINS = 1 };

int
coll_bcast_chain(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                 const struct coll_params *params)
{
    int rc, size, rank, relative, chains, maxlen, mark, parent = -1, nchildren = 0;
    int next, *children;
    struct coll_segments sg;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    chains = params != NULL && params->radix >= 2 ? params->radix : 4;
    if (chains > size - 1)
        chains = size - 1;
    /* the first `mark` chains are maxlen long, the others maxlen - 1 */
    maxlen = (size - 1) / chains;
    mark = (size - 1) % chains;
    if (mark != 0)
        maxlen++;
    else
        mark = chains;

    children = malloc(sizeof *children * (size_t)chains);
    if (children == NULL)
        return MPI_ERR_NO_MEM;
    if (relative == 0) {
        for (int c = 0, head = 1; c < chains; head += c < mark ? maxlen : maxlen - 1, c++)
            children[nchildren++] = (head + root) % size;
    } else {
        int head, len, before = mark * maxlen;
        if (relative - 1 < before) {
            head = 1 + (relative - 1) / maxlen * maxlen;
            len = maxlen;
        } else {
            head = 1 + before + (relative - 1 - before) / (maxlen - 1) * (maxlen - 1);
            len = maxlen - 1;
        }
        parent = relative == head ? root : (relative - 1 + root) % size;
        next = relative + 1;
        if (next < head + len)
            children[nchildren++] = (next + root) % size;
    }
    coll_segments_init(&sg, buffer, count, datatype, params);
    rc = coll_tree_forward_segments(&sg, parent, children, nchildren, TAG_BCAST_CHAINS, comm);
    free(children);
    return rc;
}
