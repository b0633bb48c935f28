/*
 * Every rank reduces forever: simulated time grows, and --time-limit stops the run once it
 * passes the limit, naming the collective each rank is in.
 *
 * run: -n 4 --time-limit 1ms
 * exit: 8
 * expect: collsim: simulated-time limit of 0.001 s reached at simulated t=0.001
 * expect:   rank 0 is blocked in MPI_Allreduce at main+
 * expect: endless_allreduce.c:20), its collective call #
 * expect: on MPI_COMM_WORLD, in its step MPI_Sendrecv
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int value = 1;
    MPI_Init(&argc, &argv);
    for (;;)
        MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
