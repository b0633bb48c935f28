/* maps.c — says whether libsimgrid is mapped into the process that runs it (rank 0 reads
 * /proc/self/maps), for tests/exec/test_simgrid_module.sh. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int
main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        FILE *maps = fopen("/proc/self/maps", "r");
        char line[4096];
        int found = 0;
        while (maps != NULL && fgets(line, sizeof line, maps) != NULL)
            found |= strstr(line, "libsimgrid") != NULL;
        if (maps != NULL)
            fclose(maps);
        printf("libsimgrid mapped: %s\n", maps == NULL ? "unknown" : found ? "yes" : "no");
    }
    MPI_Finalize();
    return 0;
}
