/*
 * coll_kinds.c — the table of collective kinds, indexed by enum coll_kind: one descriptor per
 * home (src/coll/<collective>/<collective>.c), and the lookups generic code uses.
 *
 * Invariant: kinds[k]->kind == k for every kind (checked by tests/coll/check_kinds.c).
 */
#include <string.h>

#include "coll_kinds.h"
#include "coll_registry.h"
#include "coll_util.h"

static const struct coll_kind_desc *const kinds[COLL_KIND_COUNT] = {
    [COLL_BARRIER] = &coll_kind_barrier,
    [COLL_BCAST] = &coll_kind_bcast,
    [COLL_GATHER] = &coll_kind_gather,
    [COLL_GATHERV] = &coll_kind_gatherv,
    [COLL_SCATTER] = &coll_kind_scatter,
    [COLL_SCATTERV] = &coll_kind_scatterv,
    [COLL_ALLGATHER] = &coll_kind_allgather,
    [COLL_ALLGATHERV] = &coll_kind_allgatherv,
    [COLL_ALLTOALL] = &coll_kind_alltoall,
    [COLL_ALLTOALLV] = &coll_kind_alltoallv,
    [COLL_ALLTOALLW] = &coll_kind_alltoallw,
    [COLL_REDUCE] = &coll_kind_reduce,
    [COLL_ALLREDUCE] = &coll_kind_allreduce,
    [COLL_REDUCE_SCATTER] = &coll_kind_reduce_scatter,
    [COLL_REDUCE_SCATTER_BLOCK] = &coll_kind_reduce_scatter_block,
    [COLL_SCAN] = &coll_kind_scan,
    [COLL_EXSCAN] = &coll_kind_exscan,
};

const struct coll_kind_desc *
coll_kind_info(enum coll_kind kind)
{
    return kinds[kind];
}

const char *
coll_kind_name(enum coll_kind kind)
{
    return kind < COLL_KIND_COUNT ? kinds[kind]->name : "?";
}

const char *
coll_kind_mpi_name(enum coll_kind kind)
{
    return kind < COLL_KIND_COUNT ? kinds[kind]->mpi_name : "?";
}

int
coll_kind_from_name(const char *name, enum coll_kind *kind)
{
    for (int k = 0; k < COLL_KIND_COUNT; k++) {
        if (strcmp(name, kinds[k]->name) == 0) {
            *kind = (enum coll_kind)k;
            return 1;
        }
    }
    return 0;
}

int
coll_kind_has(enum coll_kind kind, unsigned traits)
{
    return kind < COLL_KIND_COUNT && (kinds[kind]->traits & traits) == traits;
}

int
coll_kind_reduces(enum coll_kind kind)
{
    return coll_kind_has(kind, COLL_TRAIT_REDUCES);
}

int
coll_kind_fold_span(enum coll_kind kind, int rank, int root, int size, int *first, int *last)
{
    unsigned traits = kinds[kind]->traits;
    *first = 0;
    *last = size - 1;
    if (traits & COLL_TRAIT_PREFIX)
        *last = (traits & COLL_TRAIT_EXCLUSIVE) ? rank - 1 : rank;
    if (traits & COLL_TRAIT_TO_ROOT)
        return rank == root;
    return *last >= *first;
}

int
coll_kind_blocks_received(enum coll_kind kind, int rank, int root, int size)
{
    unsigned traits = kinds[kind]->traits;
    if ((traits & COLL_TRAIT_NO_DATA) || ((traits & COLL_TRAIT_TO_ROOT) && rank != root))
        return 0;
    return (traits & COLL_TRAIT_GATHERS) ? size : 1;
}

void
coll_kind_block_source(enum coll_kind kind, int rank, int block, int root, int *from,
                       int *from_block)
{
    unsigned traits = kinds[kind]->traits;
    *from = (traits & COLL_TRAIT_GATHERS) ? block : root;
    *from_block = (traits & COLL_TRAIT_SCATTERS) ? rank : 0;
}

/* The in-place resolvers read the argument record as the MPI entry built it: the v and w forms
 * set their count and type arrays, the others leave them NULL. */

int
coll_reduction_input_items(const struct coll_args *args, MPI_Comm comm)
{
    int count = args->count, size;
    if (args->recvcounts != NULL || args->recvcount > 0) {
        /* Reduce_scatter's vector is every rank's block, Reduce_scatter_block's size of them */
        MPI_Comm_size(comm, &size);
        count = 0;
        for (int i = 0; i < size; i++)
            count += args->recvcounts != NULL ? args->recvcounts[i] : args->recvcount;
    }
    return count;
}

