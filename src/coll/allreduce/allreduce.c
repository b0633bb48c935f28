/*
 * allreduce.c — MPI_Allreduce's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: rabenseifner if n > 2 KiB and count >= P, else recursive_doubling (both keep
 * rank order for a non-commutative op).
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.when = COLL_RULE_COUNT_GE_SIZE, .over_bytes = 2048, .algorithm = "rabenseifner"},
    {.algorithm = "recursive_doubling"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.allreduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Allreduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm);
}

const struct coll_kind_desc coll_kind_allreduce = {
    .kind = COLL_ALLREDUCE, .name = "allreduce", .mpi_name = "MPI_Allreduce",
    .traits = COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE,
    COLL_RULES(rules), .reproducible = "recursive_doubling",
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_vector,
};
