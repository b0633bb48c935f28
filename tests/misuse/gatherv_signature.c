/*
 * MPI_Gatherv: the root expects 2 ints from every rank, rank 2 sends 3 (MPI-3.1 5.5: each
 * rank's send signature must match the root's recvcounts[rank]).
 *
 * run: -n 4
 * exit: 7
 * expect:   ranks 0-1: MPI_Gatherv(count=2, datatype=MPI_INT, root=0), 8 bytes at main+
 * expect:   rank 2: MPI_Gatherv(count=3, datatype=MPI_INT, root=0), 12 bytes at main+
 * expect:   rank 2 sends 12 bytes, the root expects 8 for it
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size, mine[4] = {0}, all[64], counts[16], displs[16];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < size && i < 16; i++) {
        counts[i] = 2;
        displs[i] = 2 * i;
    }
    MPI_Gatherv(mine, rank == 2 ? 3 : 2, MPI_INT, all, counts, displs, MPI_INT, 0,
                MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
