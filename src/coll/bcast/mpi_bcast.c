/*
 * mpi_bcast.c — collsim's MPI_Bcast: the standard's argument rules, then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Bcast";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_count(comm, count, "count", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, datatype, "datatype", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, buffer, count, datatype, "buffer", name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, root, MPI_OP_NULL, count, datatype, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_BCAST, comm, count, datatype, 1);
    struct coll_args args = {.buffer = buffer, .count = count, .datatype = datatype, .root = root};
    return coll_dispatch(&call, &args, comm);
}
