/*
 * movement_time.c — times one data-movement collective of N bytes per block after a barrier;
 * rank 0 prints the slowest rank's simulated time. The algorithm is chosen from outside
 * (collsim --algorithm, SMPI --cfg=smpi/<collective>:...), so one source serves both.
 *   movement_time barrier|bcast|gather|scatter|allgather|alltoall N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "bcast";
    int n = argc > 2 ? atoi(argv[2]) : 8;
    char *block = calloc((size_t)n + 1, 1);
    char *all = calloc((size_t)n * (size_t)size + 1, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (strcmp(what, "barrier") == 0)
        MPI_Barrier(MPI_COMM_WORLD);
    else if (strcmp(what, "bcast") == 0)
        MPI_Bcast(block, n, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(what, "gather") == 0)
        MPI_Gather(block, n, MPI_BYTE, all, n, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(what, "scatter") == 0)
        MPI_Scatter(all, n, MPI_BYTE, block, n, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(what, "allgather") == 0)
        MPI_Allgather(block, n, MPI_BYTE, all, n, MPI_BYTE, MPI_COMM_WORLD);
    else if (strcmp(what, "alltoall") == 0) {
        char *out = calloc((size_t)n * (size_t)size + 1, 1);
        MPI_Alltoall(out, n, MPI_BYTE, all, n, MPI_BYTE, MPI_COMM_WORLD);
        free(out);
    }
    double t = MPI_Wtime() - t0, slowest;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("simulated=%.9f\n", slowest);
    free(block);
    free(all);
    MPI_Finalize();
    return 0;
}
