/*
 * bcast_vs_scatter.c — Antonov's exercise 6: "how do MPI_BCAST and MPI_SCATTER differ?".
 * The root holds P*N ints (value = index). MPI_Bcast gives every rank the whole buffer;
 * MPI_Scatter gives rank r only its block r. Each rank prints what it received from each,
 * then the root prints both times (the slowest rank's).
 *   collsim exec bcast_vs_scatter.so -n P [-- N]
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int n = argc > 1 ? atoi(argv[1]) : 4;
    int total = n * size;
    int *all = malloc(sizeof(int) * (size_t)total), *block = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < total; i++)
        all[i] = rank == 0 ? i : -1;

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Bcast(all, total, MPI_INT, 0, MPI_COMM_WORLD);
    double bcast_time = MPI_Wtime() - t0;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Scatter(all, n, MPI_INT, block, n, MPI_INT, 0, MPI_COMM_WORLD);
    double scatter_time = MPI_Wtime() - t0;
    double times[2] = {bcast_time, scatter_time}, slowest[2];
    MPI_Reduce(times, slowest, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

    /* print in rank order: a token passes from rank to rank */
    int token = 0;
    if (rank > 0)
        MPI_Recv(&token, 1, MPI_INT, rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank %d: MPI_Bcast gave %d ints [%d..%d], MPI_Scatter gave %d ints [%d..%d]\n", rank,
           total, all[0], all[total - 1], n, block[0], block[n - 1]);
    fflush(stdout);
    if (size > 1)
        MPI_Send(&token, 1, MPI_INT, (rank + 1) % size, 1, MPI_COMM_WORLD);
    if (rank == 0) {
        if (size > 1)   /* the token comes back once every rank has printed */
            MPI_Recv(&token, 1, MPI_INT, size - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("MPI_Bcast time = %.9f\n", slowest[0]);
        printf("MPI_Scatter time = %.9f\n", slowest[1]);
    }
    free(all);
    free(block);
    MPI_Finalize();
    return 0;
}
