/*
 * Ranks 0-1 reduce on MPI_COMM_WORLD then on a duplicate; ranks 2-3 in the other order. Each
 * communicator sees its calls in order, but the ranks wait for each other in a cycle: a
 * deadlock, reported with each rank's collective and the calls the others never made.
 *
 * run: -n 4
 * exit: 4
 * expect: collsim: deadlock: 4 of 4 ranks can never proceed
 * expect:   rank 0 is blocked in MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_SUM), 4 bytes at main+
 * expect: its call #1 on MPI_COMM_WORLD, in its step
 * expect:   rank 2 is blocked in MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_SUM), 4 bytes at main+
 * expect: its call #1 on mirror, in its step
 * expect:   wait-for cycle: rank 0 -> rank 2 -> rank 0 (each waits for the next; none can move first)
 * expect: collsim: unmatched collective call on mirror, call #1 of its members:
 * expect:   ranks 0-1: never made this call
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 1;
    MPI_Comm mirror;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_dup(MPI_COMM_WORLD, &mirror);
    MPI_Comm_set_name(mirror, "mirror");
    MPI_Comm first = rank < 2 ? MPI_COMM_WORLD : mirror;
    MPI_Comm second = rank < 2 ? mirror : MPI_COMM_WORLD;
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, first);
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, second);
    MPI_Comm_free(&mirror);
    MPI_Finalize();
    return 0;
}
