/*
 * lent_sends.c — MPI_Sendrecv's eager send keeps its buffer instead of a copy until the
 * receive matches or the call returns (sim/transport/p2p.c: lend). Each case checks the values
 * received against the formula the sender used (value(rank, i)); rank 0 prints the failures
 * of all ranks, which must be 0.
 *
 * Cases, on heap buffers (the ones lent) and on the stack:
 *  - exchange: pairs swap arrays with MPI_Sendrecv (the first of a pair sends before its
 *    partner posts: the partner's receive copies from the lent buffer);
 *  - returned: rank 0's MPI_Sendrecv returns before rank 1 even posts the receive of its
 *    message (rank 1 waits for a later message first), then rank 0 overwrites the buffer: the
 *    message must have taken its copy when the call returned, of an array and of 8 bytes;
 *  - probed: the same, the message then matched by MPI_Mprobe and received by MPI_Mrecv;
 *  - stack: the receive buffer is a local array of its rank;
 *  - replace: MPI_Sendrecv_replace around a ring.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect_values.h"

#define N 1000 /* ints: 4000 bytes, eager */

static void
fill(int *a, int n, int rank)
{
    for (int i = 0; i < n; i++)
        a[i] = value(rank, i);
}

static void
exchange(int rank, int size)
{
    int partner = rank ^ 1;
    if (partner >= size)
        return;
    int *out = malloc(N * sizeof *out), *in = malloc(N * sizeof *in);
    fill(out, N, rank);
    for (int round = 0; round < 3; round++) {
        MPI_Sendrecv(out, N, MPI_INT, partner, 10 + round, in, N, MPI_INT, partner, 10 + round,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        expect(holds(in, N, partner), rank, "exchange");
        for (int i = 0; i < N; i++)
            in[i] = -1;
    }
    free(out);
    free(in);
}

/* Rank 0 lends and returns first; rank 1 receives what was lent only afterwards. */
static void
returned(int rank, int probed)
{
    int tag = probed ? 30 : 20;
    if (rank == 0) {
        int *out = malloc(N * sizeof *out), *small = malloc(2 * sizeof *small);
        int back;
        fill(out, N, 0);
        fill(small, 2, 0);
        MPI_Sendrecv(out, N, MPI_INT, 1, tag, &back, 1, MPI_INT, 1, tag, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        expect(back == value(1, 0), rank, "returned: the reply");
        MPI_Sendrecv(small, 2, MPI_INT, 1, tag + 1, &back, 1, MPI_INT, 1, tag + 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < N; i++)
            out[i] = -7; /* the call returned: the buffer is the program's again */
        small[0] = small[1] = -7;
        MPI_Send(&back, 1, MPI_INT, 1, tag + 2, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 has received: the -7s stay until then */
        free(out);
        free(small);
        return;
    }
    if (rank == 1) {
        int reply = value(1, 0), go;
        int *in = malloc(N * sizeof *in), small[2] = {-1, -1};
        MPI_Send(&reply, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
        MPI_Send(&reply, 1, MPI_INT, 0, tag + 1, MPI_COMM_WORLD);
        MPI_Recv(&go, 1, MPI_INT, 0, tag + 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (probed) {
            MPI_Message message;
            MPI_Status status;
            int count;
            MPI_Mprobe(0, tag, MPI_COMM_WORLD, &message, &status);
            MPI_Get_count(&status, MPI_INT, &count);
            expect(count == N, rank, "probed: the count");
            MPI_Mrecv(in, N, MPI_INT, &message, MPI_STATUS_IGNORE);
            MPI_Mprobe(0, tag + 1, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE);
            MPI_Mrecv(small, 2, MPI_INT, &message, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, N, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Recv(small, 2, MPI_INT, 0, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        expect(holds(in, N, 0), rank, probed ? "probed: the array" : "returned: the array");
        expect(holds(small, 2, 0), rank, probed ? "probed: 8 bytes" : "returned: 8 bytes");
        free(in);
    }
    MPI_Barrier(MPI_COMM_WORLD);
}

/* A receive into a local array, matched while its rank runs. */
static void
on_stack(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int in[N];
    int *out = malloc(N * sizeof *out);
    fill(out, N, rank);
    for (int i = 0; i < N; i++)
        in[i] = -1;
    MPI_Sendrecv(out, N, MPI_INT, right, 40, in, N, MPI_INT, left, 40, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    expect(holds(in, N, left), rank, "stack");
    free(out);
}

static void
replace(int rank, int size)
{
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    int *buf = malloc(N * sizeof *buf);
    fill(buf, N, rank);
    MPI_Sendrecv_replace(buf, N, MPI_INT, right, 50, left, 50, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
    expect(holds(buf, N, left), rank, "replace");
    free(buf);
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    exchange(rank, size);
    if (size >= 2) {
        returned(rank, 0);
        returned(rank, 1);
    }
    on_stack(rank, size);
    replace(rank, size);
    report_failures("lent sends", rank, size);
    MPI_Finalize();
    return 0;
}
