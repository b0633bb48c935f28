/*
 * recv_from_bcast.c — Antonov's exercise 4: "can MPI_RECV receive a message sent by
 * MPI_BCAST?" Every rank but the root posts a receive that would accept anything on the same
 * communicator (MPI_ANY_SOURCE, MPI_ANY_TAG), then takes part in an MPI_Bcast from rank 0.
 * After the broadcast the receive is still pending: collective messages travel in another
 * context than point-to-point ones and never match them. The root then sends an ordinary
 * message, which the pending receive does take.
 *   collsim exec recv_from_bcast.so -n P
 */
#include <stdio.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int data = rank == 0 ? 42 : 0, caught = -1, flag = 1;
    MPI_Request req = MPI_REQUEST_NULL;
    if (rank != 0)
        MPI_Irecv(&caught, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &req);
    MPI_Bcast(&data, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank != 0)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 1; r < size; r++)
            MPI_Send(&r, 1, MPI_INT, r, 5, MPI_COMM_WORLD);
    } else {
        MPI_Status status;
        MPI_Wait(&req, &status);
        /* print in rank order */
        int token = 0;
        if (rank > 1)
            MPI_Recv(&token, 1, MPI_INT, rank - 1, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank %d: broadcast gave %d; the pending receive %s the broadcast; it then got "
               "%d (tag %d) from rank %d\n",
               rank, data, flag ? "CAUGHT" : "did not catch", caught, status.MPI_TAG,
               status.MPI_SOURCE);
        fflush(stdout);
        if (rank + 1 < size)
            MPI_Send(&token, 1, MPI_INT, rank + 1, 6, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
