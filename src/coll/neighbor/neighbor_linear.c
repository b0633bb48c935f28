/*
 * Neighbour collectives (allgather, allgatherv, alltoall, alltoallv, alltoallw): linear.
 *
 * Origin:   Open MPI's coll/basic neighbour collectives and MPICH's
 *           MPIR_Neighbor_*_allcomm_nb: the one algorithm every library has.
 * Requires: a communicator with a Cartesian, graph or distributed graph topology.
 * Cost:     one-port model: (in + out)(α + bβ) for blocks of b bytes; on a real network the
 *           transfers overlap and share the rank's links.
 * Steps:    one receive posted per source (in neighbour order), then one send per destination
 *           (in neighbour order), non-blocking, then one MPI_Waitall, which runs even after a
 *           failed post so that no request leaks. An MPI_PROC_NULL neighbour keeps its block's
 *           slot but moves nothing.
 * Tags:     on a Cartesian grid the tag says which way a message travels (2d for towards
 *           the -1 neighbour of dimension d, 2d + 1 towards the +1 one), so that a periodic
 *           dimension of size 1 or 2, where both neighbours are one rank, still pairs the
 *           block sent towards -1 with the slot of the +1 neighbour (as Open MPI does). A
 *           graph or distributed graph uses one tag: several edges between the same two ranks
 *           pair in the order they are listed on both sides (MPI's non-overtaking rule).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll_neighbor.h"

enum { TAG_NEIGHBOR_GRAPH = 0 };

void
coll_neighbors_free(struct coll_neighbors *nb)
{
    free(nb->sources);
    free(nb->dests);
    free(nb->recvtags);
    free(nb->sendtags);
    nb->sources = nb->dests = nb->recvtags = nb->sendtags = NULL;
}

static int
neighbors_alloc(struct coll_neighbors *nb, int indegree, int outdegree)
{
    nb->indegree = indegree;
    nb->outdegree = outdegree;
    nb->sources = malloc(((size_t)indegree + 1) * sizeof(int));
    nb->recvtags = malloc(((size_t)indegree + 1) * sizeof(int));
    nb->dests = malloc(((size_t)outdegree + 1) * sizeof(int));
    nb->sendtags = malloc(((size_t)outdegree + 1) * sizeof(int));
    if (nb->sources == NULL || nb->recvtags == NULL || nb->dests == NULL || nb->sendtags == NULL) {
        coll_neighbors_free(nb);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < indegree; i++)
        nb->recvtags[i] = TAG_NEIGHBOR_GRAPH;
    for (int i = 0; i < outdegree; i++)
        nb->sendtags[i] = TAG_NEIGHBOR_GRAPH;
    return MPI_SUCCESS;
}

static int
cart_neighbors(MPI_Comm comm, struct coll_neighbors *nb)
{
    int ndims;
    int rc = MPI_Cartdim_get(comm, &ndims);
    if (rc == MPI_SUCCESS)
        rc = neighbors_alloc(nb, 2 * ndims, 2 * ndims);
    for (int d = 0; rc == MPI_SUCCESS && d < ndims; d++) {
        int down, up;
        rc = MPI_Cart_shift(comm, d, 1, &down, &up);
        nb->sources[2 * d] = nb->dests[2 * d] = down;
        nb->sources[2 * d + 1] = nb->dests[2 * d + 1] = up;
        /* what comes from the -1 neighbour travelled towards +1, and the other way round */
        nb->sendtags[2 * d] = nb->recvtags[2 * d + 1] = 2 * d;
        nb->sendtags[2 * d + 1] = nb->recvtags[2 * d] = 2 * d + 1;
    }
    return rc;
}

static int
graph_neighbors(MPI_Comm comm, struct coll_neighbors *nb)
{
    int rank, n;
    int rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Graph_neighbors_count(comm, rank, &n);
    if (rc == MPI_SUCCESS)
        rc = neighbors_alloc(nb, n, n);
    if (rc == MPI_SUCCESS)
        rc = MPI_Graph_neighbors(comm, rank, n, nb->sources);
    for (int i = 0; rc == MPI_SUCCESS && i < n; i++)
        nb->dests[i] = nb->sources[i];
    return rc;
}

static int
dist_graph_neighbors(MPI_Comm comm, struct coll_neighbors *nb)
{
    int in, out, weighted;
    int rc = MPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    if (rc == MPI_SUCCESS)
        rc = neighbors_alloc(nb, in, out);
    if (rc != MPI_SUCCESS)
        return rc;
    /* weights are not used, but an implementation may want arrays for them */
    int *inw = malloc(((size_t)in + 1) * sizeof(int));
    int *outw = malloc(((size_t)out + 1) * sizeof(int));
    if (inw == NULL || outw == NULL)
        rc = MPI_ERR_NO_MEM;
    else
        rc = MPI_Dist_graph_neighbors(comm, in, nb->sources, inw, out, nb->dests, outw);
    free(outw);
    free(inw);
    return rc;
}

