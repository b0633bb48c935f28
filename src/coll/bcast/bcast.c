/*
 * bcast.c — MPI_Bcast's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default (MPICH's MPIR_Bcast_intra_auto: MPIR_CVAR_BCAST_SHORT_MSG_SIZE 12 KiB,
 * _LONG_MSG_SIZE 512 KiB, _MIN_PROCS 8): binomial for short messages or few ranks; for a
 * power-of-two P and a medium message, scatter_recursive_doubling_allgather; else
 * scatter_ring_allgather.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.below_bytes = 12 * 1024, .algorithm = "binomial"},
    {.below_ranks = 8, .algorithm = "binomial"},
    {.when = COLL_RULE_POF2,
     .below_bytes = 512 * 1024,
     .algorithm = "scatter_recursive_doubling_allgather"},
    {.algorithm = "scatter_ring_allgather"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.bcast(a->buffer, a->count, a->datatype, a->root, comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Bcast(a->buffer, a->count, a->datatype, a->root, comm);
}

const struct coll_kind_desc coll_kind_bcast = {
    .kind = COLL_BCAST, .name = "bcast", .mpi_name = "MPI_Bcast",
    .traits = COLL_TRAIT_ROOTED,
    COLL_RULES(rules),
    .invoke = invoke, .call = call,
};
