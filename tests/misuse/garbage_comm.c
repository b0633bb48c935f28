/*
 * A communicator handle that was never set (here: stack garbage, made deterministic) used in
 * MPI_Bcast: MPI_ERR_COMM through MPI_COMM_WORLD's handler, not a SIGSEGV.
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Bcast: invalid communicator [MPI_ERR_COMM]
 */
#include <mpi.h>
#include <stdint.h>

int
main(int argc, char **argv)
{
    union {
        MPI_Comm comm;
        uintptr_t junk;
    } never_set = {.junk = 0x12345678};
    int value = 0;
    MPI_Init(&argc, &argv);
    MPI_Bcast(&value, 1, MPI_INT, 0, never_set.comm);
    MPI_Finalize();
    return 0;
}
