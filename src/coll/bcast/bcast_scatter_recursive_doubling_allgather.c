/*
 * Bcast: binomial scatter, then recursive-doubling allgather (van de Geijn).
 *
 * Origin:   Barnett, Payne, van de Geijn & Watts 1994; MPICH's
 *           MPIR_Bcast_intra_scatter_recursive_doubling_allgather (its choice for medium
 *           messages on power-of-two p), including its fix-up for non-power-of-two p.
 * Requires: nothing (any root, any p, any count: with count < p some blocks are empty).
 * Cost:     p a power of two: 2lg p α + 2((p-1)/p)nβ. Otherwise ⌈lg p⌉ exchange rounds plus
 *           the fix-up messages to ranks whose partner does not exist.
 * Steps:    the buffer is cut into p blocks of whole items (the first count mod p blocks one
 *           item longer); block b belongs to relative rank b (rel = rank - root mod p).
 *   1. Binomial scatter, as in scatter_ring_allgather: rank rel ends with block rel.
 *   2. Recursive doubling: before round k (mask = 2^k) rank rel holds the blocks of its
 *      aligned group [g, g + mask), g = rel with its k low bits cleared. It swaps them with
 *      rel xor mask, which holds the neighbouring group's. When p is not a power of two the
 *      partner may not exist; then, within the lower group, the ranks that did receive the
 *      upper group's blocks pass them on by recursive halving (MPICH's scheme), so the
 *      invariant holds again. For p = 4:
 *
 *     scatter:  0 -> 2 (blocks 2,3);  0 -> 1 (block 1);  2 -> 3 (block 3)
 *     round 0:  0 <-> 1, 2 <-> 3 (one block each way)
 *     round 1:  0 <-> 2, 1 <-> 3 (two blocks each way)
 *
 * Empty block ranges travel nowhere: sender and receiver skip them by the same rule.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_SCATTER = 1, TAG_DOUBLING = 2, TAG_FIXUP = 3 };

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
    return coll_item(bl->buffer, block_start(bl, b < bl->size ? b : bl->size), bl->datatype);
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

/*
 * After a round where the upper group [upper, upper + mask) exists only in part (nc =
 * p - upper ranks), the first nc ranks of the lower group [group, group + mask) hold the
 * upper blocks; pass them to the others by recursive halving within the group.
 */
static int
fix_up(const struct blocks *bl, int relative, int group, int mask, int root, MPI_Comm comm)
{
    int size = bl->size, rc;
    long long upper = (long long)group + mask;
    int nc = (int)(size - upper);
    int n = range_items(bl, upper, size);
    if (nc <= 0 || n == 0)
        return MPI_SUCCESS;
    for (int half = mask >> 1; half > 0; half >>= 1) {
        int sub = relative & ~(2 * half - 1);   /* the sub-group being split in two */
        int peer = relative ^ half;
        if (peer > relative && relative < sub + nc && peer >= sub + nc) {
            rc = MPI_Send(block_ptr(bl, upper), n, bl->datatype, (peer + root) % size,
                          TAG_FIXUP, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        } else if (peer < relative && peer < sub + nc && relative >= sub + nc) {
            rc = MPI_Recv(block_ptr(bl, upper), n, bl->datatype, (peer + root) % size,
                          TAG_FIXUP, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}

int
coll_bcast_scatter_recursive_doubling_allgather(void *buffer, int count, MPI_Datatype datatype,
                                                int root, MPI_Comm comm,
                                                const struct coll_params *params)
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

    for (int mask = 1; mask < size; mask <<= 1) {
        int group = relative & ~(mask - 1), peer = relative ^ mask;
        int peer_group = peer & ~(mask - 1);
        if (peer < size) {
            int partner = (peer + root) % size;
            rc = coll_sendrecv_nonempty(
                block_ptr(&bl, group), range_items(&bl, group, (long long)group + mask), datatype,
                partner, TAG_DOUBLING, block_ptr(&bl, peer_group),
                range_items(&bl, peer_group, (long long)peer_group + mask), datatype, partner,
                TAG_DOUBLING, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
        if (peer_group > group && (long long)peer_group + mask > size) {
            rc = fix_up(&bl, relative, group, mask, root, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        }
    }
    return MPI_SUCCESS;
}
