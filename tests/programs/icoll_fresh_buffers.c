/*
 * icoll_fresh_buffers.c — nonblocking collectives into receive buffers that nothing wrote
 * before (malloc'd, uninitialized: the common case), left alone until MPI_Wait, then checked.
 * collsim digests such a buffer whenever the operation parks; under valgrind that must not
 * count as the program branching on uninitialized bytes (tests/exec/test_valgrind.sh).
 * Prints "fresh buffers: ok" on rank 0 when every value is right.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size, bad = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long mine[2] = {rank, 2 * rank};
    long *sum = malloc(2 * sizeof *sum);
    long *all = malloc(2 * (size_t)size * sizeof *all);
    long *got = malloc(2 * (size_t)size * sizeof *got);
    long *out = malloc(2 * (size_t)size * sizeof *out);
    for (int i = 0; i < 2 * size; i++)
        out[i] = 100 * rank + i;
    MPI_Request r[3];
    MPI_Iallreduce(mine, sum, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Iallgather(mine, 2, MPI_LONG, all, 2, MPI_LONG, MPI_COMM_WORLD, &r[1]);
    MPI_Ialltoall(out, 2, MPI_LONG, got, 2, MPI_LONG, MPI_COMM_WORLD, &r[2]);
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);
    long total = (long)size * (size - 1) / 2;
    bad += sum[0] != total || sum[1] != 2 * total;
    for (int i = 0; i < size; i++) {
        bad += all[2 * i] != i || all[2 * i + 1] != 2 * i;
        bad += got[2 * i] != 100 * i + 2 * rank || got[2 * i + 1] != 100 * i + 2 * rank + 1;
    }
    int bad_anywhere = 0;
    MPI_Reduce(&bad, &bad_anywhere, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("fresh buffers: %s\n", bad_anywhere == 0 ? "ok" : "WRONG");
    free(sum);
    free(all);
    free(got);
    free(out);
    MPI_Finalize();
    return bad_anywhere != 0;
}
