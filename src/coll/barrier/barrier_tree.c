/*
 * Barrier: tree (empty messages up a binomial tree to rank 0, then down it).
 *
 * Origin:   Open MPI's ompi_coll_base_barrier_intra_tree (coll_tuned barrier algorithm 6,
 *           "tree"; SMPI's ompi_tree). Open MPI walks the tree with partner = rank xor 2^j
 *           and keeps a partner only when it has no bit below 2^j set; the messages are those
 *           of the registry's binomial barrier (children nearest first going up, farthest
 *           first going down). This row exists so that a library's decision can name it.
 * Requires: nothing (any number of ranks).
 * Cost:     2⌈lg p⌉α.
 * Steps (p = 6; Q is the next power of two, 8):
 *
 *   up,   j = 1, 2, 4:    1->0  3->2  5->4 |  2->0 |  4->0
 *   down, j = 4, 2, 1:    0->4 |  0->2 |  0->1  2->3  4->5
 *
 * Going up, rank r receives from every partner r xor 2^j above it and sends to the one
 * below it (its parent), then stops; going down it mirrors that.
 */
#include "mpi.h"
#include "coll/coll.h"

enum { TAG_TREE_UP = 6, TAG_TREE_DOWN = 7 };

int
coll_barrier_tree(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, depth = 1;

    (void)params;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS || size < 2)
        return rc;
    while (depth < size)
        depth <<= 1;

    for (int jump = 1; jump < depth && rc == MPI_SUCCESS; jump <<= 1) {
        int partner = rank ^ jump;
        /* a partner with a bit below `jump` set is in another subtree this round */
        if ((partner & (jump - 1)) != 0 || partner >= size)
            continue;
        if (partner > rank)
            rc = MPI_Recv(NULL, 0, MPI_BYTE, partner, TAG_TREE_UP, comm, MPI_STATUS_IGNORE);
        else
            rc = MPI_Send(NULL, 0, MPI_BYTE, partner, TAG_TREE_UP, comm);
    }
    for (int jump = depth >> 1; jump > 0 && rc == MPI_SUCCESS; jump >>= 1) {
        int partner = rank ^ jump;
        if ((partner & (jump - 1)) != 0 || partner >= size)
            continue;
        if (partner > rank)
            rc = MPI_Send(NULL, 0, MPI_BYTE, partner, TAG_TREE_DOWN, comm);
        else
            rc = MPI_Recv(NULL, 0, MPI_BYTE, partner, TAG_TREE_DOWN, comm, MPI_STATUS_IGNORE);
    }
    return rc;
}
