/*
 * Allgather: Bruck's dissemination (concatenation) algorithm.
 *
 * Origin:   Bruck, Ho, Kipnis, Upfal & Weathersby 1997; MPICH's MPIR_Allgather_intra_brucks,
 *           Open MPI's ompi_coll_base_allgather_intra_bruck.
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ, n the bytes gathered on each rank.
 * Steps:    a scratch buffer holds the blocks rotated so that rank r's own block comes first:
 *           slot j holds block (r+j) mod p. In round k (2^k <= p/2) rank r sends its first 2^k
 *           slots to r - 2^k and receives 2^k slots from r + 2^k after them; a last round
 *           moves the remaining p - 2^⌊lg p⌋ slots the same way. Then slot j is copied to
 *           block (r+j) mod p of recvbuf. For p = 5, rank 0's slots: [0] -> [0 1] -> [0 1 2 3]
 *           -> [0 1 2 3 4].
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_BRUCK = 0 };

int
coll_allgather_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                     const struct coll_params *params)
{
    int rc, rank, size, tsize, have;
    void *mem, *tmp;

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

    if (size == 1 || recvcount == 0 || tsize == 0) {
        if (sendbuf == MPI_IN_PLACE)
            return MPI_SUCCESS;
        return coll_copy_typed(sendbuf, sendcount, sendtype,
                               coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype), recvcount,
                               recvtype);
    }

    tmp = coll_tmp_alloc(size * recvcount, recvtype, &mem);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (sendbuf != MPI_IN_PLACE)
        rc = coll_copy_typed(sendbuf, sendcount, sendtype, tmp, recvcount, recvtype);
    else
        rc = coll_copy(coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype), tmp, recvcount,
                       recvtype);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    /* rounds of doubling, then the remainder: `have` slots are filled */
    for (have = 1; have < size;) {
        int n = have <= size - have ? have : size - have;
        int dst = (rank - have + size) % size;
        int src = (rank + have) % size;
        rc = MPI_Sendrecv(tmp, n * recvcount, recvtype, dst, TAG_ALLGATHER_BRUCK,
                          coll_item(tmp, (MPI_Aint)have * recvcount, recvtype), n * recvcount,
                          recvtype, src, TAG_ALLGATHER_BRUCK, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
        have += n;
    }

    /* unrotate: slot j is block (rank + j) mod p */
    for (int j = 0; j < size; j++) {
        int block = (rank + j) % size;
        if (block == rank && sendbuf == MPI_IN_PLACE)
            continue;
        rc = coll_copy(coll_item(tmp, (MPI_Aint)j * recvcount, recvtype),
                       coll_item(recvbuf, (MPI_Aint)block * recvcount, recvtype), recvcount,
                       recvtype);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
    }
out_free_tmp:
    free(mem);
    return rc;
}
