/*
 * mpi_allreduce.c — collsim's MPI_Allreduce, MPI_Iallreduce and MPI_Allreduce_init: the argument
 * rules every rank's reduction shares (coll_entry_everyone_reduces), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Allreduce and MPI_Iallreduce (`caller`: the program's call site) */
static int
entry_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, const void *caller)
{
    return coll_entry_everyone_reduces(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm,
                                       caller);
}

int
MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return entry_allreduce(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLREDUCE, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_allreduce(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Allreduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Allreduce_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLREDUCE, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_allreduce(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}
