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
    int items;   /* per segment: whole items, at least one, at most count */
    int nsegs;
};

/* Segments of params->segment_bytes / type size items (the whole buffer, one segment, when
 * params sets no segment size). */
void coll_segments_init(struct coll_segments *sg, void *buffer, int count,
                        MPI_Datatype datatype, const struct coll_params *params);
void *coll_segment_ptr(const struct coll_segments *sg, int s);
int coll_segment_len(const struct coll_segments *sg, int s);

/*
 * The inner loop of a pipelined broadcast: receive the segments one after the other from
 * `parent` (none when parent < 0: this rank holds them) with one receive posted ahead, and
 * send each, as soon as it is in, to children[0], children[1], ... with blocking sends.
 */
int coll_tree_forward_segments(const struct coll_segments *sg, int parent, const int children[],
                               int nchildren, int tag, MPI_Comm comm);

#endif
