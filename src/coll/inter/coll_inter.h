/*
 * coll_inter.h — the collectives on inter-communicators (MPI-3.1 §5.2.2, §5.2.3).
 *
 * Each function takes the inter-communicator `inter` (the twin the entry runs on: point-to-
 * point there names ranks of the REMOTE group) and `local`, an intra-communicator over the
 * caller's own group (the inter-communicator's hidden local communicator, on its twin). They
 * use standard MPI calls and collsim's intra-communicator algorithms on `local` only.
 *
 * Rooted calls: root is MPI_ROOT at the root, MPI_PROC_NULL at the other members of the
 * root's group, and the root's rank in the remote group on the other side. The root-only
 * buffers are significant at MPI_ROOT only; MPI_IN_PLACE is never allowed (checked by the
 * entry). "All" forms: each group receives what the OTHER group sent.
 */
#ifndef COLLSIM_COLL_INTER_H
#define COLLSIM_COLL_INTER_H

#include "mpi.h"

int coll_inter_barrier(MPI_Comm inter, MPI_Comm local);
int coll_inter_bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm inter,
                     MPI_Comm local);
int coll_inter_gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, int root, MPI_Comm inter,
                      MPI_Comm local);
int coll_inter_scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, int root, MPI_Comm inter,
                       MPI_Comm local);
int coll_inter_gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                       int root, MPI_Comm inter, MPI_Comm local);
int coll_inter_scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
                        MPI_Datatype sendtype, void *recvbuf, int recvcount,
                        MPI_Datatype recvtype, int root, MPI_Comm inter, MPI_Comm local);
int coll_inter_allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm inter,
                         MPI_Comm local);
int coll_inter_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                          void *recvbuf, const int recvcounts[], const int displs[],
                          MPI_Datatype recvtype, MPI_Comm inter, MPI_Comm local);
/* Alltoall, Alltoallv and Alltoallw in one: block i goes to remote rank i. Byte
 * displacements (w form) when sendtypes/recvtypes are given, else item displacements (v) or
 * i * count (uniform: sendcounts NULL). */
int coll_inter_alltoallw(const void *sendbuf, int sendcount, const int sendcounts[],
                         const int sdispls[], MPI_Datatype sendtype,
                         const MPI_Datatype sendtypes[], void *recvbuf, int recvcount,
                         const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                         const MPI_Datatype recvtypes[], MPI_Comm inter, MPI_Comm local);
int coll_inter_reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                      MPI_Op op, int root, MPI_Comm inter, MPI_Comm local);
int coll_inter_allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm inter, MPI_Comm local);
/* Reduce_scatter; Reduce_scatter_block passes recvcounts NULL and its recvcount. */
int coll_inter_reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                              int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm inter,
                              MPI_Comm local);

#endif
