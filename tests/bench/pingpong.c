/*
 * pingpong.c — ranks 0 and 1 bounce B bytes R times; rank 0 prints the simulated time of
 * one round trip. Other ranks (if any) only initialise and finalise.
 *   pingpong [BYTES [ROUNDS]]
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int bytes = argc > 1 ? atoi(argv[1]) : 8;
    int rounds = argc > 2 ? atoi(argv[2]) : 1000;
    char *buf = calloc((size_t)bytes + 1, 1);
    double t0 = MPI_Wtime();
    for (int i = 0; i < rounds; i++) {
        if (rank == 0) {
            MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            MPI_Recv(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("pingpong bytes=%d rounds=%d round_trip=%.9f\n", bytes, rounds,
               (MPI_Wtime() - t0) / rounds);
    free(buf);
    MPI_Finalize();
    return 0;
}
