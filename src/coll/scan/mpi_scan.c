/*
 * mpi_scan.c — collsim's MPI_Scan, MPI_Iscan and MPI_Scan_init: the argument rules every rank's
 * reduction shares (coll_entry_everyone_reduces), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Scan and MPI_Iscan (`caller`: the program's call site) */
static int
entry_scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm, const void *caller)
{
    return coll_entry_everyone_reduces(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                       caller);
}

int
MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm)
{
    return entry_scan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Iscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
          MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_SCAN, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_scan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Scan_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Scan_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_SCAN, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_scan(sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER()));
    return rc;
}
