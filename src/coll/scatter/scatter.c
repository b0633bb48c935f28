/*
 * scatter.c — MPI_Scatter's kind: its traits, its default decision as data, and how its
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
    return row->fn.scatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                           a->recvtype, a->root, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Scatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount, a->recvtype,
                       a->root, comm);
}

const struct coll_kind_desc coll_kind_scatter = {
    .kind = COLL_SCATTER, .name = "scatter", .mpi_name = "MPI_Scatter",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS |
              COLL_TRAIT_IN_PLACE_RECVBUF | COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_root_block,
};
