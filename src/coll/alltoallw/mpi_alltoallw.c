/*
 * mpi_alltoallw.c — collsim's MPI_Alltoallw, MPI_Ialltoallw and MPI_Alltoallw_init: the standard's
 * argument rules (both sides' counts, byte displacements and types; MPI_IN_PLACE as sendbuf), then
 * coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"

/* MPI_Alltoallw and MPI_Ialltoallw (`caller`: the program's call site) */
static int
entry_alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .sendcounts = sendcounts,
                                  .sdispls = sdispls,
                                  .sendtypes = sendtypes,
                                  .recvbuf = recvbuf,
                                  .recvcounts = recvcounts,
                                  .rdispls = rdispls,
                                  .recvtypes = recvtypes};
        return coll_entry_inter(COLL_ALLTOALLW, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_ALLTOALLW);
    int total = 0, stotal = 0, contiguous = 1;
    int rc = coll_arg_comm(comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    rc = coll_arg_vector(comm, recvcounts, rdispls, "recvcounts", name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_counts(comm, recvcounts, "recvcounts", name, &total);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_types(comm, recvtypes, "recvtypes", name, &contiguous);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    int size = collsim_comm_size(comm);
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_arg_vector(comm, sendcounts, sdispls, "sendcounts", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_counts(comm, sendcounts, "sendcounts", name, &stotal);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_types(comm, sendtypes, "sendtypes", name, &contiguous);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_own_block(comm, sendcounts[me], sendtypes[me], recvcounts[me],
                                    recvtypes[me], name);
    }
    if (rc == MPI_SUCCESS)
        rc = coll_arg_v_buffers(comm, sendbuf, sendbuf == MPI_IN_PLACE ? 0 : stotal, recvbuf, total,
                                name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_pairwise(comm, name, sendbuf, sendcounts, MPI_DATATYPE_NULL, sendtypes,
                              recvcounts, MPI_DATATYPE_NULL, recvtypes, caller);
    size_t bytes = 0;
    for (int i = 0; i < size; i++)
        bytes += collsim_datatype_packed_size(recvcounts[i], recvtypes[i]);
    struct coll_call call = {.kind = COLL_ALLTOALLW,
                             .comm_size = size,
                             .count = total,
                             .bytes = coll_entry_mean_block(bytes, comm),
                             .commutative = 1,
                             .contiguous = contiguous,
                             .node_blocks = 1};
    struct coll_args args = {.sendbuf = sendbuf,
                             .sendcounts = sendcounts,
                             .sdispls = sdispls,
                             .sendtypes = sendtypes,
                             .recvbuf = recvbuf,
                             .recvcounts = recvcounts,
                             .rdispls = rdispls,
                             .recvtypes = recvtypes};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return entry_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, COLLSIM_CALLER());
}

int
MPI_Ialltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
               const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
               MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_ALLTOALLW, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                  recvcounts, rdispls, recvtypes, comm,
                                                  COLLSIM_CALLER()));
    return rc;
}

int
MPI_Alltoallw_init(const void *sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Alltoallw_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_ALLTOALLW, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(entry_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                                  recvcounts, rdispls, recvtypes, comm,
                                                  COLLSIM_CALLER()));
    return rc;
}
