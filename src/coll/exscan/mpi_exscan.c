/*
 * mpi_exscan.c — collsim's MPI_Exscan: the argument rules every rank's reduction shares
 * (coll_entry_everyone_reduces), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm)
{
    return coll_entry_everyone_reduces(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm,
                                       COLLSIM_CALLER());
}
