/*
 * scan.c — MPI_Scan's kind: its traits and its default decision as data; its
 * arguments reach an algorithm and the MPI function through the calls it shares with the kinds
 * of the same argument shape (coll_kinds.h). Standard MPI only.
 *
 * Default: recursive_doubling.
 */
#include "coll/coll_kinds.h"

static const struct coll_rule rules[] = {{.algorithm = "recursive_doubling"}};

const struct coll_kind_desc coll_kind_scan = {
    .kind = COLL_SCAN, .name = "scan", .mpi_name = "MPI_Scan",
    .traits = COLL_TRAIT_REDUCES | COLL_TRAIT_IN_PLACE | COLL_TRAIT_PREFIX,
    COLL_RULES(rules), .reproducible = "recursive_doubling",
    .invoke = coll_invoke_everyone_reduces, .call = coll_call_everyone_reduces, .resolve_in_place = coll_resolve_in_place_vector,
};
