/*
 * Bcast: node-aware. If the root is not its node's leader it first hands the data to it;
 * the leaders broadcast among themselves; every leader broadcasts inside its node.
 *
 * Origin:   MPICH's MPIR_Bcast_intra_smp (root to its leader, inter-node bcast, intra-node
 *           bcast: the root receives its data once more, as in MPICH); Open MPI HAN and SMPI's
 *           smp bcasts share the shape.
 * Requires: nothing. The node layout is learnt in the first call on a communicator.
 * Choices:  between nodes, binomial below 12 KiB or for fewer than 8 nodes, else a binomial
 *           scatter then ring allgather (MPICH's thresholds). Inside a node, binomial: its
 *           ranks share one memory bus, and van de Geijn's algorithm moves twice the bytes
 *           through it (measured: slower at 8 and 64 cores per node).
 * Cost:     [root not leader: α_n + nβ_n] + ⌈lg N⌉(α + nβ) + ⌈lg c⌉(α_n + nβ_n) for N nodes
 *           of c ranks, α_n and β_n inside a node (small messages).
 */
#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_node.h"

#define TAG_TO_LEADER 1

int
coll_bcast_smp(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS || count == 0 || layout->size == 1)
        return rc;
    int root_local = coll_node_local_rank(layout, root);
    if (root_local > 0 && layout->node_rank == root_local)
        rc = MPI_Send(buffer, count, datatype, 0, TAG_TO_LEADER, layout->node);
    else if (root_local > 0 && layout->node_rank == 0)
        rc = MPI_Recv(buffer, count, datatype, root_local, TAG_TO_LEADER, layout->node,
                      MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    if (layout->leaders != MPI_COMM_NULL && layout->nnodes > 1) {
        coll_bcast_fn *between = coll_node_bcast_choice(count, datatype, layout->nnodes);
        rc = between(buffer, count, datatype, layout->node_of[root], layout->leaders, params);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (layout->node_size > 1)
        rc = coll_bcast_binomial(buffer, count, datatype, 0, layout->node, params);
    return rc;
}
