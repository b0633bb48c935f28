/*
 * A group used after MPI_Group_free through a copy of its handle, while the object lives on
 * (MPI_COMM_WORLD and rank 0's handle still use it): under the default MPI_ERRORS_ARE_FATAL,
 * one line naming the rank, the call and the argument, MPI_ERR_GROUP, and the run ends with
 * the exit status of a fatal MPI error — not a silent answer from a freed handle.
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 1: MPI_Group_size: invalid group (a group this rank already freed, or never received) [MPI_ERR_GROUP]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, size = -1;
    MPI_Group group, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_group(MPI_COMM_WORLD, &group);
    if (rank == 1) {
        copy = group;
        MPI_Group_free(&group);
        MPI_Group_size(copy, &size);
        printf("rank 1: MPI_Group_size on a freed group returned, size %d\n", size);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Group_free(&group);
    MPI_Finalize();
    return 0;
}
