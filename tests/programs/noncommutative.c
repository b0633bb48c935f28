/*
 * noncommutative.c — MPI_Allreduce with a non-commutative user op (string-like concatenation
 * of rank digits: a*10^len(b) + b); every rank prints the result, which must read 0123...
 * in rank order.
 */
#include <stdio.h>

#include "mpi.h"

/* inout = in ∘ inout: the digits of `in` (lower ranks) come first. */
static void
concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    long long *a = in, *b = inout;
    for (int i = 0; i < *len; i++) {
        long long scale = 1;
        for (long long v = b[i]; v >= 10; v /= 10)
            scale *= 10;
        b[i] = a[i] * scale * 10 + b[i];
    }
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Op_create(concat, 0, &op);
    long long mine = rank, all = -1;
    MPI_Allreduce(&mine, &all, 1, MPI_LONG_LONG, op, MPI_COMM_WORLD);
    if (rank == 0)
        printf("%lld\n", all);
    MPI_Op_free(&op);
    MPI_Finalize();
    return 0;
}
