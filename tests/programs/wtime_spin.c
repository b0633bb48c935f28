/*
 * wtime_spin.c — ranks that wait without MPI calls. A rank that spins on MPI_Wtime alone: the
 * simulated clock moves only in MPI calls, so such a loop spun forever once; now MPI_Wtime
 * charges time after 100 reads of one instant (sim/engine/env.c), and the spin ends within 1 %
 * of its target. A rank that sleeps (sleep, usleep, nanosleep): simulated time, as under SMPI,
 * where it was once a real sleep of the whole simulator that moved no simulated clock.
 * Rank r spins r + 1 seconds (rank 0 also checks that a few reads in a row cost nothing), then
 * sleeps 1 + 0.25 + 0.25 s; rank 0 prints every rank's spin and sleep to the hundredth.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

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
    double times[2];
    times[0] = MPI_Wtime() - t0;

    t0 = MPI_Wtime();
    sleep(1);
    usleep(250000);
    struct timespec quarter = {0, 250000000L};
    nanosleep(&quarter, NULL);
    times[1] = MPI_Wtime() - t0;

    double *all = rank == 0 ? malloc(2 * sizeof(double) * (size_t)size) : NULL;
    MPI_Gather(times, 2, MPI_DOUBLE, all, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("reads in a row are free: %s\n", free_reads ? "yes" : "no");
        for (int r = 0; r < size; r++)
            printf("rank %d spun %.2f s, slept %.2f s\n", r, all[2 * r], all[2 * r + 1]);
    }
    free(all);
    MPI_Finalize();
    return 0;
}
