/*
 * Allgatherv: Bruck's dissemination (concatenation) algorithm.
 *
 * Origin:   Bruck, Ho, Kipnis, Upfal & Weathersby 1997; MPICH's MPIR_Allgatherv_intra_brucks.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 * Steps:    as allgather_bruck.c: a scratch buffer holds the blocks packed in rotated order
 *           (slot j is block (r+j) mod p, slots back to back); round k sends the first 2^k
 *           slots to r - 2^k and receives the next 2^k from r + 2^k, a last round the
 *           remainder; then each slot is copied to displs[(r+j) mod p] of recvbuf. A message
 *           whose blocks have no bytes is not sent (both ends know its size alike).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHERV_BRUCK = 0 };

int
coll_allgatherv_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      MPI_Comm comm, const struct coll_params *params)
{
    int rc, rank, size, tsize;
    int *start; /* start[j]: where slot j begins in tmp, in items; start[p]: the total */
    void *mem = NULL, *tmp;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;

    start = malloc(sizeof *start * (size_t)(size + 1));
    if (start == NULL)
        return MPI_ERR_NO_MEM;
    start[0] = 0;
    for (int j = 0; j < size; j++)
        start[j + 1] = start[j] + recvcounts[(rank + j) % size];

    if (size == 1 || start[size] == 0 || tsize == 0) {
        if (sendbuf != MPI_IN_PLACE)
            rc = coll_copy_typed(sendbuf, sendcount, sendtype,
                                 coll_item(recvbuf, displs[rank], recvtype), recvcounts[rank],
                                 recvtype);
        goto out_free_start;
    }

    tmp = coll_tmp_alloc(start[size], recvtype, &mem);
    if (tmp == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free_start;
    }
    if (sendbuf != MPI_IN_PLACE)
        rc = coll_copy_typed(sendbuf, sendcount, sendtype, tmp, recvcounts[rank], recvtype);
    else
        rc = coll_copy(coll_item(recvbuf, displs[rank], recvtype), tmp, recvcounts[rank], recvtype);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    /* rounds of doubling, then the remainder: `have` slots are filled */
    for (int have = 1; have < size;) {
        int n = have <= size - have ? have : size - have;
        int dst = (rank - have + size) % size;
        int src = (rank + have) % size;
        rc = coll_sendrecv_nonempty(tmp, start[n], recvtype, dst, TAG_ALLGATHERV_BRUCK,
                                    coll_item(tmp, start[have], recvtype),
                                    start[have + n] - start[have], recvtype, src,
                                    TAG_ALLGATHERV_BRUCK, comm);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
        have += n;
    }

    /* unrotate: slot j is block (rank + j) mod p */
    for (int j = 0; j < size; j++) {
        int block = (rank + j) % size;
        if (block == rank && sendbuf == MPI_IN_PLACE)
            continue;
        rc = coll_copy(coll_item(tmp, start[j], recvtype),
                       coll_item(recvbuf, displs[block], recvtype), recvcounts[block], recvtype);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
    }
out_free_tmp:
    free(mem);
out_free_start:
    free(start);
    return rc;
}
