/*
 * topology.c — a real MPI program on process topologies, run unchanged under Open MPI and
 * under collsim by test_realmpi_topology.sh, which compares what rank 0 prints.
 *
 *  1. A 2-D periodic Cartesian grid from MPI_Dims_create, and a halo exchange with
 *     MPI_Neighbor_alltoall: rank r sends, towards each of its 4 neighbours i (dimension 0
 *     down, up, dimension 1 down, up), the pair (r, i). What arrives from the neighbour in
 *     slot 2d is what that neighbour sent up dimension d (i = 2d + 1), and from slot 2d + 1
 *     what it sent down (i = 2d), which the program checks itself against MPI_Cart_shift.
 *  2. A ring built with the general MPI_Dist_graph_create (rank r gives the one edge
 *     r -> r + 1), then MPI_Neighbor_allgather of r·r: each rank receives (r - 1)².
 *  3. MPI_Cart_sub into rows, and the rows' sizes.
 *
 * Only standard MPI calls; rank 0 prints everything, in rank order.
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

#define TAG_REPORT 77

static int rank, size;

/* Rank 0 prints `line` of every rank, in rank order. */
static void
report(const char *line)
{
    char buf[256];
    if (rank != 0) {
        MPI_Send(line, 256, MPI_CHAR, 0, TAG_REPORT, MPI_COMM_WORLD);
        return;
    }
    printf("%s\n", line);
    for (int r = 1; r < size; r++) {
        MPI_Recv(buf, 256, MPI_CHAR, r, TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%s\n", buf);
    }
}

static void
cartesian_halo(void)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1}, coords[2], topo;
    char line[256];
    MPI_Comm cart;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
    MPI_Topo_test(cart, &topo);
    int me;
    MPI_Comm_rank(cart, &me);
    MPI_Cart_coords(cart, me, 2, coords);
    int nb[4];
    MPI_Cart_shift(cart, 0, 1, &nb[0], &nb[1]);
    MPI_Cart_shift(cart, 1, 1, &nb[2], &nb[3]);

    int send[8], recv[8];
    for (int i = 0; i < 4; i++) {
        send[2 * i] = me;
        send[2 * i + 1] = i;
        recv[2 * i] = recv[2 * i + 1] = -1;
    }
    MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, MPI_INT, cart);
    int ok = 1;
    for (int i = 0; i < 4; i++)
        ok = ok && recv[2 * i] == nb[i] && recv[2 * i + 1] == (i ^ 1);
    snprintf(line, sizeof line,
             "cart dims %dx%d topo %s rank %d coords (%d,%d) neighbours %d %d %d %d "
             "halo (%d,%d) (%d,%d) (%d,%d) (%d,%d) %s",
             dims[0], dims[1], topo == MPI_CART ? "cart" : "other", me, coords[0], coords[1],
             nb[0], nb[1], nb[2], nb[3], recv[0], recv[1], recv[2], recv[3], recv[4], recv[5],
             recv[6], recv[7], ok ? "ok" : "WRONG");
    report(line);

    /* the nonblocking form, twice in flight on the grid, completed in reverse order */
    int again[8], twice[8];
    MPI_Request reqs[2];
    MPI_Ineighbor_alltoall(send, 2, MPI_INT, again, 2, MPI_INT, cart, &reqs[0]);
    MPI_Ineighbor_alltoall(recv, 2, MPI_INT, twice, 2, MPI_INT, cart, &reqs[1]);
    MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);
    MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);
    int same = memcmp(again, recv, sizeof recv) == 0;
    if (dims[0] >= 3 && dims[1] >= 3) {
        snprintf(line, sizeof line,
                 "rank %d: Ineighbor_alltoall %s, back and forth (%d,%d) (%d,%d)", me,
                 same ? "as blocking" : "DIFFERS", twice[0], twice[1], twice[6], twice[7]);
    } else {
        /* A periodic dimension of 1 or 2 makes a rank's -1 and +1 neighbours the same rank:
         * MPI pairs the blocks by direction, as both forms do under collsim and the blocking
         * one does under Open MPI 4.1, whose nonblocking form (libnbc) pairs them by arrival
         * instead. Only collsim's answer is checked here (against its blocking form). */
#ifdef COLLSIM_MPI
        snprintf(line, sizeof line, "rank %d: Ineighbor_alltoall on a short dimension%s", me,
                 same ? "" : ": DIFFERS from the blocking form");
#else
        snprintf(line, sizeof line, "rank %d: Ineighbor_alltoall on a short dimension", me);
#endif
    }
    report(line);

    int remain[2] = {0, 1}, rowsize, rowrank, ndims;
    MPI_Comm row;
    MPI_Cart_sub(cart, remain, &row);
    MPI_Comm_size(row, &rowsize);
    MPI_Comm_rank(row, &rowrank);
    MPI_Cartdim_get(row, &ndims);
    snprintf(line, sizeof line, "row of rank %d: %d dims, size %d, rank %d", me, ndims, rowsize,
             rowrank);
    report(line);
    MPI_Comm_free(&row);
    MPI_Comm_free(&cart);
}

static void
dist_graph_ring(void)
{
    char line[256];
    int source = rank, degree = 1, dest = (rank + 1) % size;
    MPI_Comm ring;
    MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &source, &degree, &dest, MPI_UNWEIGHTED,
                          MPI_INFO_NULL, 0, &ring);
    int in, out, weighted, from = -1, to = -1, topo;
    MPI_Topo_test(ring, &topo);
    MPI_Dist_graph_neighbors_count(ring, &in, &out, &weighted);
    if (in == 1 && out == 1)
        MPI_Dist_graph_neighbors(ring, 1, &from, MPI_UNWEIGHTED, 1, &to, MPI_UNWEIGHTED);
    int square = rank * rank, got = -1;
    MPI_Neighbor_allgather(&square, 1, MPI_INT, &got, 1, MPI_INT, ring);
    int prev = (rank - 1 + size) % size;
    int igot = -1, igotv[2] = {-1, -1}, pair[2] = {rank, -rank}, counts[1] = {2}, displs[1] = {0};
    MPI_Request reqs[2];
    MPI_Ineighbor_allgather(&square, 1, MPI_INT, &igot, 1, MPI_INT, ring, &reqs[0]);
    MPI_Ineighbor_allgatherv(pair, 2, MPI_INT, igotv, counts, displs, MPI_INT, ring, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    snprintf(line, sizeof line, "ring rank %d: Ineighbor_allgather got %d, allgatherv got %d %d",
             rank, igot, igotv[0], igotv[1]);
    report(line);
    snprintf(line, sizeof line,
             "ring rank %d topo %s in %d out %d weighted %d from %d to %d got %d %s", rank,
             topo == MPI_DIST_GRAPH ? "dist_graph" : "other", in, out, weighted, from, to, got,
             got == prev * prev ? "ok" : "WRONG");
    report(line);
    MPI_Comm_free(&ring);
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    cartesian_halo();
    dist_graph_ring();
    MPI_Finalize();
    return 0;
}
