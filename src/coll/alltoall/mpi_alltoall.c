/*
 * mpi_alltoall.c — collsim's MPI_Alltoall: the argument rules of every rank receiving every
 * block (coll_entry_every_block; no overlap of the two buffers; MPI_IN_PLACE as sendbuf), then
 * coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args args = {.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                             .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype};
    return coll_entry_every_block(COLL_ALLTOALL, &args, comm, COLLSIM_CALLER());
}
