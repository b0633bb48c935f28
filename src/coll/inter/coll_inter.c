/*
 * coll_inter.c — collectives on inter-communicators, in the structure of MPICH's *_inter_*
 * algorithms: a group's data is combined on its local communicator by an intra algorithm,
 * the two leaders (local rank 0 of each group) exchange over the inter-communicator, and the
 * receiving group spreads what its leader got over its local communicator.
 *
 *   Barrier         local barrier; leaders swap a token; local broadcast of it.
 *   Bcast           root -> remote leader; broadcast in the receiving group.
 *   Gather          binomial gather to the sending group's leader; leader -> root.
 *   Scatter         root -> remote leader; binomial scatter in the receiving group.
 *   Gatherv/Scatterv, Allgatherv, Alltoall(v,w)
 *                   linear: one message per (sender, receiver) pair across the groups,
 *                   the root's counts and displacements placing each block.
 *   Allgather       each group gathers to its leader; leaders swap; local broadcast.
 *   Reduce          binomial reduce to the sending group's leader; leader -> root.
 *   Allreduce       each group reduces to its leader; leaders swap; local broadcast.
 *   Reduce_scatter  leaders swap their group's total count; each group reduces the vector
 *                   destined to the other group to its leader; leaders swap the results;
 *                   each group scatters what it received by its recvcounts.
 *
 * The local reductions use coll_reduce_binomial, which keeps rank order (x_0 ∘ x_1 ∘ ...):
 * a non-commutative op gets the fold in the sending group's rank order, as MPI requires.
 * Invariants: the temporaries live on the leaders only; every call is blocking and ends
 * with every message of it received, so the fixed tags below never mix two calls.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll_inter.h"

enum {
    TAG_BARRIER = 1,
    TAG_BCAST,
    TAG_GATHER,
    TAG_SCATTER,
    TAG_GATHERV,
    TAG_SCATTERV,
    TAG_ALLGATHER,
    TAG_ALLGATHERV,
    TAG_ALLTOALL,
    TAG_REDUCE,
    TAG_ALLREDUCE,
    TAG_REDUCE_SCATTER_COUNT,
    TAG_REDUCE_SCATTER,
};

/* The local algorithms need no tuning: binomial trees ignore these. */
static const struct coll_params local_params = {.segment_bytes = 8192, .radix = 2};

/* A buffer for n items of dt (true extent respected); *mem is what to free. */
static void *
items_alloc(MPI_Aint n, MPI_Datatype dt, void **mem)
{
    MPI_Aint lb, extent, true_lb, true_extent;
    MPI_Type_get_extent(dt, &lb, &extent);
    MPI_Type_get_true_extent(dt, &true_lb, &true_extent);
    MPI_Aint bytes = n > 0 ? (n - 1) * extent + true_extent : 0;
    *mem = malloc((size_t)bytes + 1);
    if (*mem == NULL)
        return NULL;
    return (char *)*mem - true_lb;
}

/* Address of item i of dt in buf. */
static char *
item_at(const void *buf, MPI_Aint i, MPI_Datatype dt)
{
    MPI_Aint lb, extent;
    MPI_Type_get_extent(dt, &lb, &extent);
    return (char *)buf + i * extent;
}

static int
local_rank(MPI_Comm comm)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    return rank;
}

int
coll_inter_barrier(MPI_Comm inter, MPI_Comm local)
{
    int rc = coll_barrier_binomial(local, &local_params);
    int token = 0, other = 0;
    if (rc == MPI_SUCCESS && local_rank(local) == 0)
        rc = MPI_Sendrecv(&token, 1, MPI_INT, 0, TAG_BARRIER, &other, 1, MPI_INT, 0, TAG_BARRIER,
                          inter, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast_binomial(&other, 1, MPI_INT, 0, local, &local_params);
    return rc;
}

int
coll_inter_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm inter,
                 MPI_Comm local)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return MPI_Send(buffer, count, datatype, 0, TAG_BCAST, inter);
    int rc = MPI_SUCCESS;
    if (local_rank(local) == 0)
        rc = MPI_Recv(buffer, count, datatype, root, TAG_BCAST, inter, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast_binomial(buffer, count, datatype, 0, local, &local_params);
    return rc;
}

int
coll_inter_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, MPI_Comm inter,
                  MPI_Comm local)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        int remote;
        MPI_Comm_remote_size(inter, &remote);
        return MPI_Recv(recvbuf, recvcount * remote, recvtype, 0, TAG_GATHER, inter,
                        MPI_STATUS_IGNORE);
    }
    int size, rank = local_rank(local);
    MPI_Comm_size(local, &size);
    void *mem = NULL, *tmp = NULL;
    if (rank == 0 && (tmp = items_alloc((MPI_Aint)sendcount * size, sendtype, &mem)) == NULL)
        return MPI_ERR_NO_MEM;
    int rc = coll_gather_binomial(sendbuf, sendcount, sendtype, tmp, sendcount, sendtype, 0,
                                  local, &local_params);
    if (rc == MPI_SUCCESS && rank == 0)
        rc = MPI_Send(tmp, sendcount * size, sendtype, root, TAG_GATHER, inter);
    free(mem);
    return rc;
}

