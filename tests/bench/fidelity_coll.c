/*
 * fidelity_coll.c — one collective call from a common start, for tests/bench/fidelity.sh.
 * The same source runs under collsim (cc -shared -fPIC -I src) and SimGrid SMPI (smpicc);
 * the algorithm is forced from outside (collsim --algorithm, SMPI --cfg=smpi/<coll>:NAME).
 *
 *   fidelity_coll COLLECTIVE BYTES
 *
 * COLLECTIVE is barrier, bcast, reduce, allreduce, gather, scatter, allgather or alltoall.
 * BYTES is the whole message for bcast, the vector for reduce and allreduce (BYTES / 8 doubles
 * summed with MPI_SUM, at least one), each rank's block otherwise; barrier ignores it.
 *
 * Every rank reads MPI_Wtime before and after the call, with no communication before it:
 * both simulators start every rank at time 0, so no synchronising barrier (itself a
 * collective whose algorithm differs between the tools) skews the start. The times are
 * combined afterwards with point-to-point messages along a binomial tree (each rank folds its
 * children's earliest start, latest start and latest end into its own and sends the three to
 * its parent), so that no further collective runs under the forced algorithm, and no root
 * receives P - 1 messages at once (at 2^20 ranks, a million flows sharing one link would
 * cost the bandwidth-sharing solver far more than the collective measured). Rank 0 prints
 *   simulated=<latest end - earliest start> start_spread=<latest start - earliest start>
 *
 * COLLECTIVE touch:bcast, touch:reduce or touch:allreduce (tests/bench/vs_smpi.sh's floor)
 * does the program's part of the call without the call: the same buffers, allocated and
 * initialised, and written where the call would write them (every rank's for bcast and
 * allreduce, the root's for reduce), all held at once over an 8-byte broadcast (run it with a
 * binomial bcast) as they are during the call. What that costs, no simulator of the call
 * goes below; SMPI's time over it bounds any simulator's speed-up.
 *
 * Buffers of P blocks (at the root of gather and scatter, on every rank of allgather and
 * alltoall) come from SMPI_SHARED_MALLOC under SMPI, so that hundreds of ranks holding P MiB
 * each fit in memory; the contents do not matter to the simulated time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#ifdef SMPI_SHARED_MALLOC
#define BIG_ALLOC(n) SMPI_SHARED_MALLOC(n)
#define BIG_FREE(p) SMPI_SHARED_FREE(p)
#else
#define BIG_ALLOC(n) calloc((n), 1)
#define BIG_FREE(p) free(p)
#endif

#define TIMES_TAG 4242

/* A reduction's vector of BYTES / 8 doubles (at least one), initialised, and its result. */
static int
reduction_buffers(size_t block, double **in, double **out)
{
    int n = (int)(block / sizeof(double));
    if (n < 1)
        n = 1;
    *in = malloc(sizeof(double) * (size_t)n);
    *out = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < n; i++)
        (*in)[i] = 1.0 + (double)(i % 7), (*out)[i] = 0.0;
    return n;
}

/* The buffers stay the program's to the compiler: writes to them are not dead. */
#define KEEP(p) __asm__ volatile("" : : "r"(p) : "memory")

/* touch:COLLECTIVE: the call's buffers written as the call would, the call itself replaced by
 * an 8-byte broadcast that holds every rank's buffers at once. */
