/*
 * comm.h — communicators: intra-communicators and inter-communicators.
 *
 * A communicator object is shared by all its members (the simulated ranks live in one
 * address space): its group, its context id and its hidden collective twin. Point-to-point
 * messages travel in `context`, collective ones in `coll->context`, so the two never match.
 * The object is freed when every member has freed it.
 *
 * Twins: every communicator's `coll` is an internal communicator with the same group and
 * context + 1 (contexts are allocated in pairs). A twin is its own twin (`coll` points to
 * itself, so a collective algorithm that calls another collective stays on it), and its
 * `owner` is the communicator it serves; errors raised on a twin go to the owner's handler.
 *
 * Inter-communicators: the two groups see different local groups, so an inter-communicator is
 * TWO objects, one per side, each shared by the members of its side: `group` is the side's
 * own (local) group, `remote_group` the other side's, `inter` is set (on the twin too). Both
 * sides use the same contexts (c point-to-point, c + 1 on the twins): a message is matched by
 * context and sender's world rank, and the groups are disjoint. A peer rank (dest, source,
 * root on the other side) names a rank of the remote group (collsim_comm_peer_world_rank);
 * status.MPI_SOURCE is the sender's rank in its own group. `local_comm` is a hidden
 * intra-communicator over `group` with contexts of its own (MPICH's local_comm), owned by the
 * side; the collective algorithms on inter-communicators (src/coll/inter/) run their group's
 * part on it. Each side's object, and its local_comm, is destroyed by its own last member.
 */
#ifndef COLLSIM_COMM_H
#define COLLSIM_COMM_H

#include <stdint.h>

#include "mpi.h"

#define COLLSIM_COMM_MAGIC 0x436f6d6du /* "Comm" */

struct collsim_comm {
    uint32_t magic;          /* COLLSIM_COMM_MAGIC while it lives (first: see handles.h) */
    int predefined;
    int live_members;        /* members that have not freed it yet */
    uint32_t context;        /* matching context of point-to-point traffic */
    MPI_Group group;
    MPI_Comm coll;           /* same group, another context: what collectives run on */
    MPI_Errhandler errhandler; /* NULL on twins: they use their owner's */
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Comm owner;          /* on a twin, the communicator it serves; NULL otherwise */
    MPI_Comm live_prev, live_next; /* created communicators still alive (for teardown) */
    struct collsim_attr_store *attrs; /* cached attributes, per rank (attr.c); NULL if none */
    int node_blocks;         /* 0 not yet known, 1 each node's members are consecutive, 2 not */
    struct coll_check_state *check; /* the collective-call checker's records (coll_check.c) */
    struct operation_twins *operations; /* its nonblocking collectives' twins (comm.c) */
    unsigned operation_index; /* on an operation twin: which of its owner's operations */
    struct collsim_topo *topo; /* process topology (topo.c); NULL if none, always on twins */
    int inter;               /* an inter-communicator's side (or its twin) */
    MPI_Group remote_group;  /* inter: the other side's group; NULL otherwise */
    MPI_Comm local_comm;     /* inter: intra-comm over `group` (on a side; on an operation
                              * twin, the operation's own, see collsim_comm_operation_local) */
    struct inter_operations *inter_ops; /* inter, on both sides: their operations' contexts */
};

/*
 * Tags of collsim's own traffic, on a parent communicator's twin (root = rank 0 of it).
 * User tags are >= 0 and MPI_ANY_TAG is -1, so none of these can be confused with user
 * traffic; the transport accepts tags <= COLLSIM_TAG_INTERNAL_MAX on internal communicators
 * only. Each constructor has its own tags so that ranks calling different constructors
 * deadlock visibly instead of mixing their data.
 */
#define COLLSIM_TAG_INTERNAL_MAX (-1000)
#define COLLSIM_TAG_SPLIT_GATHER (-1001)   /* MPI_Comm_split: (color, key, check, err) */
#define COLLSIM_TAG_SPLIT_SCATTER (-1002)  /* MPI_Comm_split: header + new comm pointers */
#define COLLSIM_TAG_CREATE_GATHER (-1003)  /* MPI_Comm_create, same layouts as split */
#define COLLSIM_TAG_CREATE_SCATTER (-1004)
#define COLLSIM_TAG_DUP_BCAST (-1005)      /* MPI_Comm_dup: header + the new comm pointer */
#define COLLSIM_TAG_SPLIT_TYPE_GATHER (-1006)  /* MPI_Comm_split_type, same layouts as split */
#define COLLSIM_TAG_SPLIT_TYPE_SCATTER (-1007)
#define COLLSIM_TAG_CREATE_GROUP_BCAST (-1008) /* MPI_Comm_create_group: header + pointer */
#define COLLSIM_TAG_INTER_BCAST (-1009)    /* MPI_Intercomm_create: header + side pointer */
#define COLLSIM_TAG_INTER_DUP (-1010)      /* dup of an inter-comm: leader to leader, bcast */
#define COLLSIM_TAG_MERGE_EXCHANGE (-1011) /* MPI_Intercomm_merge: leaders swap `high` */
#define COLLSIM_TAG_MERGE_BCAST (-1012)    /* MPI_Intercomm_merge: header + the new comm */

