/*
 * Allreduce: node-aware. Each node reduces to its leader (binomial inside the node), the
 * leaders allreduce among themselves, and each leader broadcasts the result in its node.
 *
 * Origin:   MPICH's MPIR_Allreduce_intra_smp; Open MPI HAN's allreduce and SMPI's
 *           smp_binomial / smp_rdb allreduces share the shape.
 * Requires: nothing for a commutative op; a non-commutative op needs every node's ranks
 *           consecutive (COLL_REQ_NODE_BLOCKS, checked by the dispatcher).
 * Choices:  between nodes, Rabenseifner when the vector exceeds 2 KiB and has at least one
 *           item per node, else recursive doubling (the flat table's rule, applied to nodes);
 *           inside a node, binomial reduce and bcast (one memory bus: the
 *           bandwidth-optimal algorithms' extra bytes cost more there than they save).
 * Cost:     small: ⌈lg c⌉(α_n + nβ_n + nγ) + T_allreduce(N, n) + ⌈lg c⌉(α_n + nβ_n).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_node.h"
#include "coll/coll_util.h"

int
coll_allreduce_smp(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                   MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    /* MPI_IN_PLACE: my contribution is in recvbuf; a leader folds into recvbuf, so it reads
     * its own from a copy */
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && layout->node_rank == 0 && layout->node_size > 1) {
        void *copy = coll_tmp_alloc(count, datatype, &mem);
        if (copy == NULL)
            return MPI_ERR_NO_MEM;
        rc = coll_copy(recvbuf, copy, count, datatype);
        sendbuf = copy;
    } else if (sendbuf == MPI_IN_PLACE) {
        sendbuf = recvbuf; /* a non-leader only sends from it; a lone leader has it already */
    }
    /* leaders fold their node into recvbuf (the others' recvbuf is not touched) */
    if (rc == MPI_SUCCESS && !(layout->node_size == 1 && sendbuf == recvbuf))
        rc = coll_reduce_binomial(sendbuf, recvbuf, count, datatype, op, 0, layout->node,
                                  params);
    free(mem);
    if (rc != MPI_SUCCESS)
        return rc;
    if (layout->leaders != MPI_COMM_NULL && layout->nnodes > 1) {
        int type_size;
        MPI_Type_size(datatype, &type_size);
        double bytes = (double)count * type_size;
        coll_allreduce_fn *between = bytes > 2048 && count >= layout->nnodes
                                         ? coll_allreduce_rabenseifner
                                         : coll_allreduce_recursive_doubling;
        rc = between(MPI_IN_PLACE, recvbuf, count, datatype, op, layout->leaders, params);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (layout->node_size > 1)
        rc = coll_bcast_binomial(recvbuf, count, datatype, 0, layout->node, params);
    return rc;
}
