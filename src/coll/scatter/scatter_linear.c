/*
 * Scatter: linear (the root sends every other rank its block, all at once).
 *
 * Origin:   Open MPI's basic linear scatter (ompi_coll_base_scatter_intra_basic_linear,
 *           blocking sends in rank order); MPICH's linear scatter posts them all at once, as
 *           this one and the registry's linear scatterv do.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves its block where it is in sendbuf (recvcount and recvtype are then
 *           ignored).
 * Cost:     (p-1)α + ((p-1)/p)nβ at the root (n the bytes of all blocks), the sends sharing
 *           the root's link.
 * Steps:    root r posts a send of sendcount items at sendbuf + i·sendcount·extent to every
 *           rank i != r, copies its own block locally, and waits; rank i receives recvcount
 *           items from r. Blocks of zero bytes are not sent (type matching makes every block
 *           the same number of bytes, so all ranks agree).
 *
 * sendbuf, sendcount and sendtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_SCATTER = 0 };

int
coll_scatter_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                    const struct coll_params *params)
{
    int rank, size, rc, nreq = 0, tsize;
    MPI_Aint lb, extent;
    MPI_Request *reqs;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;

    if (rank != root) {
        rc = MPI_Type_size(recvtype, &tsize);
        if (rc != MPI_SUCCESS || recvcount == 0 || tsize == 0)
            return rc;
        return MPI_Recv(recvbuf, recvcount, recvtype, root, TAG_SCATTER, comm,
                        MPI_STATUS_IGNORE);
    }

    rc = MPI_Type_size(sendtype, &tsize);
    if (rc != MPI_SUCCESS || sendcount == 0 || tsize == 0)
        return rc;
    rc = MPI_Type_get_extent(sendtype, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        if (i == root)
            continue;
        rc = MPI_Isend((const char *)sendbuf + (MPI_Aint)i * sendcount * extent, sendcount,
                       sendtype, i, TAG_SCATTER, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    if (recvbuf != MPI_IN_PLACE)
        rc = coll_copy_typed((const char *)sendbuf + (MPI_Aint)root * sendcount * extent,
                             sendcount, sendtype, recvbuf, recvcount, recvtype);
out_wait:
    /* Posted sends are always completed, even after an error, so that no request leaks. */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}
