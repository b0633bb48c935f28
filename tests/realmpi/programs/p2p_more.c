/*
 * p2p_more.c — buffered sends, matched probes, cancelled receives and MPI_Testsome in one
 * ordinary MPI program. test_realmpi.sh builds it unchanged with Open MPI's mpicc (run by
 * mpirun) and against collsim (run by collsim exec) and requires the same output.
 *
 * Only what MPI defines is printed, by rank 0 in a fixed order: values received, counts, the
 * buffer handed back by MPI_Buffer_detach, the cancelled flag of a receive nobody matches.
 * How many requests one MPI_Testsome call completes depends on timing, so only their union is
 * printed. (Cancelling a send is not exercised: whether it succeeds is the implementation's
 * choice, and Open MPI's ob1 never withdraws a send.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#define RING_INTS 50000     /* 200 000 bytes: beyond any eager limit */
#define TAG_RING 1
#define TAG_PROBE 2
#define TAG_NOBODY 3
#define TAG_SOME 4

static int rank, size;

/* Each rank Bsends a large message to its right neighbour before receiving from its left:
 * with MPI_Send this ring could deadlock; a buffered send completes locally. */
static void
ring_bsend(void)
{
    int bufsize = RING_INTS * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    char *buffer = malloc((size_t)bufsize);
    int *out = malloc(RING_INTS * sizeof(int)), *in = malloc(RING_INTS * sizeof(int));
    for (int i = 0; i < RING_INTS; i++)
        out[i] = rank * 1000 + i % 1000;
    MPI_Buffer_attach(buffer, bufsize);
    MPI_Bsend(out, RING_INTS, MPI_INT, (rank + 1) % size, TAG_RING, MPI_COMM_WORLD);
    memset(out, 0, RING_INTS * sizeof(int));  /* the message was copied: out may change */
    MPI_Status status;
    MPI_Recv(in, RING_INTS, MPI_INT, (rank + size - 1) % size, TAG_RING, MPI_COMM_WORLD,
             &status);
    long long sum = 0;
    for (int i = 0; i < RING_INTS; i++)
        sum += in[i];
    void *back = NULL;
    int back_size = 0;
    MPI_Buffer_detach(&back, &back_size);
    int ok = back == buffer && back_size == bufsize;
    long long mine[3] = {sum, status.MPI_SOURCE, ok};
    long long *all = malloc(sizeof mine * (size_t)size);
    MPI_Gather(mine, 3, MPI_LONG_LONG, all, 3, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int r = 0; r < size; r++)
            printf("bsend ring: rank %d got sum %lld from %lld, detach gave the buffer back: "
                   "%s\n", r, all[3 * r], all[3 * r + 1], all[3 * r + 2] ? "yes" : "no");
    free(all);
    free(buffer);
    free(out);
    free(in);
}

/* Every other rank sends rank 0 rank+1 ints; rank 0 takes them in arrival order with MPI_Mprobe
 * (sizing its buffer from the status), and receives each with MPI_Mrecv. A second message
 * from rank 1, sent first with another tag, is taken by MPI_Improbe and MPI_Imrecv. */
static void
matched_probes(void)
{
    if (rank != 0) {
        int n = rank + 1;
        int *v = malloc(sizeof(int) * (size_t)n);
        for (int i = 0; i < n; i++)
            v[i] = rank * 100 + i;
        if (rank == 1) {
            int extra = 4242;
            MPI_Send(&extra, 1, MPI_INT, 0, TAG_PROBE + 100, MPI_COMM_WORLD);
        }
        MPI_Send(v, n, MPI_INT, 0, TAG_PROBE, MPI_COMM_WORLD);
        free(v);
        return;
    }
    int *sums = calloc((size_t)size, sizeof(int)), *counts = calloc((size_t)size, sizeof(int));
    for (int k = 1; k < size; k++) {
        MPI_Message msg;
        MPI_Status status;
        int n;
        MPI_Mprobe(MPI_ANY_SOURCE, TAG_PROBE, MPI_COMM_WORLD, &msg, &status);
        MPI_Get_count(&status, MPI_INT, &n);
        int *v = malloc(sizeof(int) * (size_t)n);
        MPI_Mrecv(v, n, MPI_INT, &msg, &status);
        counts[status.MPI_SOURCE] = n;
        for (int i = 0; i < n; i++)
            sums[status.MPI_SOURCE] += v[i];
        if (msg != MPI_MESSAGE_NULL)
            printf("MPI_Mrecv left the message handle set\n");
        free(v);
    }
    for (int r = 1; r < size; r++)
        printf("mprobe: from rank %d, %d ints summing to %d\n", r, counts[r], sums[r]);
    if (size > 1) {
        MPI_Message msg;
        MPI_Status status;
        MPI_Request req;
        int flag = 0, extra = 0;
        while (!flag)
            MPI_Improbe(1, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &status);
        MPI_Imrecv(&extra, 1, MPI_INT, &msg, &req);
        MPI_Wait(&req, &status);
        printf("improbe: tag %d from rank %d: %d\n", status.MPI_TAG - 100, status.MPI_SOURCE,
               extra);
    }
    MPI_Message none;
    MPI_Status status;
    int v = 7, n = -1;
    MPI_Mprobe(MPI_PROC_NULL, 0, MPI_COMM_WORLD, &none, &status);
    MPI_Mrecv(&v, 1, MPI_INT, &none, &status);
    MPI_Get_count(&status, MPI_INT, &n);
    printf("mprobe of MPI_PROC_NULL: no-proc message %s, source %s, count %d, buffer %d\n",
           none == MPI_MESSAGE_NULL ? "consumed" : "kept",
           status.MPI_SOURCE == MPI_PROC_NULL ? "MPI_PROC_NULL" : "other", n, v);
    free(sums);
    free(counts);
}

