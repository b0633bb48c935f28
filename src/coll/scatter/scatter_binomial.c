/*
 * Scatter: binomial tree rooted at the root.
 *
 * Origin:   MPICH's MPIR_Scatter_intra_binomial (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           ompi_coll_base_scatter_intra_binomial has the same shape.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: recvbuf == MPI_IN_PLACE at the
 *           root leaves its block where it is in sendbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ (n the bytes of all blocks).
 * Steps:    relative ranks rel = (rank - root) mod p. A rank receives from rel - lowbit(rel)
 *           the blocks of its subtree [rel, rel + lowbit(rel)), then hands each child rel + m
 *           (m = lowbit/2 … 1, farthest first) the blocks [rel + m, rel + 2m). For p = 8
 *           (relative ranks):
 *
 *     step 1:  0 -> 4                             (four blocks)
 *     step 2:  0 -> 2  4 -> 6                     (two blocks)
 *     step 3:  0 -> 1  2 -> 3  4 -> 5  6 -> 7     (one block each)
 *
 * Buffers: recvtype is all a non-root rank knows, so a rank in the middle of the tree receives
 * its subtree's blocks as MPI_PACKED (which matches any type signature), forwards slices of
 * them as MPI_PACKED and unpacks its own. Every block has the same byte count by the type
 * matching rule, so every rank knows every message's size. The root sends straight from
 * sendbuf when a subtree's ranks are consecutive there, and packs the two pieces when they
 * wrap around rank p-1.
 *
 * sendbuf, sendcount and sendtype are read at the root only; leaves need no buffer.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_SCATTER = 0 };

/* The root: its children's subtrees from sendbuf, farthest first, then its own block. */
static int
scatter_from_root(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root, int size, long long nbytes,
                  MPI_Comm comm)
{
    int rc, mask;
    MPI_Aint lb, extent;

    rc = MPI_Type_get_extent(sendtype, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
#define BLOCK(i) ((const char *)sendbuf + (MPI_Aint)(i) * sendcount * extent)
    for (mask = 1; mask < size; mask <<= 1)
        ;
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int first = (root + mask) % size, dest = first;
        int blocks = mask < size - mask ? mask : size - mask;
        if (first + blocks <= size) {
            /* the subtree's ranks are consecutive in sendbuf */
            rc = MPI_Send(BLOCK(first), blocks * sendcount, sendtype, dest, TAG_SCATTER, comm);
            if (rc != MPI_SUCCESS)
                return rc;
            continue;
        }
        /* they wrap around rank p-1: pack the two pieces */
        int bytes = (int)(blocks * nbytes), position = 0, tail = size - first;
        char *packed = malloc((size_t)bytes);
        if (packed == NULL)
            return MPI_ERR_NO_MEM;
        rc = MPI_Pack(BLOCK(first), tail * sendcount, sendtype, packed, bytes, &position, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Pack(BLOCK(0), (blocks - tail) * sendcount, sendtype, packed, bytes,
                          &position, comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Send(packed, bytes, MPI_PACKED, dest, TAG_SCATTER, comm);
        free(packed);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (recvbuf != MPI_IN_PLACE)
        return coll_copy_typed(BLOCK(root), sendcount, sendtype, recvbuf, recvcount, recvtype);
#undef BLOCK
    return MPI_SUCCESS;
}

int
coll_scatter_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                      const struct coll_params *params)
{
    int rank, size, rc, tsize, relative, lowbit, subtree, position = 0;
    long long nbytes;
    char *packed;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(rank == root ? sendtype : recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    nbytes = (long long)tsize * (rank == root ? sendcount : recvcount);
    if (nbytes == 0)
        return MPI_SUCCESS;   /* every block is empty: nothing to move */
    if (nbytes * size > INT_MAX)
        return MPI_ERR_COUNT;   /* a packed message's byte count must fit an int */
    if (rank == root)
        return scatter_from_root(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype,
                                 root, size, nbytes, comm);

    relative = (rank - root + size) % size;
    lowbit = relative & -relative;
    subtree = lowbit < size - relative ? lowbit : size - relative;
    int parent = (rank - lowbit + size) % size;
    if (subtree == 1)
        return MPI_Recv(recvbuf, recvcount, recvtype, parent, TAG_SCATTER, comm,
                        MPI_STATUS_IGNORE);

    /* In the middle: the subtree's blocks packed, own block first. */
    packed = malloc((size_t)(subtree * nbytes));
    if (packed == NULL)
        return MPI_ERR_NO_MEM;
    rc = MPI_Recv(packed, (int)(subtree * nbytes), MPI_PACKED, parent, TAG_SCATTER, comm,
                  MPI_STATUS_IGNORE);
    for (int mask = lowbit >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
        if (relative + mask >= size)
            continue;
        int blocks = mask < size - relative - mask ? mask : size - relative - mask;
        rc = MPI_Send(packed + mask * nbytes, (int)(blocks * nbytes), MPI_PACKED,
                      (rank + mask) % size, TAG_SCATTER, comm);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Unpack(packed, (int)nbytes, &position, recvbuf, recvcount, recvtype, comm);
    free(packed);
    return rc;
}
