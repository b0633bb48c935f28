/*
 * mpi_scan.c — collsim's MPI_Scan: the argument rules every rank's reduction shares
 * (coll_entry_everyone_reduces), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm)
{
    return coll_entry_everyone_reduces(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                       COLLSIM_CALLER());
}
