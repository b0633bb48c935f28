/*
 * Gatherv: binomial tree rooted at the root, each subtree telling its parent its size first.
 *
 * Origin:   the binomial gather of MPICH (MPIR_Gather_intra_binomial) carried over to
 *           irregular blocks; Open MPI and MPICH gather irregular blocks linearly only, since
 *           recvcounts are significant at the root alone.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ for the data (n the bytes of all blocks), plus one small
 *           message per tree edge not ending at the root (the size header), about ⌈lg p⌉α
 *           more on the critical path.
 * Steps:    the tree of the binomial gather (relative ranks rel = (rank - root) mod p): a rank
 *           receives from rel + 1, rel + 2, rel + 4 … (below its lowest set bit, below p) the
 *           blocks of their subtrees, in that order, then sends its whole subtree's to
 *           rel - lowbit(rel). For p = 8 (relative ranks):
 *
 *     step 1:  1 -> 0  3 -> 2  5 -> 4  7 -> 6
 *     step 2:  2 -> 0  6 -> 4
 *     step 3:  4 -> 0
 *
 * The sizes: recvcounts are significant only at the root, so a rank in the middle cannot
 * know how much its children will send. Each child whose parent is not the root first sends
 * one int, its subtree's byte count (its own sendcount·size(sendtype) plus what its children
 * announced), then the data (if any). The root needs no header: it has recvcounts, which
 * the type matching rule makes equal to what each rank sends.
 *
 * Buffers: a rank in the middle packs its own block and appends its children's messages,
 * received as MPI_PACKED (which matches any type signature), and forwards the lot as
 * MPI_PACKED. The root receives a single rank's block straight into recvbuf and a larger
 * subtree's packed, unpacking each rank's block at its displacement.
 * A message of more than INT_MAX bytes is refused with MPI_ERR_COUNT.
 *
 * recvbuf, recvcounts, displs and recvtype are read at the root only.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_SIZE = 1, TAG_DATA = 2 };

/* The root: its own block, then each child's subtree, nearest child first. */
static int
gather_at_root(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
               int size, MPI_Comm comm)
{
    int rc, tsize;
    MPI_Aint extent;

    rc = coll_type_size_extent(recvtype, &tsize, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
#define BLOCK(i) ((char *)recvbuf + (MPI_Aint)displs[i] * extent)
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_copy_typed(sendbuf, sendcount, sendtype, BLOCK(root), recvcounts[root],
                             recvtype);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int mask = 1; mask < size; mask <<= 1) {
        int child = (root + mask) % size;
        int blocks = coll_subtree_ranks(mask, mask, size);
        long long total = coll_subtree_bytes(recvcounts, tsize, child, blocks, size, NULL);
        if (total == 0)
            continue;
        if (total > INT_MAX)
            return MPI_ERR_COUNT;
        if (blocks == 1) {
            rc = MPI_Recv(BLOCK(child), recvcounts[child], recvtype, child, TAG_DATA, comm,
                          MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
            continue;
        }
        int position = 0;
        char *packed = malloc((size_t)total);
        if (packed == NULL)
            return MPI_ERR_NO_MEM;
        rc = MPI_Recv(packed, (int)total, MPI_PACKED, child, TAG_DATA, comm, MPI_STATUS_IGNORE);
        for (int j = 0; j < blocks && rc == MPI_SUCCESS; j++) {
            int r = (child + j) % size;
            if (recvcounts[r] > 0)
                rc = MPI_Unpack(packed, (int)total, &position, BLOCK(r), recvcounts[r],
                                recvtype, comm);
        }
        free(packed);
        if (rc != MPI_SUCCESS)
            return rc;
    }
#undef BLOCK
    return MPI_SUCCESS;
}

int
coll_gatherv_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                      int root, MPI_Comm comm, const struct coll_params *params)
{
    struct coll_binomial t;
    int rc, tsize, position = 0;
    long long total;
    char *packed = NULL;

    (void)params;
    rc = coll_binomial_place(comm, root, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (t.rank == root)
        return gather_at_root(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs,
                              recvtype, root, t.size, comm);

    rc = MPI_Type_size(sendtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    total = (long long)sendcount * tsize;
    if (total > INT_MAX)
        return MPI_ERR_COUNT;

    /* Collect the subtree: own block packed, then each child's announced bytes. */
    if (t.lowbit > 1 && t.relative + 1 < t.size) {
        packed = malloc(total > 0 ? (size_t)total : 1);
        if (packed == NULL)
            return MPI_ERR_NO_MEM;
        if (total > 0)
            rc = MPI_Pack(sendbuf, sendcount, sendtype, packed, (int)total, &position, comm);
        for (int mask = 1; mask < t.lowbit && t.relative + mask < t.size && rc == MPI_SUCCESS;
             mask <<= 1) {
            int child = (t.rank + mask) % t.size, bytes;
            rc = MPI_Recv(&bytes, 1, MPI_INT, child, TAG_SIZE, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS || bytes == 0)
                continue;
            if (total + bytes > INT_MAX) {
                rc = MPI_ERR_COUNT;
                break;
            }
            char *grown = realloc(packed, (size_t)(total + bytes));
            if (grown == NULL) {
                rc = MPI_ERR_NO_MEM;
                break;
            }
            packed = grown;
            rc = MPI_Recv(packed + total, bytes, MPI_PACKED, child, TAG_DATA, comm,
                          MPI_STATUS_IGNORE);
            total += bytes;
        }
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* Announce the size (the root knows it), then send. */
    if (t.parent != root) {
        int bytes = (int)total;
        rc = MPI_Send(&bytes, 1, MPI_INT, t.parent, TAG_SIZE, comm);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    if (total > 0) {
        if (packed != NULL)
            rc = MPI_Send(packed, (int)total, MPI_PACKED, t.parent, TAG_DATA, comm);
        else
            rc = MPI_Send(sendbuf, sendcount, sendtype, t.parent, TAG_DATA, comm);
    }
out_free:
    free(packed);
    return rc;
}
