/*
 * reduce.c — MPI_Reduce's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: rabenseifner if n > 2 KiB and count >= P, else binomial (both keep rank order
 * for a non-commutative op).
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.when = COLL_RULE_COUNT_GE_SIZE, .over_bytes = 2048, .algorithm = "rabenseifner"},
    {.algorithm = "binomial"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.reduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, comm,
                          params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Reduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root, comm);
}

const struct coll_kind_desc coll_kind_reduce = {
    .kind = COLL_REDUCE, .name = "reduce", .mpi_name = "MPI_Reduce",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE | COLL_TRAIT_TO_ROOT,
    COLL_RULES(rules), .reproducible = "in_order_binary",
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_vector,
};
