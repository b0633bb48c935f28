/*
 * MPI_Allreduce with a NULL send buffer and 4 ints to reduce: an MPI_ERR_BUFFER through the
 * communicator's error handler (MPI_ERRORS_ARE_FATAL: the run ends, exit 3), not a SIGSEGV
 * inside the reduction.
 *
 * run: -n 2
 * exit: 3
 * expect: MPI_Allreduce
 * expect: sendbuf is (nil) with 4 items of MPI_INT to move: not an address of data
 */
#include <mpi.h>
#include <stddef.h>

int
main(int argc, char **argv)
{
    int sums[4];
    MPI_Init(&argc, &argv);
    MPI_Allreduce(NULL, sums, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
