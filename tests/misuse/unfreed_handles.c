/*
 * Communicators, groups, datatypes and ops never freed: legal enough to finish under a real MPI, and
 * silent there. collsim finishes (exit 0); at the end one line sums up what each rank left,
 * and with --verbose each object is named with the call and the source line that made it.
 * Freed objects (rank 1's communicator, the contiguous type) are not reported.
 *
 * run: -n 4 --verbose
 * exit: 0
 * expect: collsim: warning: rank 0 never freed the communicator made by MPI_Comm_split at main+
 * expect: (unfreed_handles.so, unfreed_handles.c:37)
 * expect: collsim: warning: rank 0 never freed the datatype made by MPI_Type_vector at main+
 * expect: (unfreed_handles.so, unfreed_handles.c:39)
 * expect: collsim: warning: rank 0 never freed the op made by MPI_Op_create at main+
 * expect: collsim: warning: rank 3 never freed the communicator made by MPI_Comm_dup at main+
 * expect: collsim: warning: rank 2 never freed the group made by MPI_Comm_group at main+
 * expect: (unfreed_handles.so, unfreed_handles.c:48), 2 handles
 * expect: collsim: warning: objects not freed at MPI_Finalize: rank 0: 1 communicator, 1 datatype, 1 op; rank 2: 1 communicator, 2 groups; rank 3: 2 communicators
 */
#include <mpi.h>

static void
add(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)in, (void)inout, (void)len, (void)type;
}

int
main(int argc, char **argv)
{
    int rank;
    MPI_Comm half, copy;
    MPI_Datatype column, pair;
    MPI_Op op;
    MPI_Group world, again, freed;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
    if (rank == 0) {
        MPI_Type_vector(4, 1, 4, MPI_DOUBLE, &column);
        MPI_Type_commit(&column);
        MPI_Op_create(add, 1, &op);
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_free(&pair);
    }
    if (rank == 1)
        MPI_Comm_free(&half);
    if (rank == 2) {   /* three handles to one group, one given back */
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Comm_group(MPI_COMM_WORLD, &again);
        MPI_Comm_group(MPI_COMM_WORLD, &freed);
        MPI_Group_free(&freed);
    }
    if (rank == 3)
        MPI_Comm_dup(MPI_COMM_SELF, &copy);
    MPI_Finalize();
    return 0;
}
