/*
 * mpi_exscan.c — collsim's MPI_Exscan, MPI_Iexscan and MPI_Exscan_init: the argument rules every
 * rank's reduction shares (coll_entry_everyone_reduces), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Exscan and MPI_Iexscan (`caller`: the program's call site) */
static int
entry_exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm, const void *caller)
{
    return coll_entry_everyone_reduces(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                       caller);
}

int
MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm)
{
    return entry_exscan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Iexscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
            MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_EXSCAN, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_exscan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Exscan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Exscan_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_EXSCAN, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_exscan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}
