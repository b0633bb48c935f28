/*
 * Bcast: k-ary tree (relative rank v receives the whole buffer from (v-1)/k, then sends it
 * to v·k+1 … v·k+k), not pipelined.
 *
 * Origin:   MPICH's MPIR_Bcast_intra_tree with MPIR_CVAR_BCAST_TREE_TYPE = kary (branching
 *           factor MPIR_CVAR_BCAST_TREE_KVAL, default 2), in its blocking form
 *           (MPIR_CVAR_BCAST_IS_NON_BLOCKING = 0: one MPI_Send per child, in order).
 * Requires: nothing (any root, any count, any datatype).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4, the
 *           registry's k-ary default; MPICH's is 2).
 * Cost:     depth D = the levels below the root (⌈log_k((k-1)p + 1)⌉ - 1); a node sends to its
 *           children one after the other: at most D·k(α + nβ).
 * Steps (p = 7, k = 2, relative ranks):
 *
 *                 0              t1: 0->1        t2: 0->2, 1->3
 *             1       2          t3: 1->4, 2->5  t4: 2->6
 *           3   4   5   6
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_tree.h"

enum { TAG_BCAST_KARY = 1 };

int
coll_bcast_kary(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
                const struct coll_params *params)
{
    int rc, size, rank, relative, parent = -1, nchildren = 0, *children;
    long long k = params != NULL && params->radix >= 2 ? params->radix : 4;
    struct coll_segments whole;

    rc = coll_tree_ranks(comm, root, &rank, &size, &relative);
    if (rc != MPI_SUCCESS || size == 1 || count == 0)
        return rc;

    if (k > size - 1)
        k = size - 1 >= 2 ? size - 1 : 2;
    children = malloc(sizeof *children * (size_t)k);
    if (children == NULL)
        return MPI_ERR_NO_MEM;
    if (relative > 0)
        parent = (int)(((relative - 1) / k + root) % size);
    for (long long c = relative * k + 1; c <= relative * k + k && c < size; c++)
        children[nchildren++] = (int)((c + root) % size);
    /* one segment: the whole buffer */
    coll_segments_init(&whole, buffer, count, datatype, NULL);
    rc = coll_tree_forward_segments(&whole, parent, children, nchildren, TAG_BCAST_KARY, comm);
    free(children);
    return rc;
}
