/*
 * Barrier: linear (flat fan-in to rank 0, then fan-out).
 *
 * Origin:   the textbook barrier from point-to-point messages; Open MPI's basic_linear.
 * Requires: nothing.
 * Cost:     2(p-1)α (rank 0 receives p-1 empty messages, then sends p-1).
 * Steps:    every rank r > 0 sends an empty message to 0; once 0 has them all it answers
 *           each rank, which may then leave.
 */
#include "mpi.h"
#include "coll/coll.h"

#define TAG_BARRIER_IN 1
#define TAG_BARRIER_OUT 2

int
coll_barrier_linear(MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    int rank, size, rc = MPI_SUCCESS;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    if (rank != 0) {
        rc = MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_BARRIER_IN, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_BARRIER_OUT, comm, MPI_STATUS_IGNORE);
        return rc;
    }
    for (int r = 1; r < size && rc == MPI_SUCCESS; r++)
        rc = MPI_Recv(NULL, 0, MPI_BYTE, r, TAG_BARRIER_IN, comm, MPI_STATUS_IGNORE);
    for (int r = 1; r < size && rc == MPI_SUCCESS; r++)
        rc = MPI_Send(NULL, 0, MPI_BYTE, r, TAG_BARRIER_OUT, comm);
    return rc;
}
