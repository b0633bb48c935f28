/*
 * mpi_gather.c — collsim's MPI_Gather: the standard's argument rules (the receive side is
 * significant at the root only; MPI_IN_PLACE as sendbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
           MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Gather";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && sendbuf == MPI_IN_PLACE;
    if (me != root && sendbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    if (!in_place_root) {
        rc = coll_arg_count(comm, sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (me == root) {
        if (recvbuf == MPI_IN_PLACE)
            return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
        rc = coll_arg_count(comm, recvcount, "recvcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, recvtype, "recvtype", name);
        if (rc == MPI_SUCCESS && !in_place_root)
            rc = coll_arg_own_block(comm, sendcount, sendtype, recvcount, recvtype, name);
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, sendbuf, sendcount, sendtype, "sendbuf", name);
    if (rc == MPI_SUCCESS && me == root)
        rc = coll_arg_buffer(comm, recvbuf, (MPI_Aint)recvcount * collsim_comm_size(comm), recvtype,
                             "recvbuf", name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name,
            .rule = COLL_CHECK_TO_ROOT,
            .root = root,
            .op = MPI_OP_NULL,
            .count = in_place_root ? -1 : sendcount,
            .type = in_place_root ? MPI_DATATYPE_NULL : sendtype,
            .bytes = in_place_root ? -1 : coll_entry_sig_bytes(sendcount, sendtype),
            .recv_bytes = me == root ? coll_entry_sig_bytes(recvcount, recvtype) : -1,
            .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    /* bytes per rank, the same on every rank: the root's receive side, the others' send side */
    struct coll_call call;
    coll_entry_describe(&call, COLL_GATHER, comm, me == root ? recvcount : sendcount,
                        me == root ? recvtype : sendtype, 1);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype,
                             .root = root};
    return coll_dispatch(&call, &args, comm);
}