int
coll_neighbors_get(MPI_Comm comm, struct coll_neighbors *nb)
{
    int kind;
    nb->sources = nb->dests = nb->recvtags = nb->sendtags = NULL;
    int rc = MPI_Topo_test(comm, &kind);
    if (rc != MPI_SUCCESS)
        return rc;
    if (kind == MPI_CART)
        rc = cart_neighbors(comm, nb);
    else if (kind == MPI_GRAPH)
        rc = graph_neighbors(comm, nb);
    else if (kind == MPI_DIST_GRAPH)
        rc = dist_graph_neighbors(comm, nb);
    else
        rc = MPI_ERR_TOPOLOGY;
    if (rc != MPI_SUCCESS)
        coll_neighbors_free(nb);
    return rc;
}

/*
 * One side of the exchange: block i of a buffer. Uniform (counts == NULL): `count` items of
 * `type` at item i·count, or at item 0 for every i when `same` (Allgather's send side). V:
 * counts[i] items of `type` at item displs[i]. W (types != NULL): counts[i] items of types[i]
 * at byte bytes[i].
 */
struct side {
    char *base;
    int count;
    MPI_Datatype type;
    int same;
    const int *counts;
    const int *displs;
    const MPI_Aint *bytes;
    const MPI_Datatype *types;
    MPI_Aint extent;
};

static int
side_open(struct side *s)
{
    MPI_Aint lb;
    s->extent = 0;
    if (s->types != NULL)
        return MPI_SUCCESS;
    return MPI_Type_get_extent(s->type, &lb, &s->extent);
}

static void
side_block(const struct side *s, int i, void **addr, int *count, MPI_Datatype *type)
{
    if (s->types != NULL) {
        *addr = s->base + s->bytes[i];
        *count = s->counts[i];
        *type = s->types[i];
    } else if (s->counts != NULL) {
        *addr = s->base + (MPI_Aint)s->displs[i] * s->extent;
        *count = s->counts[i];
        *type = s->type;
    } else {
        *addr = s->base + (s->same ? 0 : (MPI_Aint)i * s->count * s->extent);
        *count = s->count;
        *type = s->type;
    }
}

/* Post every receive, then every send, then wait (the file comment). */
static int
exchange(struct side *send, struct side *recv, MPI_Comm comm)
{
    struct coll_neighbors nb;
    int rc = side_open(send);
    if (rc == MPI_SUCCESS)
        rc = side_open(recv);
    if (rc == MPI_SUCCESS)
        rc = coll_neighbors_get(comm, &nb);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Request *reqs = malloc(((size_t)nb.indegree + (size_t)nb.outdegree + 1) * sizeof *reqs);
    if (reqs == NULL) {
        coll_neighbors_free(&nb);
        return MPI_ERR_NO_MEM;
    }
    int n = 0;
    void *addr;
    int count;
    MPI_Datatype type;
    for (int i = 0; rc == MPI_SUCCESS && i < nb.indegree; i++) {
        if (nb.sources[i] == MPI_PROC_NULL)
            continue;
        side_block(recv, i, &addr, &count, &type);
        rc = MPI_Irecv(addr, count, type, nb.sources[i], nb.recvtags[i], comm, &reqs[n]);
        if (rc == MPI_SUCCESS)
            n++;
    }
    for (int i = 0; rc == MPI_SUCCESS && i < nb.outdegree; i++) {
        if (nb.dests[i] == MPI_PROC_NULL)
            continue;
        side_block(send, i, &addr, &count, &type);
        rc = MPI_Isend(addr, count, type, nb.dests[i], nb.sendtags[i], comm, &reqs[n]);
        if (rc == MPI_SUCCESS)
            n++;
    }
    int wait_rc = MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = wait_rc;
    free(reqs);
    coll_neighbors_free(&nb);
    return rc;
}

int
coll_neighbor_allgather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct side send = {.base = (char *)sendbuf, .count = sendcount, .type = sendtype, .same = 1};
    struct side recv = {.base = recvbuf, .count = recvcount, .type = recvtype};
    return exchange(&send, &recv, comm);
}

int
coll_neighbor_allgatherv_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                void *recvbuf, const int recvcounts[], const int displs[],
                                MPI_Datatype recvtype, MPI_Comm comm)
{
    struct side send = {.base = (char *)sendbuf, .count = sendcount, .type = sendtype, .same = 1};
    struct side recv = {.base = recvbuf, .type = recvtype, .counts = recvcounts, .displs = displs};
    return exchange(&send, &recv, comm);
}

int
coll_neighbor_alltoall_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    struct side send = {.base = (char *)sendbuf, .count = sendcount, .type = sendtype};
    struct side recv = {.base = recvbuf, .count = recvcount, .type = recvtype};
    return exchange(&send, &recv, comm);
}

int
coll_neighbor_alltoallv_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
    struct side send = {
        .base = (char *)sendbuf, .type = sendtype, .counts = sendcounts, .displs = sdispls};
    struct side recv = {.base = recvbuf, .type = recvtype, .counts = recvcounts, .displs = rdispls};
    return exchange(&send, &recv, comm);
}

int
coll_neighbor_alltoallw_linear(const void *sendbuf, const int sendcounts[],
                               const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                               void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                               const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    struct side send = {
        .base = (char *)sendbuf, .counts = sendcounts, .bytes = sdispls, .types = sendtypes};
    struct side recv = {
        .base = recvbuf, .counts = recvcounts, .bytes = rdispls, .types = recvtypes};
    return exchange(&send, &recv, comm);
}
