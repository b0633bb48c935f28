/*
 * mpi_neighbor.c — collsim's blocking neighbour collectives (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w)): the argument rules (a communicator with a topology, counts and
 * types for each neighbour, no MPI_IN_PLACE: MPI-3.1 defines none for them), then the linear
 * algorithm (neighbor_linear.c) on the communicator's collective twin, so that their messages
 * never match the program's point-to-point traffic.
 *
 * They are not kinds of the collective table (coll_kinds.c): there is no selection, and the
 * collective-call checker and the reports do not list them (HACKING.md says why).
 */
#include "coll/coll_entry.h"
#include "coll_neighbor.h"
#include "comm.h"
#include "errhandler.h"
#include "topo.h"

/* The communicator and its neighbour counts. */
static int
neighbor_comm(MPI_Comm comm, const char *call, int *indegree, int *outdegree)
{
    int rc = coll_arg_comm(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_topo_degrees(comm, indegree, outdegree) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no topology");
    return MPI_SUCCESS;
}

/* `count` items of `type` per block, `blocks` blocks (1 for a send side sent to everyone). */
static int
neighbor_blocks(MPI_Comm comm, const void *buf, int count, MPI_Datatype type, int blocks,
                const char *what, const char *count_name, const char *type_name, const char *call)
{
    int rc = coll_arg_count(comm, count, count_name, call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, type, type_name, call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, buf, (MPI_Aint)count * blocks, type, what, call);
    return rc;
}

/* A v or w side: `degree` counts (and displacements, and types for w), none negative. */
static int
neighbor_vector(MPI_Comm comm, const void *buf, int degree, const int counts[], const void *displs,
                MPI_Datatype type, const MPI_Datatype types[], const char *what, const char *call)
{
    if (degree > 0 &&
        (counts == NULL || displs == NULL || (type == MPI_DATATYPE_NULL && types == NULL)))
        return collsim_error(comm, MPI_ERR_ARG, call, "NULL counts, displacements or types of %s",
                             what);
    MPI_Aint items = 0;
    for (int i = 0; i < degree; i++) {
        int rc = coll_arg_count(comm, counts[i], what, call);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, types != NULL ? types[i] : type, what, call);
        if (rc != MPI_SUCCESS)
            return rc;
        items += counts[i];
    }
    if (types == NULL)
        return coll_arg_buffer(comm, buf, items, type, what, call);
    /* w: the types differ; only the NULL / MPI_IN_PLACE rules apply to the whole buffer */
    return coll_arg_buffer(comm, buf, items, MPI_BYTE, what, call);
}

static int
neighbor_failed(MPI_Comm comm, int rc, const char *call)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return collsim_error(comm, rc, call, "algorithm 'linear' failed");
}

int
MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *call = "MPI_Neighbor_allgather";
    int in, out;
    int rc = neighbor_comm(comm, call, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = neighbor_blocks(comm, sendbuf, sendcount, sendtype, 1, "sendbuf", "sendcount",
                             "sendtype", call);
    if (rc == MPI_SUCCESS)
        rc = neighbor_blocks(comm, recvbuf, recvcount, recvtype, in, "recvbuf", "recvcount",
                             "recvtype", call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_neighbor_allgather_linear(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                        comm->coll);
    return neighbor_failed(comm, rc, call);
}

int
MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm)
{
    const char *call = "MPI_Neighbor_allgatherv";
    int in, out;
    int rc = neighbor_comm(comm, call, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = neighbor_blocks(comm, sendbuf, sendcount, sendtype, 1, "sendbuf", "sendcount",
                             "sendtype", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, recvtype, "recvtype", call);
    if (rc == MPI_SUCCESS)
        rc =
            neighbor_vector(comm, recvbuf, in, recvcounts, displs, recvtype, NULL, "recvbuf", call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_neighbor_allgatherv_linear(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                                         recvtype, comm->coll);
    return neighbor_failed(comm, rc, call);
}

int
MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *call = "MPI_Neighbor_alltoall";
    int in, out;
    int rc = neighbor_comm(comm, call, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = neighbor_blocks(comm, sendbuf, sendcount, sendtype, out, "sendbuf", "sendcount",
                             "sendtype", call);
    if (rc == MPI_SUCCESS)
        rc = neighbor_blocks(comm, recvbuf, recvcount, recvtype, in, "recvbuf", "recvcount",
                             "recvtype", call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_neighbor_alltoall_linear(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                       comm->coll);
    return neighbor_failed(comm, rc, call);
}

int
MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *call = "MPI_Neighbor_alltoallv";
    int in, out;
    int rc = neighbor_comm(comm, call, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, sendtype, "sendtype", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, recvtype, "recvtype", call);
    if (rc == MPI_SUCCESS)
        rc = neighbor_vector(comm, sendbuf, out, sendcounts, sdispls, sendtype, NULL, "sendbuf",
                             call);
    if (rc == MPI_SUCCESS)
        rc = neighbor_vector(comm, recvbuf, in, recvcounts, rdispls, recvtype, NULL, "recvbuf",
                             call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_neighbor_alltoallv_linear(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts,
                                        rdispls, recvtype, comm->coll);
    return neighbor_failed(comm, rc, call);
}

int
MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    const char *call = "MPI_Neighbor_alltoallw";
    int in, out;
    int rc = neighbor_comm(comm, call, &in, &out);
    if (rc == MPI_SUCCESS)
        rc = neighbor_vector(comm, sendbuf, out, sendcounts, sdispls, MPI_DATATYPE_NULL, sendtypes,
                             "sendbuf", call);
    if (rc == MPI_SUCCESS)
        rc = neighbor_vector(comm, recvbuf, in, recvcounts, rdispls, MPI_DATATYPE_NULL, recvtypes,
                             "recvbuf", call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_neighbor_alltoallw_linear(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                                        recvcounts, rdispls, recvtypes, comm->coll);
    return neighbor_failed(comm, rc, call);
}
