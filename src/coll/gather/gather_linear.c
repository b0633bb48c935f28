/*
 * Gather: linear (the root receives every other rank's block, all at once).
 *
 * Origin:   Open MPI's basic linear gather (ompi_coll_base_gather_intra_basic_linear, blocking
 *           receives in rank order); MPICH's linear gather posts them all at once, as this one
 *           and the registry's linear gatherv do.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf (sendcount and sendtype are
 *           then ignored).
 * Cost:     (p-1)α + ((p-1)/p)nβ at the root (n the bytes of all blocks), the messages sharing
 *           the root's link.
 * Steps:    root r posts a receive of recvcount items at recvbuf + i·recvcount·extent from every
 *           rank i != r, copies its own block locally, and waits; rank i sends its sendcount
 *           items to r. Blocks of zero bytes are not sent (type matching makes every block the
 *           same number of bytes, so all ranks agree).
 *
 * recvbuf, recvcount and recvtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_GATHER = 0 };

int
coll_gather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
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
        rc = MPI_Type_size(sendtype, &tsize);
        if (rc != MPI_SUCCESS || sendcount == 0 || tsize == 0)
            return rc;
        return MPI_Send(sendbuf, sendcount, sendtype, root, TAG_GATHER, comm);
    }

    rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS || recvcount == 0 || tsize == 0)
        return rc;
    rc = MPI_Type_get_extent(recvtype, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        if (i == root)
            continue;
        rc = MPI_Irecv((char *)recvbuf + (MPI_Aint)i * recvcount * extent, recvcount, recvtype,
                       i, TAG_GATHER, comm, &reqs[nreq]);
        if (rc != MPI_SUCCESS)
            goto out_wait;
        nreq++;
    }
    if (sendbuf != MPI_IN_PLACE)
        rc = coll_copy_typed(sendbuf, sendcount, sendtype,
                             (char *)recvbuf + (MPI_Aint)root * recvcount * extent, recvcount,
                             recvtype);
out_wait:
    /* Posted receives are always completed, even after an error, so that no request leaks. */
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    free(reqs);
    return rc;
}
