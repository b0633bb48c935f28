/*
 * coll.h — what every collective algorithm shares: the kinds of collective, the requirements
 * an algorithm may have (as data, checked by the dispatcher, never inside the algorithm), the
 * explicit parameters of segmented or k-ary algorithms, and one function type per collective.
 *
 * Every algorithm is `coll_<collective>_<name>` in src/coll/<collective>/<collective>_<name>.c
 * with the collective's MPI C signature followed by `const struct coll_params *`. It uses only
 * standard MPI calls (point-to-point, MPI_Reduce_local, datatype and communicator queries,
 * other algorithms' functions), so the same file compiles against a real MPI library.
 *
 * Conventions every algorithm keeps:
 *  - the communicator it gets is private to the collective (the dispatcher passes the hidden
 *    collective twin), so any tag may be used; no MPI_ANY_SOURCE, no MPI_ANY_TAG;
 *  - a reduction combines in MPI's operand order: MPI_Reduce_local(a, b) computes b = a ∘ b,
 *    so `a` must hold the contribution of lower ranks; an algorithm that can keep rank order
 *    for a non-commutative op must, and one that cannot declares COLL_REQ_COMMUTATIVE;
 *  - count 0 and a single rank are legal and must work; every root must work;
 *  - MPI_IN_PLACE reaches the algorithm only if its row declares COLL_IN_PLACE; otherwise the
 *    dispatcher turns it into an ordinary call first;
 *  - errors: return the MPI error code of the first failing call (goto out_<what> cleanup).
 */
#ifndef COLLSIM_COLL_H
#define COLLSIM_COLL_H

#include "mpi.h"

enum coll_kind {
    COLL_BARRIER,
    COLL_BCAST,
    COLL_GATHER,
    COLL_GATHERV,
    COLL_SCATTER,
    COLL_SCATTERV,
    COLL_ALLGATHER,
    COLL_ALLGATHERV,
    COLL_ALLTOALL,
    COLL_ALLTOALLV,
    COLL_ALLTOALLW,
    COLL_REDUCE,
    COLL_ALLREDUCE,
    COLL_REDUCE_SCATTER,
    COLL_REDUCE_SCATTER_BLOCK,
    COLL_SCAN,
    COLL_EXSCAN,
    COLL_KIND_COUNT
};

/* Requirements, checked by the dispatcher before an algorithm is chosen or forced. */
enum coll_requirement {
    COLL_REQ_COMMUTATIVE = 1 << 0,   /* combines out of rank order: commutative ops only */
    COLL_REQ_POWER_OF_TWO = 1 << 1,  /* the communicator size must be a power of two */
    COLL_REQ_COUNT_GE_SIZE = 1 << 2, /* count must be at least the communicator size */
    COLL_REQ_CONTIGUOUS = 1 << 3,    /* datatype must be contiguous (true extent == size) */
    COLL_REQ_EVEN_RANKS = 1 << 4,    /* the communicator size must be even */
    COLL_REQ_NODE_BLOCKS = 1 << 5,   /* a non-commutative op needs each node's ranks
                                      * consecutive (node-aware reductions) */
    COLL_REQ_TWO_RANKS = 1 << 6,     /* exactly two ranks (the libraries' two_proc forms) */
    COLL_REQ_TOTAL_FITS_INT = 1 << 7, /* the call's bytes x ranks fit an int: a message (or a
                                       * count) carries up to every rank's data at once */
};

/* Capabilities. */
enum coll_capability {
    COLL_IN_PLACE = 1 << 0,          /* handles MPI_IN_PLACE itself */
    COLL_SEGMENTED = 1 << 1,         /* uses coll_params.segment_bytes */
    COLL_RADIX = 1 << 2,             /* uses coll_params.radix */
    COLL_NODE_AWARE = 1 << 3,        /* learns the node layout in its first call on a
                                      * communicator (benchmarks warm it up untimed) */
    COLL_READS_DATA = 1 << 4,        /* acts on values it receives in scratch buffers (block
                                      * sizes packed with the data): cannot run without
                                      * payload data */
};

/* Explicit parameters of an algorithm; the registry row gives the defaults. */
struct coll_params {
    int segment_bytes;   /* pipelined algorithms: bytes per segment (> 0) */
    int radix;           /* k-nomial / k-ary trees: fan-out (>= 2) */
};

typedef int coll_barrier_fn(MPI_Comm comm, const struct coll_params *params);
typedef int coll_bcast_fn(void *buffer, int count, MPI_Datatype datatype, int root,
                          MPI_Comm comm, const struct coll_params *params);
typedef int coll_gather_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                           MPI_Comm comm, const struct coll_params *params);
typedef int coll_gatherv_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int displs[],
                            MPI_Datatype recvtype, int root, MPI_Comm comm,
                            const struct coll_params *params);
typedef int coll_scatter_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                            void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                            MPI_Comm comm, const struct coll_params *params);
typedef int coll_scatterv_fn(const void *sendbuf, const int sendcounts[], const int displs[],
                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                             MPI_Datatype recvtype, int root, MPI_Comm comm,
                             const struct coll_params *params);
typedef int coll_allgather_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                              void *recvbuf, int recvcount, MPI_Datatype recvtype,
                              MPI_Comm comm, const struct coll_params *params);
typedef int coll_allgatherv_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                               void *recvbuf, const int recvcounts[], const int displs[],
                               MPI_Datatype recvtype, MPI_Comm comm,
                               const struct coll_params *params);
typedef int coll_alltoall_fn(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                             void *recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                             const struct coll_params *params);
typedef int coll_alltoallv_fn(const void *sendbuf, const int sendcounts[], const int sdispls[],
                              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                              const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm,
                              const struct coll_params *params);
typedef int coll_alltoallw_fn(const void *sendbuf, const int sendcounts[], const int sdispls[],
                              const MPI_Datatype sendtypes[], void *recvbuf,
                              const int recvcounts[], const int rdispls[],
                              const MPI_Datatype recvtypes[], MPI_Comm comm,
                              const struct coll_params *params);
typedef int coll_reduce_fn(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params);
typedef int coll_allreduce_fn(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              const struct coll_params *params);
typedef int coll_reduce_scatter_fn(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                   const struct coll_params *params);
typedef int coll_reduce_scatter_block_fn(const void *sendbuf, void *recvbuf, int recvcount,
                                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                         const struct coll_params *params);
typedef int coll_scan_fn(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, const struct coll_params *params);
typedef coll_scan_fn coll_exscan_fn;

#endif
