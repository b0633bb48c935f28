/*
 * Every rank shifts a window of its array by one place with MPI_Sendrecv, sending ints 0-3 and
 * receiving into ints 1-4 of the same array: MPI-3.1 3.10 requires the two buffers to be
 * disjoint (the receive would write what the send reads; MPI_Sendrecv_replace is the call for
 * one buffer). The call is refused with the offset between them.
 *
 * run: -n 2
 * exit: 3
 * expect: MPI_Sendrecv: sendbuf and recvbuf overlap (recvbuf starts 4 bytes from sendbuf): the two buffers must be disjoint; MPI_Sendrecv_replace exchanges one buffer's contents [MPI_ERR_BUFFER]
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size, window[5] = {0, 1, 2, 3, 4};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Sendrecv(window, 4, MPI_INT, (rank + 1) % size, 0, window + 1, 4, MPI_INT,
                 (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
