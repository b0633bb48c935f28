/*
 * topo.c — process topologies: Cartesian grids, graphs and distributed graphs attached to
 * communicators, their constructors and queries, and MPI_Dims_create (topo.h explains how the
 * topology is shared, built and checked, and which error class each failure gets).
 *
 * Invariants: a Cartesian topology has ndims >= 0 dimensions, each >= 1, whose product is the
 * communicator's size; ranks are laid out in row-major order (the last dimension varies
 * fastest), as MPI-3.1 §7.5.1 prescribes. A graph topology has nnodes = the communicator's
 * size, a non-decreasing index[] and edges[] inside 0..nnodes-1. A distributed graph holds one
 * adjacency per rank; its neighbours lie inside the communicator and its weights are >= 0
 * (1 for an unweighted graph, whose `weighted` is 0).
 */
#include <limits.h>
#include <string.h>

#include <glib.h>

#include "callsite.h"
#include "comm.h"
#include "errhandler.h"
#include "handles.h"
#include "info.h"
#include "runtime.h"
#include "topo.h"

/* One member's neighbours in a distributed graph, in the order the constructor gave them. */
struct topo_adjacency {
    int indegree, outdegree;
    int *sources, *sourceweights;
    int *dests, *destweights;
    int weighted;
};

struct collsim_topo {
    int kind;  /* MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH */
    int size;  /* members of the communicator */
    int ndims; /* MPI_CART */
    int *dims, *periods;
    int nnodes, nedges; /* MPI_GRAPH */
    int *index, *edges;
    struct topo_adjacency *adj; /* MPI_DIST_GRAPH: size entries */
};

/* The addresses behind MPI_UNWEIGHTED and MPI_WEIGHTS_EMPTY (mpi.h). */
int collsim_unweighted[1], collsim_weights_empty[1];

/* ---------------------------------------------------------------- life cycle */

static int *
dup_ints(const int *a, int n)
{
    return n > 0 ? g_memdup2(a, (gsize)n * sizeof(int)) : NULL;
}

static void
adjacency_clear(struct topo_adjacency *a)
{
    g_free(a->sources);
    g_free(a->sourceweights);
    g_free(a->dests);
    g_free(a->destweights);
    memset(a, 0, sizeof *a);
}

void
collsim_topo_free(struct collsim_topo *topo)
{
    if (topo == NULL)
        return;
    g_free(topo->dims);
    g_free(topo->periods);
    g_free(topo->index);
    g_free(topo->edges);
    if (topo->adj != NULL)
        for (int i = 0; i < topo->size; i++)
            adjacency_clear(&topo->adj[i]);
    g_free(topo->adj);
    g_free(topo);
}

struct collsim_topo *
collsim_topo_copy(const struct collsim_topo *topo)
{
    if (topo == NULL)
        return NULL;
    struct collsim_topo *c = g_memdup2(topo, sizeof *topo);
    c->dims = dup_ints(topo->dims, topo->ndims);
    c->periods = dup_ints(topo->periods, topo->ndims);
    c->index = dup_ints(topo->index, topo->nnodes);
    c->edges = dup_ints(topo->edges, topo->nedges);
    if (topo->adj != NULL) {
        c->adj = g_new0(struct topo_adjacency, (gsize)topo->size);
        for (int i = 0; i < topo->size; i++) {
            const struct topo_adjacency *a = &topo->adj[i];
            c->adj[i] = *a;
            c->adj[i].sources = dup_ints(a->sources, a->indegree);
            c->adj[i].sourceweights = dup_ints(a->sourceweights, a->indegree);
            c->adj[i].dests = dup_ints(a->dests, a->outdegree);
            c->adj[i].destweights = dup_ints(a->destweights, a->outdegree);
        }
    }
    return c;
}

static struct collsim_topo *
cart_new(int ndims, const int dims[], const int periods[])
{
    struct collsim_topo *t = g_new0(struct collsim_topo, 1);
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = dup_ints(dims, ndims);
    t->periods = g_new0(int, (gsize)ndims + 1);
    t->size = 1;
    for (int i = 0; i < ndims; i++) {
        t->periods[i] = periods[i] != 0;
        t->size *= dims[i];
    }
    return t;
}

static gboolean
same_ints(const int *a, const int *b, int n)
{
    return n == 0 || memcmp(a, b, (size_t)n * sizeof(int)) == 0;
}

/* Whether two members' Cartesian or graph topologies agree. */
static gboolean
topo_equal(const struct collsim_topo *a, const struct collsim_topo *b)
{
    if (a->kind != b->kind || a->size != b->size)
        return FALSE;
    if (a->kind == MPI_CART)
        return a->ndims == b->ndims && same_ints(a->dims, b->dims, a->ndims) &&
               same_ints(a->periods, b->periods, a->ndims);
    return a->nnodes == b->nnodes && a->nedges == b->nedges &&
           same_ints(a->index, b->index, a->nnodes) && same_ints(a->edges, b->edges, a->nedges);
}

/* ---------------------------------------------------------------- shared checks */

