/*
 * nbc_cost.c — the simulator's own cost of the nonblocking forms: ROUNDS rounds of DEPTH
 * Allreduces of COUNT doubles, blocking (FORM 0) or nonblocking, DEPTH in flight at once and
 * completed by one MPI_Waitall (FORM 1). Prints the simulated time on rank 0; the wall time
 * and memory come from `collsim exec --stats` (tests/bench/nbc_cost.sh).
 *
 *   nbc_cost FORM ROUNDS DEPTH COUNT
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 5) {
        MPI_Finalize();
        return 2;
    }
    int form = atoi(argv[1]), rounds = atoi(argv[2]), depth = atoi(argv[3]);
    int count = atoi(argv[4]);
    double *in = calloc((size_t)count * (size_t)depth, sizeof *in);
    double *out = calloc((size_t)count * (size_t)depth, sizeof *out);
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)depth);
    double t = MPI_Wtime();
    for (int r = 0; r < rounds; r++) {
        for (int d = 0; d < depth; d++) {
            double *i = in + (size_t)d * (size_t)count, *o = out + (size_t)d * (size_t)count;
            if (form == 0)
                MPI_Allreduce(i, o, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
            else
                MPI_Iallreduce(i, o, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &reqs[d]);
        }
        if (form != 0)
            MPI_Waitall(depth, reqs, MPI_STATUSES_IGNORE);
    }
    if (rank == 0)
        printf("%.9f\n", MPI_Wtime() - t);
    free(in);
    free(out);
    free(reqs);
    MPI_Finalize();
    return 0;
}
