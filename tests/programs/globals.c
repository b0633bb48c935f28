/*
 * globals.c — textbook style: rank and size are globals. Each rank must keep its own copy,
 * as in its own process under a real MPI. Every rank stores its rank, lets all the others run
 * (a message ring), then checks that its globals still hold its own values.
 */
#include <stdio.h>

#include "mpi.h"

int rank, size;
static int counter;        /* bumped once per rank: must end at 1 everywhere */
/* Built three times, one for each way collsim keeps globals per rank, which must all keep
 * ranks apart: a small array (swapped by copying), 16 KiB (each rank's changes kept apart
 * from the pristine image, chunk by chunk) and 512 KiB (TABLE_SIZE=65536: remapped). */
#ifndef TABLE_SIZE
#define TABLE_SIZE 2048
#endif
static double table[TABLE_SIZE];

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    counter++;
    table[TABLE_SIZE - 1] = rank * 0.5;
    /* the ring is steered by locals, so that it also runs when globals are shared */
    int me, n, token = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (me == 0) {
        MPI_Send(&token, 1, MPI_INT, 1 % n, 0, MPI_COMM_WORLD);
        MPI_Recv(&token, 1, MPI_INT, n - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&token, 1, MPI_INT, me - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, (me + 1) % n, 0, MPI_COMM_WORLD);
    }
    printf("rank %d of %d: global rank %d, counter %d, table %.1f: %s\n", me, size, rank, counter,
           table[TABLE_SIZE - 1], rank == me && counter == 1 && table[TABLE_SIZE - 1] == me * 0.5 ? "ok" : "MIXED");
    MPI_Finalize();
    return 0;
}
