/*
 * mpi_allgather.c — collsim's MPI_Allgather, MPI_Iallgather and MPI_Allgather_init: the argument
 * rules of every rank receiving every block (coll_entry_every_block; MPI_IN_PLACE as sendbuf: the
 * rank's own block is in recvbuf), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

/* MPI_Allgather and MPI_Iallgather (`caller`: the program's call site) */
static int
entry_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, const void *caller)
{
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype};
    return coll_entry_every_block(COLL_ALLGATHER, &args, comm, caller);
}

int
MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           COLLSIM_CALLER());
}

int
MPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLGATHER, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                  recvtype, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Allgather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Allgather_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLGATHER, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                  recvtype, comm, COLLSIM_CALLER()));
    return rc;
}
