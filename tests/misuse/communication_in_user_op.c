/*
 * A user-defined reduction function that communicates: MPI-3.1 5.9.5 says "No MPI
 * communication function may be called inside the user function. MPI_ABORT may be called
 * inside the function in case of an error." (the seeds' chapter says it too). Under
 * MPI_ERRORS_RETURN each such call returns MPI_ERR_OTHER having done nothing, and the reduction
 * goes on to the right result; local calls (MPI_Comm_rank, MPI_Type_size) work there. Under
 * the default handler the first one stops the run, named. Only the root applies the function
 * in a Reduce on two ranks.
 *
 * run: -n 2
 * exit: 3
 * expect: refused: MPI_Send MPI_Recv MPI_Iprobe MPI_Wait MPI_Barrier MPI_Comm_dup; local calls ok
 * expect: rank 0: sum 3
 * expect: collsim: rank 0: MPI_Bcast: called inside a user-defined reduction function, where MPI-3.1 5.9.5 allows no communication (MPI_Abort only) [MPI_ERR_OTHER]
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static char refused[256];
static int local_ok = 1;

static void
note(const char *name, int rc)
{
    int class = MPI_SUCCESS;
    MPI_Error_class(rc, &class);
    if (class == MPI_ERR_OTHER) {
        strcat(refused, " ");
        strcat(refused, name);
    }
}

static void
sum_that_communicates(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    int rank, size, flag, value = 0;
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Comm dup;
    local_ok = local_ok && MPI_Comm_rank(MPI_COMM_WORLD, &rank) == MPI_SUCCESS;
    local_ok = local_ok && MPI_Type_size(*dt, &size) == MPI_SUCCESS && size == sizeof(int);
    note("MPI_Send", MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_SELF));
    note("MPI_Recv", MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE));
    note("MPI_Iprobe", MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag,
                                  MPI_STATUS_IGNORE));
    note("MPI_Wait", MPI_Wait(&request, MPI_STATUS_IGNORE));
    note("MPI_Barrier", MPI_Barrier(MPI_COMM_SELF));
    note("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_SELF, &dup));
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

static void
sum_that_broadcasts(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    MPI_Bcast(inout, *len, *dt, 0, MPI_COMM_WORLD);
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((const int *)in)[i];
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, x, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    MPI_Op op;
    MPI_Op_create(sum_that_communicates, 1, &op);
    x = rank + 1;
    MPI_Reduce(&x, &sum, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    if (rank == 0) {
        printf("refused:%s; local calls %s\n", refused, local_ok ? "ok" : "FAILED");
        printf("rank 0: sum %d\n", sum);
        fflush(stdout);
    }
    /* every rank's handler changes once rank 0's reduction is over: collsim keeps one handler
     * per communicator, shared by its members (the README says so) */
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Op_create(sum_that_broadcasts, 1, &op);
    MPI_Reduce(&x, &sum, 1, MPI_INT, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    MPI_Finalize();
    return 0;
}
