/*
 * A derived datatype used after MPI_Type_free (through a copy of its handle): MPI_ERR_TYPE,
 * returned under MPI_ERRORS_RETURN, not a read of freed memory.
 *
 * run: -n 2
 * exit: 0
 * expect: rank 0: MPI_Bcast with a freed datatype returns error class 3 (MPI_ERR_TYPE is 3)
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, pair[2] = {0, 0}, class = -1;
    MPI_Datatype two, copy;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_INT, &two);
    MPI_Type_commit(&two);
    copy = two;
    MPI_Type_free(&two);
    int rc = MPI_Bcast(pair, 1, copy, 0, MPI_COMM_WORLD);
    MPI_Error_class(rc, &class);
    if (rank == 0)
        printf("rank 0: MPI_Bcast with a freed datatype returns error class %d (MPI_ERR_TYPE is "
               "%d)\n",
               class, MPI_ERR_TYPE);
    MPI_Finalize();
    return 0;
}
