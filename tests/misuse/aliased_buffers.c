/*
 * MPI_Allreduce, then MPI_Reduce, with overlapping send and receive buffers and no
 * MPI_IN_PLACE: the standard forbids aliased arguments (MPI-3.1 2.3). Under
 * MPI_ERRORS_RETURN the first call returns MPI_ERR_BUFFER (the class, as Open MPI returns);
 * under MPI_ERRORS_ARE_FATAL the second ends the run (exit 3) with the reason.
 *
 * run: -n 2
 * exit: 3
 * expect: error class 1 (MPI_ERR_BUFFER is 1)
 * expect: MPI_Reduce: sendbuf and recvbuf overlap
 * expect: pass MPI_IN_PLACE as sendbuf to use recvbuf for both [MPI_ERR_BUFFER]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, data[4] = {1, 2, 3, 4}, class = -1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rc = MPI_Allreduce(data, data + 1, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Error_class(rc, &class);
    if (rank == 0) {
        printf("error class %d (MPI_ERR_BUFFER is %d)\n", class, MPI_ERR_BUFFER);
        fflush(stdout);
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Reduce(data, data, 4, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
