/*
 * mpi_neighbor.c — collsim's neighbour collectives (MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w)) and their nonblocking forms (MPI_Ineighbor_...): the argument rules
 * (a communicator with a topology, counts and types for each neighbour, no MPI_IN_PLACE: MPI-3.1
 * defines none for them), then the linear algorithm (neighbor_linear.c) on the communicator's
 * collective twin, so that their messages never match the program's point-to-point traffic.
 *
 * They are not kinds of the collective table (coll_kinds.c): there is no selection, and the
 * collective-call checker and the reports do not list them (HACKING.md says why).
 */
#include <stdlib.h>

#include "coll/coll_entry.h"
#include "coll_neighbor.h"
#include "comm.h"
#include "errhandler.h"
#include "runtime.h"
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

/* A neighbour collective's arguments, as both forms run them. */
struct neighbor_job {
    int (*run)(const struct neighbor_job *job, MPI_Comm on);
    const void *sendbuf;
    void *recvbuf;
    int sendcount, recvcount;
    MPI_Datatype sendtype, recvtype;
    const int *sendcounts, *recvcounts, *displs, *sdispls, *rdispls;
    const MPI_Aint *sdispls_w, *rdispls_w;
    const MPI_Datatype *sendtypes, *recvtypes;
    int indegree, outdegree; /* the lengths of recvtypes and sendtypes */
    /* the nonblocking form's, once started */
    MPI_Comm comm;
    MPI_Comm twin;
    const char *call;
    struct coll_hold hold;
};

static int
run_allgather(const struct neighbor_job *j, MPI_Comm on)
{
    return coll_neighbor_allgather_linear(j->sendbuf, j->sendcount, j->sendtype, j->recvbuf,
                                          j->recvcount, j->recvtype, on);
}

static int
run_allgatherv(const struct neighbor_job *j, MPI_Comm on)
{
    return coll_neighbor_allgatherv_linear(j->sendbuf, j->sendcount, j->sendtype, j->recvbuf,
                                           j->recvcounts, j->displs, j->recvtype, on);
}

static int
run_alltoall(const struct neighbor_job *j, MPI_Comm on)
{
    return coll_neighbor_alltoall_linear(j->sendbuf, j->sendcount, j->sendtype, j->recvbuf,
                                         j->recvcount, j->recvtype, on);
}

static int
run_alltoallv(const struct neighbor_job *j, MPI_Comm on)
{
    return coll_neighbor_alltoallv_linear(j->sendbuf, j->sendcounts, j->sdispls, j->sendtype,
                                          j->recvbuf, j->recvcounts, j->rdispls, j->recvtype, on);
}

static int
run_alltoallw(const struct neighbor_job *j, MPI_Comm on)
{
    return coll_neighbor_alltoallw_linear(j->sendbuf, j->sendcounts, j->sdispls_w, j->sendtypes,
                                          j->recvbuf, j->recvcounts, j->rdispls_w, j->recvtypes,
                                          on);
}

/* The nonblocking form's whole run, on the rank's flow (runtime.h: start_nonblocking). */
static int
run_started(void *data)
{
    struct neighbor_job *job = data;
    int rc = job->run(job, job->twin);
    collsim_comm_operation_done(job->twin);
    rc = neighbor_failed(job->comm, rc, job->call);
    coll_hold_release(&job->hold);
    free(job);
    return rc;
}

/*
 * Run a checked call: the blocking form on the communicator's collective twin; the
 * nonblocking form started on an operation twin of comm (comm.h), like the other nonblocking
 * collectives, so that operations in flight together never match each other's messages.
 */
static int
neighbor_run(const struct neighbor_job *job, MPI_Comm comm, const char *call,
             MPI_Request *nonblocking)
{
    if (nonblocking == NULL)
        return neighbor_failed(comm, job->run(job, comm->coll), call);
    struct neighbor_job *started = malloc(sizeof *started);
    if (started == NULL)
        return collsim_error(comm, MPI_ERR_NO_MEM, call, "no memory to start the operation");
    *started = *job;
    started->comm = comm;
    started->call = call;
    started->twin = collsim_comm_operation_twin(comm);
    coll_hold_init(&started->hold, 2 + (size_t)job->indegree + (size_t)job->outdegree);
    coll_hold_type(&started->hold, job->sendtype);
    coll_hold_type(&started->hold, job->recvtype);
    coll_hold_types(&started->hold, job->sendtypes, job->outdegree);
    coll_hold_types(&started->hold, job->recvtypes, job->indegree);
    return collsim_runtime->start_nonblocking(run_started, started, comm, call, nonblocking);
}

/* MPI_Neighbor_allgather and MPI_Ineighbor_allgather (`nonblocking`: where the latter's request
 * goes). */
