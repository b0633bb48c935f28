/*
 * allreduce.c — MPI_Allreduce's kind: its traits and its default decision as data; its
 * arguments reach an algorithm and the MPI function through the calls it shares with the kinds
 * of the same argument shape (coll_kinds.h). Standard MPI only.
 *
 * Default: rabenseifner if n > 2 KiB and count >= P, else recursive_doubling (both keep
 * rank order for a non-commutative op).
 */
#include "coll/coll_kinds.h"

static const struct coll_rule rules[] = {
    {.when = COLL_RULE_COUNT_GE_SIZE, .over_bytes = 2048, .algorithm = "rabenseifner"},
    {.algorithm = "recursive_doubling"},
};

const struct coll_kind_desc coll_kind_allreduce = {
    .kind = COLL_ALLREDUCE, .name = "allreduce", .mpi_name = "MPI_Allreduce",
    .traits = COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE,
    COLL_RULES(rules), .reproducible = "recursive_doubling",
    .invoke = coll_invoke_everyone_reduces, .call = coll_call_everyone_reduces, .resolve_in_place = coll_resolve_in_place_vector,
};
