/*
 * gather.c — MPI_Gather's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: binomial.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.algorithm = "binomial"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.gather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                          a->recvtype, a->root, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Gather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,
                      a->root, comm);
}

const struct coll_kind_desc coll_kind_gather = {
    .kind = COLL_GATHER, .name = "gather", .mpi_name = "MPI_Gather",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS |
              COLL_TRAIT_TO_ROOT | COLL_TRAIT_GATHERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_root_block,
};
