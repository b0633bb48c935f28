/*
 * mpi_scatterv.c — collsim's MPI_Scatterv: the standard's argument rules (the root's counts and
 * displacements; MPI_IN_PLACE as recvbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

int
MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
             void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Scatterv";
    int rc = coll_arg_comm(comm, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && recvbuf == MPI_IN_PLACE;
    if (me == root) {
        rc = coll_arg_vector(comm, sendcounts, displs, "sendcounts", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
    } else if (recvbuf == MPI_IN_PLACE) {
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as recvbuf is only valid at the root");
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_count(comm, recvcount, "recvcount", name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_type(comm, recvtype, "recvtype", name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, recvbuf, recvcount, recvtype, "recvbuf", name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_rooted_v(comm, name, root, in_place_root, recvcount, recvtype, sendcounts,
                              sendtype, COLLSIM_CALLER());
    struct coll_call call;
    coll_entry_describe(&call, COLL_SCATTERV, comm, in_place_root ? 0 : recvcount,
                        in_place_root ? MPI_BYTE : recvtype, 1);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcounts = sendcounts,
                             .sdispls = displs,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcount = recvcount,
                             .recvtype = recvtype,
                             .root = root};
    return coll_dispatch(&call, &args, comm);
}