/* comm is valid and the caller a member; *topo its topology (NULL if none). */
static int
topo_comm(MPI_Comm comm, const char *call, struct collsim_topo **topo)
{
    int rc = collsim_comm_arg(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_comm_my_rank(comm) == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    *topo = collsim_comm_visible(comm)->topo;
    return MPI_SUCCESS;
}

/* comm_old of a topology constructor: it communicates (not from inside a user-defined
 * reduction function), and only an intra-communicator has a topology; then topo_comm. */
static int
topo_builder_comm(MPI_Comm comm_old, const char *call, struct collsim_topo **old)
{
    int rc = collsim_check_communication(comm_old, call);
    if (rc == MPI_SUCCESS)
        rc = topo_comm(comm_old, call, old);
    if (rc == MPI_SUCCESS && collsim_comm_is_inter(comm_old))
        rc = collsim_error(comm_old, MPI_ERR_COMM, call,
                           "comm_old is an inter-communicator (a topology needs an "
                           "intra-communicator)");
    return rc;
}

static const char *
kind_name(int kind)
{
    return kind == MPI_CART ? "Cartesian" : kind == MPI_GRAPH ? "graph" : "distributed graph";
}

/* The same, and the topology must be of `kind`. */
static int
topo_of_kind(MPI_Comm comm, int kind, const char *call, struct collsim_topo **topo)
{
    int rc = topo_comm(comm, call, topo);
    if (rc != MPI_SUCCESS)
        return rc;
    if (*topo == NULL || (*topo)->kind != kind)
        return collsim_error(comm, MPI_ERR_TOPOLOGY, call, "the communicator has no %s topology",
                             kind_name(kind));
    return MPI_SUCCESS;
}

static int
check_out(MPI_Comm comm, const void *pointer, const char *what, const char *call)
{
    if (pointer == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- constructors */

/*
 * The common end of every constructor: split comm_old (color: 0 or MPI_UNDEFINED; key: the
 * old rank), then attach `mine` (consumed) to the new communicator. `err` is this rank's own
 * argument error, already reported (it took part with MPI_UNDEFINED). `members` is the size
 * the new communicator must have; a smaller one means another member's arguments failed.
 */
static int
topo_build(MPI_Comm comm_old, const char *call, int color, int key, int members,
           struct collsim_topo *mine, int err, MPI_Comm *out, const void *caller)
{
    MPI_Comm made = MPI_COMM_NULL;
    int rc = MPI_Comm_split(comm_old, err != MPI_SUCCESS ? MPI_UNDEFINED : color, key, &made);
    if (rc != MPI_SUCCESS || err != MPI_SUCCESS || made == MPI_COMM_NULL) {
        collsim_topo_free(mine);
        /* a failed call leaves MPI_COMM_NULL too, as MPICH does: a program that goes on
         * then gets MPI_ERR_COMM, not whatever its variable held */
        if (out != NULL)
            *out = MPI_COMM_NULL;
        return rc != MPI_SUCCESS ? rc : err;
    }
    /* the program holds it from this call, not from the split inside it */
    collsim_handle_let_go(made);
    collsim_handle_hold(made, COLLSIM_HELD_COMM, call, caller);

    gboolean agree = collsim_comm_size(made) == members;
    if (agree && mine->kind == MPI_DIST_GRAPH) {
        if (made->topo == NULL) {
            made->topo = g_new0(struct collsim_topo, 1);
            made->topo->kind = MPI_DIST_GRAPH;
            made->topo->size = members;
            made->topo->adj = g_new0(struct topo_adjacency, (gsize)members);
        }
        made->topo->adj[collsim_comm_my_rank(made)] = mine->adj[0];
        mine->adj[0] = (struct topo_adjacency){0};
        collsim_topo_free(mine);
    } else if (agree && made->topo == NULL) {
        made->topo = mine;
    } else {
        agree = agree && topo_equal(made->topo, mine);
        collsim_topo_free(mine);
    }
    if (!agree) {
        MPI_Comm_free(&made);
        *out = MPI_COMM_NULL;
        return collsim_error(comm_old, MPI_ERR_TOPOLOGY, call,
                             "the members of the communicator passed different topologies");
    }
    *out = made;
    return MPI_SUCCESS;
}

/* The old communicator's rank of the caller, after topo_comm has accepted comm_old. */
static int
my_rank(MPI_Comm comm)
{
    return collsim_comm_my_rank(comm);
}

/* dims[0..ndims-1] >= 1 and their product <= limit; *product set. */
static int
check_grid(MPI_Comm comm, int ndims, const int dims[], int limit, int *product, const char *call)
{
    long long p = 1;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 1)
            return collsim_error(comm, MPI_ERR_DIMS, call, "dims[%d] = %d (must be >= 1)", i,
                                 dims[i]);
        p *= dims[i];
        if (p > limit)
            return collsim_error(comm, MPI_ERR_DIMS, call,
                                 "the grid has more than the communicator's %d processes", limit);
    }
    *product = (int)p;
    return MPI_SUCCESS;
}

/* The arguments of Cart_create and Cart_map; *n the grid's size. */
static int
check_cart_args(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *n,
                const char *call)
{
    if (ndims < 0)
        return collsim_error(comm, MPI_ERR_DIMS, call, "negative ndims %d", ndims);
    if (ndims > 0 && dims == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "dims is NULL");
    if (ndims > 0 && periods == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "periods is NULL");
    return check_grid(comm, ndims, dims, collsim_comm_size(comm), n, call);
}

/* A Cartesian grid of the first dims[0]·…·dims[ndims-1] ranks; the others get MPI_COMM_NULL. */
int
MPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder,
                MPI_Comm *comm_cart)
{
    const char *call = "MPI_Cart_create";
    struct collsim_topo *old;
    int rc = topo_builder_comm(comm_old, call, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)reorder;
    int n = 0;
    int err = check_out(comm_old, comm_cart, "comm_cart", call);
    if (err == MPI_SUCCESS)
        err = check_cart_args(comm_old, ndims, dims, periods, &n, call);
    int r = my_rank(comm_old);
    struct collsim_topo *mine = err == MPI_SUCCESS ? cart_new(ndims, dims, periods) : NULL;
    return topo_build(comm_old, call, r < n ? 0 : MPI_UNDEFINED, r, n, mine, err, comm_cart,
                      COLLSIM_CALLER());
}

