/*
 * mpi_scatterv.c — collsim's MPI_Scatterv: the rules of a rooted block mover (coll_entry_rooted:
 * the root's counts and displacements; MPI_IN_PLACE as recvbuf at the root only), then
 * coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct coll_args args = {.sendbuf = sendbuf, .sendcounts = sendcounts, .sdispls = displs,
                             .sendtype = sendtype, .recvbuf = recvbuf, .recvcount = recvcount,
                             .recvtype = recvtype, .root = root};
    return coll_entry_rooted(COLL_SCATTERV, &args, comm, COLLSIM_CALLER());
}
