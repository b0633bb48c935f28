/*
 * coll_blocks.h — the per-rank blocks of the gather, scatter, allgather and alltoall families
 * (uniform, v and w addressing behind one description) and the message patterns their
 * algorithms share, so that each pattern is written once:
 *   - openings: rank and size, the own block put in place (coll_rank_size, coll_allgather_open);
 *   - rooted: the linear and the binomial gather/scatter, one function each with a direction
 *     flag (to_root: gather), and the binomial tree's arithmetic (coll_binomial_place);
 *   - allgather(v): ring, neighbor exchange, recursive doubling and Bruck on uniform or v
 *     blocks, the v ones through a scratch buffer of slots (coll_slots_open/close), and the
 *     whole algorithm in one of those schedules (coll_allgather_schedule);
 *   - alltoall(v/w): the post-all, ring and pairwise schedules (coll_alltoall_blocks);
 *   - gatherv/scatterv binomial: a subtree's bytes (coll_subtree_bytes);
 *   - barrier: zero-byte tokens, the binomial fan-in/fan-out, and a whole barrier of two
 *     waves in a linear, binomial or ring shape (coll_token_*);
 *   - local reordering of blocks (coll_blocks_permute, Bruck alltoall's rotations), and the
 *     node-aware gather/scatter's steps between node and rank order (coll_node_*).
 *
 * Standard MPI calls and libc only, so that it compiles against a real MPI too.
 *
 * Invariant every helper keeps: a block of no bytes (count 0 or a type of size 0) is neither
 * sent nor received, and both ends of a message decide that alike because the standard makes
 * the sender's and the receiver's type signatures equal. Each helper issues the MPI calls in
 * the order its comment gives; the algorithms that call it rely on that order (the identity
 * sweep and the golden files check it: same peers, tags, counts and order as when each
 * algorithm spelled them out).
 */
#ifndef COLLSIM_COLL_BLOCKS_H
#define COLLSIM_COLL_BLOCKS_H

#include "mpi.h"

struct coll_node_layout;
struct coll_params;

/*
 * A buffer seen as blocks indexed by rank. Uniform (counts == NULL): block i is `count` items
 * of `type` at item i·count. V (counts != NULL, types == NULL): block i is counts[i] items of
 * `type` at item displs[i]. W (types != NULL): block i is counts[i] items of types[i] at byte
 * displs[i]. A single buffer is a uniform description whose block 0 is the buffer.
 * The base is stored without const; helpers never write through a block they send.
 */
struct coll_blocks {
    char *base;
    int count;
    MPI_Datatype type;
    const int *counts;
    const int *displs;
    const MPI_Datatype *types;
};

struct coll_blocks coll_blocks_uniform(const void *buf, int count, MPI_Datatype type);
struct coll_blocks coll_blocks_v(const void *buf, const int counts[], const int displs[],
                                 MPI_Datatype type);
struct coll_blocks coll_blocks_w(const void *buf, const int counts[], const int displs[],
                                 const MPI_Datatype types[]);

/* Address, item count and type of block i. */
void *coll_block_at(const struct coll_blocks *b, int i);
int coll_block_count(const struct coll_blocks *b, int i);
MPI_Datatype coll_block_type(const struct coll_blocks *b, int i);

/* *empty = block i holds no bytes (its count is 0, or its type has size 0). */
int coll_block_is_empty(const struct coll_blocks *b, int i, int *empty);

/*
 * Copy block i of `from` into block j of `to` (coll_copy_typed: the types may differ in
 * layout, not in signature). Nothing at all when either base is MPI_IN_PLACE: the caller's
 * block already is where it belongs. Local: no message.
 */
int coll_block_copy(const struct coll_blocks *from, int i, const struct coll_blocks *to, int j);

/* MPI_Comm_rank, then MPI_Comm_size: the opening of every algorithm. */
int coll_rank_size(MPI_Comm comm, int *rank, int *size);

/*
 * Allgather(v)'s opening: rank and size, then the caller's `own` block (block 0 of `own`)
 * copied into block `rank` of `recv`, unless own is MPI_IN_PLACE. *done is set when there is
 * nothing to exchange: one rank, or uniform `recv` blocks of no bytes (v blocks are looked at
 * message by message).
 */
int coll_allgather_open(const struct coll_blocks *own, const struct coll_blocks *recv,
                        MPI_Comm comm, int *rank, int *size, int *done);

/*
 * A leaf of a linear or tree gather/scatter: block 0 of `own` sent to (to_peer) or received
 * from (!to_peer) `peer` with `tag`, unless it holds no bytes.
 */
