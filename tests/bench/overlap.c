/*
 * overlap.c — how much of an MPI_Iallreduce a computation between the call and MPI_Wait hides,
 * in simulated time, beside what the progress model predicts.
 *
 *   overlap COUNT SECONDS   (COUNT doubles per rank, SECONDS of collsim_compute)
 *
 * Rank 0 prints one line: the blocking Allreduce's time t_b, one MPI_Sendrecv of a single
 * double with the partner rank ^ 1 t_s (a tiny message's whole cost: send overhead, flight,
 * receive overhead), Iallreduce + Wait with no computation t_0 (equal to t_b: the same
 * algorithm), and Iallreduce + compute(SECONDS) + Wait t_c. Every time is the slowest rank's,
 * each phase starting from a barrier.
 *
 * The progress model (progress inside MPI calls, HACKING.md) predicts what the computation
 * hides: the call itself pays its first message's send overhead and puts it on the wire; the
 * flight happens during the computation; nothing else moves until MPI_Wait, which then pays
 * the receive overhead and runs the remaining rounds as the blocking call would. For an eager
 * first message (recursive doubling's first round) and for a rendezvous one (its envelope)
 * alike, the hidden part is one flight, lambda = t_s - o_s - o_r, so
 *     t_c = SECONDS + t_b - lambda     (SECONDS >= lambda).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double
slowest(double mine)
{
    double all = 0.0;
    MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return all;
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 3) {
        if (rank == 0)
            fprintf(stderr, "usage: overlap COUNT SECONDS\n");
        MPI_Finalize();
        return 2;
    }
    int count = atoi(argv[1]);
    double seconds = atof(argv[2]);
    double *in = calloc((size_t)count, sizeof *in);
    double *out = calloc((size_t)count, sizeof *out);
    MPI_Request req;

    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double t_b = slowest(MPI_Wtime() - t);

    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Sendrecv(in, 1, MPI_DOUBLE, rank ^ 1, 0, out, 1, MPI_DOUBLE, rank ^ 1, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double t_s = slowest(MPI_Wtime() - t);

    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Iallreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    double t_0 = slowest(MPI_Wtime() - t);

    MPI_Barrier(MPI_COMM_WORLD);
    t = MPI_Wtime();
    MPI_Iallreduce(in, out, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    collsim_compute(seconds);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    double t_c = slowest(MPI_Wtime() - t);

    if (rank == 0)
        printf("%.9f %.9f %.9f %.9f\n", t_b, t_s, t_0, t_c);
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
