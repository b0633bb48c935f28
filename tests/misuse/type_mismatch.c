/*
 * MPI_Allreduce of one MPI_INT on rank 0 and one MPI_FLOAT on the others: the same number of
 * bytes, but not the same type signature (MPI-3.1 5.9.1), so the sum would add the bits of a
 * float to an int. Before it, two broadcasts whose types differ by name only, which MPI
 * delivers intact (MPI_LONG and MPI_INT64_T, MPI_INT and MPI_UNSIGNED: one kind, one size),
 * pass: the mismatch reported is call #3.
 *
 * run: -n 3
 * exit: 7
 * expect: collective mismatch on MPI_COMM_WORLD, call #3 of its members:
 * expect:   rank 0: MPI_Allreduce(count=1, datatype=MPI_INT, op=MPI_SUM), 4 bytes
 * expect:   rank 2: MPI_Allreduce(count=1, datatype=MPI_FLOAT, op=MPI_SUM), 4 bytes
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
    long wide = 1;
    int narrow = 2;
    MPI_Bcast(&wide, 1, rank == 0 ? MPI_LONG : MPI_INT64_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(&narrow, 1, rank == 0 ? MPI_INT : MPI_UNSIGNED, 0, MPI_COMM_WORLD);
    if (rank == 0)
        MPI_Allreduce(&i, &isum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    else
        MPI_Allreduce(&f, &fsum, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
