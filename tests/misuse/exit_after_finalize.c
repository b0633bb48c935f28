/*
 * exit(0) after MPI_Finalize is a normal end of that rank: the others go on.
 *
 * run: -n 3
 * exit: 0
 * expect: rank 0 returns from main
 * expect: rank 2 returns from main
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    if (rank == 1)
        exit(0);
    printf("rank %d returns from main\n", rank);
    return 0;
}
