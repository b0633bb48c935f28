/*
 * Rank 0 sends 10 ints, rank 1 receives into room for 5: MPI_ERR_TRUNCATE (MPI-3.1 §3.2.2),
 * fatal under the default handler. The report says how large the message was and how much
 * room there was (it said "20 delivered", the room, not the 40 bytes sent). Under
 * MPI_ERRORS_RETURN the program gets the code and the room filled; that part runs first.
 *
 * run: -n 2
 * exit: 3
 * expect: rank 1: returned MPI_ERR_TRUNCATE, the 5 ints held 0 1 2 3 4
 * expect: collsim: rank 1: MPI_Recv: message truncated: a message of 40 bytes arrived for a receive buffer of 20 bytes (its first 20 bytes were delivered) [MPI_ERR_TRUNCATE]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, out[10], in[5] = {-1, -1, -1, -1, -1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < 10; i++)
        out[i] = i;
    if (rank == 0) {
        MPI_Send(out, 10, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Send(out, 10, MPI_INT, 1, 1, MPI_COMM_WORLD);
    } else {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Recv(in, 5, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("rank 1: returned %s, the 5 ints held %d %d %d %d %d\n",
               rc == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : "something else", in[0], in[1],
               in[2], in[3], in[4]);
        fflush(stdout);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
        MPI_Recv(in, 5, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
