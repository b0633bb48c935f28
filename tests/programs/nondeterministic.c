/*
 * nondeterministic.c — a program whose output is NOT reproducible, for `collsim check`'s test:
 * rank 0 sends rank 1 a message whose size depends on the host process's id, and prints that
 * id. Every run of a point is a fresh process, so two runs differ in the simulated time, the
 * bytes moved and the output; a determinism check that misses this is broken.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int bytes = 0;
    if (rank == 0)
        bytes = 1 + (int)(getpid() % 4096) * 1000;
    MPI_Bcast(&bytes, 1, MPI_INT, 0, MPI_COMM_WORLD);
    char *buf = calloc((size_t)bytes, 1);
    if (size > 1 && rank == 0)
        MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
    else if (size > 1 && rank == 1)
        MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("process %ld\n", (long)getpid());
    free(buf);
    MPI_Finalize();
    return 0;
}
