/*
 * Scatterv: linear, non-blocking (the root posts a send to every rank in rank order, its own
 * block copied when its turn comes, then waits for them all).
 *
 * Origin:   Open MPI 5's ompi_coll_base_scatterv_intra_linear_nb (coll_tuned scatterv
 *           algorithm "linear_nb") with max_reqs = 0: every send non-blocking (with
 *           max_reqs > 0 Open MPI makes every max_reqs-th send blocking).
 *           The registry's linear scatterv posts the same sends but copies the root's own
 *           block after them; in time they agree (a local copy costs none).
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves the root's block where it is in sendbuf.
 * Cost:     (p-1)α + (p-1)·bβ at the root's link for blocks of b bytes, the eager sends'
 *           latencies overlapping: α + (p-1)bβ.
 * Steps:    root r: for i = 0 … p-1, i == r: copy block r into recvbuf; otherwise MPI_Isend
 *           block i to rank i; then one MPI_Waitall. Rank i != r receives its block from r.
 *           A block of zero bytes is neither sent nor received (both ends decide alike).
 *
 * sendbuf, sendcounts, displs and sendtype are read at the root only.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_SCATTERV_NB = 0 };

int
coll_scatterv_linear_nb(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm comm,
                        const struct coll_params *params)
{
    struct coll_blocks blocks = coll_blocks_v(sendbuf, sendcounts, displs, sendtype);
    struct coll_blocks own = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, empty, nreq = 0, wrc;
    MPI_Request *reqs;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (rank != root)
        return coll_block_message(0, &own, root, TAG_SCATTERV_NB, comm);

    reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size && rc == MPI_SUCCESS; i++) {
        if (i == root) {
            rc = coll_block_copy(&blocks, root, &own, 0);
            continue;
        }
        rc = coll_block_is_empty(&blocks, i, &empty);
        if (rc == MPI_SUCCESS && !empty)
            rc = MPI_Isend(coll_block_at(&blocks, i), coll_block_count(&blocks, i),
                           coll_block_type(&blocks, i), i, TAG_SCATTERV_NB, comm,
                           &reqs[nreq++]);
    }
    /* waited for even after a failure, so that no request leaks */
    wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : wrc;
}
