/*
 * Rank 0 waits for a message from rank 1, which finishes without sending it (a forgotten
 * branch). Under a real MPI, rank 0 hangs. collsim reports the deadlock: what rank 0 waits
 * in, and the wait-for chain ending at a rank that can no longer send.
 *
 * run: -n 3
 * exit: 4
 * expect: collsim: deadlock: 1 of 3 ranks can never proceed
 * expect:   rank 0 is blocked in MPI_Recv waiting for a message from rank 1 (tag 3)
 * expect:   wait-for chain: rank 0 -> rank 1 (which has called MPI_Finalize)
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Recv(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return value;
}
