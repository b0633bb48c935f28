/*
 * Gather: binomial tree rooted at the root.
 *
 * Origin:   MPICH's MPIR_Gather_intra_binomial (Thakur, Rabenseifner & Gropp 2005); Open MPI's
 *           ompi_coll_base_gather_intra_binomial has the same shape.
 * Requires: nothing (no op, any root). Handles MPI_IN_PLACE: sendbuf == MPI_IN_PLACE at the
 *           root means its block is already in place in recvbuf.
 * Cost:     ⌈lg p⌉α + ((p-1)/p)nβ (n the bytes of all blocks).
 * Steps:    relative ranks rel = (rank - root) mod p. A rank receives from rel + 1, rel + 2,
 *           rel + 4 … (below its lowest set bit, and below p) the blocks of their subtrees, in
 *           that order, then sends the blocks of its whole subtree [rel, rel + lowbit(rel)) to
 *           rel - lowbit(rel). For p = 8 (relative ranks):
 *
 *     step 1:  1 -> 0  3 -> 2  5 -> 4  7 -> 6     (one block each)
 *     step 2:  2 -> 0  6 -> 4                     (two blocks)
 *     step 3:  4 -> 0                             (four blocks)
 *
 * Buffers: recvtype is significant only at the root, so a rank in the middle of the tree
 * collects its subtree's blocks packed (MPI_Pack of its own block, then the children's
 * messages received as MPI_PACKED) and forwards them as MPI_PACKED; the standard lets
 * MPI_PACKED match any type signature. Every block has the same byte count by the type
 * matching rule (sendcount·size(sendtype) = recvcount·size(recvtype)), so every rank knows
 * every message's size. The root receives straight into recvbuf when a subtree's ranks are
 * consecutive there, and through a packed buffer when they wrap around rank p-1.
 *
 * recvbuf, recvcount and recvtype are read at the root only; leaves need no buffer.
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"

enum { TAG_GATHER = 0 };

/* The root: its own block, then its children's subtrees into recvbuf. */
static int
gather_at_root(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, int size, long long nbytes,
               MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    MPI_Aint lb, extent;
    char *packed = NULL;

    rc = MPI_Type_get_extent(recvtype, &lb, &extent);
    if (rc != MPI_SUCCESS)
        return rc;
#define BLOCK(i) ((char *)recvbuf + (MPI_Aint)(i) * recvcount * extent)
    if (sendbuf != MPI_IN_PLACE) {
        rc = coll_copy_typed(sendbuf, sendcount, sendtype, BLOCK(root), recvcount, recvtype);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int mask = 1; mask < size; mask <<= 1) {
        int first = (root + mask) % size, source = first;
        int blocks = mask < size - mask ? mask : size - mask;
        if (first + blocks <= size) {
            /* the subtree's ranks are consecutive in recvbuf */
            rc = MPI_Recv(BLOCK(first), blocks * recvcount, recvtype, source, TAG_GATHER, comm,
                          MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                break;
            continue;
        }
        /* they wrap around rank p-1: receive packed, unpack in two pieces */
        int bytes = (int)(blocks * nbytes), position = 0, tail = size - first;
        packed = malloc((size_t)bytes);
        if (packed == NULL) {
            rc = MPI_ERR_NO_MEM;
            break;
        }
        rc = MPI_Recv(packed, bytes, MPI_PACKED, source, TAG_GATHER, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = MPI_Unpack(packed, bytes, &position, BLOCK(first), tail * recvcount, recvtype,
                            comm);
        if (rc == MPI_SUCCESS)
            rc = MPI_Unpack(packed, bytes, &position, BLOCK(0), (blocks - tail) * recvcount,
                            recvtype, comm);
        free(packed);
        packed = NULL;
        if (rc != MPI_SUCCESS)
            break;
    }
#undef BLOCK
    return rc;
}

int
coll_gather_binomial(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
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
    rc = MPI_Type_size(rank == root ? recvtype : sendtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    nbytes = (long long)tsize * (rank == root ? recvcount : sendcount);
    if (nbytes == 0)
        return MPI_SUCCESS;   /* every block is empty: nothing to move */
    if (nbytes * size > INT_MAX)
        return MPI_ERR_COUNT;   /* a packed message's byte count must fit an int */
    if (rank == root)
        return gather_at_root(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                              size, nbytes, comm);

    relative = (rank - root + size) % size;
    lowbit = relative & -relative;
    subtree = lowbit < size - relative ? lowbit : size - relative;
    int parent = (rank - lowbit + size) % size;
    if (subtree == 1)
        return MPI_Send(sendbuf, sendcount, sendtype, parent, TAG_GATHER, comm);

    /* In the middle: own block packed first, then each child's subtree after it. */
    packed = malloc((size_t)(subtree * nbytes));
    if (packed == NULL)
        return MPI_ERR_NO_MEM;
    rc = MPI_Pack(sendbuf, sendcount, sendtype, packed, (int)nbytes, &position, comm);
    for (int mask = 1; mask < lowbit && relative + mask < size && rc == MPI_SUCCESS;
         mask <<= 1) {
        int blocks = mask < size - relative - mask ? mask : size - relative - mask;
        rc = MPI_Recv(packed + mask * nbytes, (int)(blocks * nbytes), MPI_PACKED,
                      (rank + mask) % size, TAG_GATHER, comm, MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS)
        rc = MPI_Send(packed, (int)(subtree * nbytes), MPI_PACKED, parent, TAG_GATHER, comm);
    free(packed);
    return rc;
}
