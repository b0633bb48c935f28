/*
 * Rank 1 calls fork(), as OSU's osu_latency_mp does to add processes to a rank. Under a real
 * MPI the child is a copy of that one rank; here all ranks share collsim's one process, so a
 * child would be a second copy of the whole simulation (it printed the others' output twice
 * and reported collectives they never made). collsim refuses the call, naming the rank and
 * the line, and ends the run as a fatal MPI error does; what was printed before stays.
 *
 * run: -n 3
 * exit: 3
 * expect: rank 1 is about to fork
 * expect: collsim: rank 1: fork() at main+
 * expect: (fork_in_rank.so, fork_in_rank.c:29): a simulated rank cannot fork, as all ranks share collsim's one process; the run ends
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
        printf("rank 1 is about to fork\n");
        fflush(stdout);
        pid_t child = fork();
        printf("rank 1 forked %d\n", (int)child);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
