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
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_SCAN_DOUBLING = 0 };

int
coll_scan_recursive_doubling(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                             MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *partial, *partial_mem = NULL, *incoming, *incoming_mem = NULL;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count == 0)
        return MPI_SUCCESS;

    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_copy(sendbuf, recvbuf, count, datatype);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (size == 1)
        return MPI_SUCCESS;
    partial = coll_tmp_alloc(count, datatype, &partial_mem);
    incoming = coll_tmp_alloc(count, datatype, &incoming_mem);
    if (partial == NULL || incoming == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = coll_copy(recvbuf, partial, count, datatype);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int mask = 1; mask < size; mask <<= 1) {
        int dst = rank ^ mask;
        if (dst >= size)
            continue;
        rc = MPI_Sendrecv(partial, count, datatype, dst, TAG_SCAN_DOUBLING, incoming, count,
                          datatype, dst, TAG_SCAN_DOUBLING, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        if (dst < rank) {
            rc = MPI_Reduce_local(incoming, partial, count, datatype, op);
            if (rc == MPI_SUCCESS)
                rc = MPI_Reduce_local(incoming, recvbuf, count, datatype, op);
        } else {
            /* partial ∘ incoming lands in incoming, which then becomes the partial */
            rc = MPI_Reduce_local(partial, incoming, count, datatype, op);
            void *swap = partial;
            partial = incoming;
            incoming = swap;
        }
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
out_free:
    free(incoming_mem);
    free(partial_mem);
    return rc;
}
