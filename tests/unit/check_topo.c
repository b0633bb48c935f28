/*
 * check_topo.c — process topologies (src/topo.c) and the blocking neighbour collectives
 * (src/coll/neighbor/) against MPI-3.1 chapter 7, on simulated ranks.
 *
 * MPI_Dims_create needs no transport and runs directly. Everything else runs inside a
 * simulation started by collsim_test_run_ranks() (tests/unit/sim_harness.h); the rank
 * functions compare what they see with values worked out by hand and record the first
 * mismatch of each rank (EXPECT), and the assertions run afterwards, outside the simulation.
 * Every rank sets MPI_ERRORS_RETURN so that errors come back as codes.
 *
 * The grid of the Cartesian tests: 12 ranks, dims {4, 3}, periods {1, 0}; rank r sits at
 * (r / 3, r % 3). The graph: the standard's example, node 0 - {1, 3}, 1 - {0}, 2 - {3},
 * 3 - {0, 2} (symmetric, as neighbour collectives on a graph need).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "sim_harness.h"
#include "src/comm.h"

#define MAXR 16

/* The first failed expectation of each world rank ("" if none). */
static char failure[MAXR][160];

#define EXPECT(rank, cond)                                                                         \
    do {                                                                                           \
        if (!(cond) && failure[rank][0] == '\0')                                                   \
            snprintf(failure[rank], sizeof failure[rank], "line %d: %s", __LINE__, #cond);         \
    } while (0)

static void
reset(void)
{
    memset(failure, 0, sizeof failure);
}

static void
run(int nranks, collsim_test_rank_fn fn)
{
    reset();
    ck_assert_int_eq(collsim_test_run_ranks(nranks, fn, NULL), 0);
    for (int r = 0; r < nranks; r++)
        ck_assert_msg(failure[r][0] == '\0', "rank %d: %s", r, failure[r]);
}

static void
teardown_world(void)
{
    collsim_comm_world_teardown();
}

static void
errors_return(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

/* ---------------------------------------------------------------- MPI_Dims_create */

static void
expect_dims(int nnodes, int ndims, const int *given, const int *expected)
{
    int dims[8];
    memcpy(dims, given, (size_t)ndims * sizeof(int));
    ck_assert_int_eq(MPI_Dims_create(nnodes, ndims, dims), MPI_SUCCESS);
    for (int i = 0; i < ndims; i++)
        ck_assert_msg(dims[i] == expected[i], "Dims_create(%d, %d): dims[%d] = %d, expected %d",
                      nnodes, ndims, i, dims[i], expected[i]);
}

/* Balanced factorisations, worked out by listing every non-increasing factorisation and
 * taking the one whose largest and smallest factors are closest. */
START_TEST(test_topo_dims_create_balances)
{
    collsim_comm_world_setup(1);
    errors_return();
    expect_dims(12, 2, (int[]){0, 0}, (int[]){4, 3});
    expect_dims(7, 2, (int[]){0, 0}, (int[]){7, 1});
    expect_dims(6, 3, (int[]){0, 3, 0}, (int[]){2, 3, 1});
    expect_dims(16, 3, (int[]){0, 0, 0}, (int[]){4, 2, 2}); /* not 4x4x1 */
    expect_dims(24, 2, (int[]){0, 0}, (int[]){6, 4});
    expect_dims(72, 3, (int[]){0, 0, 0}, (int[]){6, 4, 3});
    expect_dims(12, 3, (int[]){0, 0, 0}, (int[]){3, 2, 2});
    expect_dims(1, 3, (int[]){0, 0, 0}, (int[]){1, 1, 1});
    expect_dims(8, 2, (int[]){0, 4}, (int[]){2, 4});
    expect_dims(6, 2, (int[]){2, 3}, (int[]){2, 3}); /* nothing to fill */
    expect_dims(30, 4, (int[]){0, 0, 0, 0}, (int[]){5, 3, 2, 1});
    expect_dims(1000000, 2, (int[]){0, 0}, (int[]){1000, 1000});
    ck_assert_int_eq(MPI_Dims_create(1, 0, NULL), MPI_SUCCESS);
}
END_TEST

START_TEST(test_topo_dims_create_errors)
{
    collsim_comm_world_setup(1);
    errors_return();
    int dims[3] = {2, 0};
    ck_assert_int_eq(MPI_Dims_create(7, 2, dims), MPI_ERR_DIMS);          /* 2 does not divide 7 */
    ck_assert_int_eq(MPI_Dims_create(6, 2, (int[]){2, 2}), MPI_ERR_DIMS); /* 4 != 6 */
    ck_assert_int_eq(MPI_Dims_create(6, 2, (int[]){-1, 0}), MPI_ERR_DIMS);
    ck_assert_int_eq(MPI_Dims_create(6, -1, dims), MPI_ERR_DIMS);
    ck_assert_int_eq(MPI_Dims_create(2, 0, NULL), MPI_ERR_DIMS);
    ck_assert_int_eq(MPI_Dims_create(0, 2, dims), MPI_ERR_ARG);
    ck_assert_int_eq(MPI_Dims_create(6, 2, NULL), MPI_ERR_ARG);
}
END_TEST

/* ---------------------------------------------------------------- Cartesian */

/* The grid's rank at (i, j), by hand: dimension 0 periodic (4), dimension 1 not (3). */
static int
grid_rank(int i, int j)
{
    if (j < 0 || j > 2)
        return MPI_PROC_NULL;
    return ((i % 4 + 4) % 4) * 3 + j;
}

static void
cart_queries(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm cart, dup;
    int status, n, dims[2], periods[2], coords[2], r, src, dst;
    EXPECT(rank, MPI_Topo_test(MPI_COMM_WORLD, &status) == MPI_SUCCESS && status == MPI_UNDEFINED);
    EXPECT(rank, MPI_Cartdim_get(MPI_COMM_WORLD, &n) == MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){4, 3}, (int[]){1, 0}, 1, &cart) ==
                     MPI_SUCCESS);
    EXPECT(rank, MPI_Topo_test(cart, &status) == MPI_SUCCESS && status == MPI_CART);
    EXPECT(rank, MPI_Cartdim_get(cart, &n) == MPI_SUCCESS && n == 2);
    EXPECT(rank, MPI_Comm_rank(cart, &r) == MPI_SUCCESS && r == rank); /* no reordering */
    EXPECT(rank, MPI_Cart_get(cart, 2, dims, periods, coords) == MPI_SUCCESS);
    EXPECT(rank, dims[0] == 4 && dims[1] == 3 && periods[0] == 1 && periods[1] == 0);
    EXPECT(rank, coords[0] == rank / 3 && coords[1] == rank % 3);
    EXPECT(rank, MPI_Cart_get(cart, 1, dims, periods, coords) == MPI_ERR_ARG);

    EXPECT(rank, MPI_Cart_rank(cart, (int[]){1, 2}, &r) == MPI_SUCCESS && r == 5);
    EXPECT(rank, MPI_Cart_rank(cart, (int[]){-1, 0}, &r) == MPI_SUCCESS && r == 9);
    EXPECT(rank, MPI_Cart_rank(cart, (int[]){5, 1}, &r) == MPI_SUCCESS && r == 4);
    EXPECT(rank, MPI_Cart_rank(cart, (int[]){0, 3}, &r) == MPI_ERR_ARG);
    EXPECT(rank, MPI_Cart_rank(cart, (int[]){0, -1}, &r) == MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Cart_coords(cart, 7, 2, coords) == MPI_SUCCESS && coords[0] == 2 && coords[1] == 1);
    EXPECT(rank, MPI_Cart_coords(cart, 12, 2, coords) == MPI_ERR_RANK);
    EXPECT(rank, MPI_Cart_coords(cart, -1, 2, coords) == MPI_ERR_RANK);

    int i = rank / 3, j = rank % 3;
    EXPECT(rank, MPI_Cart_shift(cart, 0, 1, &src, &dst) == MPI_SUCCESS);
    EXPECT(rank, src == grid_rank(i - 1, j) && dst == grid_rank(i + 1, j));
    EXPECT(rank, MPI_Cart_shift(cart, 1, 1, &src, &dst) == MPI_SUCCESS);
    EXPECT(rank, src == grid_rank(i, j - 1) && dst == grid_rank(i, j + 1));
    EXPECT(rank, MPI_Cart_shift(cart, 1, 2, &src, &dst) == MPI_SUCCESS);
    EXPECT(rank, src == grid_rank(i, j - 2) && dst == grid_rank(i, j + 2));
    EXPECT(rank, MPI_Cart_shift(cart, 0, -5, &src, &dst) == MPI_SUCCESS);
    EXPECT(rank, src == grid_rank(i + 5, j) && dst == grid_rank(i - 5, j));
    EXPECT(rank,
           MPI_Cart_shift(cart, 0, 0, &src, &dst) == MPI_SUCCESS && src == rank && dst == rank);
    EXPECT(rank, MPI_Cart_shift(cart, 2, 1, &src, &dst) == MPI_ERR_DIMS);
    EXPECT(rank, MPI_Cart_shift(cart, -1, 1, &src, &dst) == MPI_ERR_DIMS);

    EXPECT(rank, MPI_Cart_map(MPI_COMM_WORLD, 2, (int[]){2, 3}, (int[]){0, 0}, &r) == MPI_SUCCESS);
    EXPECT(rank, r == (rank < 6 ? rank : MPI_UNDEFINED));
    EXPECT(rank, MPI_Cart_map(MPI_COMM_WORLD, 2, (int[]){5, 3}, (int[]){0, 0}, &r) == MPI_ERR_DIMS);
    EXPECT(rank, MPI_Cart_map(MPI_COMM_WORLD, 1, (int[]){0}, (int[]){0}, &r) == MPI_ERR_DIMS);

    /* MPI_Comm_dup copies the topology; it outlives the original */
    EXPECT(rank, MPI_Comm_dup(cart, &dup) == MPI_SUCCESS);
    EXPECT(rank, MPI_Comm_free(&cart) == MPI_SUCCESS);
    EXPECT(rank, MPI_Topo_test(dup, &status) == MPI_SUCCESS && status == MPI_CART);
    EXPECT(rank, MPI_Cart_get(dup, 2, dims, periods, coords) == MPI_SUCCESS);
    EXPECT(rank, dims[0] == 4 && dims[1] == 3 && periods[0] == 1 && periods[1] == 0);
    EXPECT(rank,
           MPI_Cart_shift(dup, 0, 1, &src, &dst) == MPI_SUCCESS && dst == grid_rank(i + 1, j));
    EXPECT(rank, MPI_Comm_free(&dup) == MPI_SUCCESS);
    /* a split communicator carries none */
    MPI_Comm split;
    EXPECT(rank, MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split) == MPI_SUCCESS);
    EXPECT(rank, MPI_Topo_test(split, &status) == MPI_SUCCESS && status == MPI_UNDEFINED);
    MPI_Comm_free(&split);
}

