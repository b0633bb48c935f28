/*
 * Every rank reduces once more after MPI_Finalize (MPI-3.1 8.7: no MPI call but
 * MPI_Initialized, MPI_Finalized, MPI_Get_version and MPI_Get_library_version after it): the
 * call is refused under the default handler, naming the program's MPI_Allreduce (it named
 * the MPI_Sendrecv of collsim's algorithm for it).
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Allreduce: called after MPI_Finalize [MPI_ERR_OTHER]
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int value = 1;
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    return 0;
}
