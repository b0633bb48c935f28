/*
 * profiled.c — a program with its own profiling layer: MPI_Send, MPI_Allreduce and
 * MPI_Finalize wrappers that count the program's calls and forward them through the PMPI_
 * names (MPI-3.1 chapter 14). test_profiling.sh links it with and without
 * -Wl,-Bsymbolic-functions.
 *
 * Each rank sends 3 messages to the next rank of a ring and makes 2 Allreduces, so every rank
 * must report 3 sends and 2 allreduces: the sends collsim's own Allreduce algorithm makes are
 * not the program's calls and never reach the wrapper (as under any MPI library).
 */
#include <stdio.h>

#include <mpi.h>

static int sends, allreduces; /* per rank: collsim gives each rank its own globals */

int
MPI_Send(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
    sends++;
    return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int
MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    allreduces++;
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

int
MPI_Finalize(void)
{
    int rank;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    printf("rank %d: %d sends, %d allreduces\n", rank, sends, allreduces);
    return PMPI_Finalize();
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < 3; i++) {
        int in = -1;
        /* even ranks send first: no two neighbours both wait in a send */
        if (rank % 2 == 0) {
            MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, i, MPI_COMM_WORLD);
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&in, 1, MPI_INT, (rank + size - 1) % size, i, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&rank, 1, MPI_INT, (rank + 1) % size, i, MPI_COMM_WORLD);
        }
    }
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
