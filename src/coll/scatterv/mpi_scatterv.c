/*
 * mpi_scatterv.c — collsim's MPI_Scatterv, MPI_Iscatterv and MPI_Scatterv_init: the rules of a
 * rooted block mover (coll_entry_rooted: the root's counts and displacements; MPI_IN_PLACE as
 * recvbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

/* MPI_Scatterv and MPI_Iscatterv (`caller`: the program's call site) */
static int
entry_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
               MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
               MPI_Comm comm, const void *caller)
{
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcounts = sendcounts,
                             .sdispls = displs,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype,
                             .root = root};
    return coll_entry_rooted(COLL_SCATTERV, &args, comm, caller);
}

int
MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return entry_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root,
                          comm, COLLSIM_CALLER());
}

int
MPI_Iscatterv(const void *sendbuf, const int sendcounts[], const int displs[],
              MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
              MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_SCATTERV, request);
    if (rc == MPI_SUCCESS)
        rc =
            coll_nonblocking_end(entry_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                recvcount, recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Scatterv_init(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Scatterv_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_SCATTERV, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc =
            coll_nonblocking_end(entry_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                                                recvcount, recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}
