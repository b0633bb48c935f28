/*
 * mpi_reduce_scatter_block.c — collsim's MPI_Reduce_scatter_block: the standard's argument rules
 * (recvcount x ranks fits an int), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm)
{
    const char *name = "MPI_Reduce_scatter_block";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_count(comm, recvcount, "recvcount", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_all_blocks(comm, recvcount, "recvcount", name);
    if (rc != MPI_SUCCESS)
        return rc;
    int total = recvcount * collsim_comm_size(comm); /* fits: checked */
    rc = coll_arg_reduction(comm, total, datatype, op, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_reduction_buffers(comm, sendbuf, total, recvbuf, recvcount, datatype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, -1, op, recvcount, datatype, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER_BLOCK, comm, total, datatype,
                        coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcount = recvcount,
                             .datatype = datatype, .op = op};
    return coll_dispatch(&call, &args, comm);
}
