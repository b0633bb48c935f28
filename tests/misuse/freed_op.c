/*
 * A user op used after MPI_Op_free (through a copy of its handle) in MPI_Allreduce:
 * MPI_ERR_OP through the fatal handler, not a call through freed memory.
 *
 * run: -n 2
 * exit: 3
 * expect: collsim: rank 0: MPI_Allreduce:
 * expect: [MPI_ERR_OP]
 */
#include <mpi.h>

static void
add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int
main(int argc, char **argv)
{
    int value = 1, sum = 0;
    MPI_Op op, copy;
    MPI_Init(&argc, &argv);
    MPI_Op_create(add, 1, &op);
    copy = op;
    MPI_Op_free(&op);
    MPI_Allreduce(&value, &sum, 1, MPI_INT, copy, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
