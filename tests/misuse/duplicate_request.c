/*
 * Rank 0 passes one receive request twice in the array of MPI_Waitall: completing it would
 * free it twice (under collsim a second free corrupted its records, and the end-of-run count of
 * open requests wrapped around). The call is refused naming both entries, before anything
 * completes.
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Waitall: requests[1] is requests[0] again (a request may appear once in the array) [MPI_ERR_REQUEST]
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, in = 0, out = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Request twice[2];
        MPI_Irecv(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &twice[0]);
        twice[1] = twice[0];
        MPI_Waitall(2, twice, MPI_STATUSES_IGNORE);
    } else {
        MPI_Send(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
