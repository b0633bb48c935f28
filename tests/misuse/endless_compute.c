/*
 * Rank 1 loops forever without calling MPI: simulated time stands still, so only the wall
 * clock can stop it. --wall-limit ends the run and says where each rank is.
 *
 * run: -n 3 --wall-limit 1s
 * exit: 8
 * expect: collsim: wall-time limit of 1 s reached at simulated t=
 * expect:   rank 1 is running (computing, or between MPI calls), the one on the CPU
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    volatile unsigned long spins = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        for (;;)
            spins++;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
