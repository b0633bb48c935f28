/*
 * tunables.c — rank 0 prints the glibc tunables its process started with (GLIBC_TUNABLES), for
 * tests/exec/test_exec.sh: collsim restarts itself with malloc on transparent huge pages
 * (sim/cli/main.c), and the program runs in that process.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        const char *tunables = getenv("GLIBC_TUNABLES");
        printf("GLIBC_TUNABLES=%s\n", tunables != NULL ? tunables : "(unset)");
    }
    MPI_Finalize();
    return 0;
}
