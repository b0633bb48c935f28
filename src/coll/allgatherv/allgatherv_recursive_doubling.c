/*
 * Allgatherv: recursive doubling.
 *
 * Origin:   MPICH's MPIR_Allgatherv_intra_recursive_doubling (Thakur, Rabenseifner & Gropp
 *           2005), including its fix-up for a number of ranks that is not a power of two.
 * Requires: nothing (any number of ranks, any counts including zeros, any displacements).
 *           Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE means the rank's own block is
 *           already in place in recvbuf (recvcounts[r] items at displs[r]).
 * Cost:     p = 2^F: Fα + ((p-1)/p)nβ for equal blocks, n the bytes gathered on each rank.
 *           Otherwise ⌈lg p⌉ exchange rounds plus the fix-up messages.
 * Steps:    as allgather_recursive_doubling.c, on a scratch buffer that holds the blocks
 *           packed in rank order (block b at the sum of recvcounts[0 … b-1]), so that the
 *           blocks of a group of ranks are contiguous; at the end every block is copied to
 *           displs[b] of recvbuf. A message whose blocks have no bytes is not sent (both ends
 *           know its size alike).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHERV_RECURSIVE_DOUBLING = 0 };

static int
min_int(int a, int b)
{
    return a < b ? a : b;
}

int
coll_allgatherv_recursive_doubling(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, const int recvcounts[], const int displs[],
                                   MPI_Datatype recvtype, MPI_Comm comm,
                                   const struct coll_params *params)
{
    const int tag = TAG_ALLGATHERV_RECURSIVE_DOUBLING;
    int rc, rank, size, tsize;
    int *start; /* start[b]: where block b begins in tmp, in items; start[p]: the total */
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
    for (int b = 0; b < size; b++)
        start[b + 1] = start[b] + recvcounts[b];

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
        rc = coll_copy_typed(sendbuf, sendcount, sendtype, coll_item(tmp, start[rank], recvtype),
                             recvcounts[rank], recvtype);
    else
        rc = coll_copy(coll_item(recvbuf, displs[rank], recvtype),
                       coll_item(tmp, start[rank], recvtype), recvcounts[rank], recvtype);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    for (int i = 0, mask = 1; mask < size; i++, mask <<= 1) {
        int partner = rank ^ mask;
        int my_root = rank & ~(mask - 1);
        int partner_root = partner & ~(mask - 1);

        if (partner < size) {
            int my_end = min_int(my_root + mask, size);
            int partner_end = min_int(partner_root + mask, size);
            rc = coll_sendrecv_nonempty(
                coll_item(tmp, start[my_root], recvtype), start[my_end] - start[my_root], recvtype,
                partner, tag, coll_item(tmp, start[partner_root], recvtype),
                start[partner_end] - start[partner_root], recvtype, partner, tag, comm);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
        }

        /* the fix-up of allgather_recursive_doubling.c, on blocks [first, p) */
        if (partner_root + mask > size && size - my_root - mask > 0) {
            int completed = size - my_root - mask;
            int first = my_root + mask;
            int items = start[size] - start[first];
            void *blocks = coll_item(tmp, start[first], recvtype);
            if (items == 0)
                continue;
            for (int k = i, sub = mask >> 1; sub > 0; k--, sub >>= 1) {
                int peer = rank ^ sub;
                int tree_root = (rank >> k) << k;
                if (peer > rank && rank < tree_root + completed && peer >= tree_root + completed) {
                    rc = MPI_Send(blocks, items, recvtype, peer, tag, comm);
                } else if (peer < rank && peer < tree_root + completed &&
                           rank >= tree_root + completed) {
                    rc = MPI_Recv(blocks, items, recvtype, peer, tag, comm, MPI_STATUS_IGNORE);
                }
                if (rc != MPI_SUCCESS)
                    goto out_free_tmp;
            }
        }
    }

    /* from rank order to the caller's displacements */
    for (int b = 0; b < size; b++) {
        if (b == rank && sendbuf == MPI_IN_PLACE)
            continue;
        rc = coll_copy(coll_item(tmp, start[b], recvtype), coll_item(recvbuf, displs[b], recvtype),
                       recvcounts[b], recvtype);
        if (rc != MPI_SUCCESS)
            goto out_free_tmp;
    }
out_free_tmp:
    free(mem);
out_free_start:
    free(start);
    return rc;
}
