/*
 * needs_missing.c — an ordinary program that calls MPI functions collsim does not define: a
 * nonblocking collective and one-sided communication. `collsim exec` must refuse it before any
 * rank starts (tests/exec/test_foreign.sh), so the line printed first by main never appears.
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    printf("a rank started\n");
    fflush(stdout);
    MPI_Init(&argc, &argv);
    int x = 1, sum = 0;
    MPI_Request request;
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPI_Win win;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
