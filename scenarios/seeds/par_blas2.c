/*
 * par_blas2.c — PAR_BLAS2, the product of a vector and an array distributed over a group of
 * processes (seed 004, MPI-1 4.9.2 example 4.16 with MPI_Reduce, and 4.9.5 example 4.21;
 * seed 000, MPI-2.2 5.9.6 example 5.21 with MPI_Allreduce): each process holds m entries of
 * the vector a and the matching m rows of the m x n array b, computes the local sums
 * sum(j) = a(1)*b(1,j) + ... + a(m)*b(m,j), and the global sum c = a^T b is formed by
 * MPI_Reduce (result on rank 0) and by MPI_Allreduce (result on every process).
 *
 *   collsim exec scenarios/seeds/par_blas2.so -n 8 [-- M N]
 *
 * REAL (float) as in the Fortran; b is stored column by column like the Fortran b(m,n).
 * With global row g = rank*M + i (from 0) and column j (from 0): a(g) = (g mod 3) - 1 and
 * b(g,j) = ((g + 2j) mod 5) - 2. Every partial sum is an integer of magnitude at most 2*M*P,
 * exact in float (M = 4, the default, up to 2,097,152 ranks), so c does not depend on the
 * order of the additions.
 *
 * Output on rank 0: c(1..N) from MPI_Reduce, then from MPI_Allreduce with whether every
 * process got the same vector (checked by reducing it with MPI_MIN and MPI_MAX).
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

/* local sums: sum(j) = sum over i of a(i) * b(i,j) */
static void
local_sums(int m, int n, const float a[], const float b[], float sum[])
{
    for (int j = 0; j < n; j++) {
        sum[j] = 0.0f;
        for (int i = 0; i < m; i++)
            sum[j] = sum[j] + a[i] * b[i + m * j];
    }
}

/* example 4.16: the result on rank 0 */
static void
par_blas2_reduce(int m, int n, const float a[], const float b[], float c[], float sum[],
                 MPI_Comm comm)
{
    local_sums(m, n, a, b, sum);
    MPI_Reduce(sum, c, n, MPI_FLOAT, MPI_SUM, 0, comm);
}

/* example 4.21 / 5.21: the result at all nodes */
static void
par_blas2_allreduce(int m, int n, const float a[], const float b[], float c[], float sum[],
                    MPI_Comm comm)
{
    local_sums(m, n, a, b, sum);
    MPI_Allreduce(sum, c, n, MPI_FLOAT, MPI_SUM, comm);
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int m = argc > 1 ? atoi(argv[1]) : 4;
    int n = argc > 2 ? atoi(argv[2]) : 6;
    if (m < 1 || n < 1) {
        if (rank == 0)
            fprintf(stderr, "par_blas2: M (rows per rank) and N (columns) must be positive\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    float *a = malloc(sizeof(float) * (size_t)m);
    float *b = malloc(sizeof(float) * (size_t)m * (size_t)n);
    float *sum = malloc(sizeof(float) * (size_t)n);
    float *c = calloc((size_t)n, sizeof(float));
    float *lo = calloc((size_t)n, sizeof(float));
    float *hi = calloc((size_t)n, sizeof(float));
    for (int i = 0; i < m; i++) {
        long g = (long)rank * m + i;
        a[i] = (float)(g % 3 - 1);
        for (int j = 0; j < n; j++)
            b[i + m * j] = (float)((g + 2 * j) % 5 - 2);
    }

    par_blas2_reduce(m, n, a, b, c, sum, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("MPI_Reduce to rank 0:\n");
        for (int j = 0; j < n; j++)
            printf("c(%d) = %.1f\n", j + 1, c[j]);
    }

    par_blas2_allreduce(m, n, a, b, c, sum, MPI_COMM_WORLD);
    MPI_Reduce(c, lo, n, MPI_FLOAT, MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Reduce(c, hi, n, MPI_FLOAT, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int same = 1;
        for (int j = 0; j < n; j++)
            same &= lo[j] == c[j] && hi[j] == c[j];
        printf("MPI_Allreduce, the same on every rank: %s\n", same ? "yes" : "no");
        for (int j = 0; j < n; j++)
            printf("c(%d) = %.1f\n", j + 1, c[j]);
    }

    free(a);
    free(b);
    free(sum);
    free(c);
    free(lo);
    free(hi);
    MPI_Finalize();
    return 0;
}
