/*
 * doubling_sum.c — Antonov's example 14, the model part: global summation of n doubles by
 * the doubling scheme with point-to-point messages. Each step the upper half of the active
 * ranks sends its vector to its mirror rank nproc-rank-1 in the lower half, which adds it;
 * after log2(P) steps rank 0 holds the sum. With a(i) = 1/size everywhere, b(1) = 1.
 * P must be a power of two, as in the textbook.
 *
 *   collsim exec doubling_sum.so -n 8 [-- N]
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    double *a = malloc(sizeof(double) * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        a[i] = 1.0 / size;

    double time_start = MPI_Wtime();
    for (int i = 0; i < n; i++)
        c[i] = a[i];
    for (int nproc = size; nproc > 1; nproc /= 2) {
        if (rank < nproc / 2) {
            MPI_Recv(b, n, MPI_DOUBLE, nproc - rank - 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            for (int i = 0; i < n; i++)
                c[i] += b[i];
        } else if (rank < nproc) {
            MPI_Send(c, n, MPI_DOUBLE, nproc - rank - 1, 1, MPI_COMM_WORLD);
        }
    }
    for (int i = 0; i < n; i++)
        b[i] = c[i];
    double time_finish = MPI_Wtime() - time_start;
    if (rank == 0)
        printf("model b(1)= %.15f\n", b[0]);
    printf("rank= %d model time = %.9f\n", rank, time_finish);

    free(a);
    free(b);
    free(c);
    MPI_Finalize();
    return 0;
}
