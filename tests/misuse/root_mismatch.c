/*
 * MPI_Bcast with root 1 on the last rank and root 0 on the others (MPI-3.1 5.4).
 *
 * run: -n 4
 * exit: 7
 * expect:   ranks 0-2: MPI_Bcast(count=4, datatype=MPI_INT, root=0), 16 bytes at main+
 * expect:   rank 3: MPI_Bcast(count=4, datatype=MPI_INT, root=1), 16 bytes at main+
 * expect:   every member must pass the same root
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size, data[4] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Bcast(data, 4, MPI_INT, rank == size - 1 ? 1 : 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
