/*
 * MPI_Bcast of 8 doubles from the root, rank 1 expecting 4: the type signatures differ
 * (MPI-3.1 5.4). Under a real MPI rank 1 gets a truncation error or silently loses data.
 *
 * run: -n 4
 * exit: 7
 * expect:   rank 0: MPI_Bcast(count=8, datatype=MPI_DOUBLE, root=0), 64 bytes at main+
 * expect:   rank 1: MPI_Bcast(count=4, datatype=MPI_DOUBLE, root=0), 32 bytes at main+
 * expect:   the type signatures (count x datatype size) must be the same on every member
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    double data[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast(data, rank == 1 ? 4 : 8, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