/* Row-major coordinates of rank in a grid. */
static void
cart_coords(const struct collsim_topo *t, int rank, int coords[])
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

/* The sub-grids keeping the dimensions where remain_dims is true. Collective. */
int
MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    const char *call = "MPI_Cart_sub";
    struct collsim_topo *t;
    int rc = collsim_check_communication(comm, call); /* it communicates */
    if (rc == MPI_SUCCESS)
        rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = check_out(comm, newcomm, "newcomm", call);
    if (err == MPI_SUCCESS && t->ndims > 0)
        err = check_out(comm, remain_dims, "remain_dims", call);
    struct collsim_topo *mine = NULL;
    int color = 0, key = 0, members = 1;
    if (err == MPI_SUCCESS) {
        int *coords = g_new(int, (gsize)t->ndims + 1);
        int *dims = g_new(int, (gsize)t->ndims + 1);
        int *periods = g_new(int, (gsize)t->ndims + 1);
        int kept = 0;
        cart_coords(t, my_rank(comm), coords);
        /* color: the dropped coordinates, key: the kept ones, both row-major */
        for (int i = 0; i < t->ndims; i++) {
            if (remain_dims[i]) {
                key = key * t->dims[i] + coords[i];
                members *= t->dims[i];
                dims[kept] = t->dims[i];
                periods[kept++] = t->periods[i];
            } else {
                color = color * t->dims[i] + coords[i];
            }
        }
        mine = cart_new(kept, dims, periods);
        g_free(periods);
        g_free(dims);
        g_free(coords);
    }
    return topo_build(comm, call, color, key, members, mine, err, newcomm, COLLSIM_CALLER());
}

/* The arguments of Graph_create and Graph_map. */
static int
check_graph_args(MPI_Comm comm, int nnodes, const int index[], const int edges[], const char *call)
{
    int size = collsim_comm_size(comm);
    if (nnodes < 0 || nnodes > size)
        return collsim_error(comm, MPI_ERR_ARG, call,
                             "nnodes %d outside 0..%d (the communicator's size)", nnodes, size);
    if (nnodes == 0)
        return MPI_SUCCESS;
    if (index == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "index is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i > 0 ? index[i - 1] : 0))
            return collsim_error(comm, MPI_ERR_ARG, call,
                                 "index[%d] = %d is negative or below index[%d]", i, index[i],
                                 i - 1);
    if (index[nnodes - 1] > 0 && edges == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "edges is NULL");
    for (int j = 0; j < index[nnodes - 1]; j++)
        if (edges[j] < 0 || edges[j] >= nnodes)
            return collsim_error(comm, MPI_ERR_RANK, call, "edges[%d] = %d is not a node (0..%d)",
                                 j, edges[j], nnodes - 1);
    return MPI_SUCCESS;
}

/* A graph of the first nnodes ranks; the others (all of them if nnodes is 0) get
 * MPI_COMM_NULL. */
int
MPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder,
                 MPI_Comm *comm_graph)
{
    const char *call = "MPI_Graph_create";
    struct collsim_topo *old;
    int rc = topo_builder_comm(comm_old, call, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)reorder;
    int err = check_out(comm_old, comm_graph, "comm_graph", call);
    if (err == MPI_SUCCESS)
        err = check_graph_args(comm_old, nnodes, index, edges, call);
    struct collsim_topo *mine = NULL;
    if (err == MPI_SUCCESS) {
        mine = g_new0(struct collsim_topo, 1);
        mine->kind = MPI_GRAPH;
        mine->size = nnodes;
        mine->nnodes = nnodes;
        mine->nedges = nnodes > 0 ? index[nnodes - 1] : 0;
        mine->index = dup_ints(index, nnodes);
        mine->edges = dup_ints(edges, mine->nedges);
    }
    int r = my_rank(comm_old);
    return topo_build(comm_old, call, r < nnodes ? 0 : MPI_UNDEFINED, r, nnodes, mine, err,
                      comm_graph, COLLSIM_CALLER());
}

/* A weights argument for `degree` edges: *weighted is 0 for MPI_UNWEIGHTED. */
static int
check_weights(MPI_Comm comm, const int weights[], int degree, const char *what, int *weighted,
              const char *call)
{
    *weighted = weights != MPI_UNWEIGHTED;
    if (weights == MPI_UNWEIGHTED)
        return MPI_SUCCESS;
    if (degree > 0 && weights == MPI_WEIGHTS_EMPTY)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is MPI_WEIGHTS_EMPTY for %d edges", what,
                             degree);
    if (degree > 0 && weights == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is NULL", what);
    for (int i = 0; i < degree; i++)
        if (weights[i] < 0)
            return collsim_error(comm, MPI_ERR_ARG, call, "negative %s[%d] = %d", what, i,
                                 weights[i]);
    return MPI_SUCCESS;
}

