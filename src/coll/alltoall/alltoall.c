/*
 * alltoall.c — MPI_Alltoall's kind: its traits and its default decision as data; its
 * arguments reach an algorithm and the MPI function through the calls it shares with the kinds
 * of the same argument shape (coll_kinds.h). Standard MPI only.
 *
 * Default (MPICH's MPIR_Alltoall_intra_auto; n = the bytes of one block): bruck if
 * n <= 256 B and P >= 8, else linear if n <= 32 KiB, else pairwise.
 */
#include "coll/coll_kinds.h"

static const struct coll_rule rules[] = {
    {.upto_bytes = 256, .min_ranks = 8, .algorithm = "bruck"},
    {.upto_bytes = 32 * 1024, .algorithm = "linear"},
    {.algorithm = "pairwise"},
};

const struct coll_kind_desc coll_kind_alltoall = {
    .kind = COLL_ALLTOALL, .name = "alltoall", .mpi_name = "MPI_Alltoall",
    .traits = COLL_TRAIT_IN_PLACE | COLL_TRAIT_MOVES_BLOCKS | COLL_TRAIT_GATHERS |
              COLL_TRAIT_SCATTERS,
    COLL_RULES(rules),
    .invoke = coll_invoke_every_block, .call = coll_call_every_block, .resolve_in_place = coll_resolve_in_place_all_blocks,
};
