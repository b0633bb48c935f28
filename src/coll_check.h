/*
 * coll_check.h — the collective-call checker: every member of a communicator must make the
 * same collective calls in the same order, with the same root and op, and with type
 * signatures that match (MPI-3.1 §5.1, §5.12). A program that breaks the rule is erroneous;
 * under a real MPI it hangs, crashes or, worse, computes something. collsim stops it at the
 * first mismatch and prints every rank's call at that position.
 *
 * How: the members of a communicator share its object (comm.h), so each call is compared
 * with what the other members passed at the same position (their n-th collective call on that
 * communicator), in simulated-time order of arrival. Signatures are compared in bytes (count
 * times the type's packed size), each argument where the standard says it is significant:
 * a root's receive arguments for gather, its send arguments for scatter, every pair of ranks
 * for alltoallv.
 */
#ifndef COLLSIM_COLL_CHECK_H
#define COLLSIM_COLL_CHECK_H

#include <glib.h>

#include "mpi.h"

/* Exit status of a run stopped by the checker (sim/engine/engine.h: SIM_EXIT_MISMATCH). */
#define COLL_CHECK_EXIT 7

/* How the members' byte counts must agree. */
enum coll_check_rule {
    COLL_CHECK_NONE,       /* barrier, communicator constructors: the call itself only */
    COLL_CHECK_EQUAL,      /* `bytes` equal on every rank (bcast, reductions) */
    COLL_CHECK_BLOCKS,     /* allgather, alltoall: `bytes` (sent per block) and `recv_bytes`
                              (received per block) equal on every rank, and equal to each other */
    COLL_CHECK_TO_ROOT,    /* gather: each rank's `bytes` sent = the root's `recv_bytes`;
                              scatter: each rank's `recv_bytes` = the root's `bytes` */
    COLL_CHECK_FROM_ROOT,
    COLL_CHECK_ROOT_V,     /* gatherv, scatterv: each rank's `bytes` = `per_rank[rank]` of the
                              root */
    COLL_CHECK_SAME_V,     /* allgatherv, reduce_scatter: `per_rank` identical on every rank;
                              allgatherv: each rank's `bytes` = its own `per_rank[rank]` */
    COLL_CHECK_PAIRWISE,   /* alltoallv, alltoallw: `per_rank[j]` bytes sent to j must equal
                              what j expects from this rank, its `recv_per_rank[i]` */
};

/* One rank's call, as compared with the others'. */
struct coll_check_call {
    const char *name;          /* "MPI_Bcast": a static string */
    enum coll_check_rule rule;
    int root;                  /* -1: not rooted */
    MPI_Op op;                 /* MPI_OP_NULL: not a reduction */
    int count;                 /* shown in messages (-1: none) */
    MPI_Datatype type;         /* shown in messages (MPI_DATATYPE_NULL: none) */
    long long bytes;           /* see the rules; -1 where not significant (MPI_IN_PLACE) */
    long long recv_bytes;
    const long long *per_rank; /* `size` entries, or NULL where not significant */
    const long long *recv_per_rank;
    const void *caller;        /* the user code's return address, or NULL */
};

/*
 * Record the calling rank's call on comm and compare it with the other members' calls at the
 * same position. On a mismatch, print every member's call at that position and end the run
 * (exit status COLL_CHECK_EXIT). Internal communicators (collective twins) are not checked: what runs on
 * them is collsim's own algorithms, identical on every rank by construction.
 */
void coll_check_enter(MPI_Comm comm, const struct coll_check_call *call);

/*
 * For a deadlock report: the latest collective call of a world rank on comm, as
 * "MPI_Bcast(count=1, datatype=MPI_INT, root=0) ..., its call #2 on MPI_COMM_WORLD".
 * FALSE (nothing written) if it made none that the checker saw.
 */
gboolean coll_check_describe_rank(MPI_Comm comm, int world_rank, GString *out);

/* Switch the checker off (collsim exec --no-check) or on; on by default. */
void coll_check_set_enabled(int enabled);
int coll_check_enabled(void);

/*
 * End of a run: report every collective call that some members of a live communicator made
 * and others never did ("rank 0 called MPI_Bcast ...; ranks 1-3 never made this call").
 * Returns the number of such calls reported (0: all matched). Frees the checker's state.
 */
int coll_check_finish(void);

/* A communicator is destroyed (its members have all freed it): report the calls not every
 * member made on it (counted by the next coll_check_finish) and drop its state. */
void coll_check_forget(MPI_Comm comm);

/* Drop every state without reporting (a new world is set up). */
void coll_check_reset(void);

#endif
