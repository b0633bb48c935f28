/*
 * coll_kinds.h — the table of collective kinds: what generic code needs to know about each
 * collective without switching on its kind.
 *
 * Each collective has one home, src/coll/<collective>/: its algorithms (one file each), its
 * kind descriptor (<collective>.c: names, traits, the default decision as data, how its
 * arguments reach an algorithm and the MPI function) and collsim's MPI entry point
 * (mpi_<collective>.c: the argument checks, then coll_dispatch). This header and the kind
 * files use only standard MPI, so they compile against a real MPI library as the algorithms
 * do (tests/realmpi); the entry points do not.
 *
 * A call's arguments travel in one struct coll_args whatever the collective: each kind reads
 * the fields its MPI signature has and ignores the others (they stay zero or NULL).
 */
#ifndef COLLSIM_COLL_KINDS_H
#define COLLSIM_COLL_KINDS_H

#include <stddef.h>

#include "coll.h"

struct coll_algorithm;

/* Every argument any collective takes, named as in the MPI standard's C bindings. The int
 * fields come last: with no padding between pointers and ints the struct takes 120 bytes, not
 * 136, in every collective call's frame (a stopped rank's frames are copied at each switch). */
struct coll_args {
    void *buffer; /* Bcast */
    const void *sendbuf;
    void *recvbuf;
    MPI_Datatype datatype; /* Bcast and the reductions */
    MPI_Op op;
    const int *sendcounts;
    const int *sdispls; /* Scatterv's displs */
    MPI_Datatype sendtype;
    const MPI_Datatype *sendtypes;
    const int *recvcounts; /* also Reduce_scatter's */
    const int *rdispls;    /* Gatherv's and Allgatherv's displs */
    MPI_Datatype recvtype;
    const MPI_Datatype *recvtypes;
    int count; /* Bcast and the reductions */
    int root;
    int sendcount;
    int recvcount; /* also Reduce_scatter_block's */
};

/* What a collective is, as generic code asks it. */
enum coll_trait {
    COLL_TRAIT_ROOTED = 1 << 0,       /* has a root argument */
    COLL_TRAIT_REDUCES = 1 << 1,      /* applies an op (commutativity matters) */
    COLL_TRAIT_IN_PLACE = 1 << 2,     /* the standard allows MPI_IN_PLACE (rooted: at the root) */
    COLL_TRAIT_MOVES_BLOCKS = 1 << 3, /* moves one block per rank (gather, scatter, all-to-...) */
    COLL_TRAIT_VECTOR = 1 << 4,       /* per-rank counts (the v and w forms, Reduce_scatter) */
    COLL_TRAIT_IN_PLACE_RECVBUF = 1 << 5, /* MPI_IN_PLACE is passed as recvbuf (Scatter(v)),
                                           * not as sendbuf */
    COLL_TRAIT_PREFIX = 1 << 6,    /* a reduction whose rank i holds the fold of ranks 0..i */
    COLL_TRAIT_EXCLUSIVE = 1 << 7, /* a prefix without the rank itself (Exscan) */
    COLL_TRAIT_TO_ROOT = 1 << 8,   /* only the root receives a result (Reduce, Gather(v)) */
    COLL_TRAIT_GATHERS = 1 << 9,   /* a receiver gets one block from every rank */
    COLL_TRAIT_SCATTERS = 1 << 10, /* a receiver gets its own block of the sender's data */
    COLL_TRAIT_NO_DATA = 1 << 11,  /* moves no data (Barrier) */
};

/*
 * One line of a default decision: when every condition holds, `algorithm` is the choice.
 * Conditions left at zero do not restrict. A kind's rules are tried in order and the first
 * that matches decides (the style of the decision tables Open MPI's coll_tuned and MPICH's
 * JSON selection files ship); the last rule has no condition. If the chosen algorithm cannot
 * serve the call, the first registry row of the kind that can serves (coll_select.c). Bytes
 * are the call's coll_call.bytes (per rank; see coll_select.h), or that times the ranks for
 * COLL_RULE_TOTAL.
 */
