/*
 * coll_node.h — the node layout that node-aware (SMP, hierarchical) algorithms work from,
 * learnt with standard MPI calls only: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) for the
 * ranks of my node, MPI_Comm_split for the node leaders, one allgather for the map, and
 * attribute caching so that this happens once per communicator (in its first node-aware
 * call, as MPICH's and Open MPI HAN's hierarchical algorithms do).
 *
 * Nodes are numbered by their leader's rank in the communicator: a node's leader is its
 * lowest rank, and node k has the k-th lowest leader, which is rank k of `leaders`. Inside a
 * node, ranks keep their order in the communicator. Positions "in node order" list node 0's
 * ranks, then node 1's, ...
 */
#ifndef COLLSIM_COLL_NODE_H
#define COLLSIM_COLL_NODE_H

#include "mpi.h"

struct coll_node_layout {
    MPI_Comm node;       /* the ranks of my node, in comm's order */
    MPI_Comm leaders;    /* rank 0 of every node, in node order; MPI_COMM_NULL elsewhere */
    int node_rank;       /* my rank in `node` */
    int node_size;
    int nnodes;
    int my_node;
    int size;            /* of the communicator */
    int *node_of;        /* [size]: the node of every rank */
    int *node_first;     /* [nnodes + 1]: node k's ranks are positions node_first[k] ..
                          * node_first[k+1] - 1 in node order */
    int runs;            /* every node's ranks are consecutive in comm: node order = rank order */
};

/* The layout of comm, computed in the first call on comm (collective then) and cached. */
int coll_node_layout_get(MPI_Comm comm, const struct coll_node_layout **layout);

/* Position of `rank` in node order (O(size) the first time for a rank; fine at a root). */
int coll_node_position(const struct coll_node_layout *layout, int rank);

/* Whole nodes as the blocks of a v-collective among leaders: counts[k] = per_rank items for
 * each rank of node k, displs[k] = where node k starts in node order. One allocation: free
 * *counts only. MPI_ERR_NO_MEM if it fails. */
int coll_node_blocks(const struct coll_node_layout *layout, int per_rank, int **counts,
                     int **displs);

/* position[r] = the position of rank r in node order, for every rank (malloc'd; NULL if out of
 * memory). */
int *coll_node_positions(const struct coll_node_layout *layout);

/* My node's rank of the communicator's `rank` if it is on my node, else -1. */
int coll_node_local_rank(const struct coll_node_layout *layout, int rank);

/*
 * The flat algorithm a node-aware one runs at one level (inside a node, or among leaders) of
 * `size` ranks, by the rules of the default table: a binomial tree for small vectors, else
 * Rabenseifner's reduce (it needs an item per rank; both keep rank order) or van de Geijn's
 * scatter + ring allgather broadcast (from 12 KiB and 8 ranks, as MPICH).
 */
coll_reduce_fn *coll_node_reduce_choice(int count, MPI_Datatype datatype, int size);
coll_bcast_fn *coll_node_bcast_choice(int count, MPI_Datatype datatype, int size);

#endif
