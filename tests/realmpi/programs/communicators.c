/*
 * communicators.c — MPI_Comm_create_group over a group given in reverse order (only its
 * members call it), MPI_Comm_idup in flight together with an MPI_Iallreduce, and a ring of
 * persistent requests (MPI_Send_init / MPI_Recv_init) started three times. Rank 0 gathers one
 * line per rank and prints them, so the output does not depend on scheduling.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the even ranks, highest first */
    MPI_Group world, evens;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int n = (size + 1) / 2;
    int *ranks = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        ranks[i] = 2 * (n - 1 - i);
    MPI_Group_incl(world, n, ranks, &evens);
    int row[8] = {-1, -1, -1, -1, -1, -1, -1, -1};
    if (rank % 2 == 0) {
        MPI_Comm group_comm;
        MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &group_comm);
        MPI_Comm_rank(group_comm, &row[0]);
        MPI_Comm_size(group_comm, &row[1]);
        MPI_Allreduce(&rank, &row[2], 1, MPI_INT, MPI_SUM, group_comm);
        MPI_Comm_free(&group_comm);
    }

    MPI_Comm dup;
    MPI_Request reqs[2];
    int one = 1;
    MPI_Comm_idup(MPI_COMM_WORLD, &dup, &reqs[0]);
    MPI_Iallreduce(&one, &row[3], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &reqs[1]);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    int cmp;
    MPI_Comm_compare(dup, MPI_COMM_WORLD, &cmp);
    row[4] = cmp == MPI_CONGRUENT;
    MPI_Allreduce(&rank, &row[5], 1, MPI_INT, MPI_MAX, dup);
    MPI_Comm_free(&dup);

    int out = -1, in = -1, sum = 0;
    MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 9, MPI_COMM_WORLD, &reqs[0]);
    MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 9, MPI_COMM_WORLD, &reqs[1]);
    for (int round = 0; round < 3; round++) {
        out = 10 * round + rank;
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        sum += in;
    }
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    row[6] = sum;
    row[7] = reqs[0] == MPI_REQUEST_NULL;

    int *all = rank == 0 ? malloc(sizeof row * (size_t)size) : NULL;
    MPI_Gather(row, 8, MPI_INT, all, 8, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int r = 0; r < size; r++) {
            const int *v = all + 8 * r;
            printf("rank %d: create_group rank %d of %d sum %d; idup congruent %d, iallreduce %d, "
                   "max on dup %d; persistent ring sum %d freed %d\n",
                   r, v[0], v[1], v[2], v[4], v[3], v[5], v[6], v[7]);
        }
        free(all);
    }
    free(ranks);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
