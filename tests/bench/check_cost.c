/* check_cost.c — many small collectives in a row, to measure the wall-time cost of the
 * collective-call checker (tests/bench/check_cost.sh runs it with and without --no-check).
 * Arguments: CALLS (default 200). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int calls = argc > 1 ? atoi(argv[1]) : 200, rank, size;
    double value = 1.0, sum = 0.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *counts = malloc(sizeof *counts * (size_t)size);
    int *displs = malloc(sizeof *displs * (size_t)size);
    double *all = malloc(sizeof *all * (size_t)size);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
    }
    for (int c = 0; c < calls; c++) {
        MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Bcast(&sum, 1, MPI_DOUBLE, c % size, MPI_COMM_WORLD);
        MPI_Allgatherv(&value, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    }
    if (rank == 0)
        printf("%d x (allreduce, bcast, allgatherv) at P = %d: sum %g\n", calls, size, sum);
    free(counts);
    free(displs);
    free(all);
    MPI_Finalize();
    return 0;
}
