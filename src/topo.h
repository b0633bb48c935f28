/*
 * topo.h — process topologies (MPI-3.1 chapter 7): the Cartesian, graph and distributed graph
 * structure a communicator may carry, its constructors and queries, and MPI_Dims_create.
 *
 * A communicator is one object shared by its members (comm.h), so is its topology: `topo` of
 * the user's communicator (never of its collective twin; queries on a twin read its owner's).
 * A Cartesian or graph topology is the same on every member; a distributed graph holds one
 * adjacency per member, indexed by rank in the communicator, each filled by that member.
 * MPI_Comm_dup copies the topology (collsim_topo_copy); the communicator's destruction frees
 * it (collsim_topo_free). MPI_Comm_split/create never carry one over.
 *
 * Constructors build the new communicator with MPI_Comm_split on the old one (color 0 for the
 * members of the new topology, MPI_UNDEFINED for the others, key = old rank: reorder is
 * ignored, the identity mapping MPI allows), then attach the topology: the first member to
 * return attaches it and the others check that theirs is identical (MPI_ERR_TOPOLOGY if not).
 * MPI_Dist_graph_create first gathers every rank's in and out edges with MPI_Alltoall and
 * MPI_Alltoallv on the old communicator. A rank whose own arguments are invalid reports its
 * error and still takes part (with MPI_UNDEFINED), so that no member waits forever.
 *
 * Error classes: MPI_ERR_DIMS for impossible or invalid dimensions (a negative ndims, a
 * dimension < 1 in a grid, a grid larger than the communicator, a direction outside 0..ndims-1,
 * an MPI_Dims_create that has no solution); MPI_ERR_TOPOLOGY for a call that needs a kind of
 * topology the communicator lacks; MPI_ERR_RANK for a rank outside the communicator or the
 * graph (graph edges, distributed graph neighbours, ranks given to Cart_coords or
 * Graph_neighbors); MPI_ERR_ARG for everything else (NULL pointers, negative degrees, counts or
 * weights, index arrays that decrease, coordinates outside a non-periodic dimension).
 */
#ifndef COLLSIM_TOPO_H
#define COLLSIM_TOPO_H

#include "mpi.h"

struct collsim_topo;

/* A deep copy for MPI_Comm_dup (NULL for NULL). */
struct collsim_topo *collsim_topo_copy(const struct collsim_topo *topo);
/* Free a topology (NULL is fine). */
void collsim_topo_free(struct collsim_topo *topo);

/*
 * The calling member's neighbour counts on comm (a user communicator or its twin), as the
 * neighbour collectives see them: 2·ndims each for a Cartesian grid, the graph neighbours for
 * a graph, the in and out degrees for a distributed graph. MPI_ERR_TOPOLOGY (not reported)
 * when comm has no topology.
 */
int collsim_topo_degrees(MPI_Comm comm, int *indegree, int *outdegree);

#endif
