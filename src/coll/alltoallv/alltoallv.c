/*
 * alltoallv.c — MPI_Alltoallv's kind: its traits, its default decision as data, and how its
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
    return row->fn.alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                             a->recvcounts, a->rdispls, a->recvtype, comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                         a->recvcounts, a->rdispls, a->recvtype, comm);
}

const struct coll_kind_desc coll_kind_alltoallv = {
    .kind = COLL_ALLTOALLV, .name = "alltoallv", .mpi_name = "MPI_Alltoallv",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_VECTOR |
              COLL_TRAIT_GATHERS | COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_all_blocks,
};
