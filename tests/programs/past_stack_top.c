/*
 * past_stack_top.c — main sends 512 bytes starting at a 4-byte local variable (a count of 128
 * for one int, a mistake MBI's generated programs make on purpose): the send reads past the
 * top of the rank's stack. Under mpirun the bytes above main's frame (the environment) are
 * read unnoticed; under collsim's own core the read leaves the stack and the rank dies, and
 * the report must say that it reached past the top of the stack (not that the stack was too
 * small).
 */
#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, value;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    value = rank;
    MPI_Send(&value, 128, MPI_INT, rank, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
