/*
 * mpi_gatherv.c — collsim's MPI_Gatherv: the standard's argument rules (the root's counts and
 * displacements; MPI_IN_PLACE as sendbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
    const char *name = "MPI_Gatherv";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && sendbuf == MPI_IN_PLACE;
    if (me == root) {
        rc = coll_arg_vector(comm, recvcounts, displs, "recvcounts", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, recvtype, "recvtype", name);
    } else if (sendbuf == MPI_IN_PLACE) {
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_count(comm, sendcount, "sendcount", name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_type(comm, sendtype, "sendtype", name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, sendbuf, sendcount, sendtype, "sendbuf", name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_rooted_v(comm, name, root, in_place_root, sendcount, sendtype, recvcounts,
                              recvtype, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_GATHERV, comm, in_place_root ? 0 : sendcount,
                        in_place_root ? MPI_BYTE : sendtype, 1);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .rdispls = displs,
                             .recvtype = recvtype,
                             .root = root};
    return coll_dispatch(&call, &args, comm);
}
