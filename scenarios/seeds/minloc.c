/*
 * minloc.c — MPI_MINLOC with a value and a global index (seed 004, MPI-1 4.9.3, example
 * 4.19): each process has a non-empty array of floats; it finds its local minimum and the
 * index of its first occurrence, encodes the index globally as myrank*LEN + index, and
 * MPI_Reduce with MPI_MINLOC over MPI_FLOAT_INT gives the root (rank 0) the global minimum,
 * the rank that holds it and its position there.
 *
 *   collsim exec scenarios/seeds/minloc.so -n 8
 *
 * The data: val[j] on rank r is 0.5 * (|2r - (P-1)| + 1) + ((37 j + 11 r) mod 101), a whole
 * number or a half, exact in float. Each rank's minimum, 0.5 * (|2r - (P-1)| + 1), first
 * occurs at the smallest j with 37 j + 11 r = 0 (mod 101). It is smallest on the middle rank;
 * with an even P the two middle ranks tie, and MINLOC, which breaks ties by the lower index,
 * must answer the lower of them, P/2 - 1.
 *
 * Output: each rank prints its local minimum and index before communicating (so in rank
 * order); the root prints minval, minrank and minindex.
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

#define LEN 1000

int
main(int argc, char **argv)
{
    float val[LEN]; /* local array of values */
    int count;      /* local number of values */
    int myrank, size, minrank, minindex, root = 0;
    float minval;
    MPI_Comm comm = MPI_COMM_WORLD;
    struct {
        float value;
        int index;
    } in, out;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(comm, &myrank);
    MPI_Comm_size(comm, &size);
    count = LEN;
    for (int j = 0; j < count; j++)
        val[j] = 0.5f * (float)(abs(2 * myrank - (size - 1)) + 1) +
                 (float)((37 * j + 11 * (myrank % 101)) % 101);

    /* local minloc */
    in.value = val[0];
    in.index = 0;
    for (int i = 1; i < count; i++)
        if (in.value > val[i]) {
            in.value = val[i];
            in.index = i;
        }
    printf("rank %d: local minimum %.1f at index %d\n", myrank, in.value, in.index);

    /* global minloc */
    in.index = myrank * LEN + in.index;
    MPI_Reduce(&in, &out, 1, MPI_FLOAT_INT, MPI_MINLOC, root, comm);
    /* At this point, the answer resides on process root */
    if (myrank == root) {
        /* read answer out */
        minval = out.value;
        minrank = out.index / LEN;
        minindex = out.index % LEN;
        printf("minval = %.1f  minrank = %d  minindex = %d\n", minval, minrank, minindex);
    }
    MPI_Finalize();
    return 0;
}
