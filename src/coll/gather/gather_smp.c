/*
 * Gather: node-aware. Each node gathers its blocks at its leader (binomial inside the node),
 * the leaders send their nodes' blocks to the leader of the root's node (a binomial gatherv
 * of whole nodes), which hands them to the root if the root is not a leader; the root puts
 * the blocks in rank order.
 *
 * Origin:   the leader-based gathers of Open MPI HAN and of MPICH's hierarchical
 *           collectives; SMPI has no smp gather.
 * Requires: nothing. Blocks travel in the senders' type (every rank's sendcount and sendtype
 *           have the root's recvcount and recvtype signature), so leaders that are not the
 *           root need no root-only argument. MPI_IN_PLACE at the root: its block is read from
 *           recvbuf, and its recvcount and recvtype stand for its send arguments.
 * Cost:     ⌈lg c⌉α_n + (c-1)nβ_n + ⌈lg N⌉α + (N-1)cnβ [+ α_n + Pnβ_n to a non-leader root].
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_node.h"
#include "coll/coll_util.h"

#define TAG_TO_ROOT 1

int
coll_gather_smp(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS)
        return rc;
    int rank;
    MPI_Comm_rank(comm, &rank);
    if (sendbuf == MPI_IN_PLACE) {
        sendcount = recvcount;
        sendtype = recvtype;
        sendbuf = coll_citem(recvbuf, (MPI_Aint)rank * recvcount, recvtype);
    }
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    int empty;
    rc = coll_block_is_empty(&own, 0, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    int root_node = layout->node_of[root];
    int root_local = coll_node_local_rank(layout, root);
    int leader = layout->node_rank == 0;
    void *mem[3] = {NULL, NULL, NULL};
    void *nodebuf = NULL, *all = NULL;
    if (leader) {
        nodebuf = coll_tmp_alloc(layout->node_size * sendcount, sendtype, &mem[0]);
        if (nodebuf == NULL)
            return MPI_ERR_NO_MEM;
    }
    rc = coll_gather_binomial(sendbuf, sendcount, sendtype, nodebuf, sendcount, sendtype, 0,
                              layout->node, params);
    if (rc != MPI_SUCCESS)
        goto out;
    if (leader) {
        all = nodebuf;
        if (layout->nnodes > 1) {
            all = NULL;
            if (root_local >= 0) {
                all = coll_tmp_alloc(layout->size * sendcount, sendtype, &mem[1]);
                if (all == NULL) {
                    rc = MPI_ERR_NO_MEM;
                    goto out;
                }
            }
            rc = coll_node_leaders_gather_scatter(1, layout, all, nodebuf, sendcount, sendtype,
                                                  root_node, params);
            if (rc != MPI_SUCCESS)
                goto out;
        }
    }
    if (root_local > 0 && leader) {
        rc = MPI_Send(all, layout->size * sendcount, sendtype, root_local, TAG_TO_ROOT,
                      layout->node);
    } else if (root_local > 0 && rank == root) {
        all = coll_tmp_alloc(layout->size * sendcount, sendtype, &mem[2]);
        rc = all == NULL ? MPI_ERR_NO_MEM
                         : MPI_Recv(all, layout->size * sendcount, sendtype, 0, TAG_TO_ROOT,
                                    layout->node, MPI_STATUS_IGNORE);
    }
    /* an in-place root's own block went out of recvbuf and comes back unchanged */
    if (rc == MPI_SUCCESS && rank == root)
        rc = coll_node_order_copy(layout, 1, all, sendcount, sendtype, recvbuf, recvcount,
                                  recvtype);
out:
    for (int i = 0; i < 3; i++)
        free(mem[i]);
    return rc;
}
