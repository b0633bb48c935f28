/*
 * scan.c — MPI_Scan's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: recursive_doubling.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.algorithm = "recursive_doubling"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.scan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Scan(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, comm);
}

const struct coll_kind_desc coll_kind_scan = {
    .kind = COLL_SCAN, .name = "scan", .mpi_name = "MPI_Scan",
    .traits = COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE | COLL_TRAIT_PREFIX,
    COLL_RULES(rules), .reproducible = "recursive_doubling",
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_vector,
};