/* `n` ranks of comm, each inside it. */
static int
check_ranks(MPI_Comm comm, const int ranks[], int n, const char *what, const char *call)
{
    if (n > 0 && ranks == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is NULL", what);
    int size = collsim_comm_size(comm);
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= size)
            return collsim_error(comm, MPI_ERR_RANK, call, "%s[%d] = %d is not a rank (0..%d)",
                                 what, i, ranks[i], size - 1);
    return MPI_SUCCESS;
}

static int
check_info(MPI_Comm comm, MPI_Info info, const char *call)
{
    const char *why;
    if (info != MPI_INFO_NULL && collsim_info_check(info, &why) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_INFO, call, "invalid info (%s)", why);
    return MPI_SUCCESS;
}

/* A one-member distributed graph topology to hand to topo_build. */
static struct collsim_topo *
dist_mine(struct topo_adjacency *adj)
{
    struct collsim_topo *t = g_new0(struct collsim_topo, 1);
    t->kind = MPI_DIST_GRAPH;
    t->size = 1;
    t->adj = g_new0(struct topo_adjacency, 1);
    t->adj[0] = *adj;
    return t;
}

/* Weights as given, or 1 for each edge of an unweighted graph. */
static int *
weights_or_ones(const int weights[], int degree, int weighted)
{
    if (weighted)
        return dup_ints(weights, degree);
    int *w = g_new(int, (gsize)degree + 1);
    for (int i = 0; i < degree; i++)
        w[i] = 1;
    return w;
}

/* Each rank gives its own in and out neighbours. Collective; the group is comm_old's. */
int
MPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                               const int sourceweights[], int outdegree, const int destinations[],
                               const int destweights[], MPI_Info info, int reorder,
                               MPI_Comm *comm_dist_graph)
{
    const char *call = "MPI_Dist_graph_create_adjacent";
    struct collsim_topo *old;
    int rc = topo_builder_comm(comm_old, call, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)reorder;
    int in_weighted = 0, out_weighted = 0;
    int err = check_out(comm_old, comm_dist_graph, "comm_dist_graph", call);
    if (err == MPI_SUCCESS && (indegree < 0 || outdegree < 0))
        err = collsim_error(comm_old, MPI_ERR_ARG, call, "negative degree (in %d, out %d)",
                            indegree, outdegree);
    if (err == MPI_SUCCESS)
        err = check_ranks(comm_old, sources, indegree, "sources", call);
    if (err == MPI_SUCCESS)
        err = check_ranks(comm_old, destinations, outdegree, "destinations", call);
    if (err == MPI_SUCCESS)
        err = check_weights(comm_old, sourceweights, indegree, "sourceweights", &in_weighted, call);
    if (err == MPI_SUCCESS)
        err = check_weights(comm_old, destweights, outdegree, "destweights", &out_weighted, call);
    if (err == MPI_SUCCESS && in_weighted != out_weighted)
        err = collsim_error(comm_old, MPI_ERR_ARG, call,
                            "MPI_UNWEIGHTED for one of sourceweights and destweights only");
    if (err == MPI_SUCCESS)
        err = check_info(comm_old, info, call);
    struct collsim_topo *mine = NULL;
    if (err == MPI_SUCCESS) {
        struct topo_adjacency adj = {
            .indegree = indegree,
            .outdegree = outdegree,
            .sources = dup_ints(sources, indegree),
            .sourceweights = weights_or_ones(sourceweights, indegree, in_weighted),
            .dests = dup_ints(destinations, outdegree),
            .destweights = weights_or_ones(destweights, outdegree, in_weighted),
            .weighted = in_weighted,
        };
        mine = dist_mine(&adj);
    }
    int r = my_rank(comm_old);
    return topo_build(comm_old, call, 0, r, collsim_comm_size(comm_old), mine, err, comm_dist_graph,
                      COLLSIM_CALLER());
}

/* One edge as it travels to the rank that keeps it: an in or an out neighbour of that rank. */
enum { EDGE_DIRECTION, EDGE_PEER, EDGE_WEIGHT, EDGE_INTS };
enum { EDGE_IN, EDGE_OUT };

/* The general form's arguments; *edges their number. */
static int
check_dist_graph_args(MPI_Comm comm, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info, int *edges,
                      int *weighted, const char *call)
{
    if (n < 0)
        return collsim_error(comm, MPI_ERR_ARG, call, "negative n %d", n);
    int rc = check_ranks(comm, sources, n, "sources", call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n > 0 && degrees == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "degrees is NULL");
    long long total = 0;
    for (int i = 0; i < n; i++) {
        if (degrees[i] < 0)
            return collsim_error(comm, MPI_ERR_ARG, call, "negative degrees[%d] = %d", i,
                                 degrees[i]);
        total += degrees[i];
        /* each edge travels twice, as EDGE_INTS ints in one MPI_Alltoallv */
        if (total > INT_MAX / (2 * EDGE_INTS))
            return collsim_error(comm, MPI_ERR_ARG, call, "too many edges");
    }
    *edges = (int)total;
    rc = check_ranks(comm, destinations, *edges, "destinations", call);
    if (rc == MPI_SUCCESS)
        rc = check_weights(comm, weights, *edges, "weights", weighted, call);
    if (rc == MPI_SUCCESS)
        rc = check_info(comm, info, call);
    return rc;
}

