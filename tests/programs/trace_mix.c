/*
 * trace_mix.c — a little of everything the event recorder sees, for tests/exec/test_trace.sh:
 * an Allreduce, a computation, a Bcast, a message from rank 0 to rank 1, a nonblocking
 * Allreduce and its wait.
 */
#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double x[4096] = {0}, y[4096];
    MPI_Allreduce(x, y, 1024, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    collsim_compute(2e-6);
    MPI_Bcast(x, 4096, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (size > 1) {
        if (rank == 0)
            MPI_Send(x, 10, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
        if (rank == 1)
            MPI_Recv(x, 10, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Request req;
    MPI_Iallreduce(x, y, 8, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
