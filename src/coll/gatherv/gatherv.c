/*
 * gatherv.c — MPI_Gatherv's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: linear.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {{.algorithm = "linear"}};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                           a->rdispls, a->recvtype, a->root, comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts, a->rdispls,
                       a->recvtype, a->root, comm);
}

const struct coll_kind_desc coll_kind_gatherv = {
    .kind = COLL_GATHERV, .name = "gatherv", .mpi_name = "MPI_Gatherv",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS |
              COLL_TRAIT_VECTOR | COLL_TRAIT_TO_ROOT | COLL_TRAIT_GATHERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_root_block,
};
