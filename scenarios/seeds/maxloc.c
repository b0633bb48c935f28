/*
 * maxloc.c — MPI_MAXLOC over an array of 30 doubles on each process, returning for each of the
 * 30 positions the largest value and the rank of the process that holds it (seed 004, MPI-1
 * 4.9.3, example 4.17): the pairs (value, rank) travel as MPI_DOUBLE_INT and MPI_Reduce
 * combines them with MPI_MAXLOC to the root (rank 0).
 *
 *   collsim exec scenarios/seeds/maxloc.so -n 8
 *
 * The data show the tie rule: when several processes hold the maximum, MAXLOC returns the
 * lowest rank among them. ain[i] on rank r is i + 0.5 * min(r, i mod 10): along the ranks
 * the value climbs up to rank i mod 10 and then stays flat, so every rank from
 * min(i mod 10, P-1) up ties for the maximum, and the answer is exactly that lowest one,
 * min(i mod 10, P-1) (for i mod 10 = 0 all ranks tie and rank 0 wins; when i mod 10 >= P-1
 * the last rank alone holds it). All values are exact in double.
 *
 * Output on the root: one line per position, `aout[i] = value  ind[i] = rank`.
 */
#include <stdio.h>

#include "mpi.h"

#define N 30

int
main(int argc, char **argv)
{
    /* each process has an array of 30 doubles: ain[30] */
    double ain[N], aout[N];
    int ind[N];
    struct {
        double val;
        int rank;
    } in[N], out[N];
    int i, myrank, root = 0;
    MPI_Comm comm = MPI_COMM_WORLD;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(comm, &myrank);
    for (i = 0; i < N; ++i) {
        int plateau = i % 10;
        ain[i] = i + 0.5 * (myrank < plateau ? myrank : plateau);
    }
    for (i = 0; i < N; ++i) {
        in[i].val = ain[i];
        in[i].rank = myrank;
    }
    MPI_Reduce(in, out, N, MPI_DOUBLE_INT, MPI_MAXLOC, root, comm);
    /* At this point, the answer resides on process root */
    if (myrank == root) {
        /* read ranks out */
        for (i = 0; i < N; ++i) {
            aout[i] = out[i].val;
            ind[i] = out[i].rank;
        }
        for (i = 0; i < N; ++i)
            printf("aout[%d] = %.2f  ind[%d] = %d\n", i, aout[i], i, ind[i]);
    }
    MPI_Finalize();
    return 0;
}
