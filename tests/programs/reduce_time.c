/*
 * reduce_time.c — every rank contributes argv[1] bytes (doubles) to one MPI_Reduce (sum) at
 * rank 0, after a barrier; rank 0 prints the simulated time its MPI_Reduce took and the
 * result's first element (the sum of the ranks, to show the call really reduced).
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
    int bytes = argc > 1 ? atoi(argv[1]) : 8;
    int count = bytes / (int)sizeof(double) > 0 ? bytes / (int)sizeof(double) : 1;
    double *in = calloc((size_t)count, sizeof *in), *out = calloc((size_t)count, sizeof *out);
    for (int i = 0; i < count; i++)
        in[i] = rank;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    MPI_Reduce(in, out, count, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - t0;
    if (rank == 0)
        printf("reduce of %d bytes on %d ranks: %.9f s, sum %.0f\n", count * (int)sizeof(double),
               size, elapsed, out[0]);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
