/*
 * Only rank 0 calls MPI_Bcast; the small message goes out eagerly, nobody waits, and under a
 * real MPI the program ends normally. collsim reports the call nobody else made.
 *
 * run: -n 4
 * exit: 7
 * expect: collsim: unmatched collective call on MPI_COMM_WORLD, call #1 of its members:
 * expect:   rank 0: MPI_Bcast(count=1, datatype=MPI_INT, root=0), 4 bytes at main+
 * expect:   ranks 1-3: never made this call
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, value = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
