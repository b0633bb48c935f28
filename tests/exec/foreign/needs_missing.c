/*
 * needs_missing.c — an ordinary program that calls MPI functions collsim does not define and
 * mpi.h does not declare (ULFM's MPIX_Comm_revoke, MPI-4's large-count MPI_Send_c, declared
 * here as the program's own MPI library would), beside one of a part collsim leaves out
 * (MPI_Win_create, which collsim defines to refuse its call). `collsim exec` must refuse it
 * before any rank starts, naming the first two only (tests/exec/test_foreign.sh), so the line
 * printed first by main never appears.
 */
#include <mpi.h>
#include <stdio.h>

int MPIX_Comm_revoke(MPI_Comm comm);
int MPI_Send_c(const void *buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
               MPI_Comm comm);

int
main(int argc, char **argv)
{
    printf("a rank started\n");
    fflush(stdout);
    MPI_Init(&argc, &argv);
    int x = 1;
    MPI_Send_c(&x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPIX_Comm_revoke(MPI_COMM_WORLD);
    MPI_Win win;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
