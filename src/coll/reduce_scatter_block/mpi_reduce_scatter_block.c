/*
 * mpi_reduce_scatter_block.c — collsim's MPI_Reduce_scatter_block, MPI_Ireduce_scatter_block and
 * MPI_Reduce_scatter_block_init: the standard's argument rules (recvcount x ranks fits an int),
 * then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Reduce_scatter_block and MPI_Ireduce_scatter_block (`caller`: the program's call site) */
static int
entry_reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                           MPI_Op op, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .recvbuf = recvbuf,
                                  .recvcount = recvcount,
                                  .datatype = datatype,
                                  .op = op};
        return coll_entry_inter(COLL_REDUCE_SCATTER_BLOCK, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_REDUCE_SCATTER_BLOCK);
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
    coll_entry_check_same(comm, name, -1, op, recvcount, datatype, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE_SCATTER_BLOCK, comm, total, datatype,
                        coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .datatype = datatype,
                             .op = op};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm)
{
    return entry_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm,
                                      COLLSIM_CALLER());
}

int
MPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                          MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_REDUCE_SCATTER_BLOCK, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype,
                                                             op, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Reduce_scatter_block_init(const void *sendbuf, void *recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Info info,
                              MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Reduce_scatter_block_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_REDUCE_SCATTER_BLOCK, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype,
                                                             op, comm, COLLSIM_CALLER()));
    return rc;
}
