/*
 * par_blas1.c — PAR_BLAS1, the dot product of two vectors distributed over a group of
 * processes (seed 004, MPI-1 4.9.2, example 4.15): each process sums a(i)*b(i) over its
 * local slice of m elements, and MPI_Reduce with MPI_SUM brings the global sum c to rank 0.
 * The same local sums then go through MPI_Allreduce, which leaves c on every process (the
 * all-reduce of seed 000).
 *
 *   collsim exec scenarios/seeds/par_blas1.so -n 8 [-- M]
 *
 * The vectors are REAL (float) as in the Fortran. Element g = rank*M + i of the whole vectors
 * (counting from 0) is a(g) = (g mod 7) - 3 and b(g) = (g mod 5) - 2, small integers: every
 * partial sum is an integer of magnitude at most 6*M*P, exact in float while that stays
 * below 2^24 (M = 10, the default, up to 279,620 ranks), so c does not depend on the order in
 * which the algorithm adds.
 *
 * Output on rank 0: c from MPI_Reduce, and c from MPI_Allreduce with whether every process
 * got the same value (checked by reducing it with MPI_MIN and MPI_MAX).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

/* the subroutine of the text, in C */
static void
par_blas1(int m, const float a[], const float b[], float *c, MPI_Comm comm)
{
    float sum = 0.0f;
    /* local sum */
    for (int i = 0; i < m; i++)
        sum = sum + a[i] * b[i];
    /* global sum */
    MPI_Reduce(&sum, c, 1, MPI_FLOAT, MPI_SUM, 0, comm);
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int m = argc > 1 ? atoi(argv[1]) : 10;
    if (m < 1) {
        if (rank == 0)
            fprintf(stderr, "par_blas1: M must be a positive number of elements per rank\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    float *a = malloc(sizeof(float) * (size_t)m);
    float *b = malloc(sizeof(float) * (size_t)m);
    for (int i = 0; i < m; i++) {
        long g = (long)rank * m + i;
        a[i] = (float)(g % 7 - 3);
        b[i] = (float)(g % 5 - 2);
    }

    float c = 0.0f;
    par_blas1(m, a, b, &c, MPI_COMM_WORLD);
    if (rank == 0)
        printf("c = %.1f (MPI_Reduce to rank 0)\n", c);

    /* the same local sum, all-reduced */
    float sum = 0.0f, call = 0.0f, lo = 0.0f, hi = 0.0f;
    for (int i = 0; i < m; i++)
        sum = sum + a[i] * b[i];
    MPI_Allreduce(&sum, &call, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce(&call, &lo, 1, MPI_FLOAT, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(&call, &hi, 1, MPI_FLOAT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("c = %.1f (MPI_Allreduce), the same on every rank: %s\n", call,
               lo == call && hi == call ? "yes" : "no");

    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
