/*
 * coll_kinds.c — the table of collective kinds, indexed by enum coll_kind: one descriptor per
 * home (src/coll/<collective>/<collective>.c), and the lookups generic code uses.
 *
 * Invariant: kinds[k]->kind == k for every kind (checked by tests/coll/check_kinds.c).
 */
#include <string.h>

#include "coll_kinds.h"
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

int
coll_resolve_in_place_vector(struct coll_args *args, MPI_Comm comm, void **mem)
{
    (void)comm;
    if (args->sendbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    return coll_in_place_copy(args->recvbuf, args->count, args->datatype, &args->sendbuf, mem);
}