int coll_block_message(int to_peer, const struct coll_blocks *own, int peer, int tag,
                       MPI_Comm comm);

/*
 * Linear gather (to_root) or scatter (!to_root), every rank's side. A rank other than the
 * root sends (gather) or receives (scatter) block 0 of `own` with the root, unless it is
 * empty. The root (`blocks` is read there only) posts one non-blocking receive (gather) or
 * send (scatter) per rank i != root of block i of `blocks`, in rank order, the empty ones
 * left out, and none at all when `blocks` is uniform and empty; then copies its own block
 * locally between block `root` of `blocks` and block 0 of `own` (nothing when `own` is
 * MPI_IN_PLACE); then one MPI_Waitall, which runs even after an error so that no request
 * leaks.
 */
int coll_linear_gather_scatter(int to_root, const struct coll_blocks *blocks,
                               const struct coll_blocks *own, int root, int tag, MPI_Comm comm);

/* The order in which an alltoall meets its peers (see coll_alltoall_blocks). */
enum coll_alltoall_schedule {
    COLL_ALLTOALL_POST_ALL, /* post every receive (r+1, … r+p-1), every send (r-1, … r-p+1),
                               then one MPI_Waitall */
    COLL_ALLTOALL_RING,     /* step k = 1 … p-1: MPI_Sendrecv to r+k, from r-k */
    COLL_ALLTOALL_PAIRWISE, /* the ring, but with partner r XOR k when p is a power of two */
};

/*
 * Alltoall(v/w) on blocks: block `rank` copied locally from `send` to `recv`, then the
 * other ranks' blocks exchanged in the given schedule, rank r's block i of `send` going to
 * block r of rank i's `recv`. Empty blocks are not sent; when `recv` is uniform and its
 * blocks are empty nothing is sent at all (and, for POST_ALL, nothing allocated).
 */
int coll_alltoall_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                         enum coll_alltoall_schedule schedule, int tag, MPI_Comm comm);

/*
 * Allgather(v) through a scratch buffer of slots laid out contiguously, in the type of
 * `recv`: slot j holds block (rank + j) mod p when `rotate` (Bruck), block j otherwise.
 * start[j] is where slot j begins, in items; start[p] is the total.
 */
struct coll_slots {
    int rotate;
    int *start;
    void *tmp, *mem;
};

/*
 * Open: rank and size, the slot offsets, then either *done (one rank, or no bytes at all:
 * the own block is copied into `recv` unless in place, as the algorithm would leave it) or
 * the scratch buffer with the own block in its slot (from `own`, or from `recv` when own is
 * MPI_IN_PLACE). Call coll_slots_close afterwards in every case.
 */
int coll_slots_open(const struct coll_blocks *own, const struct coll_blocks *recv, int rotate,
                    MPI_Comm comm, int *rank, int *size, struct coll_slots *s, int *done);

/*
 * Close: when rc is a success and there is a scratch buffer, every slot copied to its block
 * of `recv` (the own block left alone when own is MPI_IN_PLACE); then everything freed.
 * Returns rc, or the copy's error.
 */
int coll_slots_close(int rc, const struct coll_blocks *own, const struct coll_blocks *recv,
                     int rank, int size, struct coll_slots *s);

/*
 * Bruck's allgather on the slots (rotated): rounds of doubling and then the remainder,
 * `have` slots filled, each round one exchange (empty messages left out) of the first n
 * slots to rank - have and of n slots from rank + have into slots have … have+n-1.
 */
int coll_allgather_bruck_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                                int tag, MPI_Comm comm);

/*
 * The rounds of recursive-doubling allgather, MPICH's scheme with its fix-up for a p that is
 * not a power of two, on `buf` holding the blocks in rank order: block b at item start[b]
 * (or b·count when start is NULL) of `type`. A message of no bytes is not sent.
 */
int coll_allgather_rd_rounds(void *buf, const int start[], int count, MPI_Datatype type,
                             int rank, int size, int tag, MPI_Comm comm);

/*
 * Allgather(v) ring on the blocks of `recv` (the own block already in place): step k = 0 …
 * p-2 sends block (rank - k) mod p to rank + 1 and receives block (rank - k - 1) mod p from
 * rank - 1, in one exchange (empty messages left out).
 */
int coll_allgather_ring_blocks(const struct coll_blocks *recv, int rank, int size, int tag,
                               MPI_Comm comm);