START_TEST(test_topo_cart_queries)
{
    run(12, cart_queries);
    ck_assert_int_eq(collsim_comm_live_count(), 0); /* every topology communicator freed */
}
END_TEST

static void
cart_create_sizes_and_errors(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm cart = MPI_COMM_WORLD;
    int size, ndims;
    /* a grid of 10 on 12 ranks: ranks 10 and 11 are left out */
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){2, 5}, (int[]){0, 0}, 0, &cart) ==
                     MPI_SUCCESS);
    if (rank >= 10) {
        EXPECT(rank, cart == MPI_COMM_NULL);
    } else {
        EXPECT(rank,
               cart != MPI_COMM_NULL && MPI_Comm_size(cart, &size) == MPI_SUCCESS && size == 10);
        MPI_Comm_free(&cart);
    }
    /* a zero-dimensional grid: one process */
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &cart) == MPI_SUCCESS);
    if (rank == 0) {
        EXPECT(rank, MPI_Cartdim_get(cart, &ndims) == MPI_SUCCESS && ndims == 0);
        MPI_Comm_free(&cart);
    } else {
        EXPECT(rank, cart == MPI_COMM_NULL);
    }
    /* every rank's own arguments are wrong: each reports, none waits, and gets MPI_COMM_NULL
     * (MPICH's errors/topo/cartsmall) */
    cart = MPI_COMM_WORLD;
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){4, 4}, (int[]){0, 0}, 0, &cart) ==
                     MPI_ERR_DIMS);
    EXPECT(rank, cart == MPI_COMM_NULL);
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){0, 3}, (int[]){0, 0}, 0, &cart) ==
                     MPI_ERR_DIMS);
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, -1, NULL, NULL, 0, &cart) == MPI_ERR_DIMS);
    EXPECT(rank, MPI_Cart_create(MPI_COMM_WORLD, 2, NULL, (int[]){0, 0}, 0, &cart) == MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){2}, (int[]){0}, 0, NULL) == MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Cart_create(MPI_COMM_NULL, 1, (int[]){2}, (int[]){0}, 0, &cart) == MPI_ERR_COMM);
    /* one rank's arguments differ: it reports MPI_ERR_DIMS, the others see the disagreement */
    int bad = rank == 3;
    cart = MPI_COMM_WORLD;
    int rc = MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){bad ? 0 : 4, 3}, (int[]){0, 0}, 0, &cart);
    EXPECT(rank, rc == (bad ? MPI_ERR_DIMS : MPI_ERR_TOPOLOGY));
    EXPECT(rank, cart == MPI_COMM_NULL);
    /* the periods differ on one rank */
    rc = MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){12}, (int[]){rank == 5}, 0, &cart);
    if (rc == MPI_SUCCESS)
        MPI_Comm_free(&cart);
    EXPECT(rank, rc == MPI_SUCCESS || rc == MPI_ERR_TOPOLOGY);
    int rcs[MAXR];
    MPI_Allgather(&rc, 1, MPI_INT, rcs, 1, MPI_INT, MPI_COMM_WORLD);
    int failed = 0;
    for (int r = 0; r < 12; r++)
        failed += rcs[r] == MPI_ERR_TOPOLOGY;
    EXPECT(rank, failed >= 1); /* whoever attached second saw the difference */
}

