/*
 * bcast_p2p.c — an 8-byte binomial-tree broadcast from rank 0 written with MPI_Send and
 * MPI_Recv (the runtime's scale probe: P-1 messages, log2 P rounds). The last rank prints
 * the simulated time at which it has the value.
 */
#include <stdio.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double value = rank == 0 ? 42.0 : 0.0;
    int mask = 1;
    while (mask < size) {
        if (rank & mask) {
            MPI_Recv(&value, 1, MPI_DOUBLE, rank - mask, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rank + mask < size)
            MPI_Send(&value, 1, MPI_DOUBLE, rank + mask, 0, MPI_COMM_WORLD);
    if (rank == size - 1)
        printf("bcast P=%d value=%g simulated=%.9f\n", size, value, MPI_Wtime());
    MPI_Finalize();
    return 0;
}
