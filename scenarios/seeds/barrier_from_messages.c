/*
 * barrier_from_messages.c — A. S. Antonov's exercise 5 (seed 002, the Russian MPI textbook):
 * model barrier synchronisation with point-to-point messages and compare its efficiency with
 * MPI_BARRIER.
 *
 *   collsim exec scenarios/seeds/barrier_from_messages.so -n 8 [-- ROUNDS]
 *
 * The model is the simplest barrier: a linear fan-in and fan-out through rank 0. Every other
 * rank sends rank 0 an empty message and waits for its answer; rank 0 collects P-1 messages
 * (from any source), then answers each rank: 2(P-1) messages, all through rank 0.
 *
 * First both barriers are checked: a token passed 0 -> 1 -> ... -> P-1 makes the ranks arrive
 * one after the other, and no rank may leave before the last one has arrived (each rank's
 * exit time is compared with the latest arrival time, found with MPI_Allreduce/MPI_MAX).
 * Then each barrier is timed over ROUNDS calls (default 10) started together after an
 * MPI_Barrier.
 *
 * Output: rank 0 prints the message count and the two checks; every rank prints
 * `rank= r message barrier time = T MPI_Barrier time = T`, the mean simulated seconds per
 * call (%.9f).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

#define TAG_ARRIVE 101
#define TAG_LEAVE 102
#define TAG_TOKEN 103

/* the model: linear fan-in to rank 0, then fan-out */
static void
message_barrier(MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(NULL, 0, MPI_INT, MPI_ANY_SOURCE, TAG_ARRIVE, comm, MPI_STATUS_IGNORE);
        for (int r = 1; r < size; r++)
            MPI_Send(NULL, 0, MPI_INT, r, TAG_LEAVE, comm);
    } else {
        MPI_Send(NULL, 0, MPI_INT, 0, TAG_ARRIVE, comm);
        MPI_Recv(NULL, 0, MPI_INT, 0, TAG_LEAVE, comm, MPI_STATUS_IGNORE);
    }
}

static void
mpi_barrier(MPI_Comm comm)
{
    MPI_Barrier(comm);
}

/* Ranks arrive one after the other; returns (on rank 0) whether none left too early. */
static int
staggered_check(void (*barrier)(MPI_Comm), MPI_Comm comm)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Barrier(comm);
    if (rank > 0)
        MPI_Recv(NULL, 0, MPI_INT, rank - 1, TAG_TOKEN, comm, MPI_STATUS_IGNORE);
    if (rank < size - 1)
        MPI_Send(NULL, 0, MPI_INT, rank + 1, TAG_TOKEN, comm);
    double arrived = MPI_Wtime();
    barrier(comm);
    double left = MPI_Wtime();
    double last_arrival;
    MPI_Allreduce(&arrived, &last_arrival, 1, MPI_DOUBLE, MPI_MAX, comm);
    int ok = left >= last_arrival, all_ok = 0;
    MPI_Reduce(&ok, &all_ok, 1, MPI_INT, MPI_LAND, 0, comm);
    return all_ok;
}

static double
mean_time(void (*barrier)(MPI_Comm), int rounds, MPI_Comm comm)
{
    MPI_Barrier(comm);
    double t0 = MPI_Wtime();
    for (int i = 0; i < rounds; i++)
        barrier(comm);
    return (MPI_Wtime() - t0) / rounds;
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    if (rounds < 1) {
        if (rank == 0)
            fprintf(stderr, "barrier_from_messages: ROUNDS must be positive\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    int ok_message = staggered_check(message_barrier, MPI_COMM_WORLD);
    int ok_mpi = staggered_check(mpi_barrier, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("message barrier: %d messages per call\n", 2 * (size - 1));
        printf("message barrier: no rank left before the last one arrived: %s\n",
               ok_message ? "yes" : "no");
        printf("MPI_Barrier: no rank left before the last one arrived: %s\n",
               ok_mpi ? "yes" : "no");
    }

    double t_message = mean_time(message_barrier, rounds, MPI_COMM_WORLD);
    double t_mpi = mean_time(mpi_barrier, rounds, MPI_COMM_WORLD);
    printf("rank= %d message barrier time = %.9f MPI_Barrier time = %.9f\n", rank, t_message,
           t_mpi);

    MPI_Finalize();
    return 0;
}
