/*
 * gather.c — MPI_Gather's kind: its traits and its default decision as data; its
 * arguments reach an algorithm and the MPI function through the calls it shares with the kinds
 * of the same argument shape (coll_kinds.h). Standard MPI only.
 *
 * Default: binomial.
 */
#include "coll/coll_kinds.h"

static const struct coll_rule rules[] = {{.algorithm = "binomial"}};

const struct coll_kind_desc coll_kind_gather = {
    .kind = COLL_GATHER, .name = "gather", .mpi_name = "MPI_Gather",
    .traits = COLL_TRAIT_ROOTED | COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS |
              COLL_TRAIT_TO_ROOT | COLL_TRAIT_GATHERS,
    COLL_RULES(rules),
    .invoke = coll_invoke_rooted_blocks, .call = coll_call_rooted_blocks, .resolve_in_place = coll_resolve_in_place_root_block,
};