enum coll_rule_condition {
    COLL_RULE_POF2 = 1 << 0,           /* the communicator size is a power of two */
    COLL_RULE_NONCOMMUTATIVE = 1 << 1, /* the op is not commutative */
    COLL_RULE_COUNT_GE_SIZE = 1 << 2,  /* count >= communicator size */
    COLL_RULE_TOTAL = 1 << 3,          /* the byte bounds apply to bytes × ranks */
};

struct coll_rule {
    unsigned when;         /* enum coll_rule_condition flags */
    size_t over_bytes;     /* bytes > over_bytes (0: no bound) */
    size_t below_bytes;    /* bytes < below_bytes (0: no bound) */
    size_t upto_bytes;     /* bytes <= upto_bytes (0: no bound) */
    int min_ranks;         /* ranks >= min_ranks */
    int below_ranks;       /* ranks < below_ranks (0: no upper bound) */
    const char *algorithm; /* a registry name of the kind */
};

struct coll_kind_desc {
    enum coll_kind kind;
    const char *name;     /* "allreduce": the MPI name without MPI_, lower case */
    const char *mpi_name; /* "MPI_Allreduce" */
    unsigned traits;      /* enum coll_trait flags */
    /* The default decision, ending with an unconditional rule; see struct coll_rule. */
    const struct coll_rule *rules;
    size_t rule_count;
    /* The reproducible mode's pinned, order-preserving algorithm (coll_select.h), or NULL. */
    const char *reproducible;
    /* Run `row`'s algorithm with the call's arguments on `comm`. */
    int (*invoke)(const struct coll_algorithm *row, const struct coll_args *args, MPI_Comm comm,
                  const struct coll_params *params);
    /* Call the collective's MPI function with these arguments (`kind`: for the calls that
     * kinds of the same argument shape share, coll_call_* below). */
    int (*call)(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);
    /*
     * Turn a call that passes MPI_IN_PLACE into an ordinary one, for an algorithm that does
     * not take it: the buffer the standard reads in place is copied (*mem, to free after the
     * call) or pointed at. NULL for kinds without MPI_IN_PLACE. Returns an MPI error code.
     */
    int (*resolve_in_place)(struct coll_args *args, MPI_Comm comm, void **mem);
};

/* A kind file's rules as its descriptor takes them: the array and its length. */
#define COLL_RULES(array) .rules = (array), .rule_count = sizeof(array) / sizeof((array)[0])

/* The kind's descriptor; kind must be valid. */
const struct coll_kind_desc *coll_kind_info(enum coll_kind kind);

/* "reduce", "allreduce", ... (the MPI name without MPI_, lower case), and back. */
const char *coll_kind_name(enum coll_kind kind);
int coll_kind_from_name(const char *name, enum coll_kind *kind);
/* "MPI_Reduce", ... */
const char *coll_kind_mpi_name(enum coll_kind kind);
/* Whether the kind has every trait of `traits`. */
int coll_kind_has(enum coll_kind kind, unsigned traits);
/*
 * The sequential reference of a reduction, rank by rank: whose contributions rank `rank`'s
 * result folds, in rank order — ranks *first..*last (the whole communicator, a prefix for
 * Scan and Exscan). Returns 0 where the result is not defined (Reduce's non-roots, Exscan's
 * rank 0). For Reduce_scatter(_block) the span is that of the rank's own block.
 */
int coll_kind_fold_span(enum coll_kind kind, int rank, int root, int size, int *first, int *last);
/*
 * The sequential reference of a collective that moves data unchanged: how many blocks rank
 * `rank` receives (0: none; one block = the call's per-rank count), and where its block
 * `block` comes from: block *from_block of rank *from's send data (Bcast: the root's only
 * block; Scatter: the root's block `rank`; Gather, Allgather: rank `block`'s only block;
 * Alltoall: block `rank` of rank `block`).
 */
