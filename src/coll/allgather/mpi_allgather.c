/*
 * mpi_allgather.c — collsim's MPI_Allgather: the argument rules of every rank receiving
 * every block (coll_entry_every_block; MPI_IN_PLACE as sendbuf: the rank's own block is in
 * recvbuf), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct coll_args args = {.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                             .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype};
    return coll_entry_every_block(COLL_ALLGATHER, &args, comm, COLLSIM_CALLER());
}
