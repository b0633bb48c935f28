/*
 * Rank 2 returns from main without MPI_Finalize (an early return on an error path). mpirun
 * reports such a job as failed; so does collsim, naming the rank (exit 5), after the others
 * have finished normally.
 *
 * run: -n 4
 * exit: 5
 * expect: collsim: rank 2 returned from main without calling MPI_Finalize
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        return 0;
    MPI_Finalize();
    return 0;
}
