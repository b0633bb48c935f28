/*
 * mpi_gatherv.c — collsim's MPI_Gatherv: the rules of a rooted block mover (coll_entry_rooted: the
 * root's counts and displacements; MPI_IN_PLACE as sendbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
    struct coll_args args = {.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                             .recvbuf = recvbuf, .recvcounts = recvcounts, .rdispls = displs,
                             .recvtype = recvtype, .root = root};
    return coll_entry_rooted(COLL_GATHERV, &args, comm, COLLSIM_CALLER());
}
