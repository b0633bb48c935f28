/*
 * mpi_gatherv.c — collsim's MPI_Gatherv, MPI_Igatherv and MPI_Gatherv_init: the rules of a rooted
 * block mover (coll_entry_rooted: the root's counts and displacements; MPI_IN_PLACE as sendbuf at
 * the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

/* MPI_Gatherv and MPI_Igatherv (`caller`: the program's call site) */
static int
entry_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
              MPI_Comm comm, const void *caller)
{
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .rdispls = displs,
                             .recvtype = recvtype,
                             .root = root};
    return coll_entry_rooted(COLL_GATHERV, &args, comm, caller);
}

int
MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
    return entry_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root,
                         comm, COLLSIM_CALLER());
}

int
MPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
             MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_GATHERV, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                displs, recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Gatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Gatherv_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_GATHERV, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                displs, recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}
