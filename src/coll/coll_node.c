/*
 * coll_node.c — the node layout of a communicator (see coll_node.h), standard MPI only.
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_node.h"

#define TAG_NODE_LEADER 1
#define TAG_NODE_LEADERS 0 /* coll_allgather_bruck's */

/* One keyval for every communicator's layout; created by the first caller. */
static int layout_keyval = MPI_KEYVAL_INVALID;

static int
layout_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)extra;
    struct coll_node_layout *layout = value;
    int rc = MPI_Comm_free(&layout->node);
    if (layout->leaders != MPI_COMM_NULL && rc == MPI_SUCCESS)
        rc = MPI_Comm_free(&layout->leaders);
    free(layout->node_of);
    free(layout->node_first);
    free(layout);
    return rc;
}

/* Node numbers and node order from every rank's leader (leader_of[r] = lowest rank of r's
 * node): leaders are numbered in increasing rank. */
static int
build_map(struct coll_node_layout *layout, const int *leader_of)
{
    int size = layout->size;
    layout->node_of = malloc(sizeof(int) * (size_t)size);
    int *number = malloc(sizeof(int) * (size_t)size); /* node number of a leader rank */
    if (layout->node_of == NULL || number == NULL) {
        free(number);
        return MPI_ERR_NO_MEM;
    }
    int nnodes = 0;
    layout->runs = 1;
    for (int r = 0; r < size; r++) {
        if (leader_of[r] == r)
            number[r] = nnodes++;
        /* a node's ranks are consecutive if each rank continues its predecessor's node or
         * starts its own */
        if (r > 0 && leader_of[r] != r && leader_of[r] != leader_of[r - 1])
            layout->runs = 0;
    }
    layout->nnodes = nnodes;
    layout->node_first = calloc((size_t)nnodes + 1, sizeof(int));
    if (layout->node_first == NULL) {
        free(number);
        return MPI_ERR_NO_MEM;
    }
    for (int r = 0; r < size; r++) {
        layout->node_of[r] = number[leader_of[r]];
        layout->node_first[layout->node_of[r] + 1]++;
    }
    for (int k = 0; k < nnodes; k++)
        layout->node_first[k + 1] += layout->node_first[k];
    free(number);
    return MPI_SUCCESS;
}

/*
 * leader_of[r] = the leader of every rank r, by Bruck's allgather: the messages (partners,
 * sizes, tag) of coll_allgather_bruck, but with the rotated blocks in memory of its own and
 * copied with memcpy. The algorithms' scratch buffers and large local copies stand in for
 * payload in collsim's sizes-only runs (they carry sizes alone); the layout is read, so it
 * must never live there.
 */
static int
allgather_leaders(int leader, int *leader_of, int rank, int size, MPI_Comm comm)
{
    int *slot = malloc(sizeof(int) * (size_t)size); /* slot j: the leader of (rank + j) % size */
    if (slot == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    slot[0] = leader;
    for (int have = 1; have < size && rc == MPI_SUCCESS;) {
        int n = have <= size - have ? have : size - have;
        rc = MPI_Sendrecv(slot, n, MPI_INT, (rank - have + size) % size, TAG_NODE_LEADERS,
                          slot + have, n, MPI_INT, (rank + have) % size, TAG_NODE_LEADERS, comm,
                          MPI_STATUS_IGNORE);
        have += n;
    }
    for (int j = 0; j < size && rc == MPI_SUCCESS; j++)
        leader_of[(rank + j) % size] = slot[j];
    free(slot);
    return rc;
}

static int
layout_build(MPI_Comm comm, struct coll_node_layout *layout)
{
    static const struct coll_params no_params = {0, 0};
    int rc, rank;
    MPI_Comm_size(comm, &layout->size);
    MPI_Comm_rank(comm, &rank);
    rc = MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &layout->node);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Comm_rank(layout->node, &layout->node_rank);
    MPI_Comm_size(layout->node, &layout->node_size);
    rc = MPI_Comm_split(comm, layout->node_rank == 0 ? 0 : MPI_UNDEFINED, rank,
                        &layout->leaders);
    if (rc != MPI_SUCCESS)
        return rc;
    /* my leader's rank, from the leader; then everyone's */
    int leader = rank;
    rc = coll_bcast_binomial(&leader, 1, MPI_INT, 0, layout->node, &no_params);
    if (rc != MPI_SUCCESS)
        return rc;
    int *leader_of = malloc(sizeof(int) * (size_t)layout->size);
    if (leader_of == NULL)
        return MPI_ERR_NO_MEM;
    rc = allgather_leaders(leader, leader_of, rank, layout->size, comm);
    if (rc == MPI_SUCCESS)
        rc = build_map(layout, leader_of);
    free(leader_of);
    if (rc == MPI_SUCCESS)
        layout->my_node = layout->node_of[rank];
    return rc;
}

