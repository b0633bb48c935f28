/*
 * allgather.c — MPI_Allgather's kind: its traits and its default decision as data; its
 * arguments reach an algorithm and the MPI function through the calls it shares with the kinds
 * of the same argument shape (coll_kinds.h). Standard MPI only.
 *
 * Default (MPICH's MPIR_Allgather{,v}_intra_auto; T = P·n, the bytes gathered on each
 * rank): recursive_doubling if T < 512 KiB and P is a power of two, else bruck if
 * T < 80 KiB, else ring.
 */
#include "coll/coll_kinds.h"

const struct coll_rule coll_allgather_rules[3] = {
    {.when = COLL_RULE_TOTAL | COLL_RULE_POF2,
     .below_bytes = 512 * 1024,
     .algorithm = "recursive_doubling"},
    {.when = COLL_RULE_TOTAL, .below_bytes = 80 * 1024, .algorithm = "bruck"},
    {.algorithm = "ring"},
};

const struct coll_kind_desc coll_kind_allgather = {
    .kind = COLL_ALLGATHER, .name = "allgather", .mpi_name = "MPI_Allgather",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_GATHERS,
    COLL_RULES(coll_allgather_rules),
    .invoke = coll_invoke_every_block, .call = coll_call_every_block, .resolve_in_place = coll_resolve_in_place_own_block,
};
