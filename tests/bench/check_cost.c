/* check_cost.c — many small collectives of one kind in a row, to measure the wall-time cost
 * of the collective-call checker (tests/bench/check_cost.sh runs it with and without
 * --no-check). Arguments: COLLECTIVE (or "mix": Allreduce, Bcast, Allgatherv in turn) and
 * CALLS (default 200). Every rank passes one double per block, so the checker's work, not
 * the data, dominates what differs between the two runs. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "mix";
    int calls = argc > 2 ? atoi(argv[2]) : 200, rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int *counts = malloc(sizeof *counts * (size_t)size);
    int *displs = malloc(sizeof *displs * (size_t)size);
    double *mine = malloc(sizeof *mine * (size_t)size);
    double *all = malloc(sizeof *all * (size_t)size);
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = i;
        mine[i] = rank + i;
    }
    double value = 1.0, sum = 0.0;
    int known = 1;
    for (int c = 0; c < calls && known; c++) {
        int root = c % size;
        if (strcmp(which, "mix") == 0) {
            MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            MPI_Bcast(&sum, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
            MPI_Allgatherv(&value, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
                           MPI_COMM_WORLD);
        } else if (strcmp(which, "barrier") == 0) {
            MPI_Barrier(MPI_COMM_WORLD);
        } else if (strcmp(which, "bcast") == 0) {
            MPI_Bcast(&value, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
        } else if (strcmp(which, "reduce") == 0) {
            MPI_Reduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, root, MPI_COMM_WORLD);
        } else if (strcmp(which, "allreduce") == 0) {
            MPI_Allreduce(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (strcmp(which, "scan") == 0) {
            MPI_Scan(&value, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else if (strcmp(which, "gather") == 0) {
            MPI_Gather(&value, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
        } else if (strcmp(which, "scatter") == 0) {
            MPI_Scatter(mine, 1, MPI_DOUBLE, &value, 1, MPI_DOUBLE, root, MPI_COMM_WORLD);
        } else if (strcmp(which, "gatherv") == 0) {
            MPI_Gatherv(&value, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE, root,
                        MPI_COMM_WORLD);
        } else if (strcmp(which, "allgather") == 0) {
            MPI_Allgather(&value, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
        } else if (strcmp(which, "allgatherv") == 0) {
            MPI_Allgatherv(&value, 1, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
                           MPI_COMM_WORLD);
        } else if (strcmp(which, "alltoall") == 0) {
            MPI_Alltoall(mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, MPI_COMM_WORLD);
        } else if (strcmp(which, "alltoallv") == 0) {
            MPI_Alltoallv(mine, counts, displs, MPI_DOUBLE, all, counts, displs, MPI_DOUBLE,
                          MPI_COMM_WORLD);
        } else if (strcmp(which, "reduce_scatter") == 0) {
            MPI_Reduce_scatter(mine, &sum, counts, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        } else {
            known = 0;
        }
    }
    if (!known && rank == 0)
        fprintf(stderr, "check_cost: unknown collective '%s'\n", which);
    if (known && rank == 0)
        printf("%d x %s at P = %d\n", calls, which, size);
    free(counts);
    free(displs);
    free(mine);
    free(all);
    MPI_Finalize();
    return known ? 0 : 2;
}
