/*
 * coll_algos.h — every collective algorithm, declared with its collective's function type so
 * that the compiler checks each signature. One line per algorithm; the registry
 * (coll_registry.c) says what each requires.
 */
#ifndef COLLSIM_COLL_ALGOS_H
#define COLLSIM_COLL_ALGOS_H

#include "coll.h"

/* Barrier */
coll_barrier_fn coll_barrier_linear;
coll_barrier_fn coll_barrier_dissemination;
coll_barrier_fn coll_barrier_binomial;
coll_barrier_fn coll_barrier_recursive_doubling;
coll_barrier_fn coll_barrier_double_ring;
coll_barrier_fn coll_barrier_smp;
coll_barrier_fn coll_barrier_two_proc;
coll_barrier_fn coll_barrier_tree;
coll_barrier_fn coll_barrier_k_dissemination;
coll_barrier_fn coll_barrier_recexch;

/* Bcast */
coll_bcast_fn coll_bcast_linear;
coll_bcast_fn coll_bcast_binomial;
coll_bcast_fn coll_bcast_knomial;
coll_bcast_fn coll_bcast_pipeline_chain;
coll_bcast_fn coll_bcast_pipeline_binary;
coll_bcast_fn coll_bcast_split_binary;
coll_bcast_fn coll_bcast_scatter_ring_allgather;
coll_bcast_fn coll_bcast_scatter_recursive_doubling_allgather;
coll_bcast_fn coll_bcast_smp;
coll_bcast_fn coll_bcast_chain;
coll_bcast_fn coll_bcast_kary;
coll_bcast_fn coll_bcast_pipelined_tree;
coll_bcast_fn coll_bcast_flattree_pipeline;
coll_bcast_fn coll_bcast_segmented_binomial;

/* Gather / Scatter */
coll_gather_fn coll_gather_linear;
coll_gather_fn coll_gather_binomial;
coll_gather_fn coll_gather_smp;
coll_gather_fn coll_gather_linear_sync;
coll_scatter_fn coll_scatter_linear;
coll_scatter_fn coll_scatter_binomial;
coll_scatter_fn coll_scatter_smp;
coll_scatter_fn coll_scatter_linear_nb;

/* Scatterv / Gatherv */
coll_scatterv_fn coll_scatterv_linear;
coll_scatterv_fn coll_scatterv_binomial;
coll_scatterv_fn coll_scatterv_linear_nb;
coll_gatherv_fn coll_gatherv_linear;
coll_gatherv_fn coll_gatherv_binomial;

/* Allgather / Allgatherv */
coll_allgather_fn coll_allgather_ring;
coll_allgather_fn coll_allgather_recursive_doubling;
coll_allgather_fn coll_allgather_bruck;
coll_allgather_fn coll_allgather_neighbor_exchange;
coll_allgather_fn coll_allgather_gather_bcast;
coll_allgather_fn coll_allgather_smp;
coll_allgather_fn coll_allgather_linear;
coll_allgather_fn coll_allgather_two_proc;
coll_allgather_fn coll_allgather_k_bruck;
coll_allgather_fn coll_allgather_recexch;
coll_allgather_fn coll_allgather_direct;
coll_allgather_fn coll_allgather_pair;
coll_allgather_fn coll_allgather_sparbit;
coll_allgather_fn coll_allgather_2dmesh;
coll_allgather_fn coll_allgather_3dmesh;
coll_allgatherv_fn coll_allgatherv_ring;
coll_allgatherv_fn coll_allgatherv_recursive_doubling;
coll_allgatherv_fn coll_allgatherv_bruck;
coll_allgatherv_fn coll_allgatherv_neighbor_exchange;
coll_allgatherv_fn coll_allgatherv_gather_bcast;
coll_allgatherv_fn coll_allgatherv_two_proc;
coll_allgatherv_fn coll_allgatherv_pair;
coll_allgatherv_fn coll_allgatherv_direct;
coll_allgatherv_fn coll_allgatherv_sparbit;
coll_allgatherv_fn coll_allgatherv_k_bruck;