START_TEST(test_topo_cart_create_sizes_and_errors)
{
    run(12, cart_create_sizes_and_errors);
}
END_TEST

static void
cart_sub(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm cart, row, col, point;
    int size, r, ndims, dims[2], periods[2], coords[2];
    MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){4, 3}, (int[]){1, 0}, 0, &cart);
    EXPECT(rank, MPI_Cart_sub(cart, (int[]){0, 1}, &row) == MPI_SUCCESS);
    EXPECT(rank, MPI_Comm_size(row, &size) == MPI_SUCCESS && size == 3);
    EXPECT(rank, MPI_Comm_rank(row, &r) == MPI_SUCCESS && r == rank % 3);
    EXPECT(rank, MPI_Cart_get(row, 1, dims, periods, coords) == MPI_SUCCESS);
    EXPECT(rank, dims[0] == 3 && periods[0] == 0 && coords[0] == rank % 3);
    EXPECT(rank, MPI_Cart_sub(cart, (int[]){1, 0}, &col) == MPI_SUCCESS);
    EXPECT(rank, MPI_Comm_size(col, &size) == MPI_SUCCESS && size == 4);
    EXPECT(rank, MPI_Comm_rank(col, &r) == MPI_SUCCESS && r == rank / 3);
    EXPECT(rank, MPI_Cart_get(col, 1, dims, periods, coords) == MPI_SUCCESS);
    EXPECT(rank, dims[0] == 4 && periods[0] == 1 && coords[0] == rank / 3);
    /* the column's members: same j, ranks j, j + 3, j + 6, j + 9 */
    int world = -1;
    MPI_Allreduce(&rank, &world, 1, MPI_INT, MPI_SUM, col);
    EXPECT(rank, world == 4 * (rank % 3) + 18);
    EXPECT(rank, MPI_Cart_sub(cart, (int[]){0, 0}, &point) == MPI_SUCCESS);
    EXPECT(rank, MPI_Comm_size(point, &size) == MPI_SUCCESS && size == 1);
    EXPECT(rank, MPI_Cartdim_get(point, &ndims) == MPI_SUCCESS && ndims == 0);
    MPI_Comm_free(&point);
    EXPECT(rank, MPI_Cart_sub(MPI_COMM_WORLD, (int[]){1, 0}, &point) == MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Cart_sub(cart, NULL, &point) == MPI_ERR_ARG);
    EXPECT(rank, point == MPI_COMM_NULL);
    MPI_Comm_free(&col);
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
}

