/*
 * Scatterv: binomial tree rooted at the root, each subtree told its ranks' sizes first.
 *
 * Origin:   the binomial scatter of MPICH (MPIR_Scatter_intra_binomial) carried over to
 *           irregular blocks; Open MPI and MPICH scatter irregular blocks linearly only, since
 *           sendcounts are significant at the root alone.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves its block where it is in sendbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ for the data (n the bytes of all blocks), plus one small
 *           message per tree edge leading to a subtree of more than one rank (the sizes),
 *           about ⌈lg p⌉α more on the critical path.
 * Steps:    the tree of the binomial scatter (relative ranks rel = (rank - root) mod p): a
 *           rank receives from rel - lowbit(rel) the blocks of its subtree
 *           [rel, rel + lowbit(rel)), then hands each child rel + m (m = lowbit/2 … 1,
 *           farthest first) the blocks [rel + m, rel + 2m). For p = 8 (relative ranks):
 *
 *     step 1:  0 -> 4
 *     step 2:  0 -> 2  4 -> 6
 *     step 3:  0 -> 1  2 -> 3  4 -> 5  6 -> 7
 *
 * The sizes: sendcounts are significant only at the root, so a rank in the middle cannot
 * split what it receives. Before the data, the root sends each child that heads more than
 * one rank the byte counts of its subtree's blocks (one int per rank, in relative order);
 * that child forwards the slice of each of its own children the same way. A leaf needs no
 * header: its recvcount is its size, equal to what the root sends by the type matching rule.
 *
 * Buffers: a rank in the middle receives its subtree's blocks as MPI_PACKED (which matches
 * any type signature), forwards slices as MPI_PACKED and unpacks its own block. The root
 * sends a single rank's block straight from sendbuf and packs a larger subtree's blocks from
 * their displacements. A message of more than INT_MAX bytes is refused with MPI_ERR_COUNT.
 *
 * sendbuf, sendcounts, displs and sendtype are read at the root only.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_SIZES = 1, TAG_DATA = 2 };

/* The root's message to a child heading `blocks` ranks from `child` on: the blocks packed. */
static int
send_subtree(const void *sendbuf, const int sendcounts[], const int displs[],
             MPI_Datatype sendtype, MPI_Aint extent, const int sizes[], int blocks, int total,
             int child, int size, MPI_Comm comm)
{
    int rc = MPI_SUCCESS, position = 0;
    char *packed = malloc((size_t)total);
    if (packed == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; j < blocks && rc == MPI_SUCCESS; j++) {
        int r = (child + j) % size;
        if (sizes[j] > 0)
            rc = MPI_Pack((const char *)sendbuf + (MPI_Aint)displs[r] * extent, sendcounts[r],
                          sendtype, packed, total, &position, comm);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Send(packed, total, MPI_PACKED, child, TAG_DATA, comm);
    free(packed);
    return rc;
}

/* The root: each child's subtree (sizes, then data), farthest child first; then its own. */
static int
scatter_from_root(const void *sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, int size, MPI_Comm comm)
{
    int rc, tsize, mask;
    int *sizes;
    MPI_Aint extent;

    rc = coll_type_size_extent(sendtype, &tsize, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
    for (mask = 1; mask < size; mask <<= 1)
        ;
    sizes = malloc(sizeof *sizes * (size_t)(mask / 2 > 0 ? mask / 2 : 1));
    if (sizes == NULL)
        return MPI_ERR_NO_MEM;
    for (mask >>= 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        int child = (root + mask) % size;
        int blocks = coll_subtree_ranks(mask, mask, size);
        long long total = coll_subtree_bytes(sendcounts, tsize, child, blocks, size, sizes);
        if (total > INT_MAX) {
            rc = MPI_ERR_COUNT;
            break;
        }
        if (blocks == 1) {
            /* a leaf knows its size: no header, its block straight from sendbuf */
            if (total > 0)
                rc = MPI_Send((const char *)sendbuf + (MPI_Aint)displs[child] * extent,
                              sendcounts[child], sendtype, child, TAG_DATA, comm);
            continue;
        }
        rc = MPI_Send(sizes, blocks, MPI_INT, child, TAG_SIZES, comm);
        if (rc == MPI_SUCCESS && total > 0)
            rc = send_subtree(sendbuf, sendcounts, displs, sendtype, extent, sizes, blocks,
                              (int)total, child, size, comm);
    }
    free(sizes);
    if (rc == MPI_SUCCESS && recvbuf != MPI_IN_PLACE)
        rc = coll_copy_typed((const char *)sendbuf + (MPI_Aint)displs[root] * extent,
                             sendcounts[root], sendtype, recvbuf, recvcount, recvtype);
    return rc;
}

int
coll_scatterv_binomial(const void *sendbuf, const int sendcounts[], const int displs[],
                       MPI_Datatype sendtype, void *recvbuf, int recvcount,
                       MPI_Datatype recvtype, int root, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_binomial t;
    int rc, tsize, position = 0;
    int *sizes = NULL, *offsets = NULL;
    char *packed = NULL;

    (void)params;
    rc = coll_binomial_place(comm, root, &t);
    if (rc != MPI_SUCCESS)
        return rc;
    if (t.rank == root)
        return scatter_from_root(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount,
                                 recvtype, root, t.size, comm);

    if (t.subtree == 1) {
        rc = MPI_Type_size(recvtype, &tsize);
        if (rc != MPI_SUCCESS || (long long)recvcount * tsize == 0)
            return rc;
        return MPI_Recv(recvbuf, recvcount, recvtype, t.parent, TAG_DATA, comm,
                        MPI_STATUS_IGNORE);
    }

    /* In the middle: the sizes of the subtree's blocks, then the blocks. */
    sizes = malloc(sizeof *sizes * (size_t)t.subtree);
    offsets = malloc(sizeof *offsets * (size_t)(t.subtree + 1));
    if (sizes == NULL || offsets == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = MPI_Recv(sizes, t.subtree, MPI_INT, t.parent, TAG_SIZES, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out_free;
    offsets[0] = 0;
    for (int j = 0; j < t.subtree; j++)
        offsets[j + 1] = offsets[j] + sizes[j];   /* the root checked the sum fits */
    if (offsets[t.subtree] > 0) {
        packed = malloc((size_t)offsets[t.subtree]);
        if (packed == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
        rc = MPI_Recv(packed, offsets[t.subtree], MPI_PACKED, t.parent, TAG_DATA, comm,
                      MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    for (int mask = t.lowbit >> 1; mask > 0; mask >>= 1) {
        if (t.relative + mask >= t.size)
            continue;
        int child = (t.rank + mask) % t.size;
        int blocks = coll_subtree_ranks(t.relative + mask, mask, t.size);
        int bytes = offsets[mask + blocks] - offsets[mask];
        if (blocks > 1) {
            rc = MPI_Send(&sizes[mask], blocks, MPI_INT, child, TAG_SIZES, comm);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        if (bytes > 0) {
            rc = MPI_Send(packed + offsets[mask], bytes, MPI_PACKED, child, TAG_DATA, comm);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }
    if (sizes[0] > 0)
        rc = MPI_Unpack(packed, sizes[0], &position, recvbuf, recvcount, recvtype, comm);
out_free:
    free(packed);
    free(offsets);
    free(sizes);
    return rc;
}
