/*
 * Reduce: node-aware. Each node reduces to its leader (binomial inside the node), the
 * leaders reduce to the leader of the root's node (binomial), which hands the result to the
 * root if the root is not a leader.
 *
 * Origin:   MPICH's MPIR_Reduce_intra_smp; Open MPI HAN's reduce and SMPI's smp reduces
 *           share the shape.
 * Requires: nothing for a commutative op. A non-commutative op keeps rank order only when
 *           every node's ranks are consecutive (block placement): the dispatcher checks it
 *           (COLL_REQ_NODE_BLOCKS) and refuses otherwise, naming the reason.
 * Choices:  between nodes, binomial up to 2 KiB or with fewer items than nodes, else
 *           Rabenseifner's reduce-scatter + gather (both keep rank order). Inside a node,
 *           binomial: the node's ranks share one memory bus, which Rabenseifner's extra
 *           traffic saturates (measured: 4x slower at 64 cores per node, 1 MiB).
 * Cost:     small: ⌈lg c⌉(α_n + nβ_n + nγ) + ⌈lg N⌉(α + nβ + nγ) [+ α_n + nβ_n if the root
 *           is not a leader] for N nodes of c ranks.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_node.h"
#include "coll/coll_util.h"

#define TAG_TO_ROOT 1

int
coll_reduce_smp(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    int rank;
    MPI_Comm_rank(comm, &rank);
    int root_local = coll_node_local_rank(layout, root);
    int leader = layout->node_rank == 0;
    void *mem[2] = {NULL, NULL};
    void *partial = NULL, *result = NULL;

    /* a leader's partial result: the root's recvbuf when nothing else needs it */
    if (leader) {
        if (rank == root && layout->nnodes == 1) {
            partial = recvbuf;
        } else {
            partial = coll_tmp_alloc(count, datatype, &mem[0]);
            if (partial == NULL)
                return MPI_ERR_NO_MEM;
        }
    }
    rc = coll_reduce_binomial(sendbuf, partial, count, datatype, op, 0, layout->node, params);
    if (rc != MPI_SUCCESS)
        goto out;
    if (leader) {
        result = partial;
        if (layout->nnodes > 1) {
            if (rank == root) {
                result = recvbuf;
            } else if (root_local >= 0) {
                /* the leader of the root's node keeps the result for the root (its partial
                 * result is the reduce's input and cannot be its output) */
                result = coll_tmp_alloc(count, datatype, &mem[1]);
                if (result == NULL) {
                    rc = MPI_ERR_NO_MEM;
                    goto out;
                }
            }
            coll_reduce_fn *between = coll_node_reduce_choice(count, datatype, layout->nnodes);
            rc = between(partial, result, count, datatype, op, layout->node_of[root],
                         layout->leaders, params);
            if (rc != MPI_SUCCESS)
                goto out;
        }
    }
    /* the root's leader hands the result over */
    if (root_local > 0 && leader)
        rc = MPI_Send(result, count, datatype, root_local, TAG_TO_ROOT, layout->node);
    else if (root_local > 0 && rank == root)
        rc = MPI_Recv(recvbuf, count, datatype, 0, TAG_TO_ROOT, layout->node,
                      MPI_STATUS_IGNORE);
out:
    free(mem[0]);
    free(mem[1]);
    return rc;
}
