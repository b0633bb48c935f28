/*
 * globals_transfer.c — messages whose buffers are the ranks' own global arrays, privatized per
 * rank: only the running rank's copy of them is visible, while the transport may copy a
 * message's bytes on either side's turn (an eager message straight into a receive posted
 * before it was sent, a rendezvous delivered by whichever side sees its data land first).
 *
 * Rank 1 sends rank 0 its global `big` (BIG bytes, a rendezvous unless the eager threshold
 * is raised) and `small` (eager), first into receives rank 0 posted before the sends, into
 * its own globals, then unexpected, into rank 0's heap. Every rank fills its globals with its
 * own letter first, so a copy made under the wrong rank's globals shows as a wrong letter
 * (or as rank 1's own arrays changed). Prints one line per check; "ok" is expected.
 *   globals_transfer   (with BIG at compile time: -DBIG=3000 for a segment swapped by copy,
 *                       -DBIG=100000 for one kept as chunks changed from the pristine image,
 *                       the default 1 MiB for one remapped per rank)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#ifndef BIG
#define BIG (1 << 20)
#endif

static char big[BIG];
static char small[64];

static const char *
verdict(const char *buf, size_t n, char want)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != want)
            return "WRONG";
    return "ok";
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    memset(big, 'a' + rank, sizeof big);
    memset(small, 'a' + rank, sizeof small);
    if (rank == 0) {
        MPI_Request r[2];
        MPI_Irecv(big, BIG, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &r[0]);
        MPI_Irecv(small, 64, MPI_CHAR, 1, 1, MPI_COMM_WORLD, &r[1]);
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 sends after this: both receives are posted */
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
        printf("posted into globals: big %s, small %s\n", verdict(big, sizeof big, 'b'),
               verdict(small, sizeof small, 'b'));
        MPI_Barrier(MPI_COMM_WORLD); /* rank 1 sends again; nothing posted yet */
        char *heap_big = malloc(BIG), heap_small[64];
        MPI_Recv(heap_big, BIG, MPI_CHAR, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(heap_small, 64, MPI_CHAR, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("unexpected into the heap: big %s, small %s\n", verdict(heap_big, BIG, 'b'),
               verdict(heap_small, sizeof heap_small, 'b'));
        free(heap_big);
    } else {
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Send(big, BIG, MPI_CHAR, 0, 0, MPI_COMM_WORLD);
            MPI_Send(small, 64, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 1) {
            MPI_Send(big, BIG, MPI_CHAR, 0, 2, MPI_COMM_WORLD);
            MPI_Send(small, 64, MPI_CHAR, 0, 3, MPI_COMM_WORLD);
            printf("sender's globals unchanged: big %s, small %s\n",
                   verdict(big, sizeof big, 'b'), verdict(small, sizeof small, 'b'));
        }
    }
    MPI_Finalize();
    return 0;
}
