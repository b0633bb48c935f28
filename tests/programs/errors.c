/*
 * errors.c — argv[1] picks a mistake: "rank" sends to a rank that does not exist (fatal by
 * default), "return" does the same under MPI_ERRORS_RETURN and prints the error string,
 * "abort" calls MPI_Abort(…, 9) on rank 1.
 */
#include <stdio.h>
#include <string.h>

#include "mpi.h"

int
main(int argc, char **argv)
{
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *what = argc > 1 ? argv[1] : "rank";
    if (strcmp(what, "return") == 0) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        int rc = MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
        char text[MPI_MAX_ERROR_STRING];
        int len, cls;
        MPI_Error_string(rc, text, &len);
        MPI_Error_class(rc, &cls);
        if (rank == 0)
            printf("MPI_Send to rank 99 returned class %d: %s\n", cls, text);
    } else if (strcmp(what, "abort") == 0) {
        if (rank == 1)
            MPI_Abort(MPI_COMM_WORLD, 9);
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&v, 1, MPI_INT, 99, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
