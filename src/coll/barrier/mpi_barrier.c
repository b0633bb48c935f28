/*
 * mpi_barrier.c — collsim's MPI_Barrier: a valid communicator, then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Barrier(MPI_Comm comm)
{
    const char *name = "MPI_Barrier";
    int rc = coll_arg_comm(comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, -1, MPI_OP_NULL, 0, MPI_DATATYPE_NULL, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_BARRIER, comm, 0, MPI_BYTE, 1);
    struct coll_args args = {0};
    return coll_dispatch(&call, &args, comm);
}
