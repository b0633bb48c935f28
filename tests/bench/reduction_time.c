/*
 * reduction_time.c — times one MPI_Reduce (or MPI_Allreduce) of N doubles with MPI_SUM after
 * a barrier; rank 0 prints the slowest rank's simulated time. The algorithm is chosen from
 * outside (collsim --algorithm, SMPI --cfg=smpi/reduce:...), so one source serves both.
 *   reduction_time reduce|allreduce N
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int all = argc > 1 && strcmp(argv[1], "allreduce") == 0;
    int n = argc > 2 ? atoi(argv[2]) : 1;
    double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        a[i] = rank + 0.5 * i;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (all)
        MPI_Allreduce(a, b, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    /* the slowest rank's time, gathered with point-to-point messages: the reduction under
     * test is forced for every call, and may refuse a one-element one */
    double t = MPI_Wtime() - t0, slowest = t;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int r = 1; r < size; r++) {
            double other;
            MPI_Recv(&other, 1, MPI_DOUBLE, r, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            slowest = other > slowest ? other : slowest;
        }
        printf("simulated=%.9f\n", slowest);
    } else {
        MPI_Send(&t, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