/* A receive that nothing will ever match, cancelled: its wait returns, its status says so. */
static void
cancelled_receive(void)
{
    int v = -1, flag = -1;
    MPI_Request req;
    MPI_Status status;
    MPI_Irecv(&v, 1, MPI_INT, MPI_ANY_SOURCE, TAG_NOBODY, MPI_COMM_WORLD, &req);
    MPI_Cancel(&req);
    MPI_Wait(&req, &status);
    MPI_Test_cancelled(&status, &flag);
    int *flags = malloc(sizeof(int) * (size_t)size);
    MPI_Gather(&flag, 1, MPI_INT, flags, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        int cancelled = 0;
        for (int r = 0; r < size; r++)
            cancelled += flags[r] == 1;
        printf("cancel: %d of %d unmatched receives cancelled, buffer untouched: %s, request "
               "freed: %s\n", cancelled, size, v == -1 ? "yes" : "no",
               req == MPI_REQUEST_NULL ? "yes" : "no");
    }
    free(flags);
}

/* Rank 0 polls receives from every other rank with MPI_Testsome until all have completed. */
static void
testsome(void)
{
    if (rank != 0) {
        int v = rank * 10;
        MPI_Send(&v, 1, MPI_INT, 0, TAG_SOME, MPI_COMM_WORLD);
        return;
    }
    int n = size - 1;
    int *vals = calloc((size_t)size, sizeof(int)), *indices = malloc(sizeof(int) * (size_t)size);
    int *seen = calloc((size_t)size, sizeof(int));
    MPI_Request *reqs = malloc(sizeof(MPI_Request) * (size_t)size);
    MPI_Status *statuses = malloc(sizeof(MPI_Status) * (size_t)size);
    for (int i = 0; i < n; i++)
        MPI_Irecv(&vals[i], 1, MPI_INT, i + 1, TAG_SOME, MPI_COMM_WORLD, &reqs[i]);
    int done = 0, outcount, wrong = 0;
    while (done < n) {
        MPI_Testsome(n, reqs, &outcount, indices, statuses);
        for (int k = 0; k < outcount; k++) {
            seen[indices[k]]++;
            if (statuses[k].MPI_SOURCE != indices[k] + 1 || reqs[indices[k]] != MPI_REQUEST_NULL)
                wrong++;
        }
        done += outcount;
    }
    MPI_Testsome(n, reqs, &outcount, indices, statuses);
    int once = 1;
    for (int i = 0; i < n; i++)
        once = once && seen[i] == 1;
    printf("testsome: %d receives, each reported once: %s, wrong statuses %d, then outcount "
           "%s\n", n, once ? "yes" : "no", wrong,
           outcount == MPI_UNDEFINED ? "MPI_UNDEFINED" : "defined");
    for (int i = 0; i < n; i++)
        printf("testsome: from rank %d: %d\n", i + 1, vals[i]);
    free(vals);
    free(indices);
    free(seen);
    free(reqs);
    free(statuses);
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        printf("p2p_more on %d ranks\n", size);
    ring_bsend();
    matched_probes();
    cancelled_receive();
    testsome();
    MPI_Finalize();
    return 0;
}
