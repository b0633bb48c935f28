/*
 * coll_tree.h — what the broadcast and reduce algorithms share: the opening queries, the
 * delivery of a reduction's result to the root, segment arithmetic for pipelined trees, the
 * shapes of their trees (k-nomial, in-order binary) and the loops that walk them.
 *
 * Standard MPI calls and libc only (tests/realmpi compiles this file against Open MPI). Every
 * helper issues exactly the MPI calls, in the order, that its callers issued before it
 * existed: an algorithm's messages, tags and operand order do not depend on which helper
 * holds the loop.
 */
#ifndef COLLSIM_COLL_TREE_H
#define COLLSIM_COLL_TREE_H

#include "mpi.h"

struct coll_params;

/*
 * This rank and the communicator's size (MPI_Comm_size, then MPI_Comm_rank), and, when
 * `relative` is not NULL, the rank relative to `root` ((rank - root) mod size), which is how
 * every rooted tree numbers its nodes. Returns the first failing call's code.
 */
int coll_tree_ranks(MPI_Comm comm, int root, int *rank, int *size, int *relative);

/*
 * The last step of a reduction whose result ends at `holder` (a tree's top, a chain's end):
 * when holder is not the root, holder sends `result` (count items, tag) and the root receives
 * it into recvbuf; when holder is the root, the result is copied into recvbuf unless it is
 * already there. Every other rank does nothing.
 */
int coll_tree_deliver_result(const void *result, void *recvbuf, int count, MPI_Datatype datatype,
                             int rank, int holder, int root, int tag, MPI_Comm comm);

/*
 * A buffer of `count` items cut into segments of whole items, for the pipelined trees: every
 * segment has `items` items but the last, which has what is left. Empty buffers have no
 * segment.
 */
struct coll_segments {
    void *buffer;
    MPI_Datatype datatype;
    int count;
    int items; /* per segment: whole items, at least one, at most count */
    int nsegs;
};

/* Segments of params->segment_bytes / type size items (the whole buffer, one segment, when
 * params sets no segment size). */
void coll_segments_init(struct coll_segments *sg, void *buffer, int count, MPI_Datatype datatype,
                        const struct coll_params *params);
void *coll_segment_ptr(const struct coll_segments *sg, int s);
int coll_segment_len(const struct coll_segments *sg, int s);

/*
 * The inner loop of a pipelined broadcast: receive the segments one after the other from
 * `parent` (none when parent < 0: this rank holds them) with one receive posted ahead, and
 * send each, as soon as it is in, to children[0], children[1], ... with blocking sends.
 */
int coll_tree_forward_segments(const struct coll_segments *sg, int parent, const int children[],
                               int nchildren, int tag, MPI_Comm comm);

/*
 * A node of the k-nomial tree of radix k over relative ranks 0 … size-1 (k = 2: the binomial
 * tree). The parent of rel is rel with its lowest non-zero base-k digit cleared; its children
 * are rel + j·k^i (j = 1 … k-1, below size) for every k^i below that digit's place, and
 * coll_knomial_next_child lists them largest subtree first (k^i descending, j ascending), the
 * order in which a broadcast or a scatter serves them.
 */
struct coll_knomial {
    int relative, size;
    long long radix;
    int parent;        /* relative rank; -1 at the root */
    long long span;    /* this node's subtree is [relative, relative + span), clipped to size */
    long long mask, j; /* the next child is relative + j·mask */
};

void coll_knomial_init(struct coll_knomial *node, int relative, int size, long long radix);
/* The next child (relative rank) and the span of its subtree, [child, child + span); 0 when
 * no child is left. */
int coll_knomial_next_child(struct coll_knomial *node, long long *child, long long *span);

/*
 * Broadcast down the k-nomial tree rooted at `root`: receive the whole buffer from the parent,
 * then send it to each child, largest subtree first (blocking calls, one tag). Nothing moves
 * when count is 0 or there is one rank.
 */
int coll_tree_bcast_knomial(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                            long long radix, int tag);

/*
 * A buffer cut into `size` blocks of whole items, block b belonging to relative rank b: the
 * first `extra` blocks have base + 1 items, the others base (base = count / size, extra =
 * count mod size), as the scatter-allgather broadcasts cut it.
 */
struct coll_bcast_blocks {
    void *buffer;
    MPI_Datatype datatype;
    int size, base, extra;
};

