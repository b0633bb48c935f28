/*
 * A rank asks for its rank before MPI_Init: MPI-3.1 8.7 lets only MPI_Initialized,
 * MPI_Finalized, MPI_Get_version and MPI_Get_library_version come before MPI_Init, and Open MPI
 * stops the job there. The program asks MPI_Initialized first (allowed: it answers 0), then
 * MPI_Comm_rank, which is refused under the default handler, before the rank could run as
 * if it were right.
 *
 * run: -n 2
 * exit: 3
 * expect: before MPI_Init: initialized 0
 * expect: collsim: rank 0: MPI_Comm_rank: called before MPI_Init [MPI_ERR_OTHER]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int initialized = -1, rank = -1;
    MPI_Initialized(&initialized);
    printf("before MPI_Init: initialized %d\n", initialized);
    fflush(stdout);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Init(&argc, &argv);
    printf("rank %d: not reached\n", rank);
    MPI_Finalize();
    return 0;
}
