/*
 * gather_from_messages.c — Antonov's exercise 9: "write your own MPI_GATHER with
 * point-to-point messages". Every rank contributes N ints (rank*1000 + i); rank 0 receives
 * them in rank order with MPI_Recv, then the same data is gathered with MPI_Gather, and the two
 * results are compared. Both are timed with MPI_Wtime.
 *   collsim exec gather_from_messages.so -n P [-- N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 100;
    int *mine = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        mine[i] = rank * 1000 + i;
    int *by_hand = NULL, *by_mpi = NULL;
    if (rank == 0) {
        by_hand = malloc(sizeof(int) * (size_t)n * (size_t)size);
        by_mpi = malloc(sizeof(int) * (size_t)n * (size_t)size);
    }

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == 0) {
        memcpy(by_hand, mine, sizeof(int) * (size_t)n);
        for (int r = 1; r < size; r++)
            MPI_Recv(by_hand + (size_t)r * n, n, MPI_INT, r, 9, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
    } else {
        MPI_Send(mine, n, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    double hand_time = MPI_Wtime() - t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Gather(mine, n, MPI_INT, by_mpi, n, MPI_INT, 0, MPI_COMM_WORLD);
    double mpi_time = MPI_Wtime() - t0;

    if (rank == 0) {
        long long sum = 0;
        for (long i = 0; i < (long)n * size; i++)
            sum += by_mpi[i];
        printf("gathered %d x %d ints, sum %lld, last %d\n", size, n, sum,
               by_mpi[(size_t)n * size - 1]);
        printf("hand-written gather equals MPI_Gather: %s\n",
               memcmp(by_hand, by_mpi, sizeof(int) * (size_t)n * size) == 0 ? "yes" : "NO");
        printf("hand-written gather time = %.9f\n", hand_time);
        printf("MPI_Gather time = %.9f\n", mpi_time);
    }
    free(mine);
    free(by_hand);
    free(by_mpi);
    MPI_Finalize();
    return 0;
}
