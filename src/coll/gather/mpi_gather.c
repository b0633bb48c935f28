/*
 * mpi_gather.c — collsim's MPI_Gather, MPI_Igather and MPI_Gather_init: the rules of a rooted block
 * mover (coll_entry_rooted: the receive side is significant at the root only; MPI_IN_PLACE as
 * sendbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

/* MPI_Gather and MPI_Igather (`caller`: the program's call site) */
static int
entry_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, const void *caller)
{
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype,
                             .root = root};
    return coll_entry_rooted(COLL_GATHER, &args, comm, caller);
}

int
MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    return entry_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm,
                        COLLSIM_CALLER());
}

int
MPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_GATHER, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Gather_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Info info,
                MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Gather_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_GATHER, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_gather(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                               recvtype, root, comm, COLLSIM_CALLER()));
    return rc;
}
