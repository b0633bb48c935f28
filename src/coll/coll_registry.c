/*
 * coll_registry.c — the table of collective algorithms.
 *
 * Adding an algorithm: its file, one line in coll_algos.h, one row here, one Makefile.am line.
 * The `requires` flags must say exactly what the algorithm's header comment says; the tests
 * run each flag's violating case. Keep rows of one kind together.
 */
#include <stdio.h>
#include <string.h>

#include "coll_algos.h"
#include "coll_registry.h"

#define SEG_DEFAULT 65536
#define NO_PARAMS {0, 0}

static const struct coll_algorithm rows[] = {
    /* Barrier */
    {COLL_BARRIER, "linear", {.barrier = coll_barrier_linear}, 0, 0, NO_PARAMS,
     "flat fan-in to rank 0, then fan-out"},
    {COLL_BARRIER, "dissemination", {.barrier = coll_barrier_dissemination}, 0, 0, NO_PARAMS,
     "dissemination (Bruck): ceil(log2 P) rounds of shifted exchanges"},
    {COLL_BARRIER, "binomial", {.barrier = coll_barrier_binomial}, 0, 0, NO_PARAMS,
     "binomial fan-in to rank 0, then fan-out"},
    {COLL_BARRIER, "recursive_doubling", {.barrier = coll_barrier_recursive_doubling}, 0, 0,
     NO_PARAMS, "pairwise exchanges with rank xor 2^k; ranks beyond a power of two folded in"},
    {COLL_BARRIER, "double_ring", {.barrier = coll_barrier_double_ring}, 0, 0, NO_PARAMS,
     "an empty token twice around the ring 0 -> 1 -> ... -> P-1 -> 0"},
    {COLL_BARRIER, "smp", {.barrier = coll_barrier_smp}, 0, COLL_NODE_AWARE,
     NO_PARAMS,
     "node-aware: fan-in to each node's leader, leaders' dissemination, fan-out"},
    {COLL_BARRIER, "two_proc", {.barrier = coll_barrier_two_proc}, COLL_REQ_TWO_RANKS, 0,
     NO_PARAMS, "two ranks: one exchange of empty messages (Open MPI)"},
    {COLL_BARRIER, "tree", {.barrier = coll_barrier_tree}, 0, 0, NO_PARAMS,
     "Open MPI's tree: fan-in to rank 0 over partners rank xor 2^j, then fan-out"},
    {COLL_BARRIER, "k_dissemination", {.barrier = coll_barrier_k_dissemination}, 0, COLL_RADIX,
     {0, 4}, "dissemination with radix k: ceil(log_k P) rounds of k-1 shifted messages (MPICH)"},
    {COLL_BARRIER, "recexch", {.barrier = coll_barrier_recexch}, 0, COLL_RADIX, {0, 4},
     "recursive exchange with radix k; ranks beyond a power of k folded in (MPICH)"},

    /* Bcast */
    {COLL_BCAST, "linear", {.bcast = coll_bcast_linear}, 0, 0, NO_PARAMS,
     "root sends to every rank in turn"},
    {COLL_BCAST, "binomial", {.bcast = coll_bcast_binomial}, 0, 0, NO_PARAMS,
     "binomial tree rooted at root: ceil(log2 P) rounds"},
    {COLL_BCAST, "knomial", {.bcast = coll_bcast_knomial}, 0, COLL_RADIX, {0, 4},
     "k-nomial tree of radix k rooted at root"},
    {COLL_BCAST, "pipeline_chain", {.bcast = coll_bcast_pipeline_chain}, 0, COLL_SEGMENTED,
     {SEG_DEFAULT, 0}, "chain root -> root+1 -> ... in segments, pipelined"},
    {COLL_BCAST, "pipeline_binary", {.bcast = coll_bcast_pipeline_binary}, 0, COLL_SEGMENTED,
     {SEG_DEFAULT, 0}, "binary tree (children 2r+1, 2r+2) in segments, pipelined"},
    {COLL_BCAST, "split_binary", {.bcast = coll_bcast_split_binary}, 0, COLL_SEGMENTED,
     {SEG_DEFAULT, 0},
     "each half down one subtree of a binary tree in segments, then halves swapped in pairs"},
    {COLL_BCAST, "scatter_ring_allgather", {.bcast = coll_bcast_scatter_ring_allgather}, 0, 0,
     NO_PARAMS, "binomial scatter of P blocks, then ring allgather (van de Geijn)"},
    {COLL_BCAST, "scatter_recursive_doubling_allgather",
     {.bcast = coll_bcast_scatter_recursive_doubling_allgather}, 0, 0, NO_PARAMS,
     "binomial scatter of P blocks, then recursive-doubling allgather (van de Geijn)"},
    {COLL_BCAST, "smp", {.bcast = coll_bcast_smp}, 0, COLL_NODE_AWARE,
     NO_PARAMS,
     "node-aware: root to its node's leader, bcast among leaders, binomial in each node"},
    {COLL_BCAST, "chain", {.bcast = coll_bcast_chain}, 0, COLL_RADIX | COLL_SEGMENTED,
     {SEG_DEFAULT, 4}, "root heads radix chains of consecutive ranks, in segments (Open MPI)"},
    {COLL_BCAST, "kary", {.bcast = coll_bcast_kary}, 0, COLL_RADIX, {0, 4},
     "k-ary tree (children kr+1 ... kr+k), whole buffer per message (MPICH)"},
    {COLL_BCAST, "pipelined_tree", {.bcast = coll_bcast_pipelined_tree}, 0,
     COLL_RADIX | COLL_SEGMENTED, {SEG_DEFAULT, 4}, "k-ary tree in segments, pipelined (MPICH)"},
    {COLL_BCAST, "flattree_pipeline", {.bcast = coll_bcast_flattree_pipeline}, 0,
     COLL_SEGMENTED, {SEG_DEFAULT, 0},
     "root sends each rank all its segments in turn into pre-posted receives (SMPI)"},
    {COLL_BCAST, "segmented_binomial", {.bcast = coll_bcast_segmented_binomial}, 0,
     COLL_SEGMENTED, {SEG_DEFAULT, 0},
     "Open MPI's binomial tree (children nearest first) in segments, pipelined"},

    /* Gather / Scatter */
    {COLL_GATHER, "linear", {.gather = coll_gather_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "root receives each rank's block"},
    {COLL_GATHER, "binomial", {.gather = coll_gather_binomial}, COLL_REQ_TOTAL_FITS_INT, COLL_IN_PLACE, NO_PARAMS,
     "binomial tree: subtrees' blocks travel up packed"},
    {COLL_GATHER, "smp", {.gather = coll_gather_smp}, 0,
     COLL_IN_PLACE | COLL_NODE_AWARE | COLL_READS_DATA, NO_PARAMS,
     "node-aware: gather at each node's leader, leaders' gatherv of whole nodes to the root"},
    {COLL_GATHER, "linear_sync", {.gather = coll_gather_linear_sync}, 0,
     COLL_IN_PLACE | COLL_SEGMENTED, {SEG_DEFAULT, 0},
     "root invites each rank in turn; a small first segment, then the rest (Open MPI)"},
    {COLL_SCATTER, "linear", {.scatter = coll_scatter_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "root sends each rank its block"},
    {COLL_SCATTER, "binomial", {.scatter = coll_scatter_binomial}, COLL_REQ_TOTAL_FITS_INT,
     COLL_IN_PLACE,
     NO_PARAMS, "binomial tree: subtrees' blocks travel down packed"},
    {COLL_SCATTER, "smp", {.scatter = coll_scatter_smp}, 0,
     COLL_IN_PLACE | COLL_NODE_AWARE | COLL_READS_DATA, NO_PARAMS,
     "node-aware: leaders' scatterv of whole nodes from the root, scatter in each node"},
    {COLL_SCATTER, "linear_nb", {.scatter = coll_scatter_linear_nb}, 0, COLL_IN_PLACE,
     NO_PARAMS, "root posts a non-blocking send to each rank in rank order (Open MPI)"},

    /* Scatterv / Gatherv */
    {COLL_SCATTERV, "linear", {.scatterv = coll_scatterv_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "root sends each rank its block"},
    {COLL_SCATTERV, "binomial", {.scatterv = coll_scatterv_binomial}, 0,
     COLL_IN_PLACE | COLL_READS_DATA,
     NO_PARAMS, "binomial tree; each subtree's block sizes sent ahead of its blocks"},
    {COLL_SCATTERV, "linear_nb", {.scatterv = coll_scatterv_linear_nb}, 0, COLL_IN_PLACE,
     NO_PARAMS, "root posts a non-blocking send to each rank in rank order (Open MPI)"},
    {COLL_GATHERV, "linear", {.gatherv = coll_gatherv_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "root receives each rank's block"},
    {COLL_GATHERV, "binomial", {.gatherv = coll_gatherv_binomial}, 0,
     COLL_IN_PLACE | COLL_READS_DATA,
     NO_PARAMS, "binomial tree; each subtree announces its size to its parent first"},

    /* Allgather / Allgatherv */
    {COLL_ALLGATHER, "ring", {.allgather = coll_allgather_ring}, 0, COLL_IN_PLACE, NO_PARAMS,
     "p-1 shifts of one block around the ring"},
    {COLL_ALLGATHER, "recursive_doubling", {.allgather = coll_allgather_recursive_doubling}, 0,
     COLL_IN_PLACE, NO_PARAMS,
     "exchanges with rank xor 2^k doubling the blocks held; fix-up messages when P is not a "
     "power of two"},
    {COLL_ALLGATHER, "bruck", {.allgather = coll_allgather_bruck}, 0, COLL_IN_PLACE, NO_PARAMS,
     "Bruck's dissemination: ceil(log2 P) rounds to rank - 2^k, then a local rotation"},
    {COLL_ALLGATHER, "neighbor_exchange", {.allgather = coll_allgather_neighbor_exchange},
     COLL_REQ_EVEN_RANKS, COLL_IN_PLACE, NO_PARAMS,
     "P/2 exchanges of block pairs with the two neighbours in turn"},
    {COLL_ALLGATHER, "gather_bcast", {.allgather = coll_allgather_gather_bcast}, 0,
     COLL_IN_PLACE, NO_PARAMS, "binomial gather to rank 0, then binomial broadcast"},
    {COLL_ALLGATHER, "smp", {.allgather = coll_allgather_smp}, COLL_REQ_TOTAL_FITS_INT,
     COLL_IN_PLACE | COLL_NODE_AWARE, NO_PARAMS,
     "node-aware: gather at each node's leader, leaders' allgatherv, bcast in each node"},
    {COLL_ALLGATHER, "linear", {.allgather = coll_allgather_linear}, 0, COLL_IN_PLACE,
     NO_PARAMS, "linear gather to rank 0, then rank 0 sends all p blocks to each rank in turn"},
    {COLL_ALLGATHER, "two_proc", {.allgather = coll_allgather_two_proc}, COLL_REQ_TWO_RANKS,
     COLL_IN_PLACE, NO_PARAMS, "two ranks swap their blocks in one exchange"},
    {COLL_ALLGATHER, "k_bruck", {.allgather = coll_allgather_k_bruck}, 0,
     COLL_IN_PLACE | COLL_RADIX, {0, 4},
     "k-port Bruck: ceil(log_k P) rounds, each to k-1 ranks r - j k^i at once, then a rotation"},
    {COLL_ALLGATHER, "recexch", {.allgather = coll_allgather_recexch}, 0,
     COLL_IN_PLACE | COLL_RADIX, {0, 4},
     "recursive exchange: groups of k^i blocks swapped with k-1 partners per round; ranks "
     "beyond a power of k folded in"},
    {COLL_ALLGATHER, "direct", {.allgather = coll_allgather_direct}, 0, COLL_IN_PLACE,
     NO_PARAMS, "every receive and every send of the own block posted at once, then one wait"},
    {COLL_ALLGATHER, "pair", {.allgather = coll_allgather_pair}, COLL_REQ_POWER_OF_TWO,
     COLL_IN_PLACE, NO_PARAMS, "P-1 exchanges of the own block with rank xor k"},
    {COLL_ALLGATHER, "sparbit", {.allgather = coll_allgather_sparbit}, 0, COLL_IN_PLACE,
     NO_PARAMS,
     "Sparbit: ceil(log2 P) rounds at halving distances, one message per block held"},
    {COLL_ALLGATHER, "2dmesh", {.allgather = coll_allgather_2dmesh}, 0, COLL_IN_PLACE,
     NO_PARAMS, "P = X x Y: all-to-all of blocks in each row, then of rows in each column"},
    {COLL_ALLGATHER, "3dmesh", {.allgather = coll_allgather_3dmesh}, 0, COLL_IN_PLACE,
     NO_PARAMS, "P = X x X x Z: all-to-all in each row, each column, then along z"},
    {COLL_ALLGATHERV, "ring", {.allgatherv = coll_allgatherv_ring}, 0, COLL_IN_PLACE,
     NO_PARAMS, "p-1 shifts of one block around the ring"},
    {COLL_ALLGATHERV, "recursive_doubling",
     {.allgatherv = coll_allgatherv_recursive_doubling}, 0, COLL_IN_PLACE, NO_PARAMS,
     "exchanges with rank xor 2^k doubling the blocks held; fix-up messages when P is not a "
     "power of two"},
    {COLL_ALLGATHERV, "bruck", {.allgatherv = coll_allgatherv_bruck}, 0, COLL_IN_PLACE,
     NO_PARAMS, "Bruck's dissemination: ceil(log2 P) rounds to rank - 2^k, then a local rotation"},
    {COLL_ALLGATHERV, "neighbor_exchange", {.allgatherv = coll_allgatherv_neighbor_exchange},
     COLL_REQ_EVEN_RANKS, COLL_IN_PLACE, NO_PARAMS,
     "P/2 exchanges of block pairs with the two neighbours in turn"},
    {COLL_ALLGATHERV, "gather_bcast", {.allgatherv = coll_allgatherv_gather_bcast}, 0,
     COLL_IN_PLACE, NO_PARAMS, "binomial gather to rank 0, then binomial broadcast"},
    {COLL_ALLGATHERV, "two_proc", {.allgatherv = coll_allgatherv_two_proc},
     COLL_REQ_TWO_RANKS, COLL_IN_PLACE, NO_PARAMS, "two ranks swap their blocks in one exchange"},
    {COLL_ALLGATHERV, "pair", {.allgatherv = coll_allgatherv_pair}, COLL_REQ_POWER_OF_TWO,
     COLL_IN_PLACE, NO_PARAMS, "P-1 exchanges of the own block with rank xor k"},
    {COLL_ALLGATHERV, "direct", {.allgatherv = coll_allgatherv_direct}, 0, COLL_IN_PLACE,
     NO_PARAMS, "every receive and every send of the own block posted at once, then one wait"},
    {COLL_ALLGATHERV, "sparbit", {.allgatherv = coll_allgatherv_sparbit}, 0, COLL_IN_PLACE,
     NO_PARAMS,
     "Sparbit: ceil(log2 P) rounds at halving distances, one message per block held"},
    {COLL_ALLGATHERV, "k_bruck", {.allgatherv = coll_allgatherv_k_bruck}, 0,
     COLL_IN_PLACE | COLL_RADIX, {0, 4},
     "k-port Bruck: ceil(log_k P) rounds, each to k-1 ranks r - j k^i at once, then a rotation"},

    /* Alltoall / Alltoallv / Alltoallw (MPI_IN_PLACE: the dispatcher copies recvbuf for every row
     * but pairwise_sendrecv_replace, which swaps blocks in recvbuf itself) */
    {COLL_ALLTOALL, "pairwise", {.alltoall = coll_alltoall_pairwise}, 0, 0, NO_PARAMS,
     "P-1 exchanges with rank xor k (P a power of two) or rank +- k"},
    {COLL_ALLTOALL, "bruck", {.alltoall = coll_alltoall_bruck}, 0, 0, NO_PARAMS,
     "Bruck's index algorithm: ceil(log2 P) rounds of the blocks whose bit k is set"},
    {COLL_ALLTOALL, "linear", {.alltoall = coll_alltoall_linear}, 0, 0, NO_PARAMS,
     "all sends and receives posted at once, then one wait"},
    {COLL_ALLTOALL, "ring", {.alltoall = coll_alltoall_ring}, 0, 0, NO_PARAMS,
     "P-1 shifts: send to rank + k, receive from rank - k"},
    {COLL_ALLTOALL, "linear_sync", {.alltoall = coll_alltoall_linear_sync}, 0, COLL_RADIX,
     {0, 4}, "linear with at most radix receives and radix sends in flight (Open MPI)"},
    {COLL_ALLTOALL, "two_proc", {.alltoall = coll_alltoall_two_proc}, COLL_REQ_TWO_RANKS, 0,
     NO_PARAMS, "two ranks: one exchange (Open MPI)"},
    {COLL_ALLTOALL, "scattered", {.alltoall = coll_alltoall_scattered}, 0, COLL_RADIX, {0, 4},
     "linear in batches of radix receives and sends, each batch waited for (MPICH)"},
    {COLL_ALLTOALL, "k_bruck", {.alltoall = coll_alltoall_k_bruck}, 0, COLL_RADIX, {0, 4},
     "Bruck's index algorithm of radix k: ceil(log_k P) rounds of k-1 messages (MPICH)"},
    {COLL_ALLTOALL, "pairwise_sendrecv_replace",
     {.alltoall = coll_alltoall_pairwise_sendrecv_replace}, 0, COLL_IN_PLACE, NO_PARAMS,
     "in recvbuf: pairs (i, j) swap blocks with MPI_Sendrecv_replace in order (MPICH)"},
    {COLL_ALLTOALL, "2dmesh", {.alltoall = coll_alltoall_2dmesh}, COLL_REQ_TOTAL_FITS_INT, 0,
     NO_PARAMS,
     "whole buffers along the rows of a 2-D mesh, then packed blocks along the columns (SMPI)"},
    {COLL_ALLTOALL, "3dmesh", {.alltoall = coll_alltoall_3dmesh}, COLL_REQ_TOTAL_FITS_INT, 0,
     NO_PARAMS,
     "whole buffers along rows and columns of x-by-x planes, then blocks between planes (SMPI)"},
    {COLL_ALLTOALL, "pair_mpi_barrier", {.alltoall = coll_alltoall_pair_mpi_barrier},
     COLL_REQ_POWER_OF_TWO, 0, NO_PARAMS,
     "exchanges with rank xor k, a barrier before each (SMPI)"},
    {COLL_ALLTOALL, "ring_mpi_barrier", {.alltoall = coll_alltoall_ring_mpi_barrier}, 0, 0,
     NO_PARAMS, "P-1 shifts to rank + k, a barrier before each (SMPI)"},
    {COLL_ALLTOALLV, "pairwise", {.alltoallv = coll_alltoallv_pairwise}, 0, 0, NO_PARAMS,
     "P-1 exchanges with rank xor k (P a power of two) or rank +- k"},
    {COLL_ALLTOALLV, "linear", {.alltoallv = coll_alltoallv_linear}, 0, 0, NO_PARAMS,
     "all sends and receives posted at once, then one wait"},
    {COLL_ALLTOALLV, "ring", {.alltoallv = coll_alltoallv_ring}, 0, 0, NO_PARAMS,
     "P-1 shifts: send to rank + k, receive from rank - k"},
    {COLL_ALLTOALLV, "scattered", {.alltoallv = coll_alltoallv_scattered}, 0, COLL_RADIX,
     {0, 4}, "linear in batches of radix receives and sends, each batch waited for (MPICH)"},
    {COLL_ALLTOALLV, "pairwise_sendrecv_replace",
     {.alltoallv = coll_alltoallv_pairwise_sendrecv_replace}, 0, COLL_IN_PLACE, NO_PARAMS,
     "in recvbuf: pairs (i, j) swap blocks with MPI_Sendrecv_replace in order (MPICH)"},
    {COLL_ALLTOALLV, "linear_sync", {.alltoallv = coll_alltoallv_linear_sync}, 0, COLL_RADIX,
     {0, 4}, "linear with at most radix receives and radix sends in flight (Open MPI)"},
    {COLL_ALLTOALLV, "pair_mpi_barrier", {.alltoallv = coll_alltoallv_pair_mpi_barrier},
     COLL_REQ_POWER_OF_TWO, 0, NO_PARAMS,
     "exchanges with rank xor k, a barrier before each (SMPI)"},
    {COLL_ALLTOALLV, "ring_mpi_barrier", {.alltoallv = coll_alltoallv_ring_mpi_barrier}, 0, 0,
     NO_PARAMS, "P-1 shifts to rank + k, a barrier before each (SMPI)"},
    {COLL_ALLTOALLW, "pairwise", {.alltoallw = coll_alltoallw_pairwise}, 0, 0, NO_PARAMS,
     "P-1 exchanges with rank xor k (P a power of two) or rank +- k"},
    {COLL_ALLTOALLW, "linear", {.alltoallw = coll_alltoallw_linear}, 0, 0, NO_PARAMS,
     "all sends and receives posted at once, then one wait"},
    {COLL_ALLTOALLW, "scattered", {.alltoallw = coll_alltoallw_scattered}, 0, COLL_RADIX,
     {0, 4}, "linear in batches of radix receives and sends, each batch waited for (MPICH)"},
    {COLL_ALLTOALLW, "pairwise_sendrecv_replace",
     {.alltoallw = coll_alltoallw_pairwise_sendrecv_replace}, 0, COLL_IN_PLACE, NO_PARAMS,
     "in recvbuf: pairs (i, j) swap blocks with MPI_Sendrecv_replace in order (MPICH)"},

    /* Reduce */
    {COLL_REDUCE, "chain", {.reduce = coll_reduce_chain}, 0, 0, NO_PARAMS,
     "the seed's sequential chain: 0 -> 1 -> ... -> P-1, then to the root"},
    {COLL_REDUCE, "linear", {.reduce = coll_reduce_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "root receives every contribution and folds them in rank order"},
    {COLL_REDUCE, "binomial", {.reduce = coll_reduce_binomial}, 0, 0, NO_PARAMS,
     "binomial tree; rooted at root, or for a non-commutative op at rank 0 then sent to root"},
    {COLL_REDUCE, "in_order_binary", {.reduce = coll_reduce_in_order_binary}, 0, 0, NO_PARAMS,
     "in-order binary tree over ranks 0..P-1, result sent to root"},
    {COLL_REDUCE, "knomial", {.reduce = coll_reduce_knomial}, 0, COLL_RADIX, {0, 4},
     "k-nomial tree of radix k; rooted at root, or for a non-commutative op at rank 0 then sent "
     "to root"},
    {COLL_REDUCE, "pipeline_chain", {.reduce = coll_reduce_pipeline_chain}, 0, COLL_SEGMENTED,
     {SEG_DEFAULT, 0}, "chain 0 -> ... -> P-1 in segments of segment_bytes, pipelined"},
    {COLL_REDUCE, "pipeline_binary", {.reduce = coll_reduce_pipeline_binary}, 0,
     COLL_SEGMENTED, {SEG_DEFAULT, 0}, "in-order binary tree in segments, pipelined"},
    {COLL_REDUCE, "rabenseifner", {.reduce = coll_reduce_rabenseifner}, COLL_REQ_COUNT_GE_SIZE,
     0, NO_PARAMS, "reduce-scatter by recursive halving (rank order kept), then binomial gather"},
    {COLL_REDUCE, "smp", {.reduce = coll_reduce_smp}, COLL_REQ_NODE_BLOCKS,
     COLL_NODE_AWARE, NO_PARAMS, "node-aware: binomial reduce in each node, then among the nodes' leaders"},
    {COLL_REDUCE, "binary", {.reduce = coll_reduce_binary}, COLL_REQ_COMMUTATIVE,
     COLL_SEGMENTED, {SEG_DEFAULT, 0},
     "Open MPI's binary tree rooted at the root (children s + 2^l, s + 2^(l+1)), in segments"},
    {COLL_REDUCE, "fanout_chain", {.reduce = coll_reduce_fanout_chain}, COLL_REQ_COMMUTATIVE,
     COLL_SEGMENTED | COLL_RADIX, {SEG_DEFAULT, 4},
     "Open MPI's chain: radix chains of consecutive ranks into the root, in segments"},

    /* Allreduce */
    {COLL_ALLREDUCE, "reduce_bcast", {.allreduce = coll_allreduce_reduce_bcast}, 0,
     COLL_IN_PLACE, NO_PARAMS, "in-order binary reduce to rank 0, then binomial broadcast"},
    {COLL_ALLREDUCE, "recursive_doubling", {.allreduce = coll_allreduce_recursive_doubling}, 0,
     COLL_IN_PLACE, NO_PARAMS, "recursive doubling; extra ranks folded into neighbours first"},
    {COLL_ALLREDUCE, "halving_doubling", {.allreduce = coll_allreduce_halving_doubling},
     COLL_REQ_COMMUTATIVE, COLL_IN_PLACE, NO_PARAMS,
     "the textbook's doubling scheme: halves fold onto mirror ranks, then the result doubles back"},
    {COLL_ALLREDUCE, "ring", {.allreduce = coll_allreduce_ring},
     COLL_REQ_COMMUTATIVE | COLL_REQ_COUNT_GE_SIZE, COLL_IN_PLACE, NO_PARAMS,
     "reduce-scatter ring then allgather ring"},
    {COLL_ALLREDUCE, "ring_segmented", {.allreduce = coll_allreduce_ring_segmented},
     COLL_REQ_COMMUTATIVE | COLL_REQ_COUNT_GE_SIZE, COLL_IN_PLACE | COLL_SEGMENTED,
     {SEG_DEFAULT, 0}, "ring with each block sent in segments"},
    {COLL_ALLREDUCE, "rabenseifner", {.allreduce = coll_allreduce_rabenseifner},
     COLL_REQ_COUNT_GE_SIZE, COLL_IN_PLACE, NO_PARAMS,
     "reduce-scatter by recursive halving, allgather by recursive doubling (rank order kept)"},
    {COLL_ALLREDUCE, "smp", {.allreduce = coll_allreduce_smp}, COLL_REQ_NODE_BLOCKS,
     COLL_IN_PLACE | COLL_NODE_AWARE, NO_PARAMS,
     "node-aware: reduce in each node, allreduce among leaders, bcast in each node"},
    {COLL_ALLREDUCE, "linear", {.allreduce = coll_allreduce_linear}, 0, COLL_IN_PLACE,
     NO_PARAMS, "linear reduce to rank 0 (rank order kept), then linear bcast"},
    {COLL_ALLREDUCE, "nonoverlapping", {.allreduce = coll_allreduce_nonoverlapping}, 0,
     COLL_IN_PLACE, NO_PARAMS, "binomial reduce to rank 0 (rank order kept), then binomial bcast"},
    {COLL_ALLREDUCE, "allgather_reduce", {.allreduce = coll_allreduce_allgather_reduce},
     COLL_REQ_TOTAL_FITS_INT,
     COLL_IN_PLACE, NO_PARAMS,
     "recursive-doubling allgather of every vector, then a local fold in rank order"},
    {COLL_ALLREDUCE, "tree", {.allreduce = coll_allreduce_tree}, 0,
     COLL_IN_PLACE | COLL_SEGMENTED | COLL_RADIX, {SEG_DEFAULT, 4},
     "MPICH's tree: k-nomial reduce to rank 0 and bcast, segment by segment (rank order kept)"},
    {COLL_ALLREDUCE, "recexch", {.allreduce = coll_allreduce_recexch}, 0,
     COLL_IN_PLACE | COLL_RADIX, {0, 4},
     "MPICH's recursive exchange: whole vectors with k-1 partners per phase (rank order kept)"},
    {COLL_ALLREDUCE, "k_reduce_scatter_allgather",
     {.allreduce = coll_allreduce_k_reduce_scatter_allgather}, COLL_REQ_COMMUTATIVE,
     COLL_IN_PLACE | COLL_RADIX, {0, 4},
     "MPICH's radix-k reduce-scatter then allgather by recursive exchange"},

    /* Reduce_scatter */
    {COLL_REDUCE_SCATTER, "reduce_scatterv",
     {.reduce_scatter = coll_reduce_scatter_reduce_scatterv}, 0, COLL_IN_PLACE, NO_PARAMS,
     "in-order reduce to rank 0, then linear scatterv"},
    {COLL_REDUCE_SCATTER, "recursive_halving",
     {.reduce_scatter = coll_reduce_scatter_recursive_halving}, COLL_REQ_COMMUTATIVE,
     COLL_IN_PLACE, NO_PARAMS, "recursive halving of the vector"},
    {COLL_REDUCE_SCATTER, "pairwise", {.reduce_scatter = coll_reduce_scatter_pairwise},
     COLL_REQ_COMMUTATIVE, COLL_IN_PLACE, NO_PARAMS, "P-1 pairwise exchanges of blocks"},
    {COLL_REDUCE_SCATTER, "ring", {.reduce_scatter = coll_reduce_scatter_ring},
     COLL_REQ_COMMUTATIVE, COLL_IN_PLACE, NO_PARAMS, "blocks travel around a ring"},
    {COLL_REDUCE_SCATTER, "recursive_doubling",
     {.reduce_scatter = coll_reduce_scatter_recursive_doubling}, 0, COLL_IN_PLACE, NO_PARAMS,
     "recursive doubling keeping rank order (non-commutative safe)"},
    {COLL_REDUCE_SCATTER, "butterfly", {.reduce_scatter = coll_reduce_scatter_butterfly}, 0,
     COLL_IN_PLACE, NO_PARAMS,
     "Open MPI's butterfly: vector halving, distance doubling, mirror exchange (rank order kept)"},
    {COLL_REDUCE_SCATTER, "noncommutative",
     {.reduce_scatter = coll_reduce_scatter_noncommutative}, COLL_REQ_POWER_OF_TWO, COLL_IN_PLACE,
     NO_PARAMS, "MPICH's: blocks in mirror order, vector halving, distance doubling (rank order)"},

    /* Reduce_scatter_block */
    {COLL_REDUCE_SCATTER_BLOCK, "reduce_scatter",
     {.reduce_scatter_block = coll_reduce_scatter_block_reduce_scatter}, 0, COLL_IN_PLACE,
     NO_PARAMS, "in-order reduce to rank 0, then linear scatter"},
    {COLL_REDUCE_SCATTER_BLOCK, "recursive_halving",
     {.reduce_scatter_block = coll_reduce_scatter_block_recursive_halving},
     COLL_REQ_COMMUTATIVE, COLL_IN_PLACE, NO_PARAMS, "recursive halving of the vector"},
    {COLL_REDUCE_SCATTER_BLOCK, "pairwise",
     {.reduce_scatter_block = coll_reduce_scatter_block_pairwise}, COLL_REQ_COMMUTATIVE,
     COLL_IN_PLACE, NO_PARAMS, "P-1 pairwise exchanges of blocks"},
    {COLL_REDUCE_SCATTER_BLOCK, "ring", {.reduce_scatter_block = coll_reduce_scatter_block_ring},
     COLL_REQ_COMMUTATIVE, COLL_IN_PLACE, NO_PARAMS, "blocks travel around a ring"},
    {COLL_REDUCE_SCATTER_BLOCK, "recursive_doubling",
     {.reduce_scatter_block = coll_reduce_scatter_block_recursive_doubling}, 0, COLL_IN_PLACE,
     NO_PARAMS, "recursive doubling keeping rank order (non-commutative safe)"},
    {COLL_REDUCE_SCATTER_BLOCK, "butterfly",
     {.reduce_scatter_block = coll_reduce_scatter_block_butterfly}, 0, COLL_IN_PLACE, NO_PARAMS,
     "Open MPI's butterfly: vector halving, distance doubling, mirror exchange (rank order kept)"},
    {COLL_REDUCE_SCATTER_BLOCK, "noncommutative",
     {.reduce_scatter_block = coll_reduce_scatter_block_noncommutative}, COLL_REQ_POWER_OF_TWO,
     COLL_IN_PLACE, NO_PARAMS,
     "MPICH's: blocks in mirror order, vector halving, distance doubling (rank order)"},

    /* Scan / Exscan */
    {COLL_SCAN, "linear", {.scan = coll_scan_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "chain: rank i receives the prefix of 0..i-1 from i-1"},
    {COLL_SCAN, "recursive_doubling", {.scan = coll_scan_recursive_doubling}, 0, COLL_IN_PLACE,
     NO_PARAMS, "recursive doubling of prefixes (Hillis-Steele), rank order kept"},
    {COLL_EXSCAN, "linear", {.exscan = coll_exscan_linear}, 0, COLL_IN_PLACE, NO_PARAMS,
     "chain: rank i receives the prefix of 0..i-1 from i-1"},
    {COLL_EXSCAN, "recursive_doubling", {.exscan = coll_exscan_recursive_doubling}, 0,
     COLL_IN_PLACE, NO_PARAMS, "recursive doubling of prefixes, rank order kept"},
};

const struct coll_algorithm *
coll_registry_rows(size_t *count)
{
    *count = sizeof rows / sizeof rows[0];
    return rows;
}

const struct coll_algorithm *
coll_registry_find(enum coll_kind kind, const char *name)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].kind == kind && strcmp(rows[i].name, name) == 0)
            return &rows[i];
    return NULL;
}

const char *
coll_reads_data_why(const struct coll_algorithm *row)
{
    return (row->caps & COLL_NODE_AWARE)
               ? "moves whole nodes with the binomial gatherv or scatterv, which send the block "
                 "sizes as data"
               : "sends the block sizes as data";
}

size_t
coll_registry_count(enum coll_kind kind)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        n += rows[i].kind == kind;
    return n;
}

const struct coll_algorithm *
coll_registry_nth(enum coll_kind kind, size_t index)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (rows[i].kind == kind && index-- == 0)
            return &rows[i];
    return NULL;
}

void
coll_requirements_describe(unsigned requires, char *buf, size_t size)
{
    static const struct {
        unsigned flag;
        const char *text;
    } texts[] = {
        {COLL_REQ_COMMUTATIVE, "commutative op"},
        {COLL_REQ_POWER_OF_TWO, "power-of-two ranks"},
        {COLL_REQ_COUNT_GE_SIZE, "count >= ranks"},
        {COLL_REQ_CONTIGUOUS, "contiguous datatype"},
        {COLL_REQ_EVEN_RANKS, "even number of ranks"},
        {COLL_REQ_NODE_BLOCKS, "consecutive ranks per node for a non-commutative op"},
        {COLL_REQ_TWO_RANKS, "exactly two ranks"},
        {COLL_REQ_TOTAL_FITS_INT, "bytes x ranks < 2 GiB"},
    };
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        if (!(requires & texts[i].flag))
            continue;
        int n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", texts[i].text);
        if (n < 0 || (size_t)n >= size - used)
            break;
        used += (size_t)n;
    }
}