/* Alltoall / Alltoallv / Alltoallw */
coll_alltoall_fn coll_alltoall_pairwise;
coll_alltoall_fn coll_alltoall_bruck;
coll_alltoall_fn coll_alltoall_linear;
coll_alltoall_fn coll_alltoall_ring;
coll_alltoall_fn coll_alltoall_linear_sync;
coll_alltoall_fn coll_alltoall_two_proc;
coll_alltoall_fn coll_alltoall_scattered;
coll_alltoall_fn coll_alltoall_k_bruck;
coll_alltoall_fn coll_alltoall_pairwise_sendrecv_replace;
coll_alltoall_fn coll_alltoall_2dmesh;
coll_alltoall_fn coll_alltoall_3dmesh;
coll_alltoall_fn coll_alltoall_pair_mpi_barrier;
coll_alltoall_fn coll_alltoall_ring_mpi_barrier;
coll_alltoallv_fn coll_alltoallv_pairwise;
coll_alltoallv_fn coll_alltoallv_linear;
coll_alltoallv_fn coll_alltoallv_ring;
coll_alltoallv_fn coll_alltoallv_scattered;
coll_alltoallv_fn coll_alltoallv_pairwise_sendrecv_replace;
coll_alltoallv_fn coll_alltoallv_linear_sync;
coll_alltoallv_fn coll_alltoallv_pair_mpi_barrier;
coll_alltoallv_fn coll_alltoallv_ring_mpi_barrier;
coll_alltoallw_fn coll_alltoallw_pairwise;
coll_alltoallw_fn coll_alltoallw_linear;
coll_alltoallw_fn coll_alltoallw_scattered;
coll_alltoallw_fn coll_alltoallw_pairwise_sendrecv_replace;
/* The schedules the alltoall, alltoallv and alltoallw forms share, on blocks (coll_blocks.h),
 * each defined in the alltoall algorithm's file: tag and communicator as the caller's. */
struct coll_blocks;
int coll_alltoall_linear_sync_blocks(const struct coll_blocks *send,
                                     const struct coll_blocks *recv, int max_requests, int tag,
                                     MPI_Comm comm);
int coll_alltoall_scattered_blocks(const struct coll_blocks *send, const struct coll_blocks *recv,
                                   int batch, int tag, MPI_Comm comm);
int coll_alltoall_pairwise_sendrecv_replace_blocks(const struct coll_blocks *send,
                                                   const struct coll_blocks *recv, int tag,
                                                   MPI_Comm comm);
/* by_xor: partner r xor i at step i (pair_mpi_barrier), else r+i and r-i (ring_mpi_barrier) */
int coll_alltoall_barrier_steps_blocks(const struct coll_blocks *send,
                                       const struct coll_blocks *recv, int by_xor, int tag,
                                       MPI_Comm comm);

/* Reduce */
coll_reduce_fn coll_reduce_chain;
coll_reduce_fn coll_reduce_linear;
coll_reduce_fn coll_reduce_binomial;
coll_reduce_fn coll_reduce_smp;
coll_reduce_fn coll_reduce_in_order_binary;
coll_reduce_fn coll_reduce_knomial;
coll_reduce_fn coll_reduce_pipeline_chain;
coll_reduce_fn coll_reduce_pipeline_binary;
coll_reduce_fn coll_reduce_rabenseifner;
coll_reduce_fn coll_reduce_binary;
coll_reduce_fn coll_reduce_fanout_chain;

/* Allreduce */
coll_allreduce_fn coll_allreduce_reduce_bcast;
coll_allreduce_fn coll_allreduce_recursive_doubling;
coll_allreduce_fn coll_allreduce_halving_doubling;
coll_allreduce_fn coll_allreduce_ring;
coll_allreduce_fn coll_allreduce_ring_segmented;
coll_allreduce_fn coll_allreduce_rabenseifner;
coll_allreduce_fn coll_allreduce_smp;
coll_allreduce_fn coll_allreduce_linear;
coll_allreduce_fn coll_allreduce_nonoverlapping;
coll_allreduce_fn coll_allreduce_allgather_reduce;
coll_allreduce_fn coll_allreduce_tree;
coll_allreduce_fn coll_allreduce_recexch;
coll_allreduce_fn coll_allreduce_k_reduce_scatter_allgather;

/* Reduce_scatter */
coll_reduce_scatter_fn coll_reduce_scatter_reduce_scatterv;
coll_reduce_scatter_fn coll_reduce_scatter_recursive_halving;
coll_reduce_scatter_fn coll_reduce_scatter_pairwise;
coll_reduce_scatter_fn coll_reduce_scatter_ring;
coll_reduce_scatter_fn coll_reduce_scatter_recursive_doubling;
coll_reduce_scatter_fn coll_reduce_scatter_butterfly;
coll_reduce_scatter_fn coll_reduce_scatter_noncommutative;

/* Reduce_scatter_block */
coll_reduce_scatter_block_fn coll_reduce_scatter_block_reduce_scatter;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_recursive_halving;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_pairwise;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_ring;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_recursive_doubling;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_butterfly;
coll_reduce_scatter_block_fn coll_reduce_scatter_block_noncommutative;

/* Scan / Exscan */
coll_scan_fn coll_scan_linear;
coll_scan_fn coll_scan_recursive_doubling;
coll_exscan_fn coll_exscan_linear;
coll_exscan_fn coll_exscan_recursive_doubling;

#endif
