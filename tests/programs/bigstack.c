/*
 * bigstack.c — each rank keeps a 16 MiB array on its stack, twice Linux's usual stack. With
 * the default stack (8 MiB) it must die with a message naming the rank; with --stack-kib 32768
 * it runs and every rank prints its rank from the array.
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    volatile char big[16 << 20];
    memset((char *)big, rank, sizeof big);
    printf("rank %d: %d\n", rank, big[(16 << 20) - 1]);
    MPI_Finalize();
    return 0;
}
