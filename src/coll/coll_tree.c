/*
 * coll_tree.c — trees, segments and tree walks shared by the broadcast and reduce algorithms
 * (see coll_tree.h). Standard MPI calls and libc only.
 */
#include "coll_tree.h"
#include "coll_util.h"

int
coll_tree_ranks(MPI_Comm comm, int root, int *rank, int *size, int *relative)
{
    int rc = MPI_Comm_size(comm, size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_rank(comm, rank);
    if (rc != MPI_SUCCESS)
        return rc;
    if (relative != NULL)
        *relative = (*rank - root + *size) % *size;
    return MPI_SUCCESS;
}

int
coll_tree_deliver_result(const void *result, void *recvbuf, int count, MPI_Datatype datatype,
                         int rank, int holder, int root, int tag, MPI_Comm comm)
{
    if (holder != root) {
        if (rank == holder)
            return MPI_Send(result, count, datatype, root, tag, comm);
        if (rank == root)
            return MPI_Recv(recvbuf, count, datatype, holder, tag, comm, MPI_STATUS_IGNORE);
        return MPI_SUCCESS;
    }
    if (rank == root && result != recvbuf)
        return coll_copy(result, recvbuf, count, datatype);
    return MPI_SUCCESS;
}