/*
 * Exchange the edges: every rank sends each edge s -> d it was given to s (as an out
 * neighbour d) and to d (as an in neighbour s), with MPI_Alltoall of the counts then
 * MPI_Alltoallv of the edges on comm. Received edges are kept in the order of the rank that
 * gave them, then of its arguments: reproducible, where MPI leaves the order open.
 */
static int
exchange_edges(MPI_Comm comm, int n, const int sources[], const int degrees[],
               const int destinations[], const int weights[], int weighted,
               struct topo_adjacency *adj)
{
    int size = collsim_comm_size(comm);
    int *scounts = g_new0(int, (gsize)size);
    int *rcounts = g_new0(int, (gsize)size);
    int *sdispls = g_new0(int, (gsize)size);
    int *rdispls = g_new0(int, (gsize)size);
    int edges = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < degrees[i]; k++, edges++) {
            scounts[sources[i]] += EDGE_INTS;
            scounts[destinations[edges]] += EDGE_INTS;
        }
    }
    int stotal = 0;
    for (int t = 0; t < size; t++) {
        sdispls[t] = stotal;
        stotal += scounts[t];
    }
    int *sbuf = g_new(int, (gsize)stotal + 1);
    int *fill = g_memdup2(sdispls, (gsize)size * sizeof(int));
    edges = 0;
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < degrees[i]; k++, edges++) {
            int s = sources[i], d = destinations[edges];
            int w = weighted ? weights[edges] : 1;
            int *out = sbuf + fill[s];
            fill[s] += EDGE_INTS;
            out[EDGE_DIRECTION] = EDGE_OUT, out[EDGE_PEER] = d, out[EDGE_WEIGHT] = w;
            int *in = sbuf + fill[d];
            fill[d] += EDGE_INTS;
            in[EDGE_DIRECTION] = EDGE_IN, in[EDGE_PEER] = s, in[EDGE_WEIGHT] = w;
        }
    }
    g_free(fill);

    int *rbuf = NULL;
    int rc = MPI_Alltoall(scounts, 1, MPI_INT, rcounts, 1, MPI_INT, comm);
    if (rc != MPI_SUCCESS)
        goto out_free;
    long long rtotal = 0;
    for (int t = 0; t < size; t++) {
        rdispls[t] = (int)rtotal;
        rtotal += rcounts[t];
        if (rtotal > INT_MAX) {
            rc = collsim_error(comm, MPI_ERR_ARG, "MPI_Dist_graph_create",
                               "a rank has too many neighbours");
            goto out_free;
        }
    }
    rbuf = g_new(int, (gsize)rtotal + 1);
    rc = MPI_Alltoallv(sbuf, scounts, sdispls, MPI_INT, rbuf, rcounts, rdispls, MPI_INT, comm);
    if (rc != MPI_SUCCESS)
        goto out_free;

    for (int e = 0; e < rtotal; e += EDGE_INTS) {
        if (rbuf[e + EDGE_DIRECTION] == EDGE_IN)
            adj->indegree++;
        else
            adj->outdegree++;
    }
    adj->sources = g_new(int, (gsize)adj->indegree + 1);
    adj->sourceweights = g_new(int, (gsize)adj->indegree + 1);
    adj->dests = g_new(int, (gsize)adj->outdegree + 1);
    adj->destweights = g_new(int, (gsize)adj->outdegree + 1);
    for (int e = 0, in = 0, out = 0; e < rtotal; e += EDGE_INTS) {
        if (rbuf[e + EDGE_DIRECTION] == EDGE_IN) {
            adj->sources[in] = rbuf[e + EDGE_PEER];
            adj->sourceweights[in++] = rbuf[e + EDGE_WEIGHT];
        } else {
            adj->dests[out] = rbuf[e + EDGE_PEER];
            adj->destweights[out++] = rbuf[e + EDGE_WEIGHT];
        }
    }
out_free:
    g_free(rbuf);
    g_free(sbuf);
    g_free(rdispls);
    g_free(sdispls);
    g_free(rcounts);
    g_free(scounts);
    return rc;
}

/* Each rank gives any edges of the graph; every rank learns its own neighbours. Collective. */
int
MPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                      const int destinations[], const int weights[], MPI_Info info, int reorder,
                      MPI_Comm *comm_dist_graph)
{
    const char *call = "MPI_Dist_graph_create";
    struct collsim_topo *old;
    int rc = topo_builder_comm(comm_old, call, &old);
    if (rc != MPI_SUCCESS)
        return rc;
    (void)reorder;
    int edges = 0, weighted = 0;
    int err = check_out(comm_old, comm_dist_graph, "comm_dist_graph", call);
    if (err == MPI_SUCCESS)
        err = check_dist_graph_args(comm_old, n, sources, degrees, destinations, weights, info,
                                    &edges, &weighted, call);
    /* a rank with invalid arguments still exchanges (nothing), so that no rank waits */
    struct topo_adjacency adj = {.weighted = weighted};
    rc = exchange_edges(comm_old, err == MPI_SUCCESS ? n : 0, sources, degrees, destinations,
                        weights, weighted, &adj);
    if (rc != MPI_SUCCESS) {
        adjacency_clear(&adj);
        return rc;
    }
    struct collsim_topo *mine = NULL;
    if (err == MPI_SUCCESS)
        mine = dist_mine(&adj);
    else
        adjacency_clear(&adj);
    int r = my_rank(comm_old);
    return topo_build(comm_old, call, 0, r, collsim_comm_size(comm_old), mine, err, comm_dist_graph,
                      COLLSIM_CALLER());
}