/* Items of blocks [lo, hi), clipped to the existing blocks. */
int coll_bcast_items(const struct coll_bcast_blocks *bl, long long lo, long long hi);
/* Address of block b (b clipped to size: the end of the buffer). */
void *coll_bcast_block(const struct coll_bcast_blocks *bl, long long b);

/*
 * The first half of the scatter-allgather broadcasts: cut `buffer` into as many blocks as
 * comm has ranks (*bl) and scatter them down the binomial tree rooted at `root`: a rank
 * receives the blocks of its subtree from its parent, then hands each child, largest subtree
 * first, the blocks of the child's subtree. Afterwards relative rank rel holds block rel.
 * Empty ranges are neither sent nor received (both ends skip them by the same rule); with one
 * rank or count 0 nothing moves. *rank (unless NULL) and *relative receive this rank and its
 * rank relative to root.
 */
int coll_tree_bcast_scatter(void *buffer, int count, MPI_Datatype datatype, int root, int tag,
                            MPI_Comm comm, struct coll_bcast_blocks *bl, int *rank, int *relative);

/*
 * The opening of the binomial and k-nomial reduces: this rank and the size, and the tree they
 * reduce on. For a commutative op the tree is rooted at the root; for a non-commutative one
 * at rank 0, whose subtrees are contiguous ascending rank ranges (MPICH's way of keeping rank
 * order; coll_tree_deliver_result then brings the result from 0 to the root). *relative is
 * the rank relative to *tree_root.
 */
int coll_tree_reduce_ranks(MPI_Comm comm, MPI_Op op, int root, int *rank, int *size, int *tree_root,
                           int *relative);

/*
 * The in-order binary tree over ranks 0 … size-1 (Open MPI's
 * ompi_coll_base_topo_build_in_order_bintree): the subtree of a rank range [lo, hi] is rooted
 * at hi; the other ranks split into a low half [lo, lo+L-1] (L = (hi-lo+1)/2) and a high half
 * [lo+L, hi-1], whose tops are hi's children. *parent is -1 for size-1, *low and *high -1 when
 * that half is empty. A node folding low ∘ high ∘ own folds its rank range in order.
 */
void coll_tree_in_order_binary(int rank, int size, int *parent, int *low, int *high);

/* Wait for a child's message in `in`, then fold it in on the left: acc = in ∘ acc. */
int coll_tree_wait_fold(MPI_Request *req, const void *in, void *acc, int count,
                        MPI_Datatype datatype, MPI_Op op);

/* A tree's shape: the parent (-1 at the top) and the low and high children (-1 when absent)
 * of `rank` among `size` ranks, as coll_tree_in_order_binary gives them. */
typedef void coll_tree_shape_fn(int rank, int size, int *parent, int *low, int *high);

/*
 * Reduce in segments up a tree whose every node computes low ∘ high ∘ own (the in-order
 * binary tree; a chain is the same with one low child, rank - 1, and parent rank + 1), as
 * Open MPI's ompi_coll_base_reduce_generic does. Nothing is sent when count is 0; a single
 * rank copies sendbuf to recvbuf. Otherwise the top (size - 1) ends with the result: the root
 * first posts its receives of every finished segment from the top (`result_tag`); an inner
 * node keeps one receive per child posted ahead (two buffers per child) and, for each
 * segment, copies its own items, folds high then low on the left, and sends the segment on
 * (`tag`; one send in flight, two accumulation buffers; the top folds straight into recvbuf
 * when it is the root).
 */
int coll_tree_reduce_segmented(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                               MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params,
                               coll_tree_shape_fn *shape, int tag, int result_tag);

/*
 * Reduce in segments up a tree rooted at `root` whose nodes have any number of children, as
 * Open MPI's ompi_coll_base_reduce_generic runs its binary and chain trees: `parent` is -1 at
 * the root, children[0 … nchildren-1] in the order the node folds them. Each node keeps one
 * receive per child posted ahead (two buffers per child) and, for each segment, copies its own
 * items, folds every child's segment in on the left in that order (acc = child ∘ acc, so the
 * fold is out of rank order: commutative ops only), and sends the segment to its parent (one
 * send in flight, two accumulation buffers; the root folds straight into recvbuf). Nothing is
 * sent when count is 0; a single rank copies sendbuf to recvbuf.
 */
int coll_tree_reduce_rooted_segmented(const void *sendbuf, void *recvbuf, int count,
                                      MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                                      const struct coll_params *params, int parent,
                                      const int children[], int nchildren, int tag);

#endif
