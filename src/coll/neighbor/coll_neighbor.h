/*
 * coll_neighbor.h — the blocking neighbour collectives' algorithm (MPI-3.1 §7.6): the
 * communicator's topology read through the standard queries, and the linear exchange.
 *
 * Standard MPI calls and libc only, so that it compiles against a real MPI too (the files are
 * included by their own folder's path, not through "coll/", for that reason).
 *
 * The neighbour collectives are not kinds of src/coll/coll_kinds.c: they have one algorithm,
 * no selection, no prediction and no order certificate, and adding kinds would change the
 * existing outputs that list every kind (HACKING.md).
 */
#ifndef COLLSIM_COLL_NEIGHBOR_H
#define COLLSIM_COLL_NEIGHBOR_H

#include "mpi.h"

/*
 * The calling rank's neighbours in MPI's order, and the tag each message carries.
 * Cartesian: for each dimension d, the -1 then the +1 neighbour (MPI_Cart_shift(d, 1)), the
 * same list for sources and destinations; an MPI_PROC_NULL neighbour keeps its slot. Graph:
 * MPI_Graph_neighbors for both. Distributed graph: MPI_Dist_graph_neighbors.
 */
struct coll_neighbors {
    int indegree, outdegree;
    int *sources, *dests;
    int *recvtags, *sendtags;
};

/* Fill nb from comm's topology (MPI_ERR_TOPOLOGY if it has none); free with
 * coll_neighbors_free. */
int coll_neighbors_get(MPI_Comm comm, struct coll_neighbors *nb);
void coll_neighbors_free(struct coll_neighbors *nb);

int coll_neighbor_allgather_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                   MPI_Comm comm);
int coll_neighbor_allgatherv_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                    void *recvbuf, const int recvcounts[], const int displs[],
                                    MPI_Datatype recvtype, MPI_Comm comm);
int coll_neighbor_alltoall_linear(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                  MPI_Comm comm);
int coll_neighbor_alltoallv_linear(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                   MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm);
int coll_neighbor_alltoallw_linear(const void *sendbuf, const int sendcounts[],
                                   const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                                   void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                                   const MPI_Datatype recvtypes[], MPI_Comm comm);

#endif
