/*
 * Barrier: dissemination (Hensgen, Finkel & Manber 1988; the "Bruck" barrier).
 *
 * Origin:   MPICH's default barrier; Open MPI's bruck.
 * Requires: nothing (any number of ranks).
 * Cost:     ceil(log2 p) α.
 * Steps:    in round k (distance d = 2^k) rank r sends to r+d and receives from r-d
 *           (mod p); after ceil(log2 p) rounds every rank has heard, directly or not,
 *           from every other.
 */
#include "mpi.h"
#include "coll/coll.h"

#define TAG_BARRIER 3

int
coll_barrier_dissemination(MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    int rank, size, rc = MPI_SUCCESS;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    for (int distance = 1; distance < size && rc == MPI_SUCCESS; distance *= 2) {
        int to = (rank + distance) % size;
        int from = (rank - distance + size) % size;
        rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, to, TAG_BARRIER, NULL, 0, MPI_BYTE, from,
                          TAG_BARRIER, comm, MPI_STATUS_IGNORE);
    }
    return rc;
}
