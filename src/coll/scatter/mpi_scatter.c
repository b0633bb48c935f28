/*
 * mpi_scatter.c — collsim's MPI_Scatter: the standard's argument rules (the send side is
 * significant at the root only; MPI_IN_PLACE as recvbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
            MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Scatter";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && recvbuf == MPI_IN_PLACE;
    if (me != root && recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as recvbuf is only valid at the root");
    if (!in_place_root) {
        rc = coll_arg_count(comm, recvcount, "recvcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, recvtype, "recvtype", name);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (me == root) {
        if (sendbuf == MPI_IN_PLACE)
            return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid sendbuf");
        rc = coll_arg_count(comm, sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS && !in_place_root)
            rc = coll_arg_own_block(comm, sendcount, sendtype, recvcount, recvtype, name);
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, recvbuf, recvcount, recvtype, "recvbuf", name);
    if (rc == MPI_SUCCESS && me == root)
        rc = coll_arg_buffer(comm, sendbuf, (MPI_Aint)sendcount * collsim_comm_size(comm), sendtype,
                             "sendbuf", name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name,
            .rule = COLL_CHECK_FROM_ROOT,
            .root = root,
            .op = MPI_OP_NULL,
            .count = in_place_root ? -1 : recvcount,
            .type = in_place_root ? MPI_DATATYPE_NULL : recvtype,
            .bytes = me == root ? coll_entry_sig_bytes(sendcount, sendtype) : -1,
            .recv_bytes = in_place_root ? -1 : coll_entry_sig_bytes(recvcount, recvtype),
            .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    /* bytes per rank, the same on every rank: the root's send side, the others' receive side */
    struct coll_call call;
    coll_entry_describe(&call, COLL_SCATTER, comm, me == root ? sendcount : recvcount,
                        me == root ? sendtype : recvtype, 1);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype,
                             .root = root};
    return coll_dispatch(&call, &args, comm);
}