START_TEST(test_topo_cart_sub)
{
    run(12, cart_sub);
}
END_TEST

/* ---------------------------------------------------------------- graph */

static const int graph_index[4] = {2, 3, 4, 6};
static const int graph_edges[6] = {1, 3, 0, 3, 0, 2};

static void
graph_queries(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm graph, dup;
    int status, nnodes, nedges, index[4], edges[6], n, nb[2], r;
    EXPECT(rank,
           MPI_Graph_create(MPI_COMM_WORLD, 4, graph_index, graph_edges, 0, &graph) == MPI_SUCCESS);
    EXPECT(rank, MPI_Topo_test(graph, &status) == MPI_SUCCESS && status == MPI_GRAPH);
    EXPECT(rank,
           MPI_Graphdims_get(graph, &nnodes, &nedges) == MPI_SUCCESS && nnodes == 4 && nedges == 6);
    EXPECT(rank, MPI_Graph_get(graph, 4, 6, index, edges) == MPI_SUCCESS);
    EXPECT(rank, memcmp(index, graph_index, sizeof index) == 0 &&
                     memcmp(edges, graph_edges, sizeof edges) == 0);
    EXPECT(rank, MPI_Graph_neighbors_count(graph, 3, &n) == MPI_SUCCESS && n == 2);
    EXPECT(rank, MPI_Graph_neighbors_count(graph, 1, &n) == MPI_SUCCESS && n == 1);
    EXPECT(rank, MPI_Graph_neighbors(graph, 3, 2, nb) == MPI_SUCCESS && nb[0] == 0 && nb[1] == 2);
    EXPECT(rank, MPI_Graph_neighbors(graph, 0, 2, nb) == MPI_SUCCESS && nb[0] == 1 && nb[1] == 3);
    EXPECT(rank, MPI_Graph_neighbors(graph, 4, 2, nb) == MPI_ERR_RANK);
    EXPECT(rank, MPI_Graph_neighbors_count(graph, -1, &n) == MPI_ERR_RANK);
    EXPECT(rank,
           MPI_Graph_map(MPI_COMM_WORLD, 3, graph_index, (int[]){1, 2, 0, 0}, &r) == MPI_SUCCESS);
    EXPECT(rank, r == (rank < 3 ? rank : MPI_UNDEFINED));
    EXPECT(rank, MPI_Graph_map(MPI_COMM_WORLD, 5, graph_index, graph_edges, &r) == MPI_ERR_ARG);
    EXPECT(rank, MPI_Graphdims_get(MPI_COMM_WORLD, &nnodes, &nedges) == MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Cart_shift(graph, 0, 1, &nb[0], &nb[1]) == MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Dist_graph_neighbors_count(graph, &n, &n, &n) == MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Comm_dup(graph, &dup) == MPI_SUCCESS);
    EXPECT(rank, MPI_Graph_neighbors(dup, 3, 2, nb) == MPI_SUCCESS && nb[0] == 0 && nb[1] == 2);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&graph);

    /* a graph of 3 nodes on 4 ranks: rank 3 is left out */
    EXPECT(rank, MPI_Graph_create(MPI_COMM_WORLD, 3, (int[]){1, 2, 3}, (int[]){1, 2, 0}, 0,
                                  &graph) == MPI_SUCCESS);
    EXPECT(rank, (graph == MPI_COMM_NULL) == (rank == 3));
    if (graph != MPI_COMM_NULL)
        MPI_Comm_free(&graph);
    /* no nodes: nobody gets a communicator */
    EXPECT(rank, MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &graph) == MPI_SUCCESS &&
                     graph == MPI_COMM_NULL);
    EXPECT(rank, MPI_Graph_create(MPI_COMM_WORLD, 4, graph_index, (int[]){1, 3, 0, 4, 0, 2}, 0,
                                  &graph) == MPI_ERR_RANK);
    EXPECT(rank, MPI_Graph_create(MPI_COMM_WORLD, 4, (int[]){2, 1, 4, 6}, graph_edges, 0, &graph) ==
                     MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Graph_create(MPI_COMM_WORLD, 5, graph_index, graph_edges, 0, &graph) == MPI_ERR_ARG);
    EXPECT(rank, MPI_Graph_create(MPI_COMM_WORLD, -1, graph_index, graph_edges, 0, &graph) ==
                     MPI_ERR_ARG);
}

