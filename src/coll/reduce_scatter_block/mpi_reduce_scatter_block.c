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
    if (rc != MPI_SUCCESS)
        return rc;
    long long total = (long long)recvcount * collsim_comm_size(comm);
    if (total > 0x7fffffff)
        return collsim_error(comm, MPI_ERR_COUNT, name, "recvcount x ranks overflows an int");
    rc = coll_arg_reduction(comm, (int)total, datatype, op, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    rc = coll_arg_buffer_or_in_place(comm, sendbuf, total, datatype, "sendbuf", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, recvbuf, recvcount, datatype, "recvbuf", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_no_alias(comm, sendbuf, total, datatype, recvbuf, recvcount, datatype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, -1, op, recvcount, datatype, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER_BLOCK, comm, (int)total, datatype,
                        coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf, .recvbuf = recvbuf, .recvcount = recvcount,
                             .datatype = datatype, .op = op};
    return coll_dispatch(&call, &args, comm);
}
