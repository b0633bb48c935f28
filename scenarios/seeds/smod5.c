/*
 * smod5.c — A. S. Antonov's example 15 (seed 002, the Russian MPI textbook): a user-defined
 * global operation smod5, the element-wise sum modulo 5 of integer vectors, created
 * commutative with MPI_Op_create, used by MPI_Reduce to root 0 over n = 1000 integers
 * a(i) = i + rank (i counting from 1, as in the Fortran), then freed with MPI_Op_free.
 *
 *   collsim exec scenarios/seeds/smod5.so -n 8
 *
 * Output: every rank prints `process r a(1) = 1+r` before any communication (so in rank
 * order), as the Fortran does; rank 0 then prints b(1), b(2), b(3), b(1000), the sum of
 * b(1..1000), and whether MPI_Op_free set the handle to MPI_OP_NULL.
 *
 * What to expect: with P >= 2 ranks, b(i) = (sum over ranks of (i + rank)) mod 5, whatever
 * the tree, since smod5 is associative and commutative on non-negative integers. With one rank
 * MPI never calls the op, so b(i) = a(i) = i, not reduced modulo 5.
 */
#include <stdio.h>

#include "mpi.h"

#define N 1000

/* inout(i) = mod(in(i) + inout(i), 5) */
static void
smod5(void *invec, void *inoutvec, int *l, MPI_Datatype *type)
{
    (void)type;
    const int *in = invec;
    int *inout = inoutvec;
    for (int i = 0; i < *l; i++)
        inout[i] = (in[i] + inout[i]) % 5;
}

int
main(int argc, char **argv)
{
    int rank;
    int a[N], b[N];
    MPI_Op op;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 1; i <= N; i++)
        a[i - 1] = i + rank;
    printf("process %d a(1) = %d\n", rank, a[0]);

    MPI_Op_create(smod5, 1, &op);
    MPI_Reduce(a, b, N, MPI_INT, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);

    if (rank == 0) {
        long sum = 0;
        for (int i = 0; i < N; i++)
            sum += b[i];
        printf("b(1) = %d\n", b[0]);
        printf("b(2) = %d\n", b[1]);
        printf("b(3) = %d\n", b[2]);
        printf("b(%d) = %d\n", N, b[N - 1]);
        printf("sum of b = %ld\n", sum);
        printf("op == MPI_OP_NULL after MPI_Op_free: %s\n", op == MPI_OP_NULL ? "yes" : "no");
    }
    MPI_Finalize();
    return 0;
}