/* ---------------------------------------------------------------- mapping */

/* The rank comm's process would have in the grid (identity), MPI_UNDEFINED outside it. */
int
MPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank)
{
    const char *call = "MPI_Cart_map";
    struct collsim_topo *t;
    int rc = topo_comm(comm, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, newrank, "newrank", call);
    int n;
    if (rc == MPI_SUCCESS)
        rc = check_cart_args(comm, ndims, dims, periods, &n, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int r = my_rank(comm);
    *newrank = r < n ? r : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* The same for a graph of nnodes nodes. */
int
MPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank)
{
    const char *call = "MPI_Graph_map";
    struct collsim_topo *t;
    int rc = topo_comm(comm, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, newrank, "newrank", call);
    if (rc == MPI_SUCCESS && nnodes < 1)
        rc = collsim_error(comm, MPI_ERR_ARG, call, "nnodes %d (must be >= 1)", nnodes);
    if (rc == MPI_SUCCESS)
        rc = check_graph_args(comm, nnodes, index, edges, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int r = my_rank(comm);
    *newrank = r < nnodes ? r : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- queries */

int
MPI_Topo_test(MPI_Comm comm, int *status)
{
    const char *call = "MPI_Topo_test";
    struct collsim_topo *t;
    int rc = topo_comm(comm, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, status, "status", call);
    if (rc != MPI_SUCCESS)
        return rc;
    *status = t != NULL ? t->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

int
MPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    const char *call = "MPI_Cartdim_get";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, ndims, "ndims", call);
    if (rc != MPI_SUCCESS)
        return rc;
    *ndims = t->ndims;
    return MPI_SUCCESS;
}

/* maxdims must cover the grid's dimensions (the arrays are filled completely). */
static int
check_maxdims(MPI_Comm comm, const struct collsim_topo *t, int maxdims, const char *call)
{
    if (maxdims < t->ndims)
        return collsim_error(comm, MPI_ERR_ARG, call, "maxdims %d < the grid's %d dimensions",
                             maxdims, t->ndims);
    return MPI_SUCCESS;
}

int
MPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
    const char *call = "MPI_Cart_get";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_maxdims(comm, t, maxdims, call);
    if (rc == MPI_SUCCESS && t->ndims > 0) {
        rc = check_out(comm, dims, "dims", call);
        if (rc == MPI_SUCCESS)
            rc = check_out(comm, periods, "periods", call);
        if (rc == MPI_SUCCESS)
            rc = check_out(comm, coords, "coords", call);
    }
    if (rc != MPI_SUCCESS || t->ndims == 0)
        return rc;
    memcpy(dims, t->dims, (size_t)t->ndims * sizeof(int));
    memcpy(periods, t->periods, (size_t)t->ndims * sizeof(int));
    cart_coords(t, my_rank(comm), coords);
    return MPI_SUCCESS;
}

int
MPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    const char *call = "MPI_Cart_rank";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, rank, "rank", call);
    if (rc == MPI_SUCCESS && t->ndims > 0)
        rc = check_out(comm, coords, "coords", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int r = 0;
    for (int i = 0; i < t->ndims; i++) {
        int c = coords[i];
        if (t->periods[i]) {
            c %= t->dims[i];
            if (c < 0)
                c += t->dims[i];
        } else if (c < 0 || c >= t->dims[i]) {
            return collsim_error(comm, MPI_ERR_ARG, call,
                                 "coords[%d] = %d outside the non-periodic dimension 0..%d", i, c,
                                 t->dims[i] - 1);
        }
        r = r * t->dims[i] + c;
    }
    *rank = r;
    return MPI_SUCCESS;
}

int
MPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    const char *call = "MPI_Cart_coords";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= t->size))
        rc = collsim_error(comm, MPI_ERR_RANK, call, "rank %d is not in the grid (0..%d)", rank,
                           t->size - 1);
    if (rc == MPI_SUCCESS)
        rc = check_maxdims(comm, t, maxdims, call);
    if (rc == MPI_SUCCESS && t->ndims > 0)
        rc = check_out(comm, coords, "coords", call);
    if (rc != MPI_SUCCESS)
        return rc;
    cart_coords(t, rank, coords);
    return MPI_SUCCESS;
}

/* The ranks disp steps down and up dimension `direction`; MPI_PROC_NULL off a
 * non-periodic edge. */
int
MPI_Cart_shift(MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest)
{
    const char *call = "MPI_Cart_shift";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_CART, call, &t);
    if (rc == MPI_SUCCESS && (direction < 0 || direction >= t->ndims))
        rc = collsim_error(comm, MPI_ERR_DIMS, call,
                           "direction %d is not a dimension of the grid (0..%d)", direction,
                           t->ndims - 1);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, rank_source, "rank_source", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, rank_dest, "rank_dest", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int me = my_rank(comm);
    int *coords = g_new(int, (gsize)t->ndims);
    cart_coords(t, me, coords);
    int n = t->dims[direction];
    /* the rank of coords with dimension `direction` moved to c, or MPI_PROC_NULL */
    long long stride = 1;
    for (int i = t->ndims - 1; i > direction; i--)
        stride *= t->dims[i];
    long long c0 = coords[direction];
    int *out[2] = {rank_source, rank_dest};
    long long to[2] = {c0 - (long long)disp, c0 + (long long)disp};
    for (int k = 0; k < 2; k++) {
        long long c = to[k];
        if (t->periods[direction]) {
            c %= n;
            if (c < 0)
                c += n;
        }
        *out[k] = c < 0 || c >= n ? MPI_PROC_NULL : (int)(me + (c - c0) * stride);
    }
    g_free(coords);
    return MPI_SUCCESS;
}

