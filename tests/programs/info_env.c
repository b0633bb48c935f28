/*
 * info_env.c — MPI_INFO_ENV as a program sees it (MPI-3.1 §8.7): rank 0 prints the command,
 * its arguments and the number of processes, each rank checks that MPI-4's
 * MPI_Info_create_env, called before MPI_Init, gave the same pairs, and that setting a key of
 * MPI_INFO_ENV is refused (the ranks share it; MPI_ERRORS_RETURN keeps the run going).
 */
#include <stdio.h>
#include <string.h>

#include "expect_values.h"

static void
print_key(MPI_Info info, const char *key)
{
    char value[MPI_MAX_INFO_VAL + 1];
    int flag = 0;
    MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag);
    printf("%s = %s\n", key, flag ? value : "(none)");
}

static int
same_pairs(MPI_Info a, MPI_Info b)
{
    int na, nb;
    MPI_Info_get_nkeys(a, &na);
    MPI_Info_get_nkeys(b, &nb);
    for (int i = 0; i < na && na == nb; i++) {
        char key[MPI_MAX_INFO_KEY + 1], va[MPI_MAX_INFO_VAL + 1], vb[MPI_MAX_INFO_VAL + 1];
        int fa, fb;
        MPI_Info_get_nthkey(a, i, key);
        MPI_Info_get(a, key, MPI_MAX_INFO_VAL, va, &fa);
        MPI_Info_get(b, key, MPI_MAX_INFO_VAL, vb, &fb);
        if (!fa || !fb || strcmp(va, vb) != 0)
            return 0;
    }
    return na == nb && na > 0;
}

int
main(int argc, char **argv)
{
    MPI_Info early;
    MPI_Info_create_env(argc, argv, &early);
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        print_key(MPI_INFO_ENV, "command");
        print_key(MPI_INFO_ENV, "argv");
        print_key(MPI_INFO_ENV, "maxprocs");
        print_key(MPI_INFO_ENV, "thread_level");
    }
    expect(same_pairs(early, MPI_INFO_ENV), rank, "MPI_Info_create_env before MPI_Init");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    expect(MPI_Info_set(MPI_INFO_ENV, "maxprocs", "1") == MPI_ERR_INFO, rank,
           "the refusal to change MPI_INFO_ENV");
    MPI_Info_free(&early);
    report_failures("info env", rank, size);
    MPI_Finalize();
    return 0;
}
