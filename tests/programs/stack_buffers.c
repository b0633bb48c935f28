/*
 * stack_buffers.c — messages to and from buffers on the ranks' stacks, where a shared stack
 * (collsim exec --stacks shared) keeps a stopped rank's frames aside: every receive below is
 * posted, and its rank stopped, before the message arrives, so that another rank delivers into
 * it; every send buffer is a local array, read by its receiver. Each rank checks what it got
 * against the values the sender computes (value(rank, i)); rank 0 prints the failures of all.
 *
 * Cases: eager messages into posted receives one and two frames down, a rendezvous each way
 * (80 KB arrays, above the 64 KiB eager threshold), a strided (vector) layout, an MPI_BOTTOM
 * layout that holds a local variable and a heap block (no one address reaches both), a
 * nonblocking broadcast and reduction (run on stacks of their own) and blocking collectives.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect_values.h"

#define BIG 20000 /* ints: 80000 bytes */

/* The receive buffer lies in this frame while the rank waits in MPI_Wait further down. */
static void
posted_small(int rank, int left, int right)
{
    int got[3] = {-1, -1, -1};
    int mine[3] = {value(rank, 0), value(rank, 1), value(rank, 2)};
    MPI_Request request;
    MPI_Irecv(got, 3, MPI_INT, left, 1, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD); /* every receive is posted: the sends meet them */
    MPI_Send(mine, 3, MPI_INT, right, 1, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    expect(got[0] == value(left, 0) && got[1] == value(left, 1) && got[2] == value(left, 2),
           rank, "posted eager receive");
}

static void
rendezvous(int rank, int left, int right)
{
    int out[BIG], in[BIG];
    for (int i = 0; i < BIG; i++) {
        out[i] = value(rank, i);
        in[i] = -1;
    }
    MPI_Request request;
    MPI_Irecv(in, BIG, MPI_INT, left, 2, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(out, BIG, MPI_INT, right, 2, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < BIG; i++)
        ok &= in[i] == value(left, i);
    expect(ok, rank, "rendezvous into a posted receive");

    /* the other way: unexpected at the receiver, which then receives into its stack */
    for (int i = 0; i < BIG; i++)
        in[i] = -1;
    MPI_Sendrecv(out, BIG, MPI_INT, right, 3, in, BIG, MPI_INT, left, 3, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    ok = 1;
    for (int i = 0; i < BIG; i++)
        ok &= in[i] == value(left, i);
    expect(ok, rank, "rendezvous by sendrecv");
}

static void
strided(int rank, int left, int right)
{
    int out[64], in[64];
    MPI_Datatype every_other;
    MPI_Type_vector(32, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    for (int i = 0; i < 64; i++) {
        out[i] = value(rank, i);
        in[i] = -1;
    }
    MPI_Request request;
    MPI_Irecv(in, 1, every_other, left, 4, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(out, 1, every_other, right, 4, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < 64; i++)
        ok &= in[i] == (i % 2 == 0 ? value(left, i) : -1);
    expect(ok, rank, "strided receive");
    MPI_Type_free(&every_other);
}

/* A layout of absolute addresses: a local array and a heap block, received from MPI_BOTTOM. */
static void
mixed_bottom(int rank, int left, int right, int n)
{
    int local[BIG];
    int *heap = malloc(sizeof(int) * 4);
    for (int i = 0; i < BIG; i++)
        local[i] = -1;
    for (int i = 0; i < 4; i++)
        heap[i] = -1;
    int lengths[2] = {n, 4};
    MPI_Aint where[2];
    MPI_Get_address(local, &where[0]);
    MPI_Get_address(heap, &where[1]);
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, both;
    MPI_Type_create_struct(2, lengths, where, types, &both);
    MPI_Type_commit(&both);
    int *out = malloc(sizeof(int) * (size_t)(n + 4));
    for (int i = 0; i < n + 4; i++)
        out[i] = value(rank, i);
    MPI_Request request;
    MPI_Irecv(MPI_BOTTOM, 1, both, left, 5, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(out, n + 4, MPI_INT, right, 5, MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < n; i++)
        ok &= local[i] == value(left, i);
    for (int i = 0; i < 4; i++)
        ok &= heap[i] == value(left, n + i);
    expect(ok, rank, n > 1000 ? "MPI_BOTTOM layout, rendezvous" : "MPI_BOTTOM layout, eager");
    MPI_Type_free(&both);
    free(out);
    free(heap);
}

static void
collectives(int rank, int size)
{
    int root_value[4] = {-1, -1, -1, -1};
    if (rank == size - 1)
        for (int i = 0; i < 4; i++)
            root_value[i] = value(size - 1, i);
    MPI_Request request;
    MPI_Ibcast(root_value, 4, MPI_INT, size - 1, MPI_COMM_WORLD, &request);
    int sum = -1, mine = rank + 1;
    MPI_Request reduction;
    MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reduction);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Wait(&reduction, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < 4; i++)
        ok &= root_value[i] == value(size - 1, i);
    expect(ok, rank, "MPI_Ibcast");
    expect(sum == size * (size + 1) / 2, rank, "MPI_Iallreduce");

    int gathered[64], scattered[64];
    for (int i = 0; i < size && i < 64; i++)
        scattered[i] = value(rank, i);
    if (size <= 64) {
        MPI_Alltoall(scattered, 1, MPI_INT, gathered, 1, MPI_INT, MPI_COMM_WORLD);
        ok = 1;
        for (int i = 0; i < size; i++)
            ok &= gathered[i] == value(i, rank);
        expect(ok, rank, "MPI_Alltoall");
    }
    long long total = -1, contribution = value(rank, 0);
    MPI_Reduce(&contribution, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        long long want = 0;
        for (int r = 0; r < size; r++)
            want += value(r, 0);
        expect(total == want, rank, "MPI_Reduce");
    }
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    posted_small(rank, left, right);
    rendezvous(rank, left, right);
    strided(rank, left, right);
    mixed_bottom(rank, left, right, 3);
    mixed_bottom(rank, left, right, BIG);
    collectives(rank, size);
    report_failures("stack buffers", rank, size);
    MPI_Finalize();
    return 0;
}
