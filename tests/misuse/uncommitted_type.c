/*
 * Rank 0 sends with a vector type it built but never committed (MPI-3.1 4.1.9: a type must be
 * committed before it is used in communication): the send is refused naming the reason, and
 * the run stops there (MPI_ERRORS_ARE_FATAL), before rank 1's receive can match anything.
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Send
 * expect: : invalid datatype: not committed (MPI_Type_commit) [MPI_ERR_TYPE]
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, buf[4] = {1, 2, 3, 4};
    MPI_Datatype every_other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_vector(2, 1, 2, MPI_INT, &every_other);
    if (rank == 0)
        MPI_Send(buf, 1, every_other, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(buf, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Type_free(&every_other);
    MPI_Finalize();
    return 0;
}