/* First context id handed to created communicators (0/1 world, 2/3 self). */
#define COLLSIM_CONTEXT_FIRST_FREE 4u

/*
 * Set up MPI_COMM_WORLD and MPI_COMM_SELF for a world of `size` ranks (engine start-up).
 * Before any setup (unit tests of src/) the world is the default runtime's single process.
 * Teardown frees every communicator still alive, restores the predefined ones (handlers,
 * names) and the context counter; setup does a teardown first.
 */
void collsim_comm_world_setup(int size);
void collsim_comm_world_teardown(void);

/* MPI_SUCCESS if comm is a usable communicator handle (a live registered communicator: a
 * pointer never set, freed, or to an object of another kind is not read), else MPI_ERR_COMM. */
int collsim_comm_check(MPI_Comm comm);
/* A communicator argument of `call`: the calling rank between MPI_Init and MPI_Finalize, and
 * collsim_comm_check; else the error through the handler ("invalid communicator"). */
int collsim_comm_arg(MPI_Comm comm, const char *call);
/* collsim_comm_arg for a call that communicates: refused first inside a user-defined
 * reduction function (collsim_check_communication). */
int collsim_comm_arg_communicating(MPI_Comm comm, const char *call);
int collsim_comm_size(MPI_Comm comm);
/* Local rank of the calling process in comm (MPI_UNDEFINED if not a member). */
int collsim_comm_my_rank(MPI_Comm comm);
/* World rank of a local rank (MPI_UNDEFINED if out of range). */
int collsim_comm_world_rank(MPI_Comm comm, int local_rank);
/* Local rank of a world rank (MPI_UNDEFINED if not a member). O(log size). */
int collsim_comm_local_rank(MPI_Comm comm, int world_rank);
/* The ranks point-to-point names (dest, source): the remote group on an inter-communicator,
 * the group otherwise. Its size, and the world rank of one of its ranks (MPI_UNDEFINED if out
 * of range). */
int collsim_comm_peer_size(MPI_Comm comm);
int collsim_comm_peer_world_rank(MPI_Comm comm, int peer_rank);
/* True on an inter-communicator (either side, or its twins). */
int collsim_comm_is_inter(MPI_Comm comm);
/* An inter-communicator's hidden local intra-communicator (NULL on an intra-communicator). */
MPI_Comm collsim_comm_inter_local(MPI_Comm comm);

/* MPI_Finalize on the calling rank: run its delete callbacks on MPI_COMM_SELF (MPI-3.1
 * §8.7.1) and on the hidden twins, where collsim's own algorithms cache their state. */
int collsim_comm_finalize_rank(void);

/* Created communicators not yet destroyed by their last member (leak checks, tests). */
int collsim_comm_live_count(void);

/* True if the members of every node (simulated host) are consecutive ranks of comm: a
 * node-aware reduction then keeps rank order. Computed once per communicator. */
int collsim_comm_node_blocks(MPI_Comm comm);

/*
 * Nonblocking collectives: the k-th one each member starts on comm runs on operation twin k,
 * an internal communicator with comm's group and a context of its own (a twin's, odd), whose
 * `owner` is comm. Members reach the same twin because MPI makes them start their
 * collectives on a communicator in the same order. The first member to start operation k
 * creates its twin; each member lets go of it when its part of the operation has ended (its
 * attributes' delete callbacks run then), and the last one destroys it.
 */
MPI_Comm collsim_comm_operation_twin(MPI_Comm comm);
void collsim_comm_operation_done(MPI_Comm twin);
/* A member uses a twin it holds for one operation more (each MPI_Start of a persistent
 * collective, whose twin its init call took): one more operation_done before it goes. */
void collsim_comm_operation_again(MPI_Comm twin);
/* On an inter-communicator's operation twin: the operation's hidden intra-communicator over
 * the caller's group (operations in flight together never share one). */
MPI_Comm collsim_comm_operation_local(MPI_Comm twin);

/* True for a hidden collective twin (allowed to use the reserved negative tags). */
int collsim_comm_is_internal(MPI_Comm comm);
/* The communicator the user sees: a twin's owner, else comm itself (NULL stays NULL). */
MPI_Comm collsim_comm_visible(MPI_Comm comm);

#endif