int coll_kind_blocks_received(enum coll_kind kind, int rank, int root, int size);
void coll_kind_block_source(enum coll_kind kind, int rank, int block, int root, int *from,
                            int *from_block);
/* Does this kind reduce with an op (and so care about commutativity)? */
int coll_kind_reduces(enum coll_kind kind);

/* The collective's MPI function called with `args`: what the kind's `call` does. */
int coll_kind_call(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);

/*
 * Kinds whose algorithms and MPI functions take the same arguments share the calls that unpack
 * them: Gather and Scatter (rooted_blocks), Allgather and Alltoall (every_block), Allreduce,
 * Scan and Exscan (everyone_reduces). The row's or the argument's kind picks the function.
 */
int coll_invoke_rooted_blocks(const struct coll_algorithm *row, const struct coll_args *args,
                              MPI_Comm comm, const struct coll_params *params);
int coll_call_rooted_blocks(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);
int coll_invoke_every_block(const struct coll_algorithm *row, const struct coll_args *args,
                            MPI_Comm comm, const struct coll_params *params);
int coll_call_every_block(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);
int coll_invoke_everyone_reduces(const struct coll_algorithm *row, const struct coll_args *args,
                                 MPI_Comm comm, const struct coll_params *params);
int coll_call_everyone_reduces(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm);

/*
 * MPI_IN_PLACE for an algorithm that does not take it, turned into an ordinary call (the
 * kinds' `resolve_in_place`); `args` as the MPI entry built it. *mem is what to free after
 * the call.
 *
 * _vector: the reductions (Reduce at its root, Allreduce, Scan, Exscan, Reduce_scatter and
 *   Reduce_scatter_block): sendbuf becomes a copy of the whole input vector in recvbuf.
 * _root_block: Gather(v) and Scatter(v): the root's own block is sent from, or received onto,
 *   its place in the root's buffer; nothing is copied.
 * _own_block: Allgather(v): sendbuf becomes a copy of this rank's block of recvbuf.
 * _all_blocks: Alltoall(v, w): sendbuf becomes a copy of recvbuf's blocks, at the same places.
 */
int coll_resolve_in_place_vector(struct coll_args *args, MPI_Comm comm, void **mem);
/* The items of a reduction's input vector on each rank: count, or for Reduce_scatter(_block)
 * every rank's block (what MPI_IN_PLACE holds in the receive buffer). */
int coll_reduction_input_items(const struct coll_args *args, MPI_Comm comm);
int coll_resolve_in_place_root_block(struct coll_args *args, MPI_Comm comm, void **mem);
int coll_resolve_in_place_own_block(struct coll_args *args, MPI_Comm comm, void **mem);
int coll_resolve_in_place_all_blocks(struct coll_args *args, MPI_Comm comm, void **mem);

/* The kind descriptors, one per home. */
extern const struct coll_kind_desc coll_kind_barrier, coll_kind_bcast, coll_kind_gather,
    coll_kind_gatherv, coll_kind_scatter, coll_kind_scatterv, coll_kind_allgather,
    coll_kind_allgatherv, coll_kind_alltoall, coll_kind_alltoallv, coll_kind_alltoallw,
    coll_kind_reduce, coll_kind_allreduce, coll_kind_reduce_scatter, coll_kind_reduce_scatter_block,
    coll_kind_scan, coll_kind_exscan;

/* Reduce_scatter's decision, which Reduce_scatter_block shares (the block form is the general
 * one with equal counts, and its algorithms are the general ones'). */
extern const struct coll_rule coll_reduce_scatter_rules[3];
/* Allgather's decision, which Allgatherv shares (MPICH decides both alike, on the total). */
extern const struct coll_rule coll_allgather_rules[3];

#endif
