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
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_EXSCAN_DOUBLING = 0 };

int
coll_exscan_recursive_doubling(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, have_result = 0;
    void *partial, *partial_mem = NULL, *incoming, *incoming_mem = NULL;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (count == 0 || size == 1)
        return MPI_SUCCESS;

    partial = coll_tmp_alloc(count, datatype, &partial_mem);
    incoming = coll_tmp_alloc(count, datatype, &incoming_mem);
    if (partial == NULL || incoming == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    /* In place, the contribution is read before recvbuf receives its first result. */
    rc = coll_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, partial, count, datatype);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int mask = 1; mask < size; mask <<= 1) {
        int dst = rank ^ mask;
        if (dst >= size)
            continue;
        rc = MPI_Sendrecv(partial, count, datatype, dst, TAG_EXSCAN_DOUBLING, incoming, count,
                          datatype, dst, TAG_EXSCAN_DOUBLING, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        if (dst < rank) {
            rc = MPI_Reduce_local(incoming, partial, count, datatype, op);
            if (rc == MPI_SUCCESS && have_result)
                rc = MPI_Reduce_local(incoming, recvbuf, count, datatype, op);
            else if (rc == MPI_SUCCESS)
                rc = coll_copy(incoming, recvbuf, count, datatype);
            have_result = 1;
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
