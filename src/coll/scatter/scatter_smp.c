/*
 * Scatter: node-aware, the mirror of gather_smp. The root puts the blocks in node order (a
 * local copy) and, if it is not a leader, hands them to its node's leader; the leaders
 * scatter whole nodes (a binomial scatterv); each leader scatters inside its node.
 *
 * Origin:   the leader-based scatters of Open MPI HAN and of MPICH's hierarchical
 *           collectives; SMPI has no smp scatter.
 * Requires: nothing. Blocks travel in the receivers' type (recvcount and recvtype are
 *           significant on every rank and match the root's sendcount and sendtype). MPI_IN_PLACE
 *           at the root: its sendcount and sendtype stand for its receive arguments, and its
 *           own block, which stays in sendbuf, arrives in a scratch buffer.
 * Cost:     [α_n + Pnβ_n from a non-leader root] + ⌈lg N⌉α + (N-1)cnβ + ⌈lg c⌉α_n + (c-1)nβ_n.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_blocks.h"
#include "coll/coll_node.h"
#include "coll/coll_util.h"

#define TAG_TO_LEADER 1

int
coll_scatter_smp(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS)
        return rc;
    int rank;
    MPI_Comm_rank(comm, &rank);
    void *mem[3] = {NULL, NULL, NULL};
    if (recvbuf == MPI_IN_PLACE) {
        recvcount = sendcount;
        recvtype = sendtype;
        recvbuf = sendcount > 0 ? coll_tmp_alloc(sendcount, sendtype, &mem[2]) : NULL;
    }
    struct coll_blocks own = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int empty;
    rc = coll_block_is_empty(&own, 0, &empty);
    if (rc != MPI_SUCCESS || empty)
        return rc;
    if (recvbuf == NULL)
        return MPI_ERR_NO_MEM;
    int root_local = coll_node_local_rank(layout, root);
    int leader = layout->node_rank == 0;
    void *all = NULL, *nodebuf = NULL;
    if (rank == root || (leader && root_local > 0)) {
        all = coll_tmp_alloc(layout->size * recvcount, recvtype, &mem[0]);
        if (all == NULL)
            return MPI_ERR_NO_MEM;
    }
    if (rank == root)
        rc = coll_node_order_copy(layout, 0, sendbuf, sendcount, sendtype, all, recvcount,
                                  recvtype);
    if (rc == MPI_SUCCESS && root_local > 0 && rank == root)
        rc = MPI_Send(all, layout->size * recvcount, recvtype, 0, TAG_TO_LEADER, layout->node);
    else if (rc == MPI_SUCCESS && root_local > 0 && leader)
        rc = MPI_Recv(all, layout->size * recvcount, recvtype, root_local, TAG_TO_LEADER,
                      layout->node, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out;
    if (leader) {
        nodebuf = all;
        if (layout->nnodes > 1) {
            nodebuf = coll_tmp_alloc(layout->node_size * recvcount, recvtype, &mem[1]);
            if (nodebuf == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out;
            }
            rc = coll_node_leaders_gather_scatter(0, layout, all, nodebuf, recvcount, recvtype,
                                                  layout->node_of[root], params);
            if (rc != MPI_SUCCESS)
                goto out;
        }
    }
    rc = coll_scatter_binomial(nodebuf, recvcount, recvtype, recvbuf, recvcount, recvtype, 0,
                               layout->node, params);
out:
    for (int i = 0; i < 3; i++)
        free(mem[i]);
    return rc;
}
