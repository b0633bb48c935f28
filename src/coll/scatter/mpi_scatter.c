/*
 * mpi_scatter.c — collsim's MPI_Scatter: the rules of a rooted block mover (coll_entry_rooted: the
 * send side is significant at the root only; MPI_IN_PLACE as recvbuf at the root only), then
 * coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    struct coll_args args = {.sendbuf = sendbuf, .sendcount = sendcount, .sendtype = sendtype,
                             .recvbuf = recvbuf, .recvcount = recvcount, .recvtype = recvtype,
                             .root = root};
    return coll_entry_rooted(COLL_SCATTER, &args, comm, COLLSIM_CALLER());
}
