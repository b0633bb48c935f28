/*
 * nodes.c — prints which ranks share a node, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)
 * sees it: rank 0 prints one line per node, its ranks in order, nodes ordered by their
 * lowest rank ("node: 0 1 | node: 2 3").
 */
#include <stdio.h>
#include <stdlib.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size, node_rank, lowest;
    MPI_Comm node;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    MPI_Comm_rank(node, &node_rank);
    MPI_Allreduce(&rank, &lowest, 1, MPI_INT, MPI_MIN, node);
    int *leaders = rank == 0 ? malloc(sizeof(int) * (size_t)size) : NULL;
    MPI_Gather(&lowest, 1, MPI_INT, leaders, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int l = 0; l < size; l++) {
            int first = 1;
            for (int r = 0; r < size; r++) {
                if (leaders[r] != l)
                    continue;
                if (first)
                    printf("%snode: %d", l > 0 ? " | " : "", r);
                else
                    printf(" %d", r);
                first = 0;
            }
        }
        printf("\n");
        free(leaders);
    }
    MPI_Comm_free(&node);
    MPI_Finalize();
    return 0;
}
