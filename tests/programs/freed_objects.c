/*
 * freed_objects.c — a correct program that frees its datatypes and ops while operations it
 * started still use them (MPI_Type_free and MPI_Op_free let those operations complete
 * normally), and starts its persistent collectives in different orders on different ranks
 * (MPI-4 allows it). Each case checks the values received against the formula the sender used
 * (value(rank, i)); rank 0 prints the failures of all ranks, which must be 0.
 *
 * Cases:
 *  - p2p: an MPI_Isend and an MPI_Irecv of a strided vector type, both freed before the wait,
 *    the message large enough for the rendezvous (read at the receive, long after the free)
 *    and small enough to be eager;
 *  - persistent p2p: MPI_Send_init and MPI_Recv_init, the type freed after the init calls,
 *    then started twice;
 *  - nonblocking collectives: MPI_Ireduce with a user op and MPI_Iallreduce with a vector
 *    type, both freed before the wait; MPI_Ialltoallw with every type freed before the wait;
 *  - persistent collectives: MPI_Reduce_init with a user op and MPI_Bcast_init with a
 *    vector type, freed after the init calls, started twice; and two persistent collectives
 *    started in opposite orders on even and odd ranks;
 *  - freed requests: a rendezvous MPI_Isend and its MPI_Irecv, both given up with
 *    MPI_Request_free, which MPI_Finalize must complete: the receiver checks its buffer after
 *    MPI_Finalize and prints a line only if the message is not all there.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "expect_values.h"

#define BIG 50000 /* vector elements: 200 KB of data, a rendezvous */
#define SMALL 10  /* 40 bytes, eager */

/* A vector of n ints, every other one (the holes keep their old values). */
static MPI_Datatype
every_other(int n)
{
    MPI_Datatype type;
    MPI_Type_vector(n, 1, 2, MPI_INT, &type);
    MPI_Type_commit(&type);
    return type;
}

static int
holds_every_other(const int *a, int n, int rank)
{
    for (int i = 0; i < 2 * n; i++)
        if (a[i] != (i % 2 == 0 ? value(rank, i / 2) : -1))
            return 0;
    return 1;
}

static void
p2p_freed(int rank, int size, int n, const char *what)
{
    int *buf = malloc(sizeof(int) * 2 * (size_t)n);
    int peer = rank ^ 1;
    if (peer >= size) {
        free(buf);
        return;
    }
    MPI_Datatype type = every_other(n);
    MPI_Request req;
    if (rank % 2 == 0) {
        for (int i = 0; i < 2 * n; i++)
            buf[i] = i % 2 == 0 ? value(rank, i / 2) : -7;
        MPI_Isend(buf, 1, type, peer, 1, MPI_COMM_WORLD, &req);
        MPI_Type_free(&type);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < 2 * n; i++)
            buf[i] = -1;
        MPI_Irecv(buf, 1, type, peer, 1, MPI_COMM_WORLD, &req);
        MPI_Type_free(&type);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        expect(holds_every_other(buf, n, peer), rank, what);
    }
    free(buf);
}

static void
persistent_p2p_freed(int rank, int size)
{
    int buf[2 * SMALL];
    int peer = rank ^ 1;
    if (peer >= size)
        return;
    MPI_Datatype type = every_other(SMALL);
    MPI_Request req;
    if (rank % 2 == 0)
        MPI_Send_init(buf, 1, type, peer, 2, MPI_COMM_WORLD, &req);
    else
        MPI_Recv_init(buf, 1, type, peer, 2, MPI_COMM_WORLD, &req);
    MPI_Type_free(&type);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 2 * SMALL; i++)
            buf[i] = rank % 2 == 0 && i % 2 == 0 ? value(rank, i / 2) : -1;
        MPI_Start(&req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        if (rank % 2 == 1)
            expect(holds_every_other(buf, SMALL, peer), rank, "persistent receive");
    }
    MPI_Request_free(&req);
}

/* inout[i] = in[i] + inout[i] */
static void
add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static int
sum_over_ranks(int size, int i)
{
    int sum = 0;
    for (int r = 0; r < size; r++)
        sum += value(r, i);
    return sum;
}

