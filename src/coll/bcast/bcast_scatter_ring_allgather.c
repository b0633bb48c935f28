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

struct blocks {
    void *buffer;
    MPI_Datatype datatype;
    int size, base, extra;   /* block b has base + (b < extra) items */
};

/* First item of block b (0 <= b <= size). */
static MPI_Aint
block_start(const struct blocks *bl, long long b)
{
    return (MPI_Aint)(b * bl->base + (b < bl->extra ? b : bl->extra));
}

/* Items of blocks [lo, hi), clipped to the existing blocks. */
static int
range_items(const struct blocks *bl, long long lo, long long hi)
{
    if (hi > bl->size)
        hi = bl->size;
    if (lo >= hi)
        return 0;
    return (int)(block_start(bl, hi) - block_start(bl, lo));
}

static void *
block_ptr(const struct blocks *bl, long long b)
{
    return coll_item(bl->buffer, block_start(bl, b), bl->datatype);
}

/* Binomial scatter of the blocks from relative rank 0: afterwards rel holds block rel. */
static int
scatter_blocks(const struct blocks *bl, int relative, int root, MPI_Comm comm)
{
    int size = bl->size, rc, mask;
    for (mask = 1; mask < size; mask <<= 1) {
        if (relative & mask) {
            int n = range_items(bl, relative, (long long)relative + mask);
            if (n > 0) {
                rc = MPI_Recv(block_ptr(bl, relative), n, bl->datatype,
                              (relative - mask + root) % size, TAG_SCATTER, comm,
                              MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
            break;
        }
    }
    for (mask >>= 1; mask > 0; mask >>= 1) {
        if (relative + mask >= size)
            continue;
        long long child = (long long)relative + mask;
        int n = range_items(bl, child, child + mask);
        if (n > 0) {
            rc = MPI_Send(block_ptr(bl, child), n, bl->datatype, (int)((child + root) % size),
                          TAG_SCATTER, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

int
coll_bcast_scatter_ring_allgather(void *buffer, int count, MPI_Datatype datatype, int root,
                                  MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative;
    struct blocks bl;

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;
    bl = (struct blocks){buffer, datatype, size, count / size, count % size};

    rc = scatter_blocks(&bl, relative, root, comm);
    if (rc != MPI_SUCCESS)
        return rc;

    int left = (rank - 1 + size) % size, right = (rank + 1) % size;
    for (int i = 1; i < size; i++) {
        int out = (relative - i + 1 + size) % size, in = (relative - i + size) % size;
        rc = coll_sendrecv_nonempty(block_ptr(&bl, out), range_items(&bl, out, out + 1), datatype,
                                    right, TAG_RING, block_ptr(&bl, in),
                                    range_items(&bl, in, in + 1), datatype, left, TAG_RING, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}
