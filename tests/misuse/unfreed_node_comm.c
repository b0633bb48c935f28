/*
 * A communicator never freed, on which a node-aware algorithm ran: the algorithm keeps its own
 * node and leader communicators in an attribute of the communicator's internal twin, and
 * MPI_Finalize deletes it, so that what is reported is the program's one communicator per rank,
 * not the algorithm's. The second communicator, freed, with the same algorithm, leaves nothing.
 * Ranks 0 and 4 lead their node (two hosts of four cores).
 *
 * run: -n 8 --platform flat:hosts=2,cores=4 --algorithm allreduce=smp
 * exit: 0
 * expect: sum 8 on every rank
 * expect: collsim: warning: objects not freed at MPI_Finalize: ranks 0-7: 1 communicator each (collsim exec --verbose lists each)
 */
#include <stdio.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    MPI_Comm kept, freed;
    int one = 1, sum = 0, rank, all;
    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &kept);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, kept);
    MPI_Comm_dup(MPI_COMM_WORLD, &freed);
    MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, freed);
    MPI_Comm_free(&freed);
    MPI_Comm_rank(kept, &rank);
    MPI_Allreduce(&sum, &all, 1, MPI_INT, MPI_MIN, kept);
    if (rank == 0)
        printf("sum %d%s\n", sum, all == sum ? " on every rank" : ": ranks disagree");
    MPI_Finalize();
    return 0;
}
