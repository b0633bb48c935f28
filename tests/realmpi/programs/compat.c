/*
 * compat.c — what ordinary programs do that collsim once got wrong, checked against Open MPI:
 * MPI_Comm_create_group called by every rank, members or not (mpitutorial's comm_groups: a
 * non-member gets MPI_COMM_NULL), reductions on MPI_CHAR with the ten integer ops (OSU's
 * default datatype), getopt in every rank (each parses its own arguments from the start),
 * MPI_INFO_ENV's maxprocs and thread_level, and the strings of error classes of the parts
 * collsim leaves out. Rank 0 gathers one line per rank and prints everything, so the output
 * does not depend on scheduling.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

/* getopt_long over a command line of the program's own, as main's would be parsed */
static void
parse(int rank, int *n, int *verbose, const char **operand)
{
    char a0[] = "prog", a1[] = "-v", a2[] = "--count=5", a3[] = "-n", a4[] = "7", a5[] = "in.dat";
    char *args[] = {a0, a1, a2, a3, a4, a5, NULL};
    static const struct option longopts[] = {{"count", required_argument, NULL, 'c'},
                                             {NULL, 0, NULL, 0}};
    int c, count = 0;
    *n = -1;
    *verbose = 0;
    optind = 1;
    while ((c = getopt_long(6, args, "vn:", longopts, NULL)) != -1) {
        if (c == 'v')
            (*verbose)++;
        else if (c == 'n')
            *n = atoi(optarg);
        else if (c == 'c')
            count = atoi(optarg);
        if (c == 'v' && rank % 2 == 1)
            MPI_Barrier(MPI_COMM_SELF); /* an MPI call in the middle of the parse */
    }
    *n += 100 * count;
    *operand = optind < 6 ? (optind == 5 ? "in.dat" : "?") : "none";
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* the odd ranks, highest first; every rank calls, the even ones are not in the group */
    MPI_Group world, odds;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int nodd = size / 2, *ranks = malloc(sizeof(int) * (size_t)(nodd + 1));
    for (int i = 0; i < nodd; i++)
        ranks[i] = 2 * (nodd - i) - 1;
    MPI_Group_incl(world, nodd, ranks, &odds);
    MPI_Comm odd_comm;
    MPI_Comm_create_group(MPI_COMM_WORLD, odds, 3, &odd_comm);
    int odd_rank = -1, odd_sum = -1;
    if (odd_comm != MPI_COMM_NULL) {
        MPI_Comm_rank(odd_comm, &odd_rank);
        MPI_Allreduce(&rank, &odd_sum, 1, MPI_INT, MPI_SUM, odd_comm);
        MPI_Comm_free(&odd_comm);
    }
    MPI_Group_free(&odds);
    MPI_Group_free(&world);
    free(ranks);

    int n, verbose;
    const char *operand;
    parse(rank, &n, &verbose, &operand);

    char line[256];
    snprintf(line, sizeof line, "rank %d: create_group %s rank %d sum %d; getopt n %d v %d %s",
             rank, odd_rank >= 0 ? "member" : "null", odd_rank, odd_sum, n, verbose, operand);
    char *all = rank == 0 ? malloc(sizeof line * (size_t)size) : NULL;
    MPI_Gather(line, sizeof line, MPI_CHAR, all, sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);

    /* MPI_CHAR with every integer op: values that wrap in a signed char */
    MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN, MPI_LAND,
                    MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
    const char *names[] = {"sum", "prod", "max", "min", "land",
                           "lor", "lxor", "band", "bor", "bxor"};
    char mine[3] = {(char)(rank * 50 + 7), (char)(-rank - 1), (char)(rank % 2)}, got[10][3];
    for (int o = 0; o < 10; o++)
        MPI_Allreduce(mine, got[o], 3, MPI_CHAR, ops[o], MPI_COMM_WORLD);

    char value[MPI_MAX_INFO_VAL + 1], level[MPI_MAX_INFO_VAL + 1];
    int flag1 = 0, flag2 = 0;
    MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag1);
    MPI_Info_get(MPI_INFO_ENV, "thread_level", MPI_MAX_INFO_VAL, level, &flag2);

    if (rank == 0) {
        for (int r = 0; r < size; r++)
            printf("%s\n", all + (size_t)r * sizeof line);
        for (int o = 0; o < 10; o++)
            printf("MPI_CHAR %s: %d %d %d\n", names[o], got[o][0], got[o][1], got[o][2]);
        printf("MPI_INFO_ENV maxprocs %s, thread_level %s\n", flag1 ? value : "-",
               flag2 ? level : "-");
        int classes[] = {MPI_ERR_WIN, MPI_ERR_UNSUPPORTED_OPERATION, MPI_ERR_RMA_SHARED,
                         MPI_ERR_NO_SUCH_FILE, MPI_ERR_SPAWN};
        for (int i = 0; i < 5; i++) {
            char text[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(classes[i], text, &len);
            printf("error %d: %s\n", classes[i], text);
        }
        free(all);
    }
    MPI_Finalize();
    return 0;
}
