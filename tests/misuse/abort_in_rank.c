/*
 * Rank 1 calls abort(): the whole run ends with the status a shell shows for an aborted
 * process (128 + SIGABRT), naming the rank. (The sanitizer build keeps its own handler.)
 *
 * run: -n 4
 * exit: 134
 * sanitized: skip
 * expect: collsim: rank 1 aborted (SIGABRT: abort() or a failed assertion); the run ends
 */
#include <mpi.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        abort();
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
