/* maps.c — says whether libsimgrid, libcairo and json-glib are mapped into the process that runs it
 * (rank 0 reads /proc/self/maps), for tests/exec/test_lazy_libraries.sh. */
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
        int simgrid = 0, cairo = 0, json = 0;
        while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
            simgrid |= strstr(line, "libsimgrid") != NULL;
            cairo |= strstr(line, "libcairo") != NULL;
            json |= strstr(line, "libjson-glib") != NULL;
        }
        if (maps != NULL)
            fclose(maps);
        printf("libsimgrid mapped: %s\n", maps == NULL ? "unknown" : simgrid ? "yes" : "no");
        printf("libcairo mapped: %s\n", maps == NULL ? "unknown" : cairo ? "yes" : "no");
        printf("json-glib mapped: %s\n", maps == NULL ? "unknown" : json ? "yes" : "no");
    }
    MPI_Finalize();
    return 0;
}
