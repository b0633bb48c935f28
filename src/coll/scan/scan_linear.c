/*
 * Scan: linear chain (rank i receives the prefix of ranks 0..i-1 from rank i-1).
 *
 * Origin:   the MPI standard's naive implementation (MPI-3.1 §5.9.7 advice to implementors,
 *           applied to prefixes); Open MPI's basic linear scan.
 * Requires: nothing: order-preserving for any op and any p. Handles MPI_IN_PLACE (the
 *           contribution is then in recvbuf).
 * Cost:     (p-1)·(α + nβ + nγ) on the critical path.
 * Steps:    rank 0: recvbuf = x0, send it to rank 1.
 *           rank i: receive y = x0∘...∘x(i-1) from i-1, recvbuf = y ∘ xi, send recvbuf to i+1
 *           (the last rank sends nothing).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_SCAN_LINEAR = 0 };

int
coll_scan_linear(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *prefix = NULL, *prefix_mem = NULL;

    (void)params;
    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (rank > 0) {
        prefix = coll_tmp_alloc(count, datatype, &prefix_mem);
        if (prefix == NULL)
            return MPI_ERR_NO_MEM;
        rc = MPI_Recv(prefix, count, datatype, rank - 1, TAG_SCAN_LINEAR, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free_prefix;
        rc = MPI_Reduce_local(prefix, recvbuf, count, datatype, op);   /* lower ranks first */
        if (rc != MPI_SUCCESS)
            goto out_free_prefix;
    }
    if (rank < size - 1)
        rc = MPI_Send(recvbuf, count, datatype, rank + 1, TAG_SCAN_LINEAR, comm);
out_free_prefix:
    free(prefix_mem);
    return rc;
}
