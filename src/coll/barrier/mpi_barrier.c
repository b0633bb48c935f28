/*
 * mpi_barrier.c — collsim's MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init: a valid communicator,
 * then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Barrier and MPI_Ibarrier (`caller`: the program's call site) */
static int
entry_barrier(MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {0};
        return coll_entry_inter(COLL_BARRIER, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_BARRIER);
    int rc = coll_arg_comm(comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, -1, MPI_OP_NULL, 0, MPI_DATATYPE_NULL, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_BARRIER, comm, 0, MPI_BYTE, 1);
    struct coll_args args = {0};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Barrier(MPI_Comm comm)
{
    return entry_barrier(comm, COLLSIM_CALLER());
}

int
MPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_BARRIER, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_barrier(comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Barrier_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_BARRIER, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_barrier(comm, COLLSIM_CALLER()));
    return rc;
}
