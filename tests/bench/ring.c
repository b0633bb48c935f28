/*
 * ring.c — every rank exchanges B bytes with both neighbours, R times (MPI_Sendrecv to the
 * right, from the left): P x R messages, P of them in flight at once. Rank 0 prints the
 * simulated time. Plain MPI: built for collsim (cc -shared) and for SMPI (smpicc) alike.
 *   ring [BYTES [ROUNDS]]
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
    int bytes = argc > 1 ? atoi(argv[1]) : 8;
    int rounds = argc > 2 ? atoi(argv[2]) : 10;
    char *out = calloc((size_t)bytes + 1, 1), *in = calloc((size_t)bytes + 1, 1);
    double t0 = MPI_Wtime();
    for (int r = 0; r < rounds; r++)
        MPI_Sendrecv(out, bytes, MPI_BYTE, (rank + 1) % size, 0, in, bytes, MPI_BYTE,
                     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (rank == 0)
        printf("ring P=%d bytes=%d rounds=%d simulated=%.9f\n", size, bytes, rounds,
               MPI_Wtime() - t0);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
