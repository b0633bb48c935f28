/*
 * alltoallv.c — MPI_Alltoallv's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: linear.
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"
#include "coll/coll_util.h"

static const struct coll_rule rules[] = {
    {.algorithm = "linear"},
};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    return row->fn.alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                             a->recvcounts, a->rdispls, a->recvtype, comm, params);
}

static int
call(const struct coll_args *a, MPI_Comm comm)
{
    return MPI_Alltoallv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                         a->recvcounts, a->rdispls, a->recvtype, comm);
}

/* MPI_IN_PLACE for an algorithm that does not take it: a copy of the receive buffer's blocks. */
static int
resolve_in_place(struct coll_args *a, MPI_Comm comm, void **mem)
{
    if (a->sendbuf != MPI_IN_PLACE)
        return MPI_SUCCESS;
    int size;
    MPI_Aint lb, extent;
    MPI_Comm_size(comm, &size);
    MPI_Type_get_extent(a->recvtype, &lb, &extent);
    int rc = coll_in_place_copy_blocks(a->recvbuf, size, a->recvcounts, a->rdispls, extent, NULL,
                                       a->recvtype, &a->sendbuf, mem);
    a->sendcounts = a->recvcounts;
    a->sdispls = a->rdispls;
    a->sendtype = a->recvtype;
    return rc;
}

const struct coll_kind_desc coll_kind_alltoallv = {
    .kind = COLL_ALLTOALLV, .name = "alltoallv", .mpi_name = "MPI_Alltoallv",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_VECTOR |
              COLL_TRAIT_GATHERS | COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = invoke, .call = call, .resolve_in_place = resolve_in_place,
};
