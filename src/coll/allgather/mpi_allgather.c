/*
 * mpi_allgather.c — collsim's MPI_Allgather: the standard's argument rules (MPI_IN_PLACE as
 * sendbuf: the rank's own block is in recvbuf), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"

int
MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *name = "MPI_Allgather";
    int rc = coll_arg_all_recv(comm, recvbuf, recvcount, recvtype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_arg_count(comm, sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_own_block(comm, sendcount, sendtype, recvcount, recvtype, name);
    }
    int size = collsim_comm_size(comm);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer_or_in_place(comm, sendbuf, sendcount, sendtype, "sendbuf", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, recvbuf, (MPI_Aint)recvcount * size, recvtype, "recvbuf", name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name,
            .rule = COLL_CHECK_BLOCKS,
            .root = -1,
            .op = MPI_OP_NULL,
            .count = recvcount,
            .type = recvtype,
            .bytes = sendbuf == MPI_IN_PLACE ? -1 : coll_entry_sig_bytes(sendcount, sendtype),
            .recv_bytes = coll_entry_sig_bytes(recvcount, recvtype),
            .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    struct coll_call call;
    coll_entry_describe(&call, COLL_ALLGATHER, comm, recvcount, recvtype, 1);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype};
    return coll_dispatch(&call, &args, comm);
}
