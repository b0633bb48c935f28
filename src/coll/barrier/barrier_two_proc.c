/*
 * Barrier: two processes (one exchange of empty messages with the other rank).
 *
 * Origin:   Open MPI's ompi_coll_base_barrier_intra_two_procs (coll_tuned barrier algorithm 5,
 *           "two_proc"; SMPI's ompi_two_procs).
 * Requires: exactly two ranks (COLL_REQ_TWO_RANKS: the dispatcher refuses other sizes, as
 *           Open MPI's decision only picks it for two).
 * Cost:     α: both messages are in flight at the same time.
 * Steps:    rank r sends an empty message to r xor 1 and receives one from it, in one
 *           MPI_Sendrecv; neither leaves before the other has arrived.
 *
 *     0 <-> 1
 */
#include "mpi.h"
#include "coll/coll.h"

enum { TAG_BARRIER_TWO_PROC = 5 };

int
coll_barrier_two_proc(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS || size < 2)
        return rc;
    return MPI_Sendrecv(NULL, 0, MPI_BYTE, rank ^ 1, TAG_BARRIER_TWO_PROC, NULL, 0, MPI_BYTE,
                        rank ^ 1, TAG_BARRIER_TWO_PROC, comm, MPI_STATUS_IGNORE);
}
