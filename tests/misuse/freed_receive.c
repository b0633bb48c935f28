/*
 * Rank 1 posts a receive and frees its request before it completes: MPI lets the receive go on
 * (MPI_Finalize completes it here), but the program can never know when its buffer is written
 * (MPI-3.1 3.7.3 advises against it; MPI-CorrBench's MissingCall-MPIWait counts it as a missing
 * MPI_Wait). A warning names the call; the run goes on and ends normally. Freeing an active
 * send request, which MPI allows and programs do, is not warned about.
 *
 * run: -n 2
 * exit: 0
 * expect: collsim: warning: rank 1 freed a receive that had not completed (MPI_Request_free at main+
 * expect: freed_receive.c:32), of a message from rank 0 (tag 7)): MPI lets it finish, but nothing tells the program when its buffer is written (MPI-3.1 3.7.3): wait for it instead
 * expect: rank 0: the send request freed
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, value = 42;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Isend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
        MPI_Request_free(&req);
        printf("rank 0: the send request freed\n");
    } else {
        MPI_Irecv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &req);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Request_free(&req);
    }
    MPI_Finalize();
    return 0;
}
