/*
 * Allgather: node-aware. Each node gathers its blocks at its leader (binomial inside the
 * node), the leaders exchange their nodes' blocks (an allgatherv of whole nodes), and each
 * leader broadcasts the full result inside its node.
 *
 * Origin:   MPICH's MPIR_Allgather_intra_smp_no_order (gather, inter-node allgatherv, bcast);
 *           Open MPI HAN's allgather and SMPI's smp_simple share the shape.
 * Requires: nothing. When a node's ranks are not consecutive (cyclic or random placement)
 *           the leaders gather in node order and put each block in rank order before the
 *           broadcast (a local copy). MPI_IN_PLACE: every rank's block is read from recvbuf.
 * Choices:  between nodes (T = the bytes of the whole result): recursive doubling if
 *           T < 512 KiB and the node count is a power of two, else Bruck if T < 80 KiB, else
 *           ring (the flat table's rule, applied to nodes).
 * Cost:     ⌈lg c⌉α_n + (c-1)nβ_n + T_allgatherv(N, cn) + ⌈lg c⌉(α_n + Pnβ_n).
 */
#include <limits.h>
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_node.h"
#include "coll/coll_util.h"

/* The leaders' exchange of whole nodes into `all` (P blocks in node order). */
static int
exchange_nodes(const struct coll_node_layout *layout, void *all, int recvcount,
               MPI_Datatype recvtype, const struct coll_params *params)
{
    int n = layout->nnodes;
    int *counts, *displs;
    int rc = coll_node_blocks(layout, recvcount, &counts, &displs);
    if (rc != MPI_SUCCESS)
        return rc;
    int type_size;
    MPI_Type_size(recvtype, &type_size);
    double total = (double)layout->size * recvcount * type_size;
    coll_allgatherv_fn *between = total < 512 * 1024 && (n & (n - 1)) == 0
                                      ? coll_allgatherv_recursive_doubling
                                  : total < 80 * 1024 ? coll_allgatherv_bruck
                                                      : coll_allgatherv_ring;
    rc = between(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, all, counts, displs, recvtype,
                 layout->leaders, params);
    free(counts);
    return rc;
}

int
coll_allgather_smp(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                   const struct coll_params *params)
{
    const struct coll_node_layout *layout;
    int rc = coll_node_layout_get(comm, &layout);
    if (rc != MPI_SUCCESS || recvcount == 0)
        return rc;
    if ((double)layout->size * recvcount > INT_MAX)
        return MPI_ERR_COUNT;
    int total = layout->size * recvcount;
    void *mem = NULL;
    /* node order is rank order when nodes are blocks: gather straight into recvbuf */
    void *all = recvbuf;
    if (!layout->runs && layout->node_rank == 0) {
        all = coll_tmp_alloc(total, recvtype, &mem);
        if (all == NULL)
            return MPI_ERR_NO_MEM;
    }
    void *mine = layout->node_rank == 0
                     ? coll_item(all, (MPI_Aint)layout->node_first[layout->my_node] * recvcount,
                                 recvtype)
                     : NULL;
    if (sendbuf == MPI_IN_PLACE) {
        int rank;
        MPI_Comm_rank(comm, &rank);
        const void *own = coll_citem(recvbuf, (MPI_Aint)rank * recvcount, recvtype);
        if (layout->node_rank == 0 && mine != own)
            rc = coll_copy(own, mine, recvcount, recvtype);
        /* the leader's block is where the gather expects its own; the others send theirs */
        sendbuf = layout->node_rank == 0 ? MPI_IN_PLACE : own;
        sendcount = recvcount;
        sendtype = recvtype;
    }
    if (rc == MPI_SUCCESS)
        rc = coll_gather_binomial(sendbuf, sendcount, sendtype, mine, recvcount, recvtype, 0,
                                  layout->node, params);
    if (rc == MPI_SUCCESS && layout->node_rank == 0 && layout->nnodes > 1)
        rc = exchange_nodes(layout, all, recvcount, recvtype, params);
    if (rc == MPI_SUCCESS && all != recvbuf) {
        /* node order to rank order */
        int *position = coll_node_positions(layout);
        if (position == NULL)
            rc = MPI_ERR_NO_MEM;
        for (int r = 0; position != NULL && r < layout->size && rc == MPI_SUCCESS; r++)
            rc = coll_copy(coll_citem(all, (MPI_Aint)position[r] * recvcount, recvtype),
                           coll_item(recvbuf, (MPI_Aint)r * recvcount, recvtype), recvcount,
                           recvtype);
        free(position);
    }
    free(mem);
    if (rc == MPI_SUCCESS && layout->node_size > 1)
        rc = coll_bcast_binomial(recvbuf, total, recvtype, 0, layout->node, params);
    return rc;
}
