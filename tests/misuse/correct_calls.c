/*
 * Correct programs the checker must let through: arguments the standard calls insignificant
 * (non-roots' receive arguments of Gather, send arguments of Scatter), MPI_IN_PLACE, the same
 * signature through different datatypes (one contiguous type of 2 ints against 2 MPI_INT),
 * user ops created on each rank, sub-communicators, and v-collectives with uneven counts, and
 * user ops freed as soon as the call returns, while later members have yet to make it (a call
 * of count 0, a leaf of a reduction tree).
 *
 * run: -n 5
 * exit: 0
 * expect: correct: 5 ranks, sum 10, gathered 0 0 1 1 2 2 3 3 4 4, split sums 6 4
 */
#include <mpi.h>
#include <stdio.h>

static void
add_ints(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    for (int i = 0; i < *len; i++)
        ((int *)inout)[i] += ((int *)in)[i];
}

int
main(int argc, char **argv)
{
    int rank, size, sum = 0, pair[2], all[32] = {0}, one = 0, half_sum = 0, other = 0;
    MPI_Datatype two_ints;
    MPI_Op add;
    MPI_Comm half;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Type_contiguous(2, MPI_INT, &two_ints);
    MPI_Type_commit(&two_ints);
    MPI_Op_create(add_ints, 1, &add);

    MPI_Allreduce(&rank, &sum, 1, MPI_INT, add, MPI_COMM_WORLD);
    pair[0] = pair[1] = rank;
    /* the root receives 2 MPI_INT per rank, the others send one two_ints; non-roots pass
     * garbage receive arguments, which the standard says are ignored */
    if (rank == 0)
        MPI_Gather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    else
        MPI_Gather(pair, 1, two_ints, NULL, -7, MPI_DATATYPE_NULL, 0, MPI_COMM_WORLD);
    if (rank == 0)
        all[0] = all[1] = 0;
    MPI_Bcast(all, 2 * size, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Scatter(all, 2, MPI_INT, pair, 1, two_ints, 0, MPI_COMM_WORLD);

    int counts[32], displs[32], mine[32];
    for (int i = 0; i < size; i++) {
        counts[i] = i + 1;
        displs[i] = i * (i + 1) / 2;
    }
    for (int i = 0; i <= rank; i++)
        mine[i] = rank;
    int gathered[64];
    MPI_Allgatherv(mine, rank + 1, MPI_INT, gathered, counts, displs, MPI_INT, MPI_COMM_WORLD);
    MPI_Reduce_scatter(gathered, &one, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    MPI_Allreduce(&rank, &half_sum, 1, MPI_INT, MPI_SUM, half);
    if (rank % 2 == 0)
        MPI_Bcast(&half_sum, 1, MPI_INT, 0, half);
    MPI_Reduce(&half_sum, &other, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    for (int round = 0; round < 2; round++) {
        MPI_Op brief;
        int nothing = 0, leaves = 0;
        MPI_Op_create(add_ints, 1, &brief);
        MPI_Reduce_scatter_block(&nothing, &nothing, 0, MPI_INT, brief, MPI_COMM_WORLD);
        MPI_Reduce(&rank, &leaves, 1, MPI_INT, brief, size - 1, MPI_COMM_WORLD);
        MPI_Op_free(&brief);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("correct: %d ranks, sum %d, gathered", size, sum);
        for (int i = 0; i < 2 * size; i++)
            printf(" %d", all[i]);
        printf(", split sums %d %d\n", half_sum, other);
    }
    MPI_Comm_free(&half);
    MPI_Op_free(&add);
    MPI_Type_free(&two_ints);
    MPI_Finalize();
    return 0;
}
