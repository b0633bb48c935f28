/*
 * Exscan: linear chain (rank i receives the prefix of ranks 0..i-1 from rank i-1).
 *
 * Origin:   the exclusive form of the standard's naive chain; Open MPI's basic linear exscan.
 * Requires: nothing: order-preserving for any op and any p. Handles MPI_IN_PLACE (the
 *           contribution is then in recvbuf). Rank 0's recvbuf is never touched (MPI leaves
 *           it undefined).
 * Cost:     (p-1)·α + (p-1)·nβ + (p-2)·nγ on the critical path.
 * Steps:    rank 0: send x0 to rank 1.
 *           rank i: receive y = x0∘...∘x(i-1) from i-1 into recvbuf (the result), then send
 *           y ∘ xi to i+1 (the last rank sends nothing and folds nothing).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_EXSCAN_LINEAR = 0 };

int
coll_exscan_linear(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *mine = NULL, *mine_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;

    if (rank == 0)
        return MPI_Send(input, count, datatype, 1, TAG_EXSCAN_LINEAR, comm);

    /* The own contribution, kept aside when it is about to be overwritten in recvbuf. */
    if (rank < size - 1) {
        mine = coll_tmp_alloc(count, datatype, &mine_mem);
        if (mine == NULL)
            return MPI_ERR_NO_MEM;
        rc = coll_copy(input, mine, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free_mine;
    }
    rc = MPI_Recv(recvbuf, count, datatype, rank - 1, TAG_EXSCAN_LINEAR, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS || rank == size - 1)
        goto out_free_mine;
    rc = MPI_Reduce_local(recvbuf, mine, count, datatype, op);   /* lower ranks first */
    if (rc != MPI_SUCCESS)
        goto out_free_mine;
    rc = MPI_Send(mine, count, datatype, rank + 1, TAG_EXSCAN_LINEAR, comm);
out_free_mine:
    free(mine_mem);
    return rc;
}
