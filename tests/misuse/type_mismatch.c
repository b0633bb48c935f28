/*
 * MPI_Allreduce of one MPI_INT on rank 0 and one MPI_FLOAT on the others: the same number of
 * bytes, but not the same type signature (MPI-3.1 5.9.1), so the sum would add the bits of a
 * float to an int.
 *
 * run: -n 3
 * exit: 7
 * expect:   rank 0: MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_SUM), 4 bytes
 * expect:   rank 1: MPI_Allreduce(count=1, datatype=MPI_FLOAT, op=MPI_SUM), 4 bytes
 * expect:   MPI_FLOAT elements against MPI_INT: the type signatures must be the same
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, i = 1, isum = 0;
    float f = 1.0f, fsum = 0.0f;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Allreduce(&i, &isum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Allreduce(&f, &fsum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
