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

/*
 * After a round where the upper group [upper, upper + mask) exists only in part (nc =
 * p - upper ranks), the first nc ranks of the lower group [group, group + mask) hold the
 * upper blocks; pass them to the others by recursive halving within the group.
 */
static int
fix_up(const struct coll_bcast_blocks *bl, int relative, int group, int mask, int root,
       MPI_Comm comm)
{
    int size = bl->size, rc;
    long long upper = (long long)group + mask;
    int nc = (int)(size - upper);
    int n = coll_bcast_items(bl, upper, size);
    if (nc <= 0 || n == 0)
        return MPI_SUCCESS;
    for (int half = mask >> 1; half > 0; half >>= 1) {
        int sub = relative & ~(2 * half - 1);   /* the sub-group being split in two */
        int peer = relative ^ half;
        if (peer > relative && relative < sub + nc && peer >= sub + nc) {
            rc = MPI_Send(coll_bcast_block(bl, upper), n, bl->datatype, (peer + root) % size,
                          TAG_FIXUP, comm);
            if (rc != MPI_SUCCESS)
                return rc;
        } else if (peer < relative && peer < sub + nc && relative >= sub + nc) {
            rc = MPI_Recv(coll_bcast_block(bl, upper), n, bl->datatype, (peer + root) % size,
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
    int rc, size, relative;
    struct coll_bcast_blocks bl;

    (void)params;
    rc = coll_tree_bcast_scatter(buffer, count, datatype, root, TAG_SCATTER, comm, &bl, NULL,
                                 &relative);
    if (rc != MPI_SUCCESS || bl.size == 1 || count == 0)
        return rc;
    size = bl.size;

    for (int mask = 1; mask < size; mask <<= 1) {
        int group = relative & ~(mask - 1), peer = relative ^ mask;
        int peer_group = peer & ~(mask - 1);
        if (peer < size) {
            int partner = (peer + root) % size;
            rc = coll_sendrecv_nonempty(
                coll_bcast_block(&bl, group), coll_bcast_items(&bl, group, (long long)group + mask),
                datatype, partner, TAG_DOUBLING, coll_bcast_block(&bl, peer_group),
                coll_bcast_items(&bl, peer_group, (long long)peer_group + mask), datatype, partner,
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
