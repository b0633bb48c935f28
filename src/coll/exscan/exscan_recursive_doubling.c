/*
 * Exscan: recursive doubling of prefixes, rank order kept (any op, any number of ranks).
 *
 * Origin:   MPICH's MPIR_Exscan_intra_recursive_doubling, its non-commutative path.
 * Requires: nothing: order-preserving for any op and any p. Handles MPI_IN_PLACE. Rank 0's
 *           recvbuf is never touched (MPI leaves it undefined).
 * Cost:     ⌈lgp⌉·(α + nβ) + 2⌈lgp⌉·nγ at most.
 * Steps:    each rank keeps `partial`, the fold of its aligned subtree of `mask` ranks; recvbuf
 *           collects the folds of the lower partners only. With mask = 1, 2, 4, ... it
 *           exchanges `partial` with rank ^ mask (if that rank exists) and:
 *             partner lower:  partial = theirs ∘ partial,
 *                             recvbuf = theirs (first time) or theirs ∘ recvbuf
 *             partner higher: partial = partial ∘ theirs
 *              p = 4, rank 3:  mask 1: recvbuf = x2;  mask 2: recvbuf = (x0∘x1)∘x2
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"

enum { TAG_EXSCAN_DOUBLING = 0 };

int
coll_exscan_recursive_doubling(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    return coll_fold_prefix_doubling(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, recvbuf, count,
                                     datatype, op, 0, TAG_EXSCAN_DOUBLING, comm);
}
