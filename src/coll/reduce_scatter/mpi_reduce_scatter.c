/*
 * mpi_reduce_scatter.c — collsim's MPI_Reduce_scatter: the standard's argument rules (recvcounts
 * sum to the vector, which fits an int), then coll_dispatch.
 */
#include <stdlib.h>

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
    if (coll_check_enabled()) {
        long long *counts = coll_entry_sig_array(comm, recvcounts, datatype, NULL);
        struct coll_check_call c = {.name = name,
                                    .rule = COLL_CHECK_SAME_V,
                                    .root = -1,
                                    .op = op,
                                    .count = total,
                                    .type = datatype,
                                    .bytes = -1,
                                    .recv_bytes = -1,
                                    .per_rank = counts,
                                    .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
        free(counts);
    }
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER, comm, total, datatype,
                        coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcounts = recvcounts,
                             .datatype = datatype, .op = op};
    return coll_dispatch(&call, &args, comm);
}
