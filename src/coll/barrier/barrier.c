/*
 * barrier.c — MPI_Barrier's kind: its traits, its default decision as data, and how its
 * arguments reach an algorithm and the MPI function. Standard MPI only.
 *
 * Default: dissemination (MPICH's and Open MPI's choice at every size).
 */
#include "coll/coll_kinds.h"
#include "coll/coll_registry.h"

static const struct coll_rule rules[] = {{.algorithm = "dissemination"}};

static int
invoke(const struct coll_algorithm *row, const struct coll_args *a, MPI_Comm comm,
       const struct coll_params *params)
{
    (void)a;
    return row->fn.barrier(comm, params);
}

static int
call(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    (void)kind;
    (void)a;
    return MPI_Barrier(comm);
}

const struct coll_kind_desc coll_kind_barrier = {
    .kind = COLL_BARRIER, .name = "barrier", .mpi_name = "MPI_Barrier",
    .traits = COLL_TRAIT_NO_DATA,
    COLL_RULES(rules),
    .invoke = invoke, .call = call,
};
