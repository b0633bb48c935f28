/*
 * Barrier: node-aware. Every node's ranks report to their leader (binomial fan-in inside the
 * node), the leaders run a dissemination barrier among themselves, and each leader releases
 * its node (binomial fan-out).
 *
 * Origin:   MPICH's MPIR_Barrier_intra_smp (local barrier, leaders' barrier, local release),
 *           Open MPI HAN's barrier and SMPI's smp barriers share the shape.
 * Requires: nothing. The node layout is learnt in the first call on a communicator
 *           (coll_node.h) and cached.
 * Cost:     2⌈lg c⌉ intra-node hops + ⌈lg N⌉(α) between N nodes of c ranks, zero-byte.
 * Steps (2 nodes of 4 ranks, leaders 0 and 4):
 *
 *     fan-in:   1->0 3->2, 2->0     5->4 7->6, 6->4
 *     leaders:  0 <-> 4 (dissemination)
 *     fan-out:  0->2, 0->1 2->3     4->6, 4->5 6->7
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_node.h"

enum { TAG_FAN_IN = 1, TAG_FAN_OUT = 2 };

int
coll_barrier_smp(MPI_Comm comm, const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_token_fan_in(layout->node, layout->node_rank, layout->node_size, TAG_FAN_IN);
    if (rc == MPI_SUCCESS && layout->leaders != MPI_COMM_NULL && layout->nnodes > 1)
        rc = coll_barrier_dissemination(layout->leaders, params);
    if (rc == MPI_SUCCESS)
        rc = coll_token_fan_out(layout->node, layout->node_rank, layout->node_size, TAG_FAN_OUT);
    return rc;
}
