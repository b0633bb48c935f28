/*
 * scatterv.c — MPI_Scatterv's kind: its traits, its default decision as data, and how its
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
    return row->fn.scatterv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                            a->recvcount, a->recvtype, a->root, comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Scatterv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                        a->recvcount, a->recvtype, a->root, comm);
}

const struct coll_kind_desc coll_kind_scatterv = {
    .kind = COLL_SCATTERV, .name = "scatterv", .mpi_name = "MPI_Scatterv",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS |
              COLL_TRAIT_IN_PLACE_RECVBUF | COLL_TRAIT_VECTOR | COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_root_block,
};