START_TEST(test_topo_graph_queries)
{
    run(4, graph_queries);
}
END_TEST

/* ---------------------------------------------------------------- distributed graph */

static void
dist_graph_adjacent(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm g, dup;
    int in, out, weighted, status;
    /* out: r -> r+1 (weight 7), r -> r+2 (weight 8); in: from r-1 (10r), from r-2 (10r+1) */
    int sources[2] = {(rank + 3) % 4, (rank + 2) % 4}, sw[2] = {10 * rank, 10 * rank + 1};
    int dests[2] = {(rank + 1) % 4, (rank + 2) % 4}, dw[2] = {7, 8};
    EXPECT(rank, MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, sw, 2, dests, dw,
                                                MPI_INFO_NULL, 0, &g) == MPI_SUCCESS);
    EXPECT(rank, MPI_Topo_test(g, &status) == MPI_SUCCESS && status == MPI_DIST_GRAPH);
    EXPECT(rank, MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted) == MPI_SUCCESS &&
                     in == 2 && out == 2 && weighted == 1);
    int s[2], w1[2], d[2], w2[2];
    EXPECT(rank, MPI_Dist_graph_neighbors(g, 2, s, w1, 2, d, w2) == MPI_SUCCESS);
    EXPECT(rank, s[0] == (rank + 3) % 4 && s[1] == (rank + 2) % 4 && w1[0] == 10 * rank &&
                     w1[1] == 10 * rank + 1);
    EXPECT(rank, d[0] == (rank + 1) % 4 && d[1] == (rank + 2) % 4 && w2[0] == 7 && w2[1] == 8);
    /* a shorter array gets the first neighbours only */
    s[1] = -9;
    EXPECT(rank, MPI_Dist_graph_neighbors(g, 1, s, MPI_UNWEIGHTED, 0, NULL, NULL) == MPI_SUCCESS &&
                     s[0] == (rank + 3) % 4 && s[1] == -9);
    /* a block sent to destination i is received in the slot of its source */
    int send[2] = {rank * 10, rank * 10 + 1}, recv[2] = {-1, -1};
    EXPECT(rank, MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, g) == MPI_SUCCESS);
    EXPECT(rank, recv[0] == ((rank + 3) % 4) * 10 && recv[1] == ((rank + 2) % 4) * 10 + 1);
    EXPECT(rank, MPI_Comm_dup(g, &dup) == MPI_SUCCESS);
    MPI_Comm_free(&g);
    EXPECT(rank, MPI_Dist_graph_neighbors(dup, 2, s, w1, 2, d, w2) == MPI_SUCCESS &&
                     s[1] == (rank + 2) % 4 && w2[1] == 8);
    MPI_Comm_free(&dup);

    /* unweighted: weighted is 0 and weight arrays stay untouched */
    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 1, &g) == MPI_SUCCESS);
    w1[0] = -5;
    EXPECT(rank, MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted) == MPI_SUCCESS &&
                     in == 1 && out == 0 && weighted == 0);
    EXPECT(rank, MPI_Dist_graph_neighbors(g, 1, s, w1, 0, d, w2) == MPI_SUCCESS &&
                     s[0] == (rank + 3) % 4 && w1[0] == -5);
    MPI_Comm_free(&g);
    /* no edges at all, with MPI_WEIGHTS_EMPTY */
    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_WEIGHTS_EMPTY, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g) == MPI_SUCCESS);
    EXPECT(rank, MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted) == MPI_SUCCESS &&
                     in == 0 && out == 0 && weighted == 1);
    MPI_Comm_free(&g);

    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, (int[]){4}, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) == MPI_ERR_RANK);
    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, -1, NULL, MPI_UNWEIGHTED, 0, NULL,
                                          MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g) == MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, (int[]){-1}, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g) == MPI_ERR_ARG);
    EXPECT(rank,
           MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, sources, MPI_WEIGHTS_EMPTY, 0, NULL,
                                          MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g) == MPI_ERR_ARG);
    EXPECT(rank, MPI_Dist_graph_neighbors_count(MPI_COMM_WORLD, &in, &out, &weighted) ==
                     MPI_ERR_TOPOLOGY);
}

