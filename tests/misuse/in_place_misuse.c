/*
 * MPI_IN_PLACE where the call does not take it: as a point-to-point buffer, as a receive
 * buffer, as MPI_Bcast's buffer. Each is MPI_ERR_BUFFER naming the argument (under
 * MPI_ERRORS_RETURN the class comes back; under MPI_ERRORS_ARE_FATAL the run ends with
 * exit 3), never a read of address 1.
 *
 * run: -n 2
 * exit: 3
 * expect: MPI_Send: class 1
 * expect: MPI_Sendrecv: class 1
 * expect: MPI_Allreduce: class 1
 * expect: MPI_Alltoallv: class 1
 * expect: MPI_Bcast: buffer is MPI_IN_PLACE, which MPI_Bcast does not take there
 */
#include <mpi.h>
#include <stdio.h>

static void
show(int rank, const char *call, int rc)
{
    int class = -1;
    MPI_Error_class(rc, &class);
    if (rank == 0)
        printf("%s: class %d\n", call, class);
}

int
main(int argc, char **argv)
{
    int rank, v[2] = {1, 2}, counts[2] = {1, 1}, displs[2] = {0, 1};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    show(rank, "MPI_Send", MPI_Send(MPI_IN_PLACE, 2, MPI_INT, rank, 0, MPI_COMM_WORLD));
    show(rank, "MPI_Sendrecv",
         MPI_Sendrecv(v, 2, MPI_INT, rank, 0, MPI_IN_PLACE, 2, MPI_INT, rank, 0, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE));
    show(rank, "MPI_Allreduce", MPI_Allreduce(v, MPI_IN_PLACE, 2, MPI_INT, MPI_SUM,
                                              MPI_COMM_WORLD));
    show(rank, "MPI_Alltoallv", MPI_Alltoallv(v, counts, displs, MPI_INT, MPI_IN_PLACE, counts,
                                              displs, MPI_INT, MPI_COMM_WORLD));
    fflush(stdout);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Bcast(MPI_IN_PLACE, 2, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
