/*
 * A program of one-sided communication, which collsim leaves out: it compiles against mpi.h
 * (functions, MPI_LOCK_SHARED and the other constants), starts (collsim notes the functions
 * it references), and the first call of one stops the run with its name, rank and line, as
 * a fatal MPI error, whatever the error handler says (the program would go on with a window
 * that does not exist). What rank 0 printed before stays.
 *
 * run: -n 2
 * exit: 3
 * expect: one_sided_call.so references functions collsim leaves out (see README): one-sided communication (MPI_Put, MPI_Win_create, MPI_Win_free, MPI_Win_lock, MPI_Win_unlock); it runs, and a rank that calls one of them stops the run
 * expect: rank 0 starts
 * expect: MPI_Win_create at main+
 * expect: (one_sided_call.so, one_sided_call.c:31): collsim does not provide this function (one-sided communication: out of scope, see README) [MPI_ERR_UNSUPPORTED_OPERATION]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, value = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (rank == 0) {
        printf("rank 0 starts\n");
        fflush(stdout);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win win;
    MPI_Win_create(&value, sizeof value, sizeof value, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock(MPI_LOCK_SHARED, 1 - rank, 0, win);
    MPI_Put(&rank, 1, MPI_INT, 1 - rank, 0, 1, MPI_INT, win);
    MPI_Win_unlock(1 - rank, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
