/*
 * own_globals.c — a program whose globals and functions are named like the C library's and the
 * maths library's (err, index, y1, error): as an executable it uses its own (mpicc + Open MPI
 * prints the lines below), and so must it under collsim, which loads it after those libraries
 * (sim/engine/program_bind.h). Every way of reaching them: read and written directly, through
 * a pointer set at load time, called directly and through a pointer; each rank its own copy.
 *   rank R: err 5+R y1 2.5+R index 7+R via pointer 5+R
 *   rank 0: own error(): called directly, then own error(): called through a pointer
 */
#include <mpi.h>
#include <stdio.h>

int err = 5;
double y1 = 2.5;
int index = 7;
int *where = &err;

void
error(const char *how)
{
    printf("own error(): called %s\n", how);
}

void (*report)(const char *) = error;

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    err += rank;
    y1 += rank;
    index += rank;
    printf("rank %d: err %d y1 %g index %d via pointer %d\n", rank, err, y1, index, *where);
    if (rank == 0) {
        error("directly");
        report("through a pointer");
    }
    MPI_Finalize();
    return 0;
}
