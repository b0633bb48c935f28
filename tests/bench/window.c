/*
 * window.c — W messages in flight per rank: every rank posts W receives from its left
 * neighbour and W sends of 8 bytes to its right one (tags 0 to W-1), waits for all 2W with one
 * MPI_Waitall, and does it R times: P x W x R messages, P x W of them in flight at once. Rank
 * 0 checks what it received and prints the simulated time. Plain MPI: built for collsim
 * (cc -shared) and for SMPI (smpicc) alike.
 *   window [W [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int window = argc > 1 ? atoi(argv[1]) : 8;
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    if (window < 1 || rounds < 1) {
        fprintf(stderr, "usage: window [W >= 1 [ROUNDS >= 1]]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Request *requests = malloc(sizeof *requests * 2 * (size_t)window);
    double *in = malloc(sizeof *in * (size_t)window), *out = malloc(sizeof *out * (size_t)window);
    int wrong = 0;
    double t0 = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        for (int i = 0; i < window; i++) {
            out[i] = rank * 1000.0 + i + r;
            MPI_Irecv(&in[i], 1, MPI_DOUBLE, left, i, MPI_COMM_WORLD, &requests[i]);
        }
        for (int i = 0; i < window; i++)
            MPI_Isend(&out[i], 1, MPI_DOUBLE, right, i, MPI_COMM_WORLD, &requests[window + i]);
        MPI_Waitall(2 * window, requests, MPI_STATUSES_IGNORE);
        for (int i = 0; i < window; i++)
            wrong += in[i] != left * 1000.0 + i + r;
    }
    if (rank == 0)
        printf("window P=%d W=%d rounds=%d wrong=%d simulated=%.9f\n", size, window, rounds,
               wrong, MPI_Wtime() - t0);
    free(requests);
    free(in);
    free(out);
    MPI_Finalize();
    return wrong != 0;
}
