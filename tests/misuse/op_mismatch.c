/*
 * MPI_Allreduce with MPI_MAX on rank 2 and MPI_SUM on the others (MPI-3.1 5.9.1: the op
 * must be the same on every member).
 *
 * run: -n 4
 * exit: 7
 * expect:   ranks 0-1: MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_SUM), 4 bytes at main+
 * expect:   rank 2: MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_MAX), 4 bytes at main+
 * expect:   rank 3: has not made it yet
 * expect:   every member must pass the same op
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 1, result = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Allreduce(&value, &result, 1, MPI_INT, rank == 2 ? MPI_MAX : MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
