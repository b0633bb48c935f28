/*
 * Point-to-point calls with wrong arguments under MPI_ERRORS_RETURN: each returns the error
 * class the standard names (compared with the constants, printed by name), none crashes —
 * including a request and a communicator that were never set.
 *
 * run: -n 2
 * exit: 0
 * expect: send to rank 99: MPI_ERR_RANK
 * expect: send with tag -5: MPI_ERR_TAG
 * expect: send from NULL, 3 ints: MPI_ERR_BUFFER
 * expect: send of -1 ints: MPI_ERR_COUNT
 * expect: wait on a request never set: MPI_ERR_REQUEST
 * expect: wait on a request already completed and freed: MPI_ERR_REQUEST
 * expect: receive on a communicator never set: MPI_ERR_COMM
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

static void
show(int rank, const char *what, int rc, int expected, const char *name)
{
    int class = -1;
    MPI_Error_class(rc, &class);
    if (rank == 0)
        printf("%s: %s\n", what, class == expected ? name : "another class");
}

int
main(int argc, char **argv)
{
    int rank, value = 1;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    show(rank, "send to rank 99", MPI_Send(&value, 1, MPI_INT, 99, 0, MPI_COMM_WORLD),
         MPI_ERR_RANK, "MPI_ERR_RANK");
    show(rank, "send with tag -5", MPI_Send(&value, 1, MPI_INT, 0, -5, MPI_COMM_WORLD),
         MPI_ERR_TAG, "MPI_ERR_TAG");
    show(rank, "send from NULL, 3 ints", MPI_Send(NULL, 3, MPI_INT, 0, 1, MPI_COMM_WORLD),
         MPI_ERR_BUFFER, "MPI_ERR_BUFFER");
    show(rank, "send of -1 ints", MPI_Send(&value, -1, MPI_INT, 0, 1, MPI_COMM_WORLD),
         MPI_ERR_COUNT, "MPI_ERR_COUNT");
    union {
        uintptr_t junk;
        MPI_Request request;
        MPI_Comm comm;
    } never_set = {.junk = 0x1234};
    show(rank, "wait on a request never set", MPI_Wait(&never_set.request, &status),
         MPI_ERR_REQUEST, "MPI_ERR_REQUEST");
    MPI_Request request, stale;
    MPI_Isend(&value, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &request);
    stale = request;
    MPI_Recv(&value, 1, MPI_INT, rank, 3, MPI_COMM_WORLD, &status);
    MPI_Wait(&request, &status);
    show(rank, "wait on a request already completed and freed", MPI_Wait(&stale, &status),
         MPI_ERR_REQUEST, "MPI_ERR_REQUEST");
    show(rank, "receive on a communicator never set",
         MPI_Recv(&value, 1, MPI_INT, 0, 1, never_set.comm, &status), MPI_ERR_COMM,
         "MPI_ERR_COMM");
    MPI_Finalize();
    return 0;
}