static void
nonblocking_freed(int rank, int size)
{
    int send[SMALL], recv[SMALL];
    for (int i = 0; i < SMALL; i++)
        send[i] = value(rank, i);

    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    MPI_Request req;
    MPI_Ireduce(send, recv, SMALL, MPI_INT, op, 0, MPI_COMM_WORLD, &req);
    MPI_Op_free(&op);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (rank == 0)
        for (int i = 0; i < SMALL; i++)
            expect(recv[i] == sum_over_ranks(size, i), rank, "Ireduce with a freed op");

    int vsend[2 * SMALL], vrecv[2 * SMALL];
    for (int i = 0; i < 2 * SMALL; i++) {
        vsend[i] = i % 2 == 0 ? value(rank, i / 2) : 0;
        vrecv[i] = -1;
    }
    MPI_Datatype type = every_other(SMALL);
    MPI_Iallreduce(vsend, vrecv, 1, type, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Type_free(&type);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int i = 0; i < 2 * SMALL; i++)
        expect(vrecv[i] == (i % 2 == 0 ? sum_over_ranks(size, i / 2) : -1), rank,
               "Iallreduce with a freed type");

    /* every rank sends value(rank, peer) to each peer, as a 1-int contiguous type of its own */
    int *wsend = malloc(sizeof(int) * (size_t)size), *wrecv = malloc(sizeof(int) * (size_t)size);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    for (int p = 0; p < size; p++) {
        wsend[p] = value(rank, p);
        wrecv[p] = -1;
        counts[p] = 1;
        displs[p] = p * (int)sizeof(int);
        MPI_Type_contiguous(1, MPI_INT, &types[p]);
        MPI_Type_commit(&types[p]);
    }
    MPI_Ialltoallw(wsend, counts, displs, types, wrecv, counts, displs, types, MPI_COMM_WORLD,
                   &req);
    for (int p = 0; p < size; p++)
        MPI_Type_free(&types[p]);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (int p = 0; p < size; p++)
        expect(wrecv[p] == value(p, rank), rank, "Ialltoallw with freed types");
    free(wsend);
    free(wrecv);
    free(counts);
    free(displs);
    free(types);
}

static void
persistent_collectives(int rank, int size)
{
    int send[SMALL], recv[SMALL];
    MPI_Op op;
    MPI_Op_create(add_ints, 1, &op);
    MPI_Request reduce;
    MPI_Reduce_init(send, recv, SMALL, MPI_INT, op, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reduce);
    MPI_Op_free(&op);
    int vec[2 * SMALL];
    MPI_Datatype type = every_other(SMALL);
    MPI_Request bcast;
    MPI_Bcast_init(vec, 1, type, 1 % size, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);
    MPI_Type_free(&type);
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < SMALL; i++)
            send[i] = value(rank, i) + round;
        for (int i = 0; i < 2 * SMALL; i++)
            vec[i] = rank == 1 % size && i % 2 == 0 ? value(rank, i / 2) : -1;
        /* even ranks start the reduce first, odd ranks the broadcast */
        MPI_Request both[2] = {rank % 2 == 0 ? reduce : bcast, rank % 2 == 0 ? bcast : reduce};
        MPI_Start(&both[0]);
        MPI_Start(&both[1]);
        MPI_Waitall(2, both, MPI_STATUSES_IGNORE);
        if (rank == 0)
            for (int i = 0; i < SMALL; i++)
                expect(recv[i] == sum_over_ranks(size, i) + size * round, rank,
                       "persistent Reduce with a freed op");
        expect(holds_every_other(vec, SMALL, 1 % size), rank,
               "persistent Bcast with a freed type");
    }
    MPI_Request_free(&reduce);
    MPI_Request_free(&bcast);
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    p2p_freed(rank, size, BIG, "rendezvous vector");
    p2p_freed(rank, size, SMALL, "eager vector");
    persistent_p2p_freed(rank, size);
    nonblocking_freed(rank, size);
    persistent_collectives(rank, size);

    report_failures("freed objects", rank, size);
    fflush(stdout);

    int *late = malloc(sizeof(int) * BIG);
    int peer = rank ^ 1;
    MPI_Request req = MPI_REQUEST_NULL;
    for (int i = 0; i < BIG; i++)
        late[i] = rank % 2 == 0 ? value(rank, i) : -1;
    if (peer < size && rank % 2 == 0)
        MPI_Isend(late, BIG, MPI_INT, peer, 3, MPI_COMM_WORLD, &req);
    else if (peer < size)
        MPI_Irecv(late, BIG, MPI_INT, peer, 3, MPI_COMM_WORLD, &req);
    if (req != MPI_REQUEST_NULL)
        MPI_Request_free(&req);
    MPI_Finalize();
    if (peer < size && rank % 2 == 1 && !holds(late, BIG, peer))
        printf("rank %d: the freed receive was not complete after MPI_Finalize\n", rank);
    free(late);
    return 0;
}
