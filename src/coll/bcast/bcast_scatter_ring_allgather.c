/*
 * Bcast: binomial scatter, then ring allgather (van de Geijn).
 *
 * Origin:   Barnett, Payne, van de Geijn & Watts 1994; MPICH's
 *           MPIR_Bcast_intra_scatter_ring_allgather (its choice for long messages or
 *           non-power-of-two p); SMPI's scatter_LR_allgather.
 * Requires: nothing (any root, any p, any count: with count < p some blocks are empty).
 * Cost:     (⌈lg p⌉ + p - 1)α + 2((p-1)/p)nβ.
 * Steps:    the buffer is cut into p blocks of whole items (the first count mod p blocks one
 *           item longer); block b belongs to relative rank b (rel = rank - root mod p).
 *   1. Binomial scatter: a rank receives from rel - lowbit(rel) the blocks of its subtree,
 *      [rel, rel + lowbit(rel)), then hands each child rel + m (m = lowbit/2 … 1) the blocks
 *      [rel + m, rel + 2m). Now rank rel holds block rel.
 *   2. Ring allgather: in step i = 1 … p-1 every rank sends block (rel - i + 1) mod p to
 *      rel + 1 and receives block (rel - i) mod p from rel - 1. For p = 4:
 *
 *     scatter:  0 -> 2 (blocks 2,3);  0 -> 1 (block 1);  2 -> 3 (block 3)
 *     ring:     step 1: r sends block r;  step 2: block r-1;  step 3: block r-2
 *
 * Empty blocks travel nowhere: sender and receiver skip them by the same rule.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_SCATTER = 1, TAG_RING = 2 };

int
coll_bcast_scatter_ring_allgather(void *buffer, int count, MPI_Datatype datatype, int root,
                                  MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative;
    struct coll_bcast_blocks bl;

    (void)params;
    rc = coll_tree_bcast_scatter(buffer, count, datatype, root, TAG_SCATTER, comm, &bl, &rank,
                                 &relative);
    if (rc != MPI_SUCCESS || bl.size == 1 || count == 0)
        return rc;
    size = bl.size;

    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 1; i < size; i++) {
        int out = (relative - i + 1 + size) % size, in = (relative - i + size) % size;
        rc = coll_sendrecv_nonempty(coll_bcast_block(&bl, out), coll_bcast_items(&bl, out, out + 1),
                                    datatype, right, TAG_RING, coll_bcast_block(&bl, in),
                                    coll_bcast_items(&bl, in, in + 1), datatype, left, TAG_RING,
                                    comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