START_TEST(test_topo_dist_graph_adjacent)
{
    run(4, dist_graph_adjacent);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
}
END_TEST

/*
 * The general form, on 4 ranks: rank 0 gives 3 -> 1 (weight 5) and 0 -> 1 (6); rank 2 gives
 * 2 -> 1 (7) and 1 -> 0 (8); ranks 1 and 3 give nothing. Kept in the order of the giving rank,
 * then of its arguments: rank 1 has sources {3, 0, 2} (5, 6, 7) and destination {0} (8);
 * rank 0 source {1} (8), destination {1} (6); ranks 2 and 3 destination {1} only.
 */
static void
dist_graph_general(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm g;
    static const int n[4] = {2, 0, 2, 0};
    static const int src[4][2] = {{3, 0}, {0}, {2, 1}, {0}};
    static const int w[4][2] = {{5, 6}, {0}, {7, 8}, {0}};
    static const int dst[4][2] = {{1, 1}, {0}, {1, 0}, {0}};
    EXPECT(rank, MPI_Dist_graph_create(MPI_COMM_WORLD, n[rank], src[rank], (int[]){1, 1}, dst[rank],
                                       w[rank], MPI_INFO_NULL, 0, &g) == MPI_SUCCESS);
    static const int indeg[4] = {1, 3, 0, 0}, outdeg[4] = {1, 1, 1, 1};
    static const int ins[4][3] = {{1}, {3, 0, 2}, {0}, {0}}, inw[4][3] = {{8}, {5, 6, 7}, {0}, {0}};
    static const int outs[4] = {1, 0, 1, 1}, outw[4] = {6, 8, 7, 5};
    int in, out, weighted, s[3] = {0}, sw[3] = {0}, d = -1, dw = -1;
    EXPECT(rank, MPI_Dist_graph_neighbors_count(g, &in, &out, &weighted) == MPI_SUCCESS);
    EXPECT(rank, in == indeg[rank] && out == outdeg[rank] && weighted == 1);
    EXPECT(rank, MPI_Dist_graph_neighbors(g, 3, s, sw, 1, &d, &dw) == MPI_SUCCESS);
    EXPECT(rank, memcmp(s, ins[rank], sizeof s) == 0 && memcmp(sw, inw[rank], sizeof sw) == 0);
    EXPECT(rank, d == outs[rank] && dw == outw[rank]);
    /* allgather of r·r + 1 along the edges: rank 1 gets {10, 1, 5}, rank 0 {2} */
    int mine = rank * rank + 1, got[3] = {-1, -1, -1};
    EXPECT(rank, MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g) == MPI_SUCCESS);
    if (rank == 1)
        EXPECT(rank, got[0] == 10 && got[1] == 1 && got[2] == 5);
    else if (rank == 0)
        EXPECT(rank, got[0] == 2 && got[1] == -1);
    else
        EXPECT(rank, got[0] == -1);
    MPI_Comm_free(&g);

    /* rank 0 names rank 4: it reports MPI_ERR_RANK, the others the missing member */
    int bad_dest = rank == 0 ? 4 : 0;
    int rc = MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, (int[]){1}, &bad_dest, MPI_UNWEIGHTED,
                                   MPI_INFO_NULL, 0, &g);
    EXPECT(rank, rc == (rank == 0 ? MPI_ERR_RANK : MPI_ERR_TOPOLOGY));
    EXPECT(rank, MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &rank, (int[]){-1}, NULL, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &g) == MPI_ERR_ARG);
    EXPECT(rank, MPI_Dist_graph_create(MPI_COMM_WORLD, -1, NULL, NULL, NULL, MPI_UNWEIGHTED,
                                       MPI_INFO_NULL, 0, &g) == MPI_ERR_ARG);
}

