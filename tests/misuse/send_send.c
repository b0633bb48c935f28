/*
 * The classic exchange written as Send then Recv on both sides. Small messages go out
 * eagerly and it works by luck; above the eager threshold each MPI_Send waits for the other
 * rank's receive, which comes after its own send: a deadlock under a real MPI as here. The
 * report names each rank's send and the cycle between them.
 *
 * run: -n 2
 * exit: 4
 * expect: collsim: deadlock: 2 of 2 ranks can never proceed
 * expect:   rank 0 is blocked in MPI_Send waiting for a send to rank 1 (tag 0) to be received
 * expect:   rank 1 is blocked in MPI_Send waiting for a send to rank 0 (tag 0) to be received
 * expect:   wait-for cycle: rank 0 -> rank 1 -> rank 0 (each waits for the next; none can move first)
 */
#include <mpi.h>
#include <stdlib.h>

#define COUNT (1 << 18)   /* 1 MiB of ints: past any eager threshold */

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int *out = calloc(COUNT, sizeof *out), *in = calloc(COUNT, sizeof *in);
    int peer = 1 - rank;
    MPI_Send(out, COUNT, MPI_INT, peer, 0, MPI_COMM_WORLD);
    MPI_Recv(in, COUNT, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