int
coll_inter_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root, MPI_Comm inter,
                   MPI_Comm local)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT) {
        int remote;
        MPI_Comm_remote_size(inter, &remote);
        return MPI_Send(sendbuf, sendcount * remote, sendtype, 0, TAG_SCATTER, inter);
    }
    int size, rank = local_rank(local);
    MPI_Comm_size(local, &size);
    void *mem = NULL, *tmp = NULL;
    int rc = MPI_SUCCESS;
    if (rank == 0) {
        tmp = items_alloc((MPI_Aint)recvcount * size, recvtype, &mem);
        if (tmp == NULL)
            return MPI_ERR_NO_MEM;
        rc = MPI_Recv(tmp, recvcount * size, recvtype, root, TAG_SCATTER, inter,
                      MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS)
        rc = coll_scatter_binomial(tmp, recvcount, recvtype, recvbuf, recvcount, recvtype, 0,
                                   local, &local_params);
    free(mem);
    return rc;
}

/* Post n requests' worth of receives or sends and wait for all of them. */
static int
wait_all(int n, MPI_Request *reqs, int rc)
{
    int wrc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int
coll_inter_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                   MPI_Comm inter, MPI_Comm local)
{
    (void)local;
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root != MPI_ROOT)
        return MPI_Send(sendbuf, sendcount, sendtype, root, TAG_GATHERV, inter);
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Request *reqs = calloc((size_t)remote + 1, sizeof *reqs);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, n = 0;
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(item_at(recvbuf, displs[i], recvtype), recvcounts[i], recvtype, i,
                       TAG_GATHERV, inter, &reqs[n++]);
    return wait_all(n, reqs, rc);
}

int
coll_inter_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                    MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    int root, MPI_Comm inter, MPI_Comm local)
{
    (void)local;
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root != MPI_ROOT)
        return MPI_Recv(recvbuf, recvcount, recvtype, root, TAG_SCATTERV, inter,
                        MPI_STATUS_IGNORE);
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Request *reqs = calloc((size_t)remote + 1, sizeof *reqs);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, n = 0;
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++)
        rc = MPI_Isend(item_at(sendbuf, displs[i], sendtype), sendcounts[i], sendtype, i,
                       TAG_SCATTERV, inter, &reqs[n++]);
    return wait_all(n, reqs, rc);
}

int
coll_inter_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm inter, MPI_Comm local)
{
    int size, remote, rank = local_rank(local);
    MPI_Comm_size(local, &size);
    MPI_Comm_remote_size(inter, &remote);
    void *mem = NULL, *tmp = NULL;
    if (rank == 0 && (tmp = items_alloc((MPI_Aint)sendcount * size, sendtype, &mem)) == NULL)
        return MPI_ERR_NO_MEM;
    int rc = coll_gather_binomial(sendbuf, sendcount, sendtype, tmp, sendcount, sendtype, 0,
                                  local, &local_params);
    if (rc == MPI_SUCCESS && rank == 0)
        rc = MPI_Sendrecv(tmp, sendcount * size, sendtype, 0, TAG_ALLGATHER, recvbuf,
                          recvcount * remote, recvtype, 0, TAG_ALLGATHER, inter,
                          MPI_STATUS_IGNORE);
    free(mem);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast_binomial(recvbuf, recvcount * remote, recvtype, 0, local, &local_params);
    return rc;
}

int
coll_inter_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      MPI_Comm inter, MPI_Comm local)
{
    (void)local;
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Request *reqs = calloc(2 * (size_t)remote + 1, sizeof *reqs);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, n = 0;
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++)
        rc = MPI_Irecv(item_at(recvbuf, displs[i], recvtype), recvcounts[i], recvtype, i,
                       TAG_ALLGATHERV, inter, &reqs[n++]);
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++)
        rc = MPI_Isend(sendbuf, sendcount, sendtype, i, TAG_ALLGATHERV, inter, &reqs[n++]);
    return wait_all(n, reqs, rc);
}

