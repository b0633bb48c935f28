/*
 * free_pending.c — MPI_Comm_free while operations on the communicator are pending (MPI-3.1
 * 6.4.3: "any pending operations that use this communicator will complete normally; the
 * object is actually deallocated only if there are no other active references to it"): each
 * rank starts an Iallreduce and an Ibcast and a ring of Isend/Irecv on a duplicate of
 * MPI_COMM_WORLD, frees it, then waits for all of them and checks the results. (Open MPI
 * 4.1.4's libnbc crashes on this program; the point-to-point half runs there.) Rank 0 prints
 * the failures of all ranks.
 */
#include <stdio.h>

#include "expect_values.h"

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm dup;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    int mine = rank + 1, sum = -1, root_value = rank == 0 ? 42 : -1;
    int out = value(rank, 0), in = -1;
    int left = (rank + size - 1) % size, right = (rank + 1) % size;
    MPI_Request r[4];
    MPI_Iallreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, dup, &r[0]);
    MPI_Ibcast(&root_value, 1, MPI_INT, 0, dup, &r[1]);
    MPI_Irecv(&in, 1, MPI_INT, left, 3, dup, &r[2]);
    MPI_Isend(&out, 1, MPI_INT, right, 3, dup, &r[3]);
    MPI_Comm_free(&dup);
    expect(dup == MPI_COMM_NULL, rank, "MPI_Comm_free's handle");
    expect(MPI_Waitall(4, r, MPI_STATUSES_IGNORE) == MPI_SUCCESS, rank, "MPI_Waitall");
    expect(sum == size * (size + 1) / 2, rank, "the Iallreduce on the freed communicator");
    expect(root_value == 42, rank, "the Ibcast on the freed communicator");
    expect(in == value(left, 0), rank, "the ring on the freed communicator");
    report_failures("free with operations pending", rank, size);
    MPI_Finalize();
    return 0;
}
