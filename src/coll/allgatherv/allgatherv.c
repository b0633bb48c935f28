/*
 * allgatherv.c — MPI_Allgatherv's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: Allgather's rules (coll_allgather_rules; MPICH's MPIR_Allgather{,v}_intra_auto;
 * T = P·n, the bytes gathered on each rank): recursive_doubling if T < 512 KiB and P is a
 * power of two, else bruck if T < 80 KiB, else ring.
 * n is the mean block here (the call's total bytes over P, rounded up), so T may
 * exceed MPICH's exact total by less than P bytes.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                              a->rdispls, a->recvtype, comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    return MPI_Allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcounts,
                          a->rdispls, a->recvtype, comm);
}

const struct coll_kind_desc coll_kind_allgatherv = {
    .kind = COLL_ALLGATHERV, .name = "allgatherv", .mpi_name = "MPI_Allgatherv",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_VECTOR |
              COLL_TRAIT_GATHERS,
    COLL_RULES(coll_allgather_rules),
    .invoke = invoke, .call = call, .resolve_in_place = coll_resolve_in_place_own_block,
};
