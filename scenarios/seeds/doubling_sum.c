/*
 * doubling_sum.c — A. S. Antonov's example 14 (seed 002, the Russian MPI textbook; exercise 7):
 * global summation of n = 1,000,000 doubles, first modelled by the doubling scheme with
 * point-to-point messages, then done by MPI_Reduce, each half timed with MPI_Wtime after an
 * MPI_Barrier, as the Fortran program does.
 *
 *   collsim exec scenarios/seeds/doubling_sum.so -n 8 [-- N]
 *
 * The model: each step the upper half of the nproc active ranks sends its partial vector to
 * its mirror rank nproc-rank-1 in the lower half, which adds it; nproc halves, and after
 * log2(P) steps rank 0 holds the sum. With a(i) = 1/size everywhere, b(1) = 1 exactly (1/P is
 * exact for P a power of two, and so is every partial sum), so both halves print
 * 1.000000000000000 whatever algorithm serves MPI_Reduce.
 *
 * Output, as the Fortran prints it: rank 0 prints `model b(1)=` and `reduce b(1)=`; every rank
 * prints `rank= r model time = T` and `rank= r reduce time = T` (simulated seconds, %.9f).
 * Like the textbook's scheme, the model needs a power-of-two number of ranks: any other P is
 * refused (message on stderr, MPI_Abort with error code 1).
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
    if ((size & (size - 1)) != 0) {
        if (rank == 0)
            fprintf(stderr,
                    "doubling_sum: the doubling scheme needs a power-of-two number of ranks "
                    "(1, 2, 4, 8, ...), not %d\n",
                    size);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    if (n < 1) {
        if (rank == 0)
            fprintf(stderr, "doubling_sum: N must be a positive number of doubles, not '%s'\n",
                    argv[1]);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *a = malloc(sizeof(double) * (size_t)n);
    double *b = malloc(sizeof(double) * (size_t)n);
    double *c = malloc(sizeof(double) * (size_t)n);
    if (a == NULL || b == NULL || c == NULL) {
        fprintf(stderr, "doubling_sum: rank %d: no memory for 3 x %d doubles\n", rank, n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }

    /* ---- the model: doubling scheme with MPI_Send / MPI_Recv */
    for (int i = 0; i < n; i++)
        a[i] = 1.0 / size;
    MPI_Barrier(MPI_COMM_WORLD);
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

    /* ---- the same sum with MPI_Reduce */
    for (int i = 0; i < n; i++)
        a[i] = 1.0 / size;
    MPI_Barrier(MPI_COMM_WORLD);
    time_start = MPI_Wtime();
    MPI_Reduce(a, b, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    time_finish = MPI_Wtime() - time_start;
    if (rank == 0)
        printf("reduce b(1)= %.15f\n", b[0]);
    printf("rank= %d reduce time = %.9f\n", rank, time_finish);

    free(a);
    free(b);
    free(c);
    MPI_Finalize();
    return 0;
}