/*
 * Allgather(v) neighbor exchange on the blocks of `recv` (the own block already in place,
 * p even): step 0 swaps the own block with the pair partner, steps 1 … p/2-1 alternate
 * between the two neighbours, forwarding the pair of blocks (2m, 2m+1) received in the step
 * before. A uniform pair is 2·count contiguous items; a v pair an indexed type of the two
 * blocks. Empty messages are left out.
 */
int coll_allgather_neighbor_exchange_blocks(const struct coll_blocks *recv, int rank, int size,
                                            int tag, MPI_Comm comm);

/* The schedules of coll_allgather_schedule. */
enum coll_allgather_schedule {
    COLL_ALLGATHER_RING,               /* coll_allgather_ring_blocks */
    COLL_ALLGATHER_NEIGHBOR_EXCHANGE,  /* coll_allgather_neighbor_exchange_blocks (p even) */
    COLL_ALLGATHER_RECURSIVE_DOUBLING, /* coll_allgather_rd_rounds */
    COLL_ALLGATHER_BRUCK,              /* coll_allgather_bruck_blocks */
};

/*
 * Allgather or allgatherv (as `recv` is uniform or v) in one schedule, the whole algorithm:
 * block 0 of the caller's send arguments is its own block (MPI_IN_PLACE: already in place in
 * `recv`). Ring and neighbor exchange open with coll_allgather_open and work in `recv`;
 * recursive doubling does too on uniform blocks (they are in rank order there) and on v
 * blocks runs in a scratch buffer of unrotated slots (coll_slots_open/close); Bruck on
 * rotated slots. Every MPI call is the schedule helper's, in its order.
 */
int coll_allgather_schedule(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            const struct coll_blocks *recv,
                            enum coll_allgather_schedule schedule, int tag, MPI_Comm comm);

/*
 * The libraries' allgather schedules that allgatherv shares, each defined in its allgather
 * file (src/coll/allgather/allgather_<name>.c, whose header gives the steps) and run on uniform
 * or v blocks alike: block 0 of `own` is the caller's block (MPI_IN_PLACE: already in place
 * in `recv`). Empty messages are left out, both ends knowing their sizes.
 */
int coll_allgather_two_proc_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                                   int tag, MPI_Comm comm);
int coll_allgather_pair_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                               int tag, MPI_Comm comm);
int coll_allgather_direct_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                                 int tag, MPI_Comm comm);
int coll_allgather_sparbit_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                                  int tag, MPI_Comm comm);
int coll_allgather_k_bruck_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                                  int radix, int tag, MPI_Comm comm);

/*
 * A rank's place in the binomial tree of a rooted collective, ranks taken relative to the
 * root: relative = (rank - root) mod p, lowbit its lowest set bit (0 at the root), subtree the
 * number of ranks [relative, relative + lowbit) cut at p, parent the rank relative - lowbit.
 * Child relative + m (m a power of two below lowbit, relative + m < p) heads
 * coll_subtree_ranks(relative + m, m, p) ranks.
 */
struct coll_binomial {
    int rank, size, relative, lowbit, subtree, parent;
};

/* MPI_Comm_rank, MPI_Comm_size, then the place of this rank in the tree rooted at `root`. */
int coll_binomial_place(MPI_Comm comm, int root, struct coll_binomial *t);

/* How many ranks the subtree of mask `mask` headed at relative rank `head` holds, cut at p. */
int coll_subtree_ranks(int head, int mask, int size);

/* MPI_Type_size, then MPI_Type_get_extent of `type` (its lower bound is not needed). */
int coll_type_size_extent(MPI_Datatype type, int *tsize, MPI_Aint *extent);

/*
 * The bytes of the subtree of `blocks` ranks headed by rank `child` (ranks child … child +
 * blocks - 1, mod size) in a binomial gatherv/scatterv whose root has the per-rank counts:
 * counts[r]·tsize each, summed. When sizes is not NULL, sizes[j] receives rank (child + j)'s
 * bytes, or -1 when they do not fit an int (the sum then does not either).
 */
long long coll_subtree_bytes(const int counts[], int tsize, int child, int blocks, int size,
                             int sizes[]);

/*
 * Binomial gather (to_root) or scatter (!to_root) of uniform blocks, every rank's side (the
 * scheme of MPICH's MPIR_Gather/Scatter_intra_binomial). `blocks` (read at the root only)
 * holds every rank's block; block 0 of `own` is this rank's (MPI_IN_PLACE at the root: it is
 * already in place). Every block has the same byte count by the type matching rule; nothing
 * moves when it is 0, and MPI_ERR_COUNT when p blocks do not fit an int of bytes.
 *
 * Gather: the root copies its own block, then receives the subtrees of masks 1, 2, 4 …; a
 * middle rank packs its own block, receives its children's subtrees nearest first as
 * MPI_PACKED after it, and sends them all to its parent; a leaf sends its block. Scatter
 * mirrors it: the root sends the subtrees farthest first, then copies its own block; a
 * middle rank receives its subtree packed, hands each child its slice farthest first, and
 * unpacks its own block; a leaf receives its block. The root moves a subtree straight from
 * or to `blocks` when its ranks are consecutive there, and packed in two pieces when they
 * wrap around rank p-1.
 */
