/*
 * farthest.c — every pair of ranks (i < j) ping-pongs 8 bytes twice: the first round trip
 * brings the two in step, the second is timed, so the time is the network's alone; rank 0
 * prints the largest one-way time (half a round trip) and its pair. On a platform without
 * overheads (the cm02 preset) it is diameter x link latency + 8 B / bandwidth.
 */
#include <stdio.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, size;
    char b[8] = {0};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    double worst = 0;
    int wi = 0, wj = 0;
    for (int i = 0; i < size; i++) {
        for (int j = i + 1; j < size; j++) {
            if (rank == i) {
                MPI_Send(b, 8, MPI_BYTE, j, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 8, MPI_BYTE, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                double t = MPI_Wtime();
                MPI_Send(b, 8, MPI_BYTE, j, 0, MPI_COMM_WORLD);
                MPI_Recv(b, 8, MPI_BYTE, j, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                t = (MPI_Wtime() - t) / 2;
                if (t > worst) {
                    worst = t;
                    wi = i;
                    wj = j;
                }
            } else if (rank == j) {
                for (int round = 0; round < 2; round++) {
                    MPI_Recv(b, 8, MPI_BYTE, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                    MPI_Send(b, 8, MPI_BYTE, i, 0, MPI_COMM_WORLD);
                }
            }
        }
    }
    /* the largest over ranks, with its pair, at rank 0 */
    struct {
        double t;
        int pair;
    } mine = {worst, wi * size + wj}, all;
    MPI_Reduce(&mine, &all, 1, MPI_DOUBLE_INT, MPI_MAXLOC, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("farthest pair %d-%d: %.12g s\n", all.pair / size, all.pair % size, all.t);
    MPI_Finalize();
    return 0;
}