int
coll_resolve_in_place_vector(struct coll_args *args, MPI_Comm comm, void **mem)
{
    if (args->sendbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return coll_in_place_copy(args->recvbuf, coll_reduction_input_items(args, comm),
                              args->datatype, &args->sendbuf, mem);
}

int
coll_resolve_in_place_root_block(struct coll_args *a, MPI_Comm comm, void **mem)
{
    int me, root = a->root;
    (void)mem;
    if (a->sendbuf != MPI_IN_PLACE && a->recvbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    MPI_Comm_rank(comm, &me);
    if (me != root)
        return MPI_SUCCESS;
    if (a->sendbuf == MPI_IN_PLACE) {
        /* Gather(v): the root's block is sent from where it already is */
        int v = a->recvcounts != NULL;
        a->sendbuf = coll_item(a->recvbuf, v ? a->rdispls[root] : (MPI_Aint)root * a->recvcount,
                               a->recvtype);
        a->sendcount = v ? a->recvcounts[root] : a->recvcount;
        a->sendtype = a->recvtype;
    } else {
        /* Scatter(v): the root's block is received onto itself */
        int v = a->sendcounts != NULL;
        a->recvbuf = coll_item((void *)a->sendbuf,
                               v ? a->sdispls[root] : (MPI_Aint)root * a->sendcount, a->sendtype);
        a->recvcount = v ? a->sendcounts[root] : a->sendcount;
        a->recvtype = a->sendtype;
    }
    return MPI_SUCCESS;
}

int
coll_resolve_in_place_own_block(struct coll_args *a, MPI_Comm comm, void **mem)
{
    int me;
    if (a->sendbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    MPI_Comm_rank(comm, &me);
    int v = a->recvcounts != NULL;
    int count = v ? a->recvcounts[me] : a->recvcount;
    MPI_Aint at = v ? a->rdispls[me] : (MPI_Aint)me * a->recvcount;
    int rc = coll_in_place_copy(coll_item(a->recvbuf, at, a->recvtype), count, a->recvtype,
                                &a->sendbuf, mem);
    a->sendcount = count;
    a->sendtype = a->recvtype;
    return rc;
}

int
coll_resolve_in_place_all_blocks(struct coll_args *a, MPI_Comm comm, void **mem)
{
    if (a->sendbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    int size, rc;
    MPI_Comm_size(comm, &size);
    if (a->recvcounts == NULL) {
        rc = coll_in_place_copy(a->recvbuf, a->recvcount * size, a->recvtype, &a->sendbuf, mem);
        a->sendcount = a->recvcount;
        a->sendtype = a->recvtype;
        return rc;
    }
    /* Alltoallv displaces by the receive type's extent, Alltoallw in bytes */
    MPI_Aint lb, unit = 1;
    if (a->recvtypes == NULL)
        MPI_Type_get_extent(a->recvtype, &lb, &unit);
    rc = coll_in_place_copy_blocks(a->recvbuf, size, a->recvcounts, a->rdispls, unit, a->recvtypes,
                                   a->recvtypes == NULL ? a->recvtype : MPI_DATATYPE_NULL,
                                   &a->sendbuf, mem);
    a->sendcounts = a->recvcounts;
    a->sdispls = a->rdispls;
    a->sendtype = a->recvtype;
    a->sendtypes = a->recvtypes;
    return rc;
}

int
coll_kind_call(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm)
{
    return coll_kind_info(kind)->call(kind, args, comm);
}

/* ---------------------------------------------------------------- calls of shared shape */

int
coll_invoke_rooted_blocks(const struct coll_algorithm *row, const struct coll_args *a,
                          MPI_Comm comm, const struct coll_params *params)
{
    coll_gather_fn *fn = row->kind == COLL_GATHER ? row->fn.gather : row->fn.scatter;
    return fn(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,
              a->root, comm, params);
}

int
coll_call_rooted_blocks(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    int (*fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm) =
        kind == COLL_GATHER ? MPI_Gather : MPI_Scatter;
    return fn(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,
              a->root, comm);
}

int
coll_invoke_every_block(const struct coll_algorithm *row, const struct coll_args *a,
                        MPI_Comm comm, const struct coll_params *params)
{
    coll_allgather_fn *fn = row->kind == COLL_ALLGATHER ? row->fn.allgather : row->fn.alltoall;
    return fn(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, comm,
              params);
}

int
coll_call_every_block(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    int (*fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm) =
        kind == COLL_ALLGATHER ? MPI_Allgather : MPI_Alltoall;
    return fn(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype, comm);
}

int
coll_invoke_everyone_reduces(const struct coll_algorithm *row, const struct coll_args *a,
                             MPI_Comm comm, const struct coll_params *params)
{
    coll_allreduce_fn *fn = row->kind == COLL_ALLREDUCE ? row->fn.allreduce
                            : row->kind == COLL_SCAN    ? row->fn.scan
                                                        : row->fn.exscan;
    return fn(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm, params);
}

int
coll_call_everyone_reduces(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    int (*fn)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm) =
        kind == COLL_ALLREDUCE ? MPI_Allreduce : kind == COLL_SCAN ? MPI_Scan : MPI_Exscan;
    return fn(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm);
}