int coll_binomial_gather_scatter(int to_root, const struct coll_blocks *blocks,
                                 const struct coll_blocks *own, int root, int tag, MPI_Comm comm);

/* A message of no bytes, a barrier's token: sent to, or received from, `peer`. */
int coll_token_send(int peer, int tag, MPI_Comm comm);
int coll_token_recv(int peer, int tag, MPI_Comm comm);

/*
 * Binomial fan-in of tokens to rank 0 of `comm` (rank, size given): a rank hears from its
 * children rank + 1, rank + 2, rank + 4 … (below its lowest set bit and below size), nearest
 * first, then reports to its parent rank - lowbit.
 */
int coll_token_fan_in(MPI_Comm comm, int rank, int size, int tag);

/* Binomial fan-out from rank 0, the reverse: a rank hears from its parent, then releases its
 * children farthest first. */
int coll_token_fan_out(MPI_Comm comm, int rank, int size, int tag);

/* The paths of a barrier's tokens (see coll_token_barrier). */
enum coll_token_shape {
    COLL_TOKEN_LINEAR,   /* in: every rank r > 0 to rank 0 (0 hears 1, 2 … p-1 in order);
                            out: rank 0 to 1, 2 … p-1 in order, each rank r > 0 from 0 */
    COLL_TOKEN_BINOMIAL, /* in: coll_token_fan_in; out: coll_token_fan_out */
    COLL_TOKEN_RING,     /* in and out alike: one trip around the ring 0 -> 1 -> … -> p-1 -> 0,
                            rank 0 sending first and hearing last */
};

/*
 * A barrier of two waves of tokens in one shape: rank and size (nothing more on one rank),
 * then the wave in with `tag_in` (every rank has arrived once rank 0 has heard it), then the
 * wave out with `tag_out`, which releases them. Stops at the first error.
 */
int coll_token_barrier(MPI_Comm comm, enum coll_token_shape shape, int tag_in, int tag_out);

/*
 * The local steps of Bruck's alltoall (radix 2 or k), on slots of `count` items of the receive
 * type whose layout `lay` gives: rotate puts into slot j the send buffer's block for rank
 * (rank + j) mod size (through coll_copy_typed when the send blocks are not the receive ones);
 * unrotate puts slot (rank - i) mod size into block i of recvbuf. Both stop at the first
 * error. Local: no message.
 */
struct coll_layout;
int coll_alltoall_bruck_rotate(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *slots, int count, const struct coll_layout *lay, int rank,
                               int size);
int coll_alltoall_bruck_unrotate(void *slots, void *recvbuf, int count,
                                 const struct coll_layout *lay, int rank, int size);

/*
 * Copy n blocks from `from` to `to`, r = 0 … n-1 in order: block from_index[r] (r when
 * from_index is NULL) into block to_index[r] (r when NULL), each with coll_copy_typed.
 * Stops at the first error. Local: no message. For reordering blocks between rank order
 * and node order.
 */
int coll_blocks_permute(const struct coll_blocks *from, const int from_index[],
                        const struct coll_blocks *to, const int to_index[], int n);

/*
 * The root of a node-aware gather (to_rank_order) or scatter (!to_rank_order): the p uniform
 * blocks copied between node order (the leaders' concatenated nodes, coll_node_positions) and
 * rank order, `from` (from_count items of from_type each) into `to`. Local: no message.
 */
int coll_node_order_copy(const struct coll_node_layout *layout, int to_rank_order,
                         const void *from, int from_count, MPI_Datatype from_type, void *to,
                         int to_count, MPI_Datatype to_type);

/*
 * The leaders' step of a node-aware gather (to_root) or scatter (!to_root): a binomial gatherv
 * or scatterv over layout->leaders of whole nodes (coll_node_blocks: node_size·count items of
 * `type` per rank of the node) between each leader's `nodebuf` and `all` at the leader of
 * node root_node, in node order.
 */
int coll_node_leaders_gather_scatter(int to_root, const struct coll_node_layout *layout,
                                     void *all, void *nodebuf, int count, MPI_Datatype type,
                                     int root_node, const struct coll_params *params);

#endif
