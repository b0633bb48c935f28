/*
 * clocks.c — gettimeofday() and clock_gettime() in a program are its simulated time, as
 * MPI_Wtime is: rank r sleeps r + 1 simulated seconds between two readings of each clock and
 * prints the difference to the hundredth (worked out: r + 1.00), a spin on CLOCK_MONOTONIC
 * alone for 0.25 s ends (the clock moves as a spin on MPI_Wtime makes it), and the three clocks
 * agree with MPI_Wtime to the microsecond, read in a row after a barrier. The CPU-time clock stays the process's own (it only
 * has to answer).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

static double
tod(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (double)tv.tv_sec + (double)tv.tv_usec * 1e-6;
}

static double
mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Barrier(MPI_COMM_WORLD);
    double w0 = MPI_Wtime(), t0 = tod(), m0 = mono();
    sleep((unsigned)rank + 1);
    double slept_tod = tod() - t0, slept_mono = mono() - m0;
    double spin0 = mono();
    while (mono() - spin0 < 0.25)
        ;
    double spun = mono() - spin0;
    struct timespec cpu;
    int cpu_rc = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    /* after a spin each read costs time (as for MPI_Wtime): compare at a new instant */
    MPI_Barrier(MPI_COMM_WORLD);
    double w1 = MPI_Wtime(), t1 = tod(), m1 = mono();
    int agree = fabs(t1 - w1) < 1e-6 && fabs(m1 - w1) < 1e-6 && fabs(t0 - w0) < 1e-6 &&
                fabs(m0 - w0) < 1e-6;
    char line[160];
    snprintf(line, sizeof line,
             "rank %d slept %.2f s by gettimeofday, %.2f s by CLOCK_MONOTONIC; spun %.2f s; "
             "clocks agree with MPI_Wtime: %s; CPU clock answers: %s",
             rank, slept_tod, slept_mono, spun, agree ? "yes" : "no", cpu_rc == 0 ? "yes" : "no");
    char all[8][160];
    MPI_Gather(line, 160, MPI_CHAR, all, 160, MPI_CHAR, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size && r < 8; r++)
            printf("%s\n", all[r]);
    MPI_Finalize();
    return 0;
}