int
MPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    const char *call = "MPI_Graphdims_get";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_GRAPH, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, nnodes, "nnodes", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, nedges, "nedges", call);
    if (rc != MPI_SUCCESS)
        return rc;
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}

/* The first maxindex entries of index and maxedges of edges. */
int
MPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
    const char *call = "MPI_Graph_get";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_GRAPH, call, &t);
    if (rc == MPI_SUCCESS && (maxindex < 0 || maxedges < 0))
        rc = collsim_error(comm, MPI_ERR_ARG, call, "negative maxindex %d or maxedges %d", maxindex,
                           maxedges);
    if (rc == MPI_SUCCESS && maxindex > 0)
        rc = check_out(comm, index, "index", call);
    if (rc == MPI_SUCCESS && maxedges > 0)
        rc = check_out(comm, edges, "edges", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int ni = MIN(maxindex, t->nnodes), ne = MIN(maxedges, t->nedges);
    if (ni > 0)
        memcpy(index, t->index, (size_t)ni * sizeof(int));
    if (ne > 0)
        memcpy(edges, t->edges, (size_t)ne * sizeof(int));
    return MPI_SUCCESS;
}

/* Graph node `rank`'s neighbours: *first their offset in edges[], *count how many. */
static int
graph_node(MPI_Comm comm, int rank, const char *call, const struct collsim_topo **topo, int *first,
           int *count)
{
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_GRAPH, call, &t);
    if (rc == MPI_SUCCESS && (rank < 0 || rank >= t->nnodes))
        rc = collsim_error(comm, MPI_ERR_RANK, call, "rank %d is not a node (0..%d)", rank,
                           t->nnodes - 1);
    if (rc != MPI_SUCCESS)
        return rc;
    *topo = t;
    *first = rank > 0 ? t->index[rank - 1] : 0;
    *count = t->index[rank] - *first;
    return MPI_SUCCESS;
}

int
MPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    const char *call = "MPI_Graph_neighbors_count";
    const struct collsim_topo *t;
    int first, count;
    int rc = graph_node(comm, rank, call, &t, &first, &count);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, nneighbors, "nneighbors", call);
    if (rc != MPI_SUCCESS)
        return rc;
    *nneighbors = count;
    return MPI_SUCCESS;
}

int
MPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
    const char *call = "MPI_Graph_neighbors";
    const struct collsim_topo *t;
    int first, count;
    int rc = graph_node(comm, rank, call, &t, &first, &count);
    if (rc == MPI_SUCCESS && maxneighbors < 0)
        rc = collsim_error(comm, MPI_ERR_ARG, call, "negative maxneighbors %d", maxneighbors);
    if (rc == MPI_SUCCESS && maxneighbors > 0)
        rc = check_out(comm, neighbors, "neighbors", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = MIN(maxneighbors, count);
    if (n > 0)
        memcpy(neighbors, t->edges + first, (size_t)n * sizeof(int));
    return MPI_SUCCESS;
}

int
MPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree, int *outdegree, int *weighted)
{
    const char *call = "MPI_Dist_graph_neighbors_count";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_DIST_GRAPH, call, &t);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, indegree, "indegree", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, outdegree, "outdegree", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, weighted, "weighted", call);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct topo_adjacency *a = &t->adj[my_rank(comm)];
    *indegree = a->indegree;
    *outdegree = a->outdegree;
    *weighted = a->weighted;
    return MPI_SUCCESS;
}

/* Copy min(max, degree) neighbours, and their weights when the graph has some and the caller
 * asks (weights not MPI_UNWEIGHTED). */
static int
copy_neighbors(MPI_Comm comm, int max, int ranks[], int weights[], const int *mine,
               const int *my_weights, int degree, int weighted, const char *what, const char *call)
{
    if (max < 0)
        return collsim_error(comm, MPI_ERR_ARG, call, "negative max%s %d", what, max);
    int n = MIN(max, degree);
    if (n == 0)
        return MPI_SUCCESS;
    if (ranks == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "the %s array is NULL", what);
    memcpy(ranks, mine, (size_t)n * sizeof(int));
    if (weighted && weights != MPI_UNWEIGHTED && weights != MPI_WEIGHTS_EMPTY) {
        if (weights == NULL)
            return collsim_error(comm, MPI_ERR_ARG, call, "the %s weights array is NULL", what);
        memcpy(weights, my_weights, (size_t)n * sizeof(int));
    }
    return MPI_SUCCESS;
}

