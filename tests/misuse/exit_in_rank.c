/*
 * Rank 2 calls exit(3) before MPI_Finalize while the others wait in a barrier. mpirun ends
 * the job with status 3; so does collsim, naming the rank (the C library's exit handlers used
 * to tear the simulator down: SimGrid aborted, status 134).
 *
 * run: -n 4
 * exit: 3
 * expect: rank 2 leaves
 * expect: collsim: rank 2 called exit(3) before MPI_Finalize at t=
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2) {
        printf("rank 2 leaves\n");
        exit(3);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
