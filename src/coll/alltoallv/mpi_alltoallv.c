/*
 * mpi_alltoallv.c — collsim's MPI_Alltoallv, MPI_Ialltoallv and MPI_Alltoallv_init: the standard's
 * argument rules (both sides' counts and displacements; MPI_IN_PLACE as sendbuf), then
 * coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "datatype.h"

/* MPI_Alltoallv and MPI_Ialltoallv (`caller`: the program's call site) */
static int
entry_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                MPI_Datatype recvtype, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .sendcounts = sendcounts,
                                  .sdispls = sdispls,
                                  .sendtype = sendtype,
                                  .recvbuf = recvbuf,
                                  .recvcounts = recvcounts,
                                  .rdispls = rdispls,
                                  .recvtype = recvtype};
        return coll_entry_inter(COLL_ALLTOALLV, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_ALLTOALLV);
    int total = 0, stotal = 0;
    int rc = coll_arg_all_recv_v(comm, recvbuf, recvcounts, rdispls, recvtype, name, &total);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_arg_vector(comm, sendcounts, sdispls, "sendcounts", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_counts(comm, sendcounts, "sendcounts", name, &stotal);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_own_block(comm, sendcounts[me], sendtype, recvcounts[me], recvtype, name);
    }
    if (rc == MPI_SUCCESS)
        rc = coll_arg_v_buffers(comm, sendbuf, sendbuf == MPI_IN_PLACE ? 0 : stotal, recvbuf, total,
                                name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_pairwise(comm, name, sendbuf, sendcounts, sendtype, NULL, recvcounts, recvtype,
                              NULL, caller);
    struct coll_call call;
    coll_entry_describe(&call, COLL_ALLTOALLV, comm, total, recvtype, 1);
    call.bytes = coll_entry_mean_block(collsim_datatype_packed_size(total, recvtype), comm);
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcounts = sendcounts,
                             .sdispls = sdispls,
                             .sendtype = sendtype,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .rdispls = rdispls,
                             .recvtype = recvtype};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, COLLSIM_CALLER());
}

int
MPI_Ialltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
               MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLTOALLV, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                  recvcounts, rdispls, recvtype, comm,
                                                  COLLSIM_CALLER()));
    return rc;
}

int
MPI_Alltoallv_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                   MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Alltoallv_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLTOALLV, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                  recvcounts, rdispls, recvtype, comm,
                                                  COLLSIM_CALLER()));
    return rc;
}
