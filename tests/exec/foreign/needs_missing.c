/*
 * needs_missing.c — an ordinary program that calls MPI functions collsim does not define and
 * mpi.h does not declare (ULFM's MPIX_Comm_revoke, MPI-4's MPI_Isendrecv, declared here as
 * the program's own MPI library would), beside one of a part collsim leaves out
 * (MPI_Win_create, which collsim defines to refuse its call). `collsim exec` must refuse it
 * before any rank starts, naming the first two only (tests/exec/test_foreign.sh), so the line
 * printed first by main never appears.
 */
#include <mpi.h>
#include <stdio.h>

int MPIX_Comm_revoke(MPI_Comm comm);
int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
                  int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source,
                  int recvtag, MPI_Comm comm, MPI_Request *request);

int
main(int argc, char **argv)
{
    printf("a rank started\n");
    fflush(stdout);
    MPI_Init(&argc, &argv);
    int x = 1, y = 0;
    MPI_Request request;
    MPI_Isendrecv(&x, 1, MPI_INT, MPI_PROC_NULL, 0, &y, 1, MPI_INT, MPI_PROC_NULL, 0,
                  MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    MPIX_Comm_revoke(MPI_COMM_WORLD);
    MPI_Win win;
    MPI_Win_create(&x, sizeof x, sizeof x, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
