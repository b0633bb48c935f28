/*
 * wtime_spin.c — a rank that waits by spinning on MPI_Wtime alone. The simulated clock moves
 * only in MPI calls, so such a loop spun forever once; now MPI_Wtime charges time after 100
 * reads of one instant (sim/engine/env.c), and the spin ends within 1 % of its target.
 * Rank r spins r + 1 seconds (rank 0 also checks that a few reads in a row cost nothing);
 * rank 0 prints every rank's spin to the hundredth of a second.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    double a = MPI_Wtime(), b = MPI_Wtime(), c = MPI_Wtime();
    int free_reads = a == b && b == c;

    double t0 = MPI_Wtime();
    while (MPI_Wtime() - t0 < rank + 1.0)
        ;
    double spun = MPI_Wtime() - t0;

    double *all = rank == 0 ? malloc(sizeof(double) * (size_t)size) : NULL;
    MPI_Gather(&spun, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("reads in a row are free: %s\n", free_reads ? "yes" : "no");
        for (int r = 0; r < size; r++)
            printf("rank %d spun %.2f s\n", r, all[r]);
    }
    free(all);
    MPI_Finalize();
    return 0;
}
