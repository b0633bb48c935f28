/*
 * Scan: recursive doubling of prefixes, rank order kept (any op, any number of ranks).
 *
 * Origin:   MPICH's MPIR_Scan_intra_recursive_doubling (the Hillis-Steele / Kogge-Stone
 *           scheme on the hypercube), its non-commutative path.
 * Requires: nothing: order-preserving for any op and any p. Handles MPI_IN_PLACE.
 * Cost:     ⌈lgp⌉·(α + nβ) + 2⌈lgp⌉·nγ at most (two folds per step for the upper partner).
 * Steps:    each rank keeps `partial`, the fold of its aligned subtree of `mask` ranks, and
 *           `recvbuf`, the fold of that subtree's ranks up to itself. With mask = 1, 2, 4, ...
 *           it exchanges `partial` with rank ^ mask (if that rank exists) and:
 *             partner lower:  partial = theirs ∘ partial,  recvbuf = theirs ∘ recvbuf
 *             partner higher: partial = partial ∘ theirs
 *              p = 4, rank 3:  mask 1: partial = x2∘x3, recvbuf = x2∘x3
 *                              mask 2: partial = (x0∘x1)∘(x2∘x3), recvbuf = (x0∘x1)∘(x2∘x3)
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_SCAN_DOUBLING = 0 };

int
coll_scan_recursive_doubling(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rc;

    (void)params;
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_copy(sendbuf, recvbuf, count, datatype);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return coll_fold_prefix_doubling(recvbuf, recvbuf, count, datatype, op, 1, TAG_SCAN_DOUBLING,
                                     comm);
}