START_TEST(test_topo_dist_graph_general)
{
    run(4, dist_graph_general);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
}
END_TEST

/* ---------------------------------------------------------------- neighbour collectives */

static void
neighbor_cart(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 2, (int[]){4, 3}, (int[]){1, 0}, 0, &cart);
    int i = rank / 3, j = rank % 3;
    /* neighbours in MPI's order: dimension 0 down, up, dimension 1 down, up */
    int nb[4] = {grid_rank(i - 1, j), grid_rank(i + 1, j), grid_rank(i, j - 1),
                 grid_rank(i, j + 1)};
    int send[4], recv[4];
    for (int k = 0; k < 4; k++) {
        send[k] = rank * 10 + k;
        recv[k] = -1;
    }
    EXPECT(rank, MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, cart) == MPI_SUCCESS);
    /* from the down neighbour what it sent up (block 2d + 1), and the other way round */
    for (int k = 0; k < 4; k++)
        EXPECT(rank, recv[k] == (nb[k] == MPI_PROC_NULL ? -1 : nb[k] * 10 + (k ^ 1)));

    for (int k = 0; k < 4; k++)
        recv[k] = -1;
    EXPECT(rank, MPI_Neighbor_allgather(&rank, 1, MPI_INT, recv, 1, MPI_INT, cart) == MPI_SUCCESS);
    for (int k = 0; k < 4; k++)
        EXPECT(rank, recv[k] == (nb[k] == MPI_PROC_NULL ? -1 : nb[k]));

    /* allgatherv: neighbour k's rank lands at item 3 - k of a reversed layout, 1 item each */
    int counts[4] = {1, 1, 1, 1}, displs[4] = {3, 2, 1, 0};
    for (int k = 0; k < 4; k++)
        recv[k] = -1;
    EXPECT(rank, MPI_Neighbor_allgatherv(&rank, 1, MPI_INT, recv, counts, displs, MPI_INT, cart) ==
                     MPI_SUCCESS);
    for (int k = 0; k < 4; k++)
        EXPECT(rank, recv[3 - k] == (nb[k] == MPI_PROC_NULL ? -1 : nb[k]));

    /* a dimension of size 1, periodic: both neighbours are the rank itself */
    MPI_Comm ring1;
    if (MPI_Cart_create(MPI_COMM_WORLD, 1, (int[]){1}, (int[]){1}, 0, &ring1) == MPI_SUCCESS &&
        ring1 != MPI_COMM_NULL) {
        int two[2] = {100, 101}, back[2] = {-1, -1};
        EXPECT(rank,
               MPI_Neighbor_alltoall(two, 1, MPI_INT, back, 1, MPI_INT, ring1) == MPI_SUCCESS);
        EXPECT(rank, back[0] == 101 && back[1] == 100);
        MPI_Comm_free(&ring1);
    }

    EXPECT(rank, MPI_Neighbor_alltoall(send, 1, MPI_INT, recv, 1, MPI_INT, MPI_COMM_WORLD) ==
                     MPI_ERR_TOPOLOGY);
    EXPECT(rank, MPI_Neighbor_allgather(MPI_IN_PLACE, 1, MPI_INT, recv, 1, MPI_INT, cart) ==
                     MPI_ERR_BUFFER);
    EXPECT(rank, MPI_Neighbor_alltoall(send, -1, MPI_INT, recv, 1, MPI_INT, cart) == MPI_ERR_COUNT);
    EXPECT(rank, MPI_Neighbor_alltoallv(send, NULL, NULL, MPI_INT, recv, counts, displs, MPI_INT,
                                        cart) == MPI_ERR_ARG);
    MPI_Comm_free(&cart);
}