int
MPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[],
                         int maxoutdegree, int destinations[], int destweights[])
{
    const char *call = "MPI_Dist_graph_neighbors";
    struct collsim_topo *t;
    int rc = topo_of_kind(comm, MPI_DIST_GRAPH, call, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    const struct topo_adjacency *a = &t->adj[my_rank(comm)];
    rc = copy_neighbors(comm, maxindegree, sources, sourceweights, a->sources, a->sourceweights,
                        a->indegree, a->weighted, "indegree", call);
    if (rc == MPI_SUCCESS)
        rc = copy_neighbors(comm, maxoutdegree, destinations, destweights, a->dests, a->destweights,
                            a->outdegree, a->weighted, "outdegree", call);
    return rc;
}

int
collsim_topo_degrees(MPI_Comm comm, int *indegree, int *outdegree)
{
    const struct collsim_topo *t = collsim_comm_visible(comm)->topo;
    if (t == NULL)
        return MPI_ERR_TOPOLOGY;
    switch (t->kind) {
    case MPI_CART:
        *indegree = *outdegree = 2 * t->ndims;
        break;
    case MPI_GRAPH: {
        int r = collsim_comm_my_rank(comm);
        *indegree = *outdegree = t->index[r] - (r > 0 ? t->index[r - 1] : 0);
        break;
    }
    default: {
        const struct topo_adjacency *a = &t->adj[collsim_comm_my_rank(comm)];
        *indegree = a->indegree;
        *outdegree = a->outdegree;
        break;
    }
    }
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- MPI_Dims_create */

/*
 * The search for the free dimensions: `parts` factors of n in non-increasing order, chosen so
 * that the largest minus the smallest is as small as possible, and among those the
 * lexicographically smallest (the smallest largest factor first). Factors come from the
 * divisors of the whole n, largest first.
 */
struct dims_search {
    int parts;
    const int *divisors; /* of the whole n, decreasing */
    int ndivisors;
    int *cur, *best;
    int best_spread; /* INT_MAX: none yet */
};

static gboolean
lexicographically_smaller(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i];
    return FALSE;
}

/* Choose factors depth.. of n, each at most cap. */
static void
dims_search(struct dims_search *s, int depth, int n, int cap)
{
    if (depth == s->parts - 1) {
        if (n > cap)
            return;
        s->cur[depth] = n;
        int spread = s->cur[0] - n;
        if (spread < s->best_spread ||
            (spread == s->best_spread && lexicographically_smaller(s->cur, s->best, s->parts))) {
            s->best_spread = spread;
            memcpy(s->best, s->cur, (size_t)s->parts * sizeof(int));
        }
        return;
    }
    int left = s->parts - depth; /* factors still to choose, this one included */
    for (int k = 0; k < s->ndivisors; k++) {
        int d = s->divisors[k];
        if (d > cap || n % d != 0)
            continue;
        /* the rest must fit under d (d^left >= n); a smaller d fits still less */
        long long pow = 1;
        for (int i = 0; i < left && pow < n; i++)
            pow *= d;
        if (pow < n)
            break;
        /* the smallest factor will be at most d: the spread at least first - d, and more
         * for every smaller d */
        if (s->best_spread != INT_MAX && (depth == 0 ? d : s->cur[0]) - d > s->best_spread)
            break;
        s->cur[depth] = d;
        dims_search(s, depth + 1, n / d, d);
    }
}

static gint
compare_decreasing(gconstpointer a, gconstpointer b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x < y) - (x > y);
}

/* The divisors of n, largest first. */
static GArray *
divisors_of(int n)
{
    GArray *d = g_array_new(FALSE, FALSE, sizeof(int));
    for (int i = 1; (long long)i * i <= n; i++) {
        if (n % i != 0)
            continue;
        g_array_append_val(d, i);
        int j = n / i;
        if (j != i)
            g_array_append_val(d, j);
    }
    g_array_sort(d, compare_decreasing);
    return d;
}

/*
 * Fill the zero entries of dims with a balanced factorisation of nnodes divided by the
 * product of the non-zero entries: dimensions as close to each other as possible, in
 * non-increasing order (MPI-3.1 §7.5.2). Dims_create(12, 2) = {4, 3}; (7, 2) = {7, 1};
 * (6, 3) with {0, 3, 0} = {2, 3, 1}.
 */
int
MPI_Dims_create(int nnodes, int ndims, int dims[])
{
    const char *call = "MPI_Dims_create";
    if (nnodes < 1)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "nnodes %d (must be >= 1)", nnodes);
    if (ndims < 0)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_DIMS, call, "negative ndims %d", ndims);
    if (ndims > 0 && dims == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "dims is NULL");
    long long fixed = 1;
    int free_dims = 0;
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return collsim_error(MPI_COMM_WORLD, MPI_ERR_DIMS, call, "dims[%d] = %d is negative", i,
                                 dims[i]);
        if (dims[i] == 0) {
            free_dims++;
            continue;
        }
        fixed *= dims[i];
        if (fixed > nnodes)
            break;
    }
    if (nnodes % fixed != 0 || (free_dims == 0 && fixed != nnodes))
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_DIMS, call,
                             "the fixed dimensions cannot make a grid of %d processes", nnodes);
    if (free_dims == 0)
        return MPI_SUCCESS;
    int n = (int)(nnodes / fixed);
    GArray *divisors = divisors_of(n);
    struct dims_search s = {.parts = free_dims,
                            .divisors = (const int *)(void *)divisors->data,
                            .ndivisors = (int)divisors->len,
                            .best_spread = INT_MAX};
    s.cur = g_new(int, (gsize)free_dims);
    s.best = g_new(int, (gsize)free_dims);
    dims_search(&s, 0, n, n);
    for (int i = 0, k = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = s.best[k++];
    g_free(s.best);
    g_free(s.cur);
    g_array_free(divisors, TRUE);
    return MPI_SUCCESS;
}
