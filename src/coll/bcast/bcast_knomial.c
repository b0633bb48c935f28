/*
 * Bcast: k-nomial tree of radix k rooted at the root (k = 2 is the binomial tree).
 *
 * Origin:   MPICH's MPIR_Bcast_intra_tree with the knomial tree type
 *           (MPIR_CVAR_BCAST_TREE_KVAL) and Open MPI's coll/base k-nomial topology; the
 *           shape of the registry's knomial reduce, run downwards.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   radix (>= 2; the row's default, and the value without params, is 4).
 * Cost:     ⌈log_k p⌉(k-1)(α + nβ) with blocking sends (for p = k^d: d(k-1)(α + nβ)).
 * Steps:    relative ranks (rel = (rank - root) mod p) are written in base k. A rank receives
 *           from rel with its lowest non-zero digit cleared, then sends to rel + j·k^i
 *           (j = 1 … k-1) for every k^i below that digit's place, largest k^i first. For
 *           p = 9, k = 3:
 *
 *     step 1:  0 -> 3, 0 -> 6
 *     step 2:  0 -> 1, 0 -> 2     3 -> 4, 3 -> 5     6 -> 7, 6 -> 8
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_KNOMIAL = 1 };

int
coll_bcast_knomial(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                   const struct coll_params *params)
{
    long long radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_tree_bcast_knomial(buffer, count, datatype, root, comm, radix, TAG_BCAST_KNOMIAL);
}
