/*
 * Rank 0 raises an error code of its own (MPI_Add_error_class, _code, _string) through
 * MPI_Comm_call_errhandler on MPI_COMM_WORLD, whose handler is MPI_ERRORS_ARE_FATAL: the run
 * stops there as for any fatal MPI error (exit 3), the report naming the code with the string
 * the program gave it, and nothing after the call is printed (MPICH's errhan/errfatal).
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Comm_call_errhandler: error code
 * expect: raised by the program [error code
 * expect: : bad input deck]
 */
#include <mpi.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
    int rank, class, code;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Add_error_class(&class);
    MPI_Add_error_code(class, &code);
    MPI_Add_error_string(code, "bad input deck");
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Comm_call_errhandler(MPI_COMM_WORLD, code);
        printf("after the fatal handler\n");
    }
    MPI_Finalize();
    return 0;
}
