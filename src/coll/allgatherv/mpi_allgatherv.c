/*
 * mpi_allgatherv.c — collsim's MPI_Allgatherv, MPI_Iallgatherv and MPI_Allgatherv_init: the
 * standard's argument rules (MPI_IN_PLACE as sendbuf: the rank's own block is in recvbuf), then
 * coll_dispatch.
 */

#include "coll/coll_entry.h"
#include "comm.h"
#include "datatype.h"

/* MPI_Allgatherv and MPI_Iallgatherv (`caller`: the program's call site) */
static int
entry_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                 const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .sendcount = sendcount,
                                  .sendtype = sendtype,
                                  .recvbuf = recvbuf,
                                  .recvcounts = recvcounts,
                                  .rdispls = displs,
                                  .recvtype = recvtype};
        return coll_entry_inter(COLL_ALLGATHERV, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_ALLGATHERV);
    int total = 0;
    int rc = coll_arg_all_recv_v(comm, recvbuf, recvcounts, displs, recvtype, name, &total);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_arg_count(comm, sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_own_block(comm, sendcount, sendtype, recvcounts[me], recvtype, name);
    }
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer_or_in_place(comm, sendbuf, sendcount, sendtype, "sendbuf", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_v_buffers(comm, NULL, 0, recvbuf, total, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int in_place = sendbuf == MPI_IN_PLACE;
    coll_entry_check_same_v(
        comm, name, MPI_OP_NULL, in_place ? -1 : sendcount, in_place ? MPI_DATATYPE_NULL : sendtype,
        in_place ? -1 : coll_entry_sig_bytes(sendcount, sendtype), recvcounts, recvtype, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_ALLGATHERV, comm, total, recvtype, 1);
    call.bytes = coll_entry_mean_block(collsim_datatype_packed_size(total, recvtype), comm);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcount = sendcount,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .rdispls = displs,
                             .recvtype = recvtype};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, COLLSIM_CALLER());
}

int
MPI_Iallgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLGATHERV, request);
    if (rc == MPI_SUCCESS)
        rc =
            coll_nonblocking_end(entry_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                  displs, recvtype, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Allgatherv_init(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Allgatherv_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLGATHERV, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc =
            coll_nonblocking_end(entry_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                                                  displs, recvtype, comm, COLLSIM_CALLER()));
    return rc;
}
