/*
 * Bcast: binomial tree rooted at the root.
 *
 * Origin:   MPICH's MPIR_Bcast_intra_binomial (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           and SMPI's binomial broadcast have the same shape.
 * Requires: nothing (any root, any count, any datatype).
 * Cost:     ⌈lg p⌉(α + nβ).
 * Steps: ranks are renumbered relative to the root (rel = (rank - root) mod p). A rank whose
 * lowest set bit of rel is m receives from rel - m, then sends to rel + m/2, rel + m/4, ..., 1
 * (those below p). For p = 8, root 0:
 *
 *     step 1:  0 -> 4
 *     step 2:  0 -> 2                4 -> 6
 *     step 3:  0 -> 1      2 -> 3    4 -> 5      6 -> 7
 */
#include "coll/coll_algos.h"
#include "coll/coll_tree.h"

#define TAG_BCAST_BINOMIAL 2

int
coll_bcast_binomial(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                    const struct coll_params *params)
{
    (void)params;
    /* the binomial tree is the k-nomial tree of radix 2 */
    return coll_tree_bcast_knomial(buffer, count, datatype, root, comm, 2, TAG_BCAST_BINOMIAL);
}
