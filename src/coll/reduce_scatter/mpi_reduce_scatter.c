/*
 * mpi_reduce_scatter.c — collsim's MPI_Reduce_scatter: the standard's argument rules (recvcounts
 * sum to the vector, which fits an int), then coll_dispatch.
 */

#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *name = "MPI_Reduce_scatter";
    int rc = coll_arg_comm(comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvcounts == NULL)
        return collsim_error(comm, MPI_ERR_ARG, name, "NULL recvcounts");
    int total = 0;
    rc = coll_arg_counts(comm, recvcounts, "recvcounts", name, &total);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_reduction(comm, total, datatype, op, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_reduction_buffers(comm, sendbuf, total, recvbuf,
                                        recvcounts[collsim_comm_my_rank(comm)], datatype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same_v(comm, name, op, total, datatype, -1, recvcounts, datatype,
                            COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER, comm, total, datatype,
                        coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcounts = recvcounts,
                             .datatype = datatype, .op = op};
    return coll_dispatch(&call, &args, comm);
}
