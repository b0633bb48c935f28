/*
 * allreduce_from_reduce_bcast.c — A. S. Antonov's exercise 8 (seed 002, the Russian MPI
 * textbook): model MPI_ALLREDUCE with MPI_REDUCE and MPI_BCAST. (The MPI standard says the
 * same in its advice to implementors, seeds 000 and 004: an all-reduce can be a reduce
 * followed by a broadcast, but a direct implementation can be faster.)
 *
 *   collsim exec scenarios/seeds/allreduce_from_reduce_bcast.so -n 8 [-- N]
 *
 * Each rank sums N doubles (default 1000), x(i) = (i mod 10) + rank for i = 0..N-1, twice:
 * by MPI_Reduce to rank 0 followed by MPI_Bcast from rank 0 (the model), and by
 * MPI_Allreduce. Both are timed with MPI_Wtime after an MPI_Barrier. The values are small
 * integers, so both sums are exact and must be equal bit for bit on every rank.
 *
 * Output: rank 0 prints y(1), y(N) and the sum of y, and whether the model's result equals
 * MPI_Allreduce's on every rank; every rank prints `rank= r model time = T allreduce time = T`
 * (simulated seconds, %.9f).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

/* the model: MPI_Allreduce as MPI_Reduce to rank 0, then MPI_Bcast from rank 0 */
static void
model_allreduce(const double *x, double *y, int n, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
    MPI_Reduce(x, y, n, type, op, 0, comm);
    MPI_Bcast(y, n, type, 0, comm);
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int n = argc > 1 ? atoi(argv[1]) : 1000;
    if (n < 1) {
        if (rank == 0)
            fprintf(stderr, "allreduce_from_reduce_bcast: N must be a positive count\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double *x = malloc(sizeof(double) * (size_t)n);
    double *y = malloc(sizeof(double) * (size_t)n);
    double *z = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        x[i] = (double)(i % 10 + rank);

    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    model_allreduce(x, y, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double t_model = MPI_Wtime() - t0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    MPI_Allreduce(x, z, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double t_allreduce = MPI_Wtime() - t0;

    int equal = memcmp(y, z, sizeof(double) * (size_t)n) == 0, all_equal = 0;
    MPI_Reduce(&equal, &all_equal, 1, MPI_INT, MPI_LAND, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double sum = 0.0;
        for (int i = 0; i < n; i++)
            sum += y[i];
        printf("y(1) = %.1f\n", y[0]);
        printf("y(%d) = %.1f\n", n, y[n - 1]);
        printf("sum of y = %.1f\n", sum);
        printf("reduce + bcast equals MPI_Allreduce on every rank: %s\n",
               all_equal ? "yes" : "no");
    }
    printf("rank= %d model time = %.9f allreduce time = %.9f\n", rank, t_model, t_allreduce);

    free(x);
    free(y);
    free(z);
    MPI_Finalize();
    return 0;
}
