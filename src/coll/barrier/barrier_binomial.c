/*
 * Barrier: binomial tree (fan-in to rank 0, then fan-out from it).
 *
 * Origin:   the tree barrier of Open MPI's coll/base (ompi_coll_base_barrier_intra_tree goes
 *           up and back down a tree) and of SMPI; here the binomial tree of MPICH's binomial
 *           broadcast and reduce, rooted at rank 0.
 * Requires: nothing (any number of ranks).
 * Cost:     2⌈lg p⌉α (rank 0 receives ⌈lg p⌉ empty messages, then sends as many).
 * Steps:    the children of rank r are r + 2^i for 2^i below r's lowest set bit (every 2^i < p
 *           for r = 0). Up: r receives from its children, nearest first (r+1, r+2, r+4 ...),
 *           then tells its parent r - lowbit(r). Down: r waits for its parent's release, then
 *           releases its children, farthest first. For p = 8:
 *
 *     up:    1->0  3->2  5->4  7->6;   2->0  6->4;   4->0
 *     down:  0->4;   0->2  4->6;   0->1  2->3  4->5  6->7
 *
 * No rank leaves before every rank has arrived: rank 0 hears (directly or not) from all, and
 * every release descends from rank 0's.
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_BARRIER_UP = 1, TAG_BARRIER_DOWN = 2 };

int
coll_barrier_binomial(MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    /* fan-in: hear from every child (nearest first), then tell the parent; fan-out: wait for
       the parent, then release the children, farthest first */
    return coll_token_barrier(comm, COLL_TOKEN_BINOMIAL, TAG_BARRIER_UP, TAG_BARRIER_DOWN);
}
