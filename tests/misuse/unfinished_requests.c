/*
 * Requests never completed, a receive nothing matches, a message nobody receives: legal
 * enough to finish under a real MPI, and silent there. collsim finishes too (exit 0) and
 * warns, naming rank, peer and tag.
 *
 * run: -n 3
 * exit: 0
 * expect: collsim: warning: rank 0 reaches MPI_Finalize with 1 request never completed (no MPI_Wait, MPI_Test or MPI_Request_free)
 * expect: collsim: warning: rank 1 reaches MPI_Finalize with 1 request never completed
 * expect: collsim: warning: rank 1: its receive of a message from rank 2 (tag 9) was never matched
 * expect: collsim: warning: rank 1 never received the message rank 0 sent it (tag 8, 4 bytes)
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 1, got[2];
    MPI_Request requests[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Isend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &requests[0]); /* never waited */
        MPI_Send(&value, 1, MPI_INT, 1, 8, MPI_COMM_WORLD);                /* never received */
    } else if (rank == 1) {
        MPI_Irecv(&got[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &requests[0]);
        MPI_Wait(&requests[0], MPI_STATUS_IGNORE);
        MPI_Irecv(&got[1], 1, MPI_INT, 2, 9, MPI_COMM_WORLD, &requests[1]); /* never matched */
    }
    MPI_Finalize();
    return 0;
}
