/*
 * reduce_scatter.c — MPI_Reduce_scatter's kind: its traits, its default decision as data, and how
 * its arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: recursive_doubling for a non-commutative op; for a commutative one
 * recursive_halving if n <= 512 KiB, else pairwise (n: the whole vector).
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

const struct coll_rule coll_reduce_scatter_rules[3] = {
    {.when = COLL_RULE_NONCOMMUTATIVE, .algorithm = "recursive_doubling"},
    {.upto_bytes = 512 * 1024, .algorithm = "recursive_halving"},
    {.algorithm = "pairwise"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.reduce_scatter(a->sendbuf, a->recvbuf, a->recvcounts, a->datatype, a->op, comm,
                                  params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Reduce_scatter(a->sendbuf, a->recvbuf, a->recvcounts, a->datatype, a->op, comm);
}

const struct coll_kind_desc coll_kind_reduce_scatter = {
    .kind = COLL_REDUCE_SCATTER, .name = "reduce_scatter", .mpi_name = "MPI_Reduce_scatter",
    .traits = COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE | COLL_TRAIT_VECTOR,
    COLL_RULES(coll_reduce_scatter_rules), .reproducible = "recursive_doubling",
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_vector,
};