int
coll_inter_alltoallw(const void *sendbuf, int sendcount, const int sendcounts[],
                     const int sdispls[], MPI_Datatype sendtype, const MPI_Datatype sendtypes[],
                     void *recvbuf, int recvcount, const int recvcounts[], const int rdispls[],
                     MPI_Datatype recvtype, const MPI_Datatype recvtypes[], MPI_Comm inter,
                     MPI_Comm local)
{
    (void)local;
    int remote;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Request *reqs = calloc(2 * (size_t)remote + 1, sizeof *reqs);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS, n = 0;
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++) {
        MPI_Datatype type = recvtypes != NULL ? recvtypes[i] : recvtype;
        int count = recvcounts != NULL ? recvcounts[i] : recvcount;
        char *at = recvtypes != NULL    ? (char *)recvbuf + rdispls[i]
                   : recvcounts != NULL ? item_at(recvbuf, rdispls[i], type)
                                        : item_at(recvbuf, (MPI_Aint)i * recvcount, type);
        rc = MPI_Irecv(at, count, type, i, TAG_ALLTOALL, inter, &reqs[n++]);
    }
    for (int i = 0; i < remote && rc == MPI_SUCCESS; i++) {
        MPI_Datatype type = sendtypes != NULL ? sendtypes[i] : sendtype;
        int count = sendcounts != NULL ? sendcounts[i] : sendcount;
        const char *at = sendtypes != NULL    ? (const char *)sendbuf + sdispls[i]
                         : sendcounts != NULL ? item_at(sendbuf, sdispls[i], type)
                                              : item_at(sendbuf, (MPI_Aint)i * sendcount, type);
        rc = MPI_Isend(at, count, type, i, TAG_ALLTOALL, inter, &reqs[n++]);
    }
    return wait_all(n, reqs, rc);
}

/* The reduction of the group's sendbufs (count items) into a new buffer at its leader. */
static int
reduce_to_leader(const void *sendbuf, int count, MPI_Datatype datatype, MPI_Op op,
                 MPI_Comm local, void **tmp, void **mem)
{
    *tmp = NULL;
    *mem = NULL;
    if (local_rank(local) == 0 && (*tmp = items_alloc(count, datatype, mem)) == NULL)
        return MPI_ERR_NO_MEM;
    return coll_reduce_binomial(sendbuf, *tmp, count, datatype, op, 0, local, &local_params);
}

int
coll_inter_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                  MPI_Op op, int root, MPI_Comm inter, MPI_Comm local)
{
    if (root == MPI_PROC_NULL)
        return MPI_SUCCESS;
    if (root == MPI_ROOT)
        return MPI_Recv(recvbuf, count, datatype, 0, TAG_REDUCE, inter, MPI_STATUS_IGNORE);
    void *tmp, *mem;
    int rc = reduce_to_leader(sendbuf, count, datatype, op, local, &tmp, &mem);
    if (rc == MPI_SUCCESS && local_rank(local) == 0)
        rc = MPI_Send(tmp, count, datatype, root, TAG_REDUCE, inter);
    free(mem);
    return rc;
}

int
coll_inter_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                     MPI_Op op, MPI_Comm inter, MPI_Comm local)
{
    void *tmp, *mem;
    int rc = reduce_to_leader(sendbuf, count, datatype, op, local, &tmp, &mem);
    if (rc == MPI_SUCCESS && local_rank(local) == 0)
        rc = MPI_Sendrecv(tmp, count, datatype, 0, TAG_ALLREDUCE, recvbuf, count, datatype, 0,
                          TAG_ALLREDUCE, inter, MPI_STATUS_IGNORE);
    free(mem);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast_binomial(recvbuf, count, datatype, 0, local, &local_params);
    return rc;
}

int
coll_inter_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                          int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm inter,
                          MPI_Comm local)
{
    int size, rank = local_rank(local);
    MPI_Comm_size(local, &size);
    int *counts = malloc((size_t)size * sizeof *counts);
    int *displs = malloc((size_t)size * sizeof *displs);
    if (counts == NULL || displs == NULL) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    int mine = 0;   /* this group's total: what the other group's vectors hold */
    for (int i = 0; i < size; i++) {
        counts[i] = recvcounts != NULL ? recvcounts[i] : recvcount;
        displs[i] = mine;
        mine += counts[i];
    }
    /* the length of this group's vectors is the other group's total */
    int theirs = 0, rc = MPI_SUCCESS;
    if (rank == 0)
        rc = MPI_Sendrecv(&mine, 1, MPI_INT, 0, TAG_REDUCE_SCATTER_COUNT, &theirs, 1, MPI_INT, 0,
                          TAG_REDUCE_SCATTER_COUNT, inter, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = coll_bcast_binomial(&theirs, 1, MPI_INT, 0, local, &local_params);
    void *tmp = NULL, *mem = NULL, *got = NULL, *got_mem = NULL;
    if (rc == MPI_SUCCESS)
        rc = reduce_to_leader(sendbuf, theirs, datatype, op, local, &tmp, &mem);
    if (rc == MPI_SUCCESS && rank == 0) {
        got = items_alloc(mine, datatype, &got_mem);
        rc = got == NULL ? MPI_ERR_NO_MEM
                         : MPI_Sendrecv(tmp, theirs, datatype, 0, TAG_REDUCE_SCATTER, got, mine,
                                        datatype, 0, TAG_REDUCE_SCATTER, inter,
                                        MPI_STATUS_IGNORE);
    }
    free(mem);
    if (rc == MPI_SUCCESS)
        rc = coll_scatterv_binomial(got, counts, displs, datatype, recvbuf, counts[rank],
                                    datatype, 0, local, &local_params);
    free(got_mem);
    free(counts);
    free(displs);
    return rc;
}