static int
entry_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *nonblocking)
{
    const char *call = nonblocking != NULL ? "MPI_Ineighbor_allgather" : "MPI_Neighbor_allgather";
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
    struct neighbor_job job = {.run = run_allgather,
                               .sendbuf = sendbuf,
                               .sendcount = sendcount,
                               .sendtype = sendtype,
                               .recvbuf = recvbuf,
                               .recvcount = recvcount,
                               .recvtype = recvtype};
    return neighbor_run(&job, comm, call, nonblocking);
}

int
MPI_Neighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int
MPI_Ineighbor_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Ineighbor_allgather",
                             "NULL request pointer");
    *request = MPI_REQUEST_NULL;
    return entry_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                           request);
}

/* MPI_Neighbor_allgatherv and MPI_Ineighbor_allgatherv (`nonblocking`: where the latter's request
 * goes). */
static int
entry_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                 MPI_Request *nonblocking)
{
    const char *call = nonblocking != NULL ? "MPI_Ineighbor_allgatherv" : "MPI_Neighbor_allgatherv";
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
    struct neighbor_job job = {.run = run_allgatherv,
                               .sendbuf = sendbuf,
                               .sendcount = sendcount,
                               .sendtype = sendtype,
                               .recvbuf = recvbuf,
                               .recvcounts = recvcounts,
                               .displs = displs,
                               .recvtype = recvtype};
    return neighbor_run(&job, comm, call, nonblocking);
}

int
MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                        const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                        MPI_Comm comm)
{
    return entry_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, NULL);
}

int
MPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                         MPI_Comm comm, MPI_Request *request)
{
    if (request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Ineighbor_allgatherv",
                             "NULL request pointer");
    *request = MPI_REQUEST_NULL;
    return entry_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm, request);
}

/* MPI_Neighbor_alltoall and MPI_Ineighbor_alltoall (`nonblocking`: where the latter's request
 * goes). */
static int
entry_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *nonblocking)
{
    const char *call = nonblocking != NULL ? "MPI_Ineighbor_alltoall" : "MPI_Neighbor_alltoall";
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
    struct neighbor_job job = {.run = run_alltoall,
                               .sendbuf = sendbuf,
                               .sendcount = sendcount,
                               .sendtype = sendtype,
                               .recvbuf = recvbuf,
                               .recvcount = recvcount,
                               .recvtype = recvtype};
    return neighbor_run(&job, comm, call, nonblocking);
}

int
MPI_Neighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, NULL);
}

int
MPI_Ineighbor_alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *request)
{
    if (request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Ineighbor_alltoall",
                             "NULL request pointer");
    *request = MPI_REQUEST_NULL;
    return entry_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                          request);
}

/* MPI_Neighbor_alltoallv and MPI_Ineighbor_alltoallv (`nonblocking`: where the latter's request
 * goes). */
static int
entry_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
                MPI_Datatype recvtype, MPI_Comm comm, MPI_Request *nonblocking)
{
    const char *call = nonblocking != NULL ? "MPI_Ineighbor_alltoallv" : "MPI_Neighbor_alltoallv";
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
    struct neighbor_job job = {.run = run_alltoallv,
                               .sendbuf = sendbuf,
                               .sendcounts = sendcounts,
                               .sdispls = sdispls,
                               .sendtype = sendtype,
                               .recvbuf = recvbuf,
                               .recvcounts = recvcounts,
                               .rdispls = rdispls,
                               .recvtype = recvtype};
    return neighbor_run(&job, comm, call, nonblocking);
}

int
MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                       MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                       const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    return entry_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, NULL);
}

int
MPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                        MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                        const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                        MPI_Request *request)
{
    if (request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Ineighbor_alltoallv",
                             "NULL request pointer");
    *request = MPI_REQUEST_NULL;
    return entry_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm, request);
}

/* MPI_Neighbor_alltoallw and MPI_Ineighbor_alltoallw (`nonblocking`: where the latter's request
 * goes). */
static int
entry_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                MPI_Request *nonblocking)
{
    const char *call = nonblocking != NULL ? "MPI_Ineighbor_alltoallw" : "MPI_Neighbor_alltoallw";
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
    struct neighbor_job job = {.run = run_alltoallw,
                               .sendbuf = sendbuf,
                               .sendcounts = sendcounts,
                               .sdispls_w = sdispls,
                               .sendtypes = sendtypes,
                               .recvbuf = recvbuf,
                               .recvcounts = recvcounts,
                               .rdispls_w = rdispls,
                               .recvtypes = recvtypes,
                               .indegree = in,
                               .outdegree = out};
    return neighbor_run(&job, comm, call, nonblocking);
}

int
MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                       const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                       const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    return entry_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, NULL);
}

int
MPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                        const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                        const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                        MPI_Request *request)
{
    if (request == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Ineighbor_alltoallw",
                             "NULL request pointer");
    *request = MPI_REQUEST_NULL;
    return entry_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm, request);
}