START_TEST(test_topo_neighbor_cartesian)
{
    run(12, neighbor_cart);
}
END_TEST

/* Items on edge a -> b of the graph: 1 + (a + b) % 2, the same seen from both ends. */
static int
edge_items(int a, int b)
{
    return 1 + (a + b) % 2;
}

static void
neighbor_graph(int rank, void *arg)
{
    (void)arg;
    errors_return();
    MPI_Comm graph;
    MPI_Graph_create(MPI_COMM_WORLD, 4, graph_index, graph_edges, 0, &graph);
    int first = rank > 0 ? graph_index[rank - 1] : 0, n = graph_index[rank] - first;
    const int *nb = graph_edges + first;

    int got[2] = {-1, -1}, mine = rank + 100;
    EXPECT(rank, MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, graph) == MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        EXPECT(rank, got[k] == nb[k] + 100);

    /* alltoallv: item q on edge a -> b is a·100 + b·10 + q */
    int sc[2], sd[2], rcnt[2], rd[2], sbuf[4], rbuf[4] = {-1, -1, -1, -1}, at = 0, rat = 0;
    for (int k = 0; k < n; k++) {
        sc[k] = rcnt[k] = edge_items(rank, nb[k]);
        sd[k] = at;
        rd[k] = rat;
        for (int q = 0; q < sc[k]; q++)
            sbuf[at++] = rank * 100 + nb[k] * 10 + q;
        rat += rcnt[k];
    }
    EXPECT(rank, MPI_Neighbor_alltoallv(sbuf, sc, sd, MPI_INT, rbuf, rcnt, rd, MPI_INT, graph) ==
                     MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        for (int q = 0; q < rcnt[k]; q++)
            EXPECT(rank, rbuf[rd[k] + q] == nb[k] * 100 + rank * 10 + q);

    /* alltoallw: the same exchange with byte displacements, receiving into the reverse order */
    MPI_Aint swd[2], rwd[2];
    MPI_Datatype types[2] = {MPI_INT, MPI_INT};
    for (int k = 0; k < n; k++) {
        swd[k] = (MPI_Aint)(sd[k] * (int)sizeof(int));
        rwd[k] = (MPI_Aint)((rat - rd[k] - rcnt[k]) * (int)sizeof(int));
    }
    for (int q = 0; q < 4; q++)
        rbuf[q] = -1;
    EXPECT(rank, MPI_Neighbor_alltoallw(sbuf, sc, swd, types, rbuf, rcnt, rwd, types, graph) ==
                     MPI_SUCCESS);
    for (int k = 0; k < n; k++)
        for (int q = 0; q < rcnt[k]; q++)
            EXPECT(rank, rbuf[rat - rd[k] - rcnt[k] + q] == nb[k] * 100 + rank * 10 + q);
    MPI_Comm_free(&graph);
}

START_TEST(test_topo_neighbor_graph)
{
    run(4, neighbor_graph);
}
END_TEST

static Suite *
topo_suite(void)
{
    Suite *s = suite_create("topo");
    TCase *pure = tcase_create("dims_create");
    tcase_add_checked_fixture(pure, NULL, teardown_world);
    tcase_add_test(pure, test_topo_dims_create_balances);
    tcase_add_test(pure, test_topo_dims_create_errors);
    suite_add_tcase(s, pure);
    TCase *tc = tcase_create("simulated");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, NULL, teardown_world);
    tcase_add_test(tc, test_topo_cart_queries);
    tcase_add_test(tc, test_topo_cart_create_sizes_and_errors);
    tcase_add_test(tc, test_topo_cart_sub);
    tcase_add_test(tc, test_topo_graph_queries);
    tcase_add_test(tc, test_topo_dist_graph_adjacent);
    tcase_add_test(tc, test_topo_dist_graph_general);
    tcase_add_test(tc, test_topo_neighbor_cartesian);
    tcase_add_test(tc, test_topo_neighbor_graph);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(topo_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
