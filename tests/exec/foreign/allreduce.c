/*
 * allreduce.c — a correct program using only functions collsim defines, compiled twice by
 * tests/exec/test_foreign.sh: against collsim's mpi.h it runs; with Open MPI's mpicc it must be
 * refused, naming Open MPI and the command that rebuilds it.
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int mine = rank + 1, sum = 0;
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("sum of 1..%d = %d\n", size, sum);
    MPI_Finalize();
    return 0;
}
