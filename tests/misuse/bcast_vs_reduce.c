/*
 * Rank 0 calls MPI_Bcast while the others call MPI_Reduce at the same point: different
 * collectives at the same position on one communicator (MPI-3.1 5.12). Under Open MPI it
 * runs to the end and prints nothing wrong; collsim stops at rank 1's call.
 *
 * run: -n 4
 * exit: 7
 * expect: collsim: collective mismatch on MPI_COMM_WORLD, call #1 of its members:
 * expect:   rank 0: MPI_Bcast(count=1, datatype=MPI_INT, root=0), 4 bytes at main+
 * expect: (bcast_vs_reduce.so, bcast_vs_reduce.c:25)
 * expect:   rank 1: MPI_Reduce(count=1, datatype=MPI_INT, op=MPI_SUM, root=0), 4 bytes at main+
 * expect: (bcast_vs_reduce.so, bcast_vs_reduce.c:27)
 * expect:   ranks 2-3: has not made it yet
 * expect:   every member of a communicator must make the same collective calls in the same order
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 1, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
