/*
 * MPI_Alltoallv: rank 1 sends 2 ints to rank 3, which expects 1 from it (MPI-3.1 5.8: what
 * i sends to j must match what j receives from i).
 *
 * run: -n 4
 * exit: 7
 * expect:   rank 1: MPI_Alltoallv(), 20 bytes sent in all at main+
 * expect:   rank 1 sends 8 bytes to rank 3, which expects 4
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size, out[64] = {0}, in[64], sendcounts[16], recvcounts[16], sdispls[16],
                                              rdispls[16];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < size && i < 16; i++) {
        sendcounts[i] = recvcounts[i] = 1;
        sdispls[i] = rdispls[i] = 2 * i;
    }
    if (rank == 1)
        sendcounts[3] = 2;
    MPI_Alltoallv(out, sendcounts, sdispls, MPI_INT, in, recvcounts, rdispls, MPI_INT,
                  MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
