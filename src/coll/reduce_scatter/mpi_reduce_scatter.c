/*
 * mpi_reduce_scatter.c — collsim's MPI_Reduce_scatter, MPI_Ireduce_scatter and
 * MPI_Reduce_scatter_init: the standard's argument rules (recvcounts sum to the vector, which fits
 * an int), then coll_dispatch.
 */

#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Reduce_scatter and MPI_Ireduce_scatter (`caller`: the program's call site) */
static int
entry_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                     MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .recvbuf = recvbuf,
                                  .recvcounts = recvcounts,
                                  .datatype = datatype,
                                  .op = op};
        return coll_entry_inter(COLL_REDUCE_SCATTER, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_REDUCE_SCATTER);
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
    coll_entry_check_same_v(comm, name, op, total, datatype, -1, recvcounts, datatype, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER, comm, total, datatype, coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .datatype = datatype,
                             .op = op};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    return entry_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Ireduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_REDUCE_SCATTER, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op,
                                                       comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Reduce_scatter_init(const void *sendbuf, void *recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                        MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Reduce_scatter_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_REDUCE_SCATTER, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op,
                                                       comm, COLLSIM_CALLER()));
    return rc;
}
