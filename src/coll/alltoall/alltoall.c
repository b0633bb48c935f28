/*
 * alltoall.c — MPI_Alltoall's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default (MPICH's MPIR_Alltoall_intra_auto; n = the bytes of one block): bruck if
 * n <= 256 B and P >= 8, else linear if n <= 32 KiB, else pairwise.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {
    {.upto_bytes = 256, .min_ranks = 8, .algorithm = "bruck"},
    {.upto_bytes = 32 * 1024, .algorithm = "linear"},
    {.algorithm = "pairwise"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.alltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                            a->recvtype, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Alltoall(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                        a->recvtype, comm);
}

const struct coll_kind_desc coll_kind_alltoall = {
    .kind = COLL_ALLTOALL, .name = "alltoall", .mpi_name = "MPI_Alltoall",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_GATHERS |
              COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_all_blocks,
};
