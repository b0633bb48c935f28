/*
 * out_of_scope.c — references one function of each part of MPI that collsim leaves out
 * (MPI-IO, dynamic processes, the MPI_T interface) and one
 * profiling name of one-sided communication: the note `collsim exec` prints before the ranks
 * start names each under its part. Run with "call", rank 0 then calls MPI_File_open, and the
 * run stops there, naming the call and its line.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int PMPI_Win_fence(int assert, MPI_Win win);

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1 && strcmp(argv[1], "call") == 0 && rank == 0) {
        printf("rank 0 opens a file\n");
        fflush(stdout);
        MPI_File file;
        MPI_File_open(MPI_COMM_SELF, "data", MPI_MODE_RDONLY, MPI_INFO_NULL, &file);
        printf("rank 0 opened it\n");
    }
    if (argc > 1 && strcmp(argv[1], "never") == 0) {
        MPI_Comm parent;
        MPI_Comm_get_parent(&parent);
        int provided;
        MPI_T_init_thread(0, &provided);
        PMPI_Win_fence(0, MPI_WIN_NULL);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("no rank called a function collsim leaves out\n");
    MPI_Finalize();
    return 0;
}
