/*
 * Bcast: split binary tree (each half of the message down one subtree, then halves swapped).
 *
 * Origin:   Open MPI coll/base ompi_coll_base_bcast_intra_split_bintree; SMPI's
 *           ompi_split_bintree.
 * Requires: nothing (any root, any count, any datatype).
 * Params:   segment_bytes: a segment is segment_bytes / type size whole items (at least one);
 *           without params each half is one segment.
 * Cost:     halves of n/2 in S_h segments of s bytes, H = ⌊lg p⌋:
 *           2(H + S_h - 1)(α + sβ) + α + (n/2)β; p = 2: α + nβ (one message).
 * Steps:    the message is cut into a first half of ⌈count/2⌉ items and a second of
 *           ⌊count/2⌋. The tree is Open MPI's binary tree on relative ranks (rel = rank - root
 *           mod p): rel r on level l (2^l - 1 <= r < 2^(l+1) - 1) has children r + 2^l and
 *           r + 2^(l+1), so the root's left child 1 heads the odd relative ranks and its right
 *           child 2 the even ones.
 *   1. The root sends the first half, segment by segment, down the left subtree and the
 *      second half down the right one (alternating: segment j left, segment j right);
 *      inner nodes forward each segment to their children as it arrives (one receive
 *      posted ahead).
 *   2. Every odd rel swaps halves with rel + 1. When p is even, rel = p-1 (odd) has no
 *      partner: the root sends it the second half.
 *   For p = 7:
 *
 *        tree:  0 -> 1, 2;  1 -> 3, 5;  2 -> 4, 6      1, 3, 5 hold the first half,
 *        swap:  1 <-> 2,  3 <-> 4,  5 <-> 6            2, 4, 6 the second; then they swap.
 *
 * Empty halves (count < 2) are simply not sent; Open MPI falls back to a chain instead.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_SPLIT_TREE = 1, TAG_SPLIT_SWAP = 2 };

/* Open MPI's binary tree on relative ranks: parent (-1 for 0) and up to two children. */
static void
split_tree(int relative, int size, int *parent, int children[2], int *nchildren)
{
    long long level_size = 1;   /* 2^l for rel's level l */
    while (relative >= 2 * level_size - 1)
        level_size *= 2;
    *nchildren = 0;
    for (int i = 1; i <= 2; i++)
        if (relative + i * level_size < size)
            children[(*nchildren)++] = (int)(relative + i * level_size);
    if (relative == 0)
        *parent = -1;
    else if (relative <= 2)
        *parent = 0;
    else {
        /* the children of q on level l-1 are q + 2^(l-1) and q + 2^l */
        long long up = relative - level_size / 2;
        *parent = (int)(up >= level_size - 1 ? up - level_size / 2 : up);
    }
}

int
coll_bcast_split_binary(void *buffer, int count, MPI_Datatype datatype, int root,
                        MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank, relative, parent, children[2], nchildren;
    int counts[2], lr;
    void *half[2];
    struct coll_segments sg[2];

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;
    if (size == 2) {
        /* no second subtree: one message */
        if (rank == root)
            return MPI_Send(buffer, count, datatype, 1 - root, TAG_SPLIT_TREE, comm);
        return MPI_Recv(buffer, count, datatype, root, TAG_SPLIT_TREE, comm,
                        MPI_STATUS_IGNORE);
    }

    split_tree(relative, size, &parent, children, &nchildren);
    for (int c = 0; c < nchildren; c++)
        children[c] = (children[c] + root) % size;
    counts[0] = count - count / 2;
    counts[1] = count / 2;
    half[0] = buffer;
    half[1] = coll_item(buffer, counts[0], datatype);
    for (int h = 0; h < 2; h++)
        coll_segments_init(&sg[h], half[h], counts[h], datatype, params);
    lr = relative % 2 == 1 ? 0 : 1;   /* the half this rank's subtree carries (root: 1) */

    /* Phase 1: the halves down the two subtrees, segment by segment. */
    if (relative == 0) {
        int most = sg[0].nsegs > sg[1].nsegs ? sg[0].nsegs : sg[1].nsegs;
        for (int s = 0; s < most; s++) {
            for (int c = 0; c < nchildren; c++) {   /* child c heads the subtree of half c */
                if (s >= sg[c].nsegs)
                    continue;
                rc = MPI_Send(coll_segment_ptr(&sg[c], s), coll_segment_len(&sg[c], s), datatype,
                              children[c], TAG_SPLIT_TREE, comm);
                if (rc != MPI_SUCCESS)
                    return rc;
            }
        }
    } else if (sg[lr].nsegs > 0) {
        rc = coll_tree_forward_segments(&sg[lr], (parent + root) % size, children, nchildren,
                                        TAG_SPLIT_TREE, comm);
        if (rc != MPI_SUCCESS)
            return rc;
    }

    /* Phase 2: swap halves with the partner in the other subtree. */
    if (relative == 0) {
        if (size % 2 == 0 && counts[1] > 0)
            return MPI_Send(half[1], counts[1], datatype, (size - 1 + root) % size,
                            TAG_SPLIT_SWAP, comm);
        return MPI_SUCCESS;
    }
    if (size % 2 == 0 && relative == size - 1) {
        if (counts[1] > 0)
            return MPI_Recv(half[1], counts[1], datatype, root, TAG_SPLIT_SWAP, comm,
                            MPI_STATUS_IGNORE);
        return MPI_SUCCESS;
    }
    int partner = ((lr == 0 ? relative + 1 : relative - 1) + root) % size;
    int other = 1 - lr;
    return coll_sendrecv_nonempty(half[lr], counts[lr], datatype, partner, TAG_SPLIT_SWAP,
                                  half[other], counts[other], datatype, partner, TAG_SPLIT_SWAP,
                                  comm);
}
