/*
 * tunables.c — says whether this run's malloc was started on huge pages: rank 0 prints
 * "hugetlb on" when GLIBC_TUNABLES holds glibc.malloc.hugetlb=1 (what collsim adds to it when
 * it starts a large run once more, sim/engine/huge_pages.h), "hugetlb off" otherwise, and the
 * size of MPI_COMM_WORLD, which a second start must not change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        const char *tunables = getenv("GLIBC_TUNABLES");
        int on = tunables != NULL && strstr(tunables, "glibc.malloc.hugetlb=1") != NULL;
        printf("hugetlb %s, %d ranks, arguments:", on ? "on" : "off", size);
        for (int i = 1; i < argc; i++)
            printf(" %s", argv[i]);
        printf("\n");
    }
    MPI_Finalize();
    return 0;
}
