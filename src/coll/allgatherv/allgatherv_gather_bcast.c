/*
 * Allgatherv: binomial gather to rank 0, then binomial broadcast of all the blocks.
 *
 * Origin:   the textbook composition (gatherv followed by a broadcast); Open MPI's
 *           ompi_coll_base_allgatherv_intra_basic_default does the same with a linear gatherv
 *           and a broadcast of an indexed datatype over all the blocks, which collsim keeps;
 *           the gather here is binomial, as in allgather_gather_bcast.c.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     p = 2^F and equal blocks: Fα + ((p-1)/p)nβ (gather) + F(α + nβ) (bcast), n the
 *           bytes gathered on each rank.
 * Steps:    gather: rank r receives the subtrees of r+1, r+2, r+4, … (below p, in that order)
 *           straight into their places of its recvbuf, then sends its own subtree (ranks r …
 *           r+2^k-1, k the lowest set bit of r) to r - 2^k. A subtree travels as one message of
 *           an indexed type over its blocks; one of no bytes is not sent. Broadcast:
 *           coll_bcast_binomial from rank 0 of one item of the indexed type of all p blocks.
 */
#include "mpi.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHERV_GATHER = 0 };

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

/* The committed indexed type of blocks [first, end) of recvbuf, and its size in bytes. */
static int
range_type(const int recvcounts[], const int displs[], int first, int end, MPI_Datatype recvtype,
           MPI_Datatype *range, int *bytes)
{
    int rc = MPI_Type_indexed(end - first, recvcounts + first, displs + first, recvtype, range);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_commit(range);
    if (rc == MPI_SUCCESS)
        rc = MPI_Type_size(*range, bytes);
    if (rc != MPI_SUCCESS)
        MPI_Type_free(range);
    return rc;
}

int
coll_allgatherv_gather_bcast(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm, const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_v(recvbuf, recvcounts, displs, recvtype);
    int rc, rank, size, done, bytes;
    MPI_Datatype range;

    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;

    /* binomial gather to rank 0, in place in recvbuf */
    for (int mask = 1; mask < size; mask <<= 1) {
        int first, end, parent = -1;
        if (rank & mask) {
            first = rank;
            end = min_int(rank + mask, size);
            parent = rank - mask;
        } else if (rank + mask < size) {
            first = rank + mask;
            end = min_int(first + mask, size);
        } else {
            continue;
        }
        rc = range_type(recvcounts, displs, first, end, recvtype, &range, &bytes);
        if (rc != MPI_SUCCESS)
            return rc;
        if (bytes > 0 && parent >= 0)
            rc = MPI_Send(recvbuf, 1, range, parent, TAG_ALLGATHERV_GATHER, comm);
        else if (bytes > 0)
            rc = MPI_Recv(recvbuf, 1, range, first, TAG_ALLGATHERV_GATHER, comm, MPI_STATUS_IGNORE);
        MPI_Type_free(&range);
        if (rc != MPI_SUCCESS)
            return rc;
        if (parent >= 0)
            break; /* sent to the parent: gathered */
    }

    /* all the blocks from rank 0 */
    rc = range_type(recvcounts, displs, 0, size, recvtype, &range, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    if (bytes > 0)
        rc = coll_bcast_binomial(recvbuf, 1, range, 0, comm, params);
    MPI_Type_free(&range);
    return rc;
}
