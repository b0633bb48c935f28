/*
 * Allreduce: allgather every rank's vector, then every rank folds the P vectors locally.
 *
 * Origin:   Open MPI 5 coll/base ompi_coll_base_allreduce_intra_allgather_reduce (meant for
 *           small messages: one allgather's latency instead of a reduce's and a bcast's).
 *           Open MPI folds block t onto block 0 for t = 1 … P-1 (x_{P-1} ∘ … ∘ x_1 ∘ x_0,
 *           commutative ops only); this one folds from the highest rank down,
 *           acc = x_i ∘ acc, which is the rank order for any op. The allgather is collsim's
 *           recursive doubling (MPICH's scheme), as Open MPI's small-message choice.
 * Requires: nothing. Order-preserving (x_0 ∘ (x_1 ∘ (… ∘ x_{P-1}))), and every rank folds
 *           the same operands in the same order, so all results are bitwise identical.
 *           Handles MPI_IN_PLACE (the own vector is taken from recvbuf).
 * Cost:     the allgather, ⌈lg P⌉α + (P-1)nβ (P a power of two), then (P-1)nγ on every rank;
 *           memory P·n per rank.
 * Steps (P = 4): allgather -> every rank holds x0 x1 x2 x3; acc = x3; acc = x2 ∘ acc;
 *           acc = x1 ∘ acc; recvbuf = x0 ∘ acc.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"

int
coll_allreduce_allgather_reduce(const void *sendbuf, void *recvbuf, int count,
                                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                const struct coll_params *params)
{
    int rank, size, rc = MPI_Comm_size(comm, &size);
    void *all_mem = NULL;

    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : coll_copy(sendbuf, recvbuf, count, datatype);
    if ((long long)count * size > 0x7fffffff)
        return MPI_ERR_COUNT;

    void *all = coll_tmp_alloc(count * size, datatype, &all_mem);
    if (all == NULL)
        return MPI_ERR_NO_MEM;
    /* the own vector in its slot, so that the allgather runs in place */
    rc = coll_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf,
                   coll_item(all, (MPI_Aint)rank * count, datatype), count, datatype);
    if (rc != MPI_SUCCESS)
        goto out_free;
    rc = coll_allgather_recursive_doubling(MPI_IN_PLACE, count, datatype, all, count, datatype,
                                           comm, params);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* acc = x_{P-1} in recvbuf, then acc = x_i ∘ acc downwards: rank order for any op */
    rc = coll_copy(coll_item(all, (MPI_Aint)(size - 1) * count, datatype), recvbuf, count,
                   datatype);
    for (int i = size - 2; i >= 0 && rc == MPI_SUCCESS; i--)
        rc = MPI_Reduce_local(coll_item(all, (MPI_Aint)i * count, datatype), recvbuf, count,
                              datatype, op);

out_free:
    free(all_mem);
    return rc;
}
