/*
 * mpi_alltoall.c — collsim's MPI_Alltoall, MPI_Ialltoall and MPI_Alltoall_init: the argument rules
 * of every rank receiving every block (coll_entry_every_block; no overlap of the two buffers;
 * MPI_IN_PLACE as sendbuf), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

/* MPI_Alltoall and MPI_Ialltoall (`caller`: the program's call site) */
static int
entry_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const void *caller)
{
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype};
    return coll_entry_every_block(COLL_ALLTOALL, &args, comm, caller);
}

int
MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          COLLSIM_CALLER());
}

int
MPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLTOALL, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Alltoall_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                  MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Alltoall_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLTOALL, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                 recvtype, comm, COLLSIM_CALLER()));
    return rc;
}