static int
touch(const char *what, long bytes, int rank)
{
    size_t block = (size_t)bytes;
    char tiny[8] = {0};
    int rc;
    if (strcmp(what, "bcast") == 0) {
        char *buf = calloc(block + 1, 1);
        if (rank != 0)
            memset(buf, 1, block); /* the data the broadcast brings */
        KEEP(buf);
        rc = MPI_Bcast(tiny, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
        KEEP(buf);
        free(buf);
        return rc;
    }
    if (strcmp(what, "reduce") != 0 && strcmp(what, "allreduce") != 0) {
        fprintf(stderr, "fidelity_coll: touch: bcast, reduce or allreduce, not '%s'\n", what);
        return MPI_ERR_ARG;
    }
    double *in, *out;
    int n = reduction_buffers(block, &in, &out);
    if (what[0] == 'a' || rank == 0)
        for (int i = 0; i < n; i++)
            out[i] = in[i] * 2.0; /* the result the reduction writes */
    KEEP(in);
    KEEP(out);
    rc = MPI_Bcast(tiny, 8, MPI_BYTE, 0, MPI_COMM_WORLD);
    KEEP(in);
    KEEP(out);
    free(in);
    free(out);
    return rc;
}

static int
run(const char *what, long bytes, int size)
{
    if (strncmp(what, "touch:", 6) == 0) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        return touch(what + 6, bytes, rank);
    }
    size_t block = (size_t)bytes;
    size_t all_bytes = block * (size_t)size + 1;
    if (strcmp(what, "barrier") == 0)
        return MPI_Barrier(MPI_COMM_WORLD);
    if (strcmp(what, "bcast") == 0) {
        char *buf = calloc(block + 1, 1);
        int rc = MPI_Bcast(buf, (int)block, MPI_BYTE, 0, MPI_COMM_WORLD);
        free(buf);
        return rc;
    }
    if (strcmp(what, "reduce") == 0 || strcmp(what, "allreduce") == 0) {
        double *in, *out;
        int n = reduction_buffers(block, &in, &out);
        int rc = what[0] == 'r' ? MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD)
                                : MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        free(in);
        free(out);
        return rc;
    }
    /* gather and scatter need the P blocks at the root only */
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank != 0 && (strcmp(what, "gather") == 0 || strcmp(what, "scatter") == 0))
        all_bytes = 1;
    char *mine = calloc(block + 1, 1);
    char *all = BIG_ALLOC(all_bytes);
    int rc;
    if (strcmp(what, "gather") == 0)
        rc = MPI_Gather(mine, (int)block, MPI_BYTE, all, (int)block, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(what, "scatter") == 0)
        rc = MPI_Scatter(all, (int)block, MPI_BYTE, mine, (int)block, MPI_BYTE, 0, MPI_COMM_WORLD);
    else if (strcmp(what, "allgather") == 0)
        rc = MPI_Allgather(mine, (int)block, MPI_BYTE, all, (int)block, MPI_BYTE, MPI_COMM_WORLD);
    else if (strcmp(what, "alltoall") == 0) {
        char *out = BIG_ALLOC(all_bytes);
        rc = MPI_Alltoall(out, (int)block, MPI_BYTE, all, (int)block, MPI_BYTE, MPI_COMM_WORLD);
        BIG_FREE(out);
    } else {
        fprintf(stderr, "fidelity_coll: unknown collective '%s'\n", what);
        rc = MPI_ERR_ARG;
    }
    BIG_FREE(all);
    free(mine);
    return rc;
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "bcast";
    long bytes = argc > 2 ? atol(argv[2]) : 8;
    if (bytes < 0)
        bytes = 0;

    double times[2];
    times[0] = MPI_Wtime();
    int rc = run(what, bytes, size);
    times[1] = MPI_Wtime();
    if (rc != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 3);

    /* span = {earliest start, latest start, latest end} of this rank's subtree */
    double span[3] = {times[0], times[0], times[1]};
    int mask = 1;
    for (; mask < size && (rank & mask) == 0; mask <<= 1) {
        if (rank + mask >= size)
            continue;
        double child[3];
        MPI_Recv(child, 3, MPI_DOUBLE, rank + mask, TIMES_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        span[0] = child[0] < span[0] ? child[0] : span[0];
        span[1] = child[1] > span[1] ? child[1] : span[1];
        span[2] = child[2] > span[2] ? child[2] : span[2];
    }
    if (rank != 0)
        MPI_Send(span, 3, MPI_DOUBLE, rank - mask, TIMES_TAG, MPI_COMM_WORLD);
    else
        printf("%s P=%d bytes=%ld simulated=%.9e start_spread=%.3e\n", what, size, bytes,
               span[2] - span[0], span[1] - span[0]);
    MPI_Finalize();
    return 0;
}
