/*
 * Bcast: linear (the root sends the whole buffer to every other rank in turn).
 *
 * Origin:   the naive broadcast of every MPI library (Open MPI's basic_linear, SMPI's
 *           "flattree"); the baseline the tree algorithms are measured against.
 * Requires: nothing (any root, any count, any datatype).
 * Cost:     (p-1)α + (p-1)nβ, all of it on the root's link.
 * Steps (p = 4, root 1): the root sends to root+1, root+2, ... (mod p), one after the other:
 *
 *     1 -> 2,  1 -> 3,  1 -> 0
 */
#include "coll/coll_algos.h"
#include "coll/coll_tree.h"

#define TAG_BCAST_LINEAR 1

int
coll_bcast_linear(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                  const struct coll_params *params)
{
    int rc, size, rank;

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    if (rank != root)
        return MPI_Recv(buffer, count, datatype, root, TAG_BCAST_LINEAR, comm,
                        MPI_STATUS_IGNORE);

    for (int i = 1; i < size; i++) {
        rc = MPI_Send(buffer, count, datatype, (root + i) % size, TAG_BCAST_LINEAR, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
