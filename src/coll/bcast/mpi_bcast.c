/*
 * mpi_bcast.c — collsim's MPI_Bcast, MPI_Ibcast and MPI_Bcast_init: the standard's argument rules,
 * then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Bcast and MPI_Ibcast (`caller`: the program's call site) */
static int
entry_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
            const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.buffer = buffer, .count = count, .datatype = datatype, .root = root};
        return coll_entry_inter(COLL_BCAST, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_BCAST);
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
    coll_entry_check_same(comm, name, root, MPI_OP_NULL, count, datatype, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_BCAST, comm, count, datatype, 1);
    struct coll_args args = {.buffer = buffer, .count = count, .datatype = datatype, .root = root};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    return entry_bcast(buffer, count, datatype, root, comm, COLLSIM_CALLER());
}

int
MPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
           MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_BCAST, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_bcast(buffer, count, datatype, root, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Bcast_init(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Bcast_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_BCAST, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_bcast(buffer, count, datatype, root, comm, COLLSIM_CALLER()));
    return rc;
}
