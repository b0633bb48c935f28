/*
 * out_of_scope.c — calls one function of each part of MPI that collsim leaves out (MPI-IO,
 * dynamic processes, the MPI_T interface, the Fortran handle conversions) and one profiling
 * name of one-sided communication; each must be named and marked out of scope in the refusal.
 */
#include <mpi.h>

int PMPI_Win_fence(int assert, MPI_Win win);

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_File file;
    MPI_File_open(MPI_COMM_WORLD, "data", 0, MPI_INFO_NULL, &file);
    MPI_Comm parent;
    MPI_Comm_get_parent(&parent);
    int provided;
    MPI_T_init_thread(0, &provided);
    (void)MPI_Comm_c2f(MPI_COMM_WORLD);
    PMPI_Win_fence(0, (MPI_Win)0);
    MPI_Finalize();
    return 0;
}
