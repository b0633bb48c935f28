/*
 * MPI_Gather of one MPI_FLOAT from every rank into MPI_INT blocks at the root: the byte counts
 * agree (4 and 4), so the collective checker lets the call through, but the type signatures do
 * not (MPI-3.1 5.5: each rank's send signature must match the root's receive signature), and
 * the root would read the bits of floats as ints. The algorithm's message to the root is then
 * refused at its receive (MPI_ERR_TYPE, MPI-3.1 3.3.1), and the report names the program's
 * call the algorithm ran for, with its source line.
 *
 * run: -n 4 --algorithm gather=linear
 * exit: 3
 * expect: collsim: rank 0: MPI_Waitall in MPI_Gather at main+
 * expect: (gather_type_mismatch.so, gather_type_mismatch.c:24), its collective call #1 on MPI_COMM_WORLD: a message of 4 bytes of MPI_FLOAT arrived for a receive of MPI_INT
 * expect: [MPI_ERR_TYPE]
 */
#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, blocks[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    float mine = (float)rank;
    MPI_Gather(&mine, 1, MPI_FLOAT, blocks, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