int
coll_node_layout_get(MPI_Comm comm, const struct coll_node_layout **layout)
{
    int rc, flag = 0;
    if (layout_keyval == MPI_KEYVAL_INVALID) {
        rc = MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, layout_delete, &layout_keyval, NULL);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    struct coll_node_layout *cached = NULL;
    rc = MPI_Comm_get_attr(comm, layout_keyval, &cached, &flag);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag) {
        *layout = cached;
        return MPI_SUCCESS;
    }
    cached = calloc(1, sizeof *cached);
    if (cached == NULL)
        return MPI_ERR_NO_MEM;
    cached->node = MPI_COMM_NULL;
    cached->leaders = MPI_COMM_NULL;
    rc = layout_build(comm, cached);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_set_attr(comm, layout_keyval, cached);
    if (rc != MPI_SUCCESS) {
        if (cached->node != MPI_COMM_NULL)
            MPI_Comm_free(&cached->node);
        if (cached->leaders != MPI_COMM_NULL)
            MPI_Comm_free(&cached->leaders);
        free(cached->node_of);
        free(cached->node_first);
        free(cached);
        return rc;
    }
    *layout = cached;
    return MPI_SUCCESS;
}

int
coll_node_blocks(const struct coll_node_layout *layout, int per_rank, int **counts,
                 int **displs)
{
    int n = layout->nnodes;
    *counts = malloc(sizeof(int) * 2 * (size_t)n);
    if (*counts == NULL)
        return MPI_ERR_NO_MEM;
    *displs = *counts + n;
    for (int k = 0; k < n; k++) {
        (*counts)[k] = (layout->node_first[k + 1] - layout->node_first[k]) * per_rank;
        (*displs)[k] = layout->node_first[k] * per_rank;
    }
    return MPI_SUCCESS;
}

int *
coll_node_positions(const struct coll_node_layout *layout)
{
    int *position = malloc(sizeof(int) * (size_t)layout->size);
    int *next = malloc(sizeof(int) * (size_t)layout->nnodes);
    if (position != NULL && next != NULL) {
        for (int k = 0; k < layout->nnodes; k++)
            next[k] = layout->node_first[k];
        for (int r = 0; r < layout->size; r++)
            position[r] = next[layout->node_of[r]]++;
    } else {
        free(position);
        position = NULL;
    }
    free(next);
    return position;
}

int
coll_node_position(const struct coll_node_layout *layout, int rank)
{
    int node = layout->node_of[rank], before = 0;
    for (int r = 0; r < rank; r++)
        before += layout->node_of[r] == node;
    return layout->node_first[node] + before;
}

int
coll_node_local_rank(const struct coll_node_layout *layout, int rank)
{
    if (layout->node_of[rank] != layout->my_node)
        return -1;
    return coll_node_position(layout, rank) - layout->node_first[layout->my_node];
}

static double
vector_bytes(int count, MPI_Datatype datatype)
{
    int type_size = 0;
    MPI_Type_size(datatype, &type_size);
    return (double)count * type_size;
}

coll_reduce_fn *
coll_node_reduce_choice(int count, MPI_Datatype datatype, int size)
{
    return vector_bytes(count, datatype) > 2048 && count >= size ? coll_reduce_rabenseifner
                                                                 : coll_reduce_binomial;
}

coll_bcast_fn *
coll_node_bcast_choice(int count, MPI_Datatype datatype, int size)
{
    return vector_bytes(count, datatype) < 12 * 1024 || size < 8
               ? coll_bcast_binomial
               : coll_bcast_scatter_ring_allgather;
}
