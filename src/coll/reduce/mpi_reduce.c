/*
 * mpi_reduce.c — collsim's MPI_Reduce, MPI_Ireduce and MPI_Reduce_init: the standard's argument
 * rules (MPI_IN_PLACE as sendbuf at the root only), then coll_dispatch.
 */
#include "coll/coll_entry.h"
#include "comm.h"
#include "errhandler.h"

/* MPI_Reduce and MPI_Ireduce (`caller`: the program's call site) */
static int
entry_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             int root, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf,
                                  .recvbuf = recvbuf,
                                  .count = count,
                                  .datatype = datatype,
                                  .op = op,
                                  .root = root};
        return coll_entry_inter(COLL_REDUCE, &inter, comm);
    }
    const char *name = coll_entry_name(COLL_REDUCE);
    int rc = coll_arg_reduction(comm, count, datatype, op, name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, root, name);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    if (sendbuf == MPI_IN_PLACE && me != root)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    rc = coll_arg_buffer_or_in_place(comm, sendbuf, count, datatype, "sendbuf", name);
    if (rc == MPI_SUCCESS && me == root)
        rc = coll_arg_buffer(comm, recvbuf, count, datatype, "recvbuf", name);
    if (rc == MPI_SUCCESS && me == root)
        rc = coll_arg_no_alias(comm, sendbuf, count, datatype, recvbuf, count, datatype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, root, op, count, datatype, caller);

    struct coll_call call;
    coll_entry_describe(&call, COLL_REDUCE, comm, count, datatype, coll_entry_commutes(op));
    struct coll_args args = {.sendbuf = sendbuf,
                             .recvbuf = recvbuf,
                             .count = count,
                             .datatype = datatype,
                             .op = op,
                             .root = root};
    return coll_dispatch(&call, &args, comm);
}

int
MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm)
{
    return entry_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, COLLSIM_CALLER());
}

int
MPI_Ireduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
            int root, MPI_Comm comm, MPI_Request *request)
{
    int rc = coll_nonblocking_begin(COLL_REDUCE, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, COLLSIM_CALLER()));
    return rc;
}

int
MPI_Reduce_init(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    int rc = coll_arg_info(info, "MPI_Reduce_init");
    if (rc == MPI_SUCCESS)
        rc = coll_form_begin(COLL_REDUCE, COLL_FORM_PERSISTENT, request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(
            entry_reduce(sendbuf, recvbuf, count, datatype, op, root, comm, COLLSIM_CALLER()));
    return rc;
}
