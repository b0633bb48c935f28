/*
 * comm.c — communicators: the predefined ones, queries, and the collective constructors.
 *
 * One address space holds every simulated rank, so a communicator is ONE object shared by
 * all its members: MPI_Comm_split builds one object per color and hands every member the
 * same pointer. `live_members` counts the members that have not freed it; the last
 * MPI_Comm_free destroys it with its twin and drops its group and handler references.
 * Attributes that MPI keeps per process (the error handler, the name) are therefore shared:
 * the last member to set one sets it for all.
 *
 * Contexts: MPI_COMM_WORLD uses 0 (point-to-point) and 1 (its collective twin),
 * MPI_COMM_SELF 2 and 3; created communicators get pairs (c, c + 1) from a counter starting
 * at COLLSIM_CONTEXT_FIRST_FREE. Only the constructor's root (rank 0 of the parent) takes
 * contexts, in increasing color order, so the numbering is as deterministic as the
 * simulation. Contexts are not reused; running out (2^31 communicators) is MPI_ERR_INTERN.
 *
 * MPI_COMM_SELF is a single object too: its group is caller-relative (see group.h), so its
 * size is 1, the caller's rank is 0 and rank 0's world rank is the caller's.
 *
 * The constructors talk through the public point-to-point calls only, on the parent's twin
 * (parent->coll), root = rank 0, with reserved negative tags (comm.h):
 *
 *   MPI_Comm_split / MPI_Comm_create
 *     1. binomial gather to rank 0 of one record per rank, 4 MPI_INTs (color, key, check, err),
 *        in rank order: in round mask = 1, 2, 4, ... a rank r with r & mask sends what it holds
 *        (ranks r .. r + min(mask, P - r) - 1) to r - mask and stops; otherwise it receives
 *        min(mask, P - r - mask) records from r + mask. Tag SPLIT_GATHER / CREATE_GATHER.
 *     2. rank 0 checks the records, builds one communicator per color (members ordered by
 *        key, then parent rank), and fills a table: a 3-MPI_Aint header (code, culprit rank,
 *        reason) followed by one MPI_Aint per parent rank: its new communicator's address,
 *        or 0 for MPI_COMM_NULL.
 *     3. binomial scatter of that table: each message is the header followed by the slice of
 *        the receiver's subtree (ranks dst .. dst + min(mask, P - dst) - 1). A receiver probes
 *        before allocating, so ranks hold memory only while they hold data.
 *        Tag SPLIT_SCATTER / CREATE_SCATTER.
 *   MPI_Comm_dup
 *     rank 0 builds the communicator (same group, new contexts) and a binomial broadcast
 *     sends the 4-MPI_Aint message (code, culprit, reason, address). Tag DUP_BCAST.
 *
 * P - 1 messages per tree, O(P log P) bytes in all, O(P) memory at the root and O(P) in
 * total at any time: the constructors work at a million ranks. A rank whose own arguments
 * are invalid reports its error and still takes part, so every rank leaves the call (with
 * an error) instead of waiting forever. The messages carry addresses: the transport must move
 * real bytes for these tags even when the run moves sizes only.
 *
 * Inter-communicators (two objects, one per group, each with a hidden local communicator; see
 * comm.h) are built the same way by MPI_Intercomm_create, their dup and MPI_Intercomm_merge:
 * the two groups' leaders meet, one of them makes the objects, and each leader broadcasts its
 * side over its group (section "inter-communicators" below).
 *
 * MPI_Comm_create follows MPI-2.2: ranks may pass different, disjoint groups (MPI-1's single
 * group is a special case). It is a split with color = parent rank of the group's rank 0 and
 * key = rank in the group; rank 0 then checks that every color's keys are exactly 0..n-1 and
 * that all its members report the same group size n, i.e. that the groups agree and lie
 * inside the parent.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "attr.h"
#include "callsite.h"
#include "coll_check.h"
#include "comm.h"
#include "errhandler.h"
#include "group.h"
#include "handles.h"
#include "info.h"
#include "runtime.h"
#include "topo.h"

/* ---------------------------------------------------------------- predefined objects */

static struct collsim_group world_group = {
    .magic = COLLSIM_GROUP_MAGIC, .size = 1, .predefined = 1, .refcount = 1, .step = 1};
static struct collsim_group self_group = {.magic = COLLSIM_GROUP_MAGIC,
                                          .size = 1,
                                          .predefined = 1,
                                          .refcount = 1,
                                          .caller_relative = 1,
                                          .step = 1};

static struct collsim_comm world_coll;
static struct collsim_comm self_coll;

struct collsim_comm collsim_comm_world = {
    .magic = COLLSIM_COMM_MAGIC,
    .predefined = 1,
    .live_members = 1,
    .context = 0,
    .group = &world_group,
    .coll = &world_coll,
    .errhandler = &collsim_errors_are_fatal,
    .name = "MPI_COMM_WORLD",
};

static struct collsim_comm world_coll = {
    .magic = COLLSIM_COMM_MAGIC,
    .predefined = 1,
    .live_members = 1,
    .context = 1,
    .group = &world_group,
    .coll = &world_coll,
    .owner = &collsim_comm_world,
    .name = "MPI_COMM_WORLD (collective)",
};

struct collsim_comm collsim_comm_self = {
    .magic = COLLSIM_COMM_MAGIC,
    .predefined = 1,
    .live_members = 1,
    .context = 2,
    .group = &self_group,
    .coll = &self_coll,
    .errhandler = &collsim_errors_are_fatal,
    .name = "MPI_COMM_SELF",
};

static struct collsim_comm self_coll = {
    .magic = COLLSIM_COMM_MAGIC,
    .predefined = 1,
    .live_members = 1,
    .context = 3,
    .group = &self_group,
    .coll = &self_coll,
    .owner = &collsim_comm_self,
    .name = "MPI_COMM_SELF (collective)",
};

static uint32_t next_context = COLLSIM_CONTEXT_FIRST_FREE;
static MPI_Comm live_head;   /* created communicators not yet destroyed */

/* ---------------------------------------------------------------- life cycle */

/* Take `pairs` context pairs; FALSE if the 32-bit space is used up. */
static gboolean
context_reserve(int pairs, uint32_t *first)
{
    uint64_t end = (uint64_t)next_context + 2u * (uint64_t)pairs;
    if (end > (uint64_t)UINT32_MAX + 1u)
        return FALSE;
    *first = next_context;
    next_context = (uint32_t)(end > UINT32_MAX ? UINT32_MAX : end);
    return TRUE;
}

/* A communicator and its twin on `group` (reference taken over) for `members` ranks. */
static MPI_Comm
comm_new(MPI_Group group, MPI_Errhandler errhandler, int members, uint32_t context)
{
    MPI_Comm twin = g_new0(struct collsim_comm, 1);
    MPI_Comm comm = g_new0(struct collsim_comm, 1);
    collsim_handle_add(comm);
    collsim_handle_add(twin);
    comm->magic = COLLSIM_COMM_MAGIC;
    twin->magic = COLLSIM_COMM_MAGIC;
    comm->live_members = members;
    comm->context = context;
    comm->group = group;
    comm->coll = twin;
    comm->errhandler = collsim_errhandler_ref(errhandler);
    twin->live_members = members;
    twin->context = context + 1;
    twin->group = collsim_group_ref(group);
    twin->coll = twin;
    twin->owner = comm;

    comm->live_next = live_head;
    if (live_head != NULL)
        live_head->live_prev = comm;
    live_head = comm;
    return comm;
}

/* ---------------------------------------------------------------- operation twins */

struct operation_twins {
    guint *started;          /* per member (local rank): nonblocking collectives started */
    GHashTable *by_index;    /* operation index -> its twin, while a member still uses it */
};

/*
 * The contexts of an inter-communicator's nonblocking collectives, shared by its two sides:
 * operation k of one side must meet operation k of the other, though each side makes (and
 * lets go of) its own twin, and one side's twin may come and go before the other side's first
 * member starts the operation (a gather's senders are done once their messages have left).
 * An entry lives until both sides' twins of the operation are gone.
 */
struct inter_operations {
    int sides;               /* sides not destroyed yet */
    GHashTable *by_index;    /* operation index -> struct inter_operation */
};

struct inter_operation {
    uint32_t context;        /* the pair both twins use (context + 1, odd) */
    int twins_left;          /* twins not destroyed yet, of the two */
};

static struct inter_operations *
inter_operations_new(void)
{
    struct inter_operations *io = g_new0(struct inter_operations, 1);
    io->sides = 2;
    io->by_index = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
    return io;
}

/* A side is destroyed: the last one frees the table (entries an erroneous program left). */
static void
inter_operations_release(struct inter_operations *io)
{
    if (io != NULL && --io->sides == 0) {
        g_hash_table_destroy(io->by_index);
        g_free(io);
    }
}

/* A hidden intra-communicator for one operation of an inter-communicator's side. */
static MPI_Comm
operation_local_new(MPI_Comm side, unsigned index, int size)
{
    uint32_t context;
    if (!context_reserve(1, &context))
        collsim_runtime->abort(collsim_error(side, MPI_ERR_INTERN, "MPI_Icollective",
                                             "out of communicator contexts"));
    MPI_Comm local = g_new0(struct collsim_comm, 1);
    collsim_handle_add(local);
    local->magic = COLLSIM_COMM_MAGIC;
    local->live_members = size;
    local->context = context + 1;
    local->group = collsim_group_ref(side->group);
    local->coll = local;
    local->owner = side;
    local->operation_index = G_MAXUINT; /* not in the side's table: it goes with its twin */
    g_snprintf(local->name, sizeof local->name, "%s (operation %u, local)", side->name, index);
    return local;
}

static void
operation_twin_free(MPI_Comm twin)
{
    coll_check_forget(twin);
    collsim_attr_store_free(twin);
    collsim_group_unref(twin->group);
    collsim_handle_remove(twin);
    twin->magic = 0;
    g_free(twin);
}

static void
operation_twin_destroy(MPI_Comm twin)
{
    if (twin->inter) {
        struct inter_operations *io = twin->owner->inter_ops;
        gpointer key = GUINT_TO_POINTER(twin->operation_index);
        struct inter_operation *op = g_hash_table_lookup(io->by_index, key);
        if (op != NULL && --op->twins_left == 0)
            g_hash_table_remove(io->by_index, key);
        collsim_group_unref(twin->remote_group);
        operation_twin_free(twin->local_comm);
    }
    operation_twin_free(twin);
}

/* The context of operation `index` of an inter-communicator, the same for both sides. */
static uint32_t
inter_operation_context(MPI_Comm side, guint index)
{
    struct inter_operations *io = side->inter_ops;
    struct inter_operation *op = g_hash_table_lookup(io->by_index, GUINT_TO_POINTER(index));
    if (op == NULL) {
        op = g_new0(struct inter_operation, 1);
        if (!context_reserve(1, &op->context))
            collsim_runtime->abort(collsim_error(side, MPI_ERR_INTERN, "MPI_Icollective",
                                                 "out of communicator contexts"));
        op->twins_left = 2;
        g_hash_table_insert(io->by_index, GUINT_TO_POINTER(index), op);
    }
    return op->context;
}

/* comm is destroyed (or a run ends): twins some member never let go of go with it. */
static void
operation_twins_free(MPI_Comm comm)
{
    struct operation_twins *ops = comm->operations;
    if (ops == NULL)
        return;
    GHashTableIter it;
    gpointer twin;
    g_hash_table_iter_init(&it, ops->by_index);
    while (g_hash_table_iter_next(&it, NULL, &twin))
        operation_twin_destroy(twin);   /* order does not matter: nothing is reported */
    g_hash_table_destroy(ops->by_index);
    g_free(ops->started);
    g_free(ops);
    comm->operations = NULL;
}

MPI_Comm
collsim_comm_operation_twin(MPI_Comm comm)
{
    int size = collsim_comm_size(comm);
    /* MPI_COMM_SELF is one object for every rank (group.h): each operation on it is private */
    gboolean private_twin = comm == MPI_COMM_SELF;
    if (comm->operations == NULL && !private_twin) {
        comm->operations = g_new0(struct operation_twins, 1);
        comm->operations->started = g_new0(guint, (gsize)size);
        comm->operations->by_index = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    struct operation_twins *ops = comm->operations;
    guint index = private_twin ? G_MAXUINT : ops->started[collsim_comm_my_rank(comm)]++;
    MPI_Comm twin =
        private_twin ? NULL : g_hash_table_lookup(ops->by_index, GUINT_TO_POINTER(index));
    if (twin != NULL)
        return twin;
    uint32_t context;
    if (comm->inter)
        context = inter_operation_context(comm, index);
    else if (!context_reserve(1, &context))
        collsim_runtime->abort(collsim_error(comm, MPI_ERR_INTERN, "MPI_Icollective",
                                             "out of communicator contexts"));
    twin = g_new0(struct collsim_comm, 1);
    collsim_handle_add(twin);
    twin->magic = COLLSIM_COMM_MAGIC;
    twin->live_members = size;
    twin->context = context + 1;   /* odd: collective traffic (see the reports in p2p.c) */
    twin->group = collsim_group_ref(comm->group);
    twin->coll = twin;
    twin->owner = comm;
    twin->operation_index = index;
    g_snprintf(twin->name, sizeof twin->name, "%s (operation %u)", comm->name, index);
    if (comm->inter) {
        twin->inter = 1;
        twin->remote_group = collsim_group_ref(comm->remote_group);
        twin->local_comm = operation_local_new(comm, index, size);
    }
    if (!private_twin)
        g_hash_table_insert(ops->by_index, GUINT_TO_POINTER(index), twin);
    return twin;
}

MPI_Comm
collsim_comm_operation_local(MPI_Comm twin)
{
    return twin->local_comm;
}

void
collsim_comm_operation_again(MPI_Comm twin)
{
    twin->live_members++;
}

static void comm_destroy(MPI_Comm comm);

/* Whether comm has operations whose twins live: MPI_Comm_free lets pending operations
 * complete (MPI-3.1 6.4.3), so a communicator every member freed goes after its last one. */
static gboolean
operations_in_flight(MPI_Comm comm)
{
    return comm->operations != NULL && g_hash_table_size(comm->operations->by_index) > 0;
}

void
collsim_comm_operation_done(MPI_Comm twin)
{
    collsim_attr_delete_all(twin);
    if (twin->inter)
        collsim_attr_delete_all(twin->local_comm);
    if (--twin->live_members > 0)
        return;
    MPI_Comm owner = twin->owner;
    if (twin->operation_index != G_MAXUINT)
        g_hash_table_remove(owner->operations->by_index, GUINT_TO_POINTER(twin->operation_index));
    operation_twin_destroy(twin);
    if (!owner->predefined && owner->live_members == 0 && !operations_in_flight(owner))
        comm_destroy(owner); /* freed by every member while this operation ran */
}

/* ---------------------------------------------------------------- destruction */

static void
comm_destroy(MPI_Comm comm)
{
    operation_twins_free(comm);
    if (comm->live_prev != NULL)
        comm->live_prev->live_next = comm->live_next;
    else
        live_head = comm->live_next;
    if (comm->live_next != NULL)
        comm->live_next->live_prev = comm->live_prev;
    coll_check_forget(comm);
    collsim_topo_free(comm->topo);
    collsim_attr_store_free(comm->coll);
    collsim_attr_store_free(comm);
    if (comm->inter) {
        collsim_group_unref(comm->remote_group);
        collsim_group_unref(comm->coll->remote_group);
        inter_operations_release(comm->inter_ops);
    }
    collsim_group_unref(comm->coll->group);
    collsim_handle_remove(comm->coll);
    collsim_handle_remove(comm);
    comm->coll->magic = 0;
    comm->magic = 0;
    g_free(comm->coll);
    collsim_group_unref(comm->group);
    collsim_errhandler_unref(comm->errhandler);
    g_free(comm);
}

/* One member lets go of a created communicator; the last one destroys it (an
 * inter-communicator's side with its local communicator, which no member holds). */
static void
comm_release(MPI_Comm comm)
{
    MPI_Comm local = comm->local_comm;
    if (local != NULL && --local->live_members == 0)
        comm_destroy(local);
    collsim_handle_let_go(comm);
    if (--comm->live_members == 0 && !operations_in_flight(comm))
        comm_destroy(comm); /* else the last operation in flight destroys it */
}

static void
reset_predefined(MPI_Comm comm, const char *name, int members)
{
    collsim_errhandler_unref(comm->errhandler);
    comm->errhandler = MPI_ERRORS_ARE_FATAL;
    comm->live_members = members;
    comm->coll->live_members = members;
    comm->node_blocks = 0; /* the next run may place ranks differently */
    comm->coll->node_blocks = 0;
    g_strlcpy(comm->name, name, sizeof comm->name);
}

void
collsim_comm_world_teardown(void)
{
    coll_check_reset();
    collsim_handles_forget_holds();
    while (live_head != NULL)
        comm_destroy(live_head);
    operation_twins_free(&collsim_comm_world);
    operation_twins_free(&collsim_comm_self);
    collsim_attr_store_free(&collsim_comm_world);
    collsim_attr_store_free(&world_coll);
    collsim_attr_store_free(&collsim_comm_self);
    collsim_attr_store_free(&self_coll);
    collsim_attr_teardown();
    world_group.size = 1;
    reset_predefined(&collsim_comm_world, "MPI_COMM_WORLD", 1);
    reset_predefined(&collsim_comm_self, "MPI_COMM_SELF", 1);
    next_context = COLLSIM_CONTEXT_FIRST_FREE;
}

void
collsim_comm_world_setup(int size)
{
    collsim_comm_world_teardown();
    world_group.size = size;
    collsim_comm_world.live_members = size;
    world_coll.live_members = size;
}

/* The predefined communicators, their twins and the world's group (which MPI_Comm_group
 * hands out) are live handles from the start. */
static void __attribute__((constructor))
register_predefined(void)
{
    collsim_handle_add(&world_group);
    collsim_handle_add(&collsim_comm_world);
    collsim_handle_add(&world_coll);
    collsim_handle_add(&collsim_comm_self);
    collsim_handle_add(&self_coll);
}

/* ---------------------------------------------------------------- internal queries */

int
collsim_comm_check(MPI_Comm comm)
{
    /* the magic is read only once the registry says the pointer is a live object */
    if (!collsim_handle_readable(comm) || comm->magic != COLLSIM_COMM_MAGIC ||
        comm->group == MPI_GROUP_NULL)
        return MPI_ERR_COMM;
    /* a created communicator this rank has freed lives on for the members that have not:
     * through a copy of the handle, this rank must not use it any more */
    if (!comm->predefined && comm->owner == NULL && !collsim_handle_held(comm))
        return MPI_ERR_COMM;
    return MPI_SUCCESS;
}

int
collsim_comm_size(MPI_Comm comm)
{
    return comm->group->size;
}

int
collsim_comm_my_rank(MPI_Comm comm)
{
    return collsim_group_local_rank(comm->group, collsim_runtime->world_rank());
}

int
collsim_comm_world_rank(MPI_Comm comm, int local_rank)
{
    return collsim_group_world_rank(comm->group, local_rank);
}

int
collsim_comm_local_rank(MPI_Comm comm, int world_rank)
{
    return collsim_group_local_rank(comm->group, world_rank);
}

int
collsim_comm_peer_size(MPI_Comm comm)
{
    return comm->inter ? comm->remote_group->size : comm->group->size;
}

int
collsim_comm_peer_world_rank(MPI_Comm comm, int peer_rank)
{
    return collsim_group_world_rank(comm->inter ? comm->remote_group : comm->group, peer_rank);
}

int
collsim_comm_is_inter(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->inter;
}

MPI_Comm
collsim_comm_inter_local(MPI_Comm comm)
{
    return collsim_comm_visible(comm)->local_comm;
}

int
collsim_comm_live_count(void)
{
    int n = 0;
    for (MPI_Comm c = live_head; c != NULL; c = c->live_next)
        n++;
    return n;
}

int
collsim_comm_node_blocks(MPI_Comm comm)
{
    if (comm->node_blocks == 0) {
        int p = collsim_comm_size(comm), blocks = 1;
        GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
        int previous = -1;
        for (int r = 0; r < p && blocks; r++) {
            int node = collsim_runtime->node_of(collsim_comm_world_rank(comm, r));
            if (node != previous && g_hash_table_contains(seen, GINT_TO_POINTER(node)))
                blocks = 0; /* the node came back after another one */
            g_hash_table_add(seen, GINT_TO_POINTER(node));
            previous = node;
        }
        g_hash_table_destroy(seen);
        comm->node_blocks = blocks ? 1 : 2;
    }
    return comm->node_blocks == 1;
}

int
collsim_comm_is_internal(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->owner != MPI_COMM_NULL;
}

MPI_Comm
collsim_comm_visible(MPI_Comm comm)
{
    return comm != MPI_COMM_NULL && comm->owner != MPI_COMM_NULL ? comm->owner : comm;
}

/* ---------------------------------------------------------------- argument checks */

int
collsim_comm_arg(MPI_Comm comm, const char *call)
{
    int rc = collsim_check_live(call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator%s",
                             comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
    return MPI_SUCCESS;
}

int
collsim_comm_arg_communicating(MPI_Comm comm, const char *call)
{
    int rc = collsim_check_communication(comm, call);
    return rc != MPI_SUCCESS ? rc : collsim_comm_arg(comm, call);
}

static int
check_out(MPI_Comm comm, const void *pointer, const char *what, const char *call)
{
    if (pointer == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- queries */

int
MPI_Comm_size(MPI_Comm comm, int *size)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_size");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, size, "size", "MPI_Comm_size");
    if (rc != MPI_SUCCESS)
        return rc;
    *size = collsim_comm_size(comm);
    return MPI_SUCCESS;
}

int
MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_rank");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, rank, "rank", "MPI_Comm_rank");
    if (rc != MPI_SUCCESS)
        return rc;
    int me = collsim_comm_my_rank(comm);
    if (me == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, "MPI_Comm_rank",
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    *rank = me;
    return MPI_SUCCESS;
}

/* A new reference to comm's group; MPI_COMM_SELF's becomes a real {caller} group. */
int
MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_group");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, group, "group", "MPI_Comm_group");
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm->group->caller_relative) {
        int me = collsim_runtime->world_rank();
        *group =
            collsim_group_hand_out(collsim_group_new(1, &me), "MPI_Comm_group", COLLSIM_CALLER());
    } else {
        *group = collsim_group_hand_out(collsim_group_ref(comm->group), "MPI_Comm_group",
                                        COLLSIM_CALLER());
    }
    return MPI_SUCCESS;
}

/*
 * IDENT: same object; CONGRUENT: same members in the same order; SIMILAR: same members.
 * Inter-communicators (§6.4.1): their local groups and their remote groups compared in turn,
 * the weaker result winning; an inter- and an intra-communicator are UNEQUAL.
 */
int
MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    int rc = collsim_comm_arg(comm1, "MPI_Comm_compare");
    if (rc == MPI_SUCCESS)
        rc = collsim_comm_arg(comm2, "MPI_Comm_compare");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm1, result, "result", "MPI_Comm_compare");
    if (rc != MPI_SUCCESS)
        return rc;
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    if (comm1->inter != comm2->inter) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    int groups = collsim_group_compare(comm1->group, comm2->group);
    if (comm1->inter && groups != MPI_UNEQUAL) {
        int remote = collsim_group_compare(comm1->remote_group, comm2->remote_group);
        if (remote != MPI_IDENT)
            groups = remote == MPI_SIMILAR ? MPI_SIMILAR : MPI_UNEQUAL;
    }
    *result = groups == MPI_IDENT ? MPI_CONGRUENT : groups;
    return MPI_SUCCESS;
}

int
MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_test_inter");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, flag, "flag", "MPI_Comm_test_inter");
    if (rc != MPI_SUCCESS)
        return rc;
    *flag = comm->inter;
    return MPI_SUCCESS;
}

int
MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_remote_size");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, size, "size", "MPI_Comm_remote_size");
    if (rc == MPI_SUCCESS && !comm->inter)
        rc = collsim_error(comm, MPI_ERR_COMM, "MPI_Comm_remote_size",
                           "the communicator is not an inter-communicator");
    if (rc != MPI_SUCCESS)
        return rc;
    *size = comm->remote_group->size;
    return MPI_SUCCESS;
}

int
MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_remote_group");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, group, "group", "MPI_Comm_remote_group");
    if (rc == MPI_SUCCESS && !comm->inter)
        rc = collsim_error(comm, MPI_ERR_COMM, "MPI_Comm_remote_group",
                           "the communicator is not an inter-communicator");
    if (rc != MPI_SUCCESS)
        return rc;
    *group = collsim_group_hand_out(collsim_group_ref(comm->remote_group),
                                    "MPI_Comm_remote_group", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

/* The constructors that need an intra-communicator refuse an inter-communicator by name. */
static int
refuse_inter(MPI_Comm comm, const char *call)
{
    if (comm->inter)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "inter-communicators are not supported by this call (collsim "
                             "needs an intra-communicator here)");
    return MPI_SUCCESS;
}

/* The name is shared by all members (see the file comment); longer names are cut. */
int
MPI_Comm_set_name(MPI_Comm comm, const char *name)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_set_name");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, name, "name", "MPI_Comm_set_name");
    if (rc != MPI_SUCCESS)
        return rc;
    comm = collsim_comm_visible(comm);
    g_strlcpy(comm->name, name, sizeof comm->name);
    return MPI_SUCCESS;
}

int
MPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, name, "name", "MPI_Comm_get_name");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, resultlen, "resultlen", "MPI_Comm_get_name");
    if (rc != MPI_SUCCESS)
        return rc;
    comm = collsim_comm_visible(comm);
    g_strlcpy(name, comm->name, MPI_MAX_OBJECT_NAME);
    *resultlen = (int)strlen(name);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- binomial trees (root 0) */

/* Header of the scatter and broadcast messages. */
enum { HDR_CODE, HDR_CULPRIT, HDR_REASON, HDR_LEN };

/* Why a constructor failed everywhere (HDR_REASON). */
enum ctor_reason {
    REASON_NONE,
    REASON_LOCAL_ARG,
    REASON_GROUP_MISMATCH,
    REASON_NO_CONTEXT,
    REASON_OVERLAP,   /* MPI_Intercomm_create: the two groups share a process */
    REASON_LEADER,    /* MPI_Intercomm_create: a leader's arguments are invalid */
};

/* Number of ranks in the binomial subtree of rank r > 0 over p ranks. */
static int
subtree_size(int r, int p)
{
    int low = r & -r;
    return MIN(low, p - r);
}

/* The largest power of two below p (0 when p == 1): rank 0's first child offset. */
static long
top_mask(int p)
{
    long mask = 1;
    while (mask * 2 < p)
        mask *= 2;
    return p > 1 ? mask : 0;
}

/* Gather `rec` ints from every rank to rank 0 (*all: p * rec ints at rank 0, else NULL). */
static int
tree_gather_ints(MPI_Comm twin, int p, int r, int tag, const int *mine, int rec, int **all)
{
    int rc = MPI_SUCCESS;
    int have = 1;
    int *buf = g_memdup2(mine, (gsize)rec * sizeof(int));
    for (long mask = 1; mask < p; mask <<= 1) {
        if (r & mask) {
            rc = MPI_Send(buf, have * rec, MPI_INT, (int)(r - mask), tag, twin);
            break;
        }
        if (r + mask >= p)
            continue;
        int src = (int)(r + mask);
        int n = subtree_size(src, p);
        /* grow one child at a time: never more than twice what this rank already holds */
        buf = g_renew(int, buf, (gsize)(have + n) * (gsize)rec);
        rc = MPI_Recv(buf + (gsize)have * (gsize)rec, n * rec, MPI_INT, src, tag, twin,
                      MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            break;
        have += n;
    }
    if (r == 0 && rc == MPI_SUCCESS) {
        *all = buf;
    } else {
        g_free(buf);
        *all = NULL;
    }
    return rc;
}

/*
 * Scatter a table of HDR_LEN + p MPI_Aints from rank 0 (`table`, consumed): every rank gets
 * the header and its own entry in out[0..HDR_LEN].
 */
static int
tree_scatter_aint(MPI_Comm twin, int p, int r, int tag, MPI_Aint *table,
                  MPI_Aint out[HDR_LEN + 1])
{
    int rc = MPI_SUCCESS;
    MPI_Aint *buf = table;
    long mask = top_mask(p);
    if (r != 0) {
        int parent = r - (r & -r);
        int n = subtree_size(r, p);
        /* allocate once the message is there, not while waiting for it */
        rc = MPI_Probe(parent, tag, twin, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        buf = g_new(MPI_Aint, HDR_LEN + n);
        rc = MPI_Recv(buf, HDR_LEN + n, MPI_AINT, parent, tag, twin, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free_buf;
        mask = (r & -r) >> 1;
    }
    for (; mask >= 1; mask >>= 1) {
        if (r + mask >= p)
            continue;
        int dst = (int)(r + mask);
        int n = subtree_size(dst, p);
        MPI_Aint *msg = g_new(MPI_Aint, HDR_LEN + n);
        memcpy(msg, buf, HDR_LEN * sizeof *msg);
        memcpy(msg + HDR_LEN, buf + HDR_LEN + mask, (size_t)n * sizeof *msg);
        rc = MPI_Send(msg, HDR_LEN + n, MPI_AINT, dst, tag, twin);
        g_free(msg);
        if (rc != MPI_SUCCESS)
            goto out_free_buf;
        /* that slice is gone: keep ranks r .. r + mask - 1 only */
        buf = g_renew(MPI_Aint, buf, HDR_LEN + mask);
    }
    memcpy(out, buf, (HDR_LEN + 1) * sizeof *out);
out_free_buf:
    g_free(buf);
    return rc;
}

/* Broadcast HDR_LEN + 1 MPI_Aints from rank 0. */
static int
tree_bcast_aint(MPI_Comm twin, int p, int r, int tag, MPI_Aint msg[HDR_LEN + 1])
{
    long mask = top_mask(p);
    if (r != 0) {
        int rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, r - (r & -r), tag, twin,
                          MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        mask = (r & -r) >> 1;
    }
    for (; mask >= 1; mask >>= 1) {
        if (r + mask >= p)
            continue;
        int rc = MPI_Send(msg, HDR_LEN + 1, MPI_AINT, (int)(r + mask), tag, twin);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- split and create */

/* One rank's record in the gather. */
enum { REC_COLOR, REC_KEY, REC_CHECK, REC_ERR, REC_INTS };

struct ctor {
    const char *call;
    int gather_tag;
    int scatter_tag;
    int check_groups;   /* MPI_Comm_create: keys are group ranks, REC_CHECK the group size */
};

static const struct ctor split_ctor = {
    "MPI_Comm_split", COLLSIM_TAG_SPLIT_GATHER, COLLSIM_TAG_SPLIT_SCATTER, 0};
static const struct ctor split_type_ctor = {
    "MPI_Comm_split_type", COLLSIM_TAG_SPLIT_TYPE_GATHER, COLLSIM_TAG_SPLIT_TYPE_SCATTER, 0};
static const struct ctor create_ctor = {
    "MPI_Comm_create", COLLSIM_TAG_CREATE_GATHER, COLLSIM_TAG_CREATE_SCATTER, 1};

struct member {
    int color;
    int key;
    int rank;    /* in the parent */
    int check;
};

static int
compare_members(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    if (x->color != y->color)
        return x->color < y->color ? -1 : 1;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static void
set_failure(MPI_Aint *header, int code, int culprit, enum ctor_reason reason)
{
    header[HDR_CODE] = code;
    header[HDR_CULPRIT] = culprit;
    header[HDR_REASON] = reason;
}

/* Check the members of one color of MPI_Comm_create: parent rank of the first bad one, or -1. */
static int
check_group_run(const struct member *run, int n)
{
    for (int k = 0; k < n; k++)
        if (run[k].key != k || run[k].check != n)
            return run[k].rank;
    return -1;
}

/* The first rank of `records` (p of them) whose own arguments were wrong: its rank, or -1. */
static int
first_local_error(const int *records, int p)
{
    for (int i = 0; i < p; i++)
        if (records[i * REC_INTS + REC_ERR] != MPI_SUCCESS)
            return i;
    return -1;
}

/* The ranks of `records` that take part (a color), sorted by color, key, then rank. */
static struct member *
collect_members(const int *records, int p, int *count)
{
    struct member *members = g_new(struct member, (gsize)MAX(p, 1));
    int nm = 0;
    for (int i = 0; i < p; i++) {
        const int *rec = records + (gsize)i * REC_INTS;
        if (rec[REC_COLOR] == MPI_UNDEFINED)
            continue;
        members[nm++] = (struct member){rec[REC_COLOR], rec[REC_KEY], i, rec[REC_CHECK]};
    }
    qsort(members, (size_t)nm, sizeof *members, compare_members);
    *count = nm;
    return members;
}

/*
 * Rank 0's step: from the p gathered records, build the new communicators and the table to
 * scatter (header, then one address per parent rank, 0 for MPI_COMM_NULL).
 */
static MPI_Aint *
build_comms(MPI_Comm parent, const struct ctor *how, const int *records, int p)
{
    MPI_Aint *table = g_new0(MPI_Aint, HDR_LEN + (gsize)p);
    MPI_Aint *slot = table + HDR_LEN;

    /* a rank's own invalid argument fails the call everywhere; the lowest rank is named */
    int bad = first_local_error(records, p);
    if (bad >= 0) {
        set_failure(table, records[bad * REC_INTS + REC_ERR], bad, REASON_LOCAL_ARG);
        return table;
    }

    int nm;
    struct member *members = collect_members(records, p, &nm);

    int ncolors = 0;
    for (int i = 0, j; i < nm; i = j) {
        for (j = i; j < nm && members[j].color == members[i].color; j++)
            ;
        ncolors++;
        int culprit = how->check_groups ? check_group_run(members + i, j - i) : -1;
        if (culprit >= 0) {
            set_failure(table, MPI_ERR_GROUP, culprit, REASON_GROUP_MISMATCH);
            goto out_free_members;
        }
    }
    uint32_t context;
    if (!context_reserve(ncolors, &context)) {
        set_failure(table, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
        goto out_free_members;
    }

    MPI_Comm visible = collsim_comm_visible(parent);
    int *world = g_new(int, (gsize)nm + 1);
    for (int i = 0, j; i < nm; i = j) {
        for (j = i; j < nm && members[j].color == members[i].color; j++)
            world[j - i] = collsim_comm_world_rank(parent, members[j].rank);
        MPI_Comm comm = comm_new(collsim_group_new(j - i, world), visible->errhandler, j - i,
                                 context);
        context += 2;
        for (int k = i; k < j; k++)
            slot[members[k].rank] = (MPI_Aint)(intptr_t)comm;
    }
    g_free(world);
out_free_members:
    g_free(members);
    return table;
}

/* Report on this rank a failure that rank 0 found (this rank's own arguments were fine). */
static int
report_remote_failure(MPI_Comm comm, const char *call, const MPI_Aint *header)
{
    int code = (int)header[HDR_CODE];
    int culprit = (int)header[HDR_CULPRIT];
    switch ((enum ctor_reason)header[HDR_REASON]) {
    case REASON_LOCAL_ARG:
        return collsim_error(comm, code, call,
                             "rank %d of the communicator passed an invalid argument", culprit);
    case REASON_GROUP_MISMATCH:
        return collsim_error(comm, code, call,
                             "the group arguments disagree across ranks or are not subgroups "
                             "of the communicator (first seen at rank %d)",
                             culprit);
    case REASON_NO_CONTEXT:
        return collsim_error(comm, code, call, "out of communicator context ids");
    case REASON_OVERLAP:
        return collsim_error(comm, code, call,
                             "the local and remote groups overlap (world rank %d is in both)",
                             culprit);
    case REASON_LEADER:
        return collsim_error(comm, code, call,
                             "the local leader (rank %d) was passed invalid arguments", culprit);
    case REASON_NONE:
        break;
    }
    return collsim_error(comm, code, call, "failed on rank 0");
}

static int inter_leader(MPI_Comm comm, const struct ctor *how, const int *records, int p,
                        MPI_Aint **table);

/* Steps 1-3 of the file comment; `mine` is this rank's record. On an inter-communicator each
 * side gathers and scatters over its local communicator, and its leader's step is
 * inter_leader's. */
static int
construct(MPI_Comm comm, const struct ctor *how, const int mine[REC_INTS], MPI_Comm *newcomm,
          const void *caller)
{
    MPI_Comm twin = comm->inter ? comm->local_comm->coll : comm->coll;
    int p = collsim_comm_size(comm);
    int r = collsim_comm_my_rank(comm);
    if (r == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, how->call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());

    if (p > INT_MAX / REC_INTS - HDR_LEN)
        return collsim_error(comm, MPI_ERR_INTERN, how->call,
                             "communicator of %d ranks is too large to split", p);

    int *records;
    int rc = tree_gather_ints(twin, p, r, how->gather_tag, mine, REC_INTS, &records);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Aint *table = NULL;
    if (r == 0 && comm->inter) {
        rc = inter_leader(comm, how, records, p, &table);
        g_free(records);
        if (rc != MPI_SUCCESS) {
            g_free(table);
            return rc;
        }
    } else if (r == 0) {
        table = build_comms(comm, how, records, p);
        g_free(records);
    }
    MPI_Aint result[HDR_LEN + 1];
    rc = tree_scatter_aint(twin, p, r, how->scatter_tag, table, result);
    if (rc != MPI_SUCCESS)
        return rc;
    if (result[HDR_CODE] != MPI_SUCCESS) {
        if (mine[REC_ERR] != MPI_SUCCESS)
            return mine[REC_ERR];   /* already reported here */
        return report_remote_failure(comm, how->call, result);
    }
    *newcomm = (MPI_Comm)(intptr_t)result[HDR_LEN];
    if (*newcomm != MPI_COMM_NULL)
        collsim_handle_hold(*newcomm, COLLSIM_HELD_COMM, how->call, caller);
    return MPI_SUCCESS;
}

/*
 * Partition comm by color (MPI_UNDEFINED: no new communicator), ranks ordered by key then by
 * rank in comm. Collective over comm.
 */
int
MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    int rc = collsim_comm_arg_communicating(comm, "MPI_Comm_split");
    if (rc != MPI_SUCCESS)
        return rc;
    int err = MPI_SUCCESS;
    if (newcomm == NULL)
        err = collsim_error(comm, MPI_ERR_ARG, "MPI_Comm_split", "newcomm is NULL");
    else if (color < 0 && color != MPI_UNDEFINED)
        err = collsim_error(comm, MPI_ERR_ARG, "MPI_Comm_split",
                            "invalid color %d (must be >= 0 or MPI_UNDEFINED)", color);
    int mine[REC_INTS] = {err != MPI_SUCCESS ? MPI_UNDEFINED : color, key, 0, err};
    MPI_Comm result = MPI_COMM_NULL;
    rc = construct(comm, &split_ctor, mine, &result, COLLSIM_CALLER());
    if (rc == MPI_SUCCESS)
        *newcomm = result;
    return rc;
}

/*
 * The communicator of `group` (a subgroup of comm) for its members, MPI_COMM_NULL for the
 * others. Disjoint groups on different ranks give one communicator each (MPI-2.2).
 */
int
MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_create";
    int rc = collsim_comm_arg_communicating(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int mine[REC_INTS] = {MPI_UNDEFINED, 0, 0, MPI_SUCCESS};
    const char *why;
    if (newcomm == NULL) {
        mine[REC_ERR] = collsim_error(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    } else if (collsim_group_check(group, &why) != MPI_SUCCESS) {
        mine[REC_ERR] = collsim_error(comm, MPI_ERR_GROUP, call, "invalid group (%s)", why);
    } else {
        int me = collsim_group_local_rank(group, collsim_runtime->world_rank());
        if (me != MPI_UNDEFINED) {
            int leader_world = collsim_group_world_rank(group, 0);
            int leader = collsim_comm_local_rank(comm, leader_world);
            if (leader == MPI_UNDEFINED) {
                mine[REC_ERR] = collsim_error(comm, MPI_ERR_GROUP, call,
                                              "the group's rank 0 (world rank %d) is not a "
                                              "member of the communicator",
                                              leader_world);
            } else {
                mine[REC_COLOR] = leader;
                mine[REC_KEY] = me;
                mine[REC_CHECK] = group->size;
            }
        }
    }
    if (mine[REC_ERR] != MPI_SUCCESS)
        mine[REC_COLOR] = MPI_UNDEFINED;
    MPI_Comm result = MPI_COMM_NULL;
    rc = construct(comm, &create_ctor, mine, &result, COLLSIM_CALLER());
    if (rc == MPI_SUCCESS)
        *newcomm = result;
    return rc;
}

static int inter_dup(MPI_Comm comm, MPI_Comm via, int err, MPI_Comm *newcomm, const char *call,
                     const void *caller);

/*
 * A new communicator with comm's group, handler and topology, and new contexts, announced by a
 * broadcast on `via` (comm's twin, or an operation twin for MPI_Comm_idup). Collective.
 */
static int
comm_dup(MPI_Comm comm, MPI_Comm via, MPI_Comm *newcomm, const char *call, const void *caller)
{
    int rc = collsim_comm_arg_communicating(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = MPI_SUCCESS;
    if (newcomm == NULL)
        err = collsim_error(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    int p = collsim_comm_size(comm);
    int r = collsim_comm_my_rank(comm);
    if (r == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());

    if (comm->inter)
        return inter_dup(comm, via, err, newcomm, call, caller);
    MPI_Aint msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
    if (r == 0) {
        uint32_t context;
        if (!context_reserve(1, &context)) {
            set_failure(msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
        } else {
            MPI_Group group;
            if (comm->group->caller_relative) {
                int me = collsim_runtime->world_rank();
                group = collsim_group_new(1, &me);
            } else {
                group = collsim_group_ref(comm->group);
            }
            MPI_Comm dup = comm_new(group, collsim_comm_visible(comm)->errhandler, p, context);
            dup->topo = collsim_topo_copy(collsim_comm_visible(comm)->topo); /* MPI-3.1 §6.4.2 */
            msg[HDR_LEN] = (MPI_Aint)(intptr_t)dup;
        }
    }
    rc = tree_bcast_aint(via, p, r, COLLSIM_TAG_DUP_BCAST, msg);
    if (rc != MPI_SUCCESS)
        return rc;
    if (msg[HDR_CODE] != MPI_SUCCESS)
        return err != MPI_SUCCESS ? err : report_remote_failure(comm, call, msg);
    MPI_Comm dup = (MPI_Comm)(intptr_t)msg[HDR_LEN];
    if (err != MPI_SUCCESS) {
        comm_release(dup);   /* this member cannot hold it */
        return err;
    }
    rc = collsim_attr_copy_all(comm, dup);
    if (rc != MPI_SUCCESS) {
        collsim_attr_delete_all(dup);
        comm_release(dup);
        return collsim_error(comm, rc, call, "an attribute copy callback failed");
    }
    collsim_handle_hold(dup, COLLSIM_HELD_COMM, call, caller);
    *newcomm = dup;
    return MPI_SUCCESS;
}

int
MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_dup");
    if (rc != MPI_SUCCESS)
        return rc;
    return comm_dup(comm, comm->coll, newcomm, "MPI_Comm_dup", COLLSIM_CALLER());
}

/* MPI_Comm_idup's work, on a flow of the rank (runtime.h: start_nonblocking). */
struct idup_job {
    MPI_Comm comm;
    MPI_Comm twin;
    MPI_Comm *newcomm;
    const char *call;
    const void *caller;
};

static int
run_idup(void *data)
{
    struct idup_job *job = data;
    int rc = comm_dup(job->comm, job->twin, job->newcomm, job->call, job->caller);
    collsim_comm_operation_done(job->twin);
    g_free(job);
    return rc;
}

/*
 * The nonblocking MPI_Comm_dup: a nonblocking collective on comm (it takes comm's next
 * operation twin, so it is ordered with comm's other nonblocking collectives and never mixes
 * with them); *newcomm is set when the request completes.
 */
static int comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request, const char *call,
                     const void *caller);

int
MPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    return comm_idup(comm, newcomm, request, "MPI_Comm_idup", COLLSIM_CALLER());
}

static int check_info_arg(MPI_Comm comm, MPI_Info info, const char *call);

/* MPI-4's MPI_Comm_idup_with_info: collsim takes no communicator hints, so MPI_Comm_idup
 * once the info is checked. */
int
MPI_Comm_idup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request)
{
    const char *call = "MPI_Comm_idup_with_info";
    int rc = collsim_comm_arg(comm, call);
    if (rc == MPI_SUCCESS)
        rc = check_info_arg(comm, info, call);
    if (rc != MPI_SUCCESS)
        return rc;
    return comm_idup(comm, newcomm, request, call, COLLSIM_CALLER());
}

static int
comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request, const char *call,
          const void *caller)
{
    int rc = collsim_comm_arg_communicating(comm, call);
    if (rc == MPI_SUCCESS && request == NULL)
        rc = collsim_error(comm, MPI_ERR_REQUEST, call, "NULL request pointer");
    if (rc == MPI_SUCCESS && newcomm == NULL)
        rc = collsim_error(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_comm_my_rank(comm) == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    struct idup_job *job = g_new0(struct idup_job, 1);
    job->comm = comm;
    job->twin = collsim_comm_operation_twin(comm);
    job->newcomm = newcomm;
    job->call = call;
    job->caller = caller;
    *newcomm = MPI_COMM_NULL;
    return collsim_runtime->start_nonblocking(run_idup, job, comm, call, request);
}

/* Broadcast HDR_LEN + 1 MPI_Aints from group rank 0 to the members of `group` (a group of
 * comm's members; me: the caller's rank in it), on comm's twin: the binomial tree of
 * tree_bcast_aint over group ranks. */
static int
group_bcast_aint(MPI_Comm comm, MPI_Group group, int me, int tag, MPI_Aint msg[HDR_LEN + 1])
{
    int p = group->size;
    long mask = top_mask(p);
    if (me != 0) {
        int from = collsim_comm_local_rank(comm, collsim_group_world_rank(group, me - (me & -me)));
        int rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, from, tag, comm->coll, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        mask = (me & -me) >> 1;
    }
    for (; mask >= 1; mask >>= 1) {
        if (me + mask >= p)
            continue;
        int to = collsim_comm_local_rank(comm, collsim_group_world_rank(group, (int)(me + mask)));
        int rc = MPI_Send(msg, HDR_LEN + 1, MPI_AINT, to, tag, comm->coll);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/*
 * MPI_Comm_create_group (MPI-3.0): collective over the members of `group` only, a subset of
 * comm's members that every one of them passes. Its rank 0 makes the communicator (group,
 * comm's handler, new contexts) and a binomial broadcast over the group's ranks announces it.
 * `tag` tells apart calls that threads of one process make at once; ranks here have one
 * thread, whose calls follow each other, so it is only checked.
 */
int
MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_create_group";
    int rc = collsim_comm_arg_communicating(comm, call);
    if (rc == MPI_SUCCESS)
        rc = refuse_inter(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    const char *why;
    if (newcomm == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    if (collsim_group_check(group, &why) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_GROUP, call, "invalid group (%s)", why);
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return collsim_error(comm, MPI_ERR_TAG, call, "invalid tag %d", tag);
    int g;
    if (!collsim_group_includes(comm->group, group, &g))
        return collsim_error(comm, MPI_ERR_GROUP, call,
                             "the group's rank %d (world rank %d) is not a member of the "
                             "communicator",
                             g, collsim_group_world_rank(group, g));
    /* MPI-3.1 §6.4.2: a process outside the group (MPI_GROUP_EMPTY, or a group of others) may
     * call it too, and then the call is local and gives MPI_COMM_NULL */
    int me = collsim_group_local_rank(group, collsim_runtime->world_rank());
    if (me == MPI_UNDEFINED) {
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    MPI_Aint msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
    if (me == 0) {
        uint32_t context;
        if (!context_reserve(1, &context)) {
            set_failure(msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
        } else {
            MPI_Group members;
            if (group->caller_relative) { /* MPI_COMM_SELF's group: this caller alone */
                int world = collsim_runtime->world_rank();
                members = collsim_group_new(1, &world);
            } else {
                members = collsim_group_ref(group);
            }
            MPI_Comm made =
                comm_new(members, collsim_comm_visible(comm)->errhandler, group->size, context);
            msg[HDR_LEN] = (MPI_Aint)(intptr_t)made;
        }
    }
    rc = group_bcast_aint(comm, group, me, COLLSIM_TAG_CREATE_GROUP_BCAST, msg);
    if (rc != MPI_SUCCESS)
        return rc;
    if (msg[HDR_CODE] != MPI_SUCCESS)
        return report_remote_failure(comm, call, msg);
    MPI_Comm made = (MPI_Comm)(intptr_t)msg[HDR_LEN];
    collsim_handle_hold(made, COLLSIM_HELD_COMM, call, COLLSIM_CALLER());
    *newcomm = made;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- inter-communicators */

/*
 * Construction of an inter-communicator (MPI_Intercomm_create, the dup of one): the two
 * groups' leaders meet, and ONE of them, the "maker" (the leader with the lower world rank),
 * takes three context pairs and builds both sides: each side object with the shared pair
 * (c, c + 1) and its local communicator with a pair of its own. The maker sends the other
 * side's address to the other leader; each leader then broadcasts its side's address to its
 * group, from the leader, over its local communicator's twin (rooted_bcast_aint). A failure
 * found by a leader travels the same way in the header, so every member leaves with an error.
 * The other side's handler is the maker's guess; the other leader sets its own before the
 * broadcast.
 */

/* Broadcast HDR_LEN + 1 MPI_Aints from `root` over p ranks of twin (binomial, rotated). */
static int
rooted_bcast_aint(MPI_Comm twin, int p, int r, int root, int tag, MPI_Aint msg[HDR_LEN + 1])
{
    int rel = (r - root + p) % p;
    long mask = top_mask(p);
    if (rel != 0) {
        int from = (rel - (rel & -rel) + root) % p;
        int rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, from, tag, twin, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        mask = (rel & -rel) >> 1;
    }
    for (; mask >= 1; mask >>= 1) {
        if (rel + mask >= p)
            continue;
        int rc = MPI_Send(msg, HDR_LEN + 1, MPI_AINT, (int)((rel + mask + root) % p), tag, twin);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* One side of an inter-communicator: group and remote references taken over, the shared
 * contexts (c, c + 1), its local communicator on (local_context, local_context + 1). */
static MPI_Comm
inter_side_new(MPI_Group group, MPI_Group remote, MPI_Errhandler errhandler, uint32_t context,
               uint32_t local_context)
{
    MPI_Comm side = comm_new(group, errhandler, group->size, context);
    side->inter = 1;
    side->remote_group = remote;
    side->coll->inter = 1;
    side->coll->remote_group = collsim_group_ref(remote);
    MPI_Comm local = comm_new(collsim_group_ref(group), errhandler, group->size, local_context);
    local->owner = side; /* hidden: internal, reported as the inter-communicator */
    g_strlcpy(local->name, "inter-communicator (local)", sizeof local->name);
    side->local_comm = local;
    return side;
}

/* Both sides over groups `a` (the maker's) and `b`, references taken over; *other gets b's
 * side. FALSE (nothing made, references dropped) when the contexts are used up. */
static gboolean
inter_pair_new(MPI_Group a, MPI_Group b, MPI_Errhandler errhandler, MPI_Comm *mine,
               MPI_Comm *other)
{
    uint32_t first;
    if (!context_reserve(3, &first)) {
        collsim_group_unref(a);
        collsim_group_unref(b);
        return FALSE;
    }
    *mine = inter_side_new(a, collsim_group_ref(b), errhandler, first, first + 2);
    *other = inter_side_new(b, collsim_group_ref(a), errhandler, first, first + 4);
    (*mine)->inter_ops = (*other)->inter_ops = inter_operations_new();
    return TRUE;
}

/* The other leader's side: its own handler instead of the maker's guess. */
static void
side_adopt_errhandler(MPI_Comm side, MPI_Errhandler errhandler)
{
    MPI_Errhandler old = side->errhandler;
    side->errhandler = collsim_errhandler_ref(errhandler);
    collsim_errhandler_unref(old);
    old = side->local_comm->errhandler;
    side->local_comm->errhandler = collsim_errhandler_ref(errhandler);
    collsim_errhandler_unref(old);
}

/* The members' part after the leader's: take the side announced in msg, or report. */
static int
inter_finish(MPI_Comm reporter, int err, const MPI_Aint msg[HDR_LEN + 1], MPI_Comm *out,
             const char *call, const void *caller)
{
    if (msg[HDR_CODE] != MPI_SUCCESS)
        return err != MPI_SUCCESS ? err : report_remote_failure(reporter, call, msg);
    MPI_Comm side = (MPI_Comm)(intptr_t)msg[HDR_LEN];
    collsim_handle_hold(side, COLLSIM_HELD_COMM, call, caller);
    if (err != MPI_SUCCESS) {
        comm_release(side);   /* this member cannot hold it */
        return err;
    }
    *out = side;
    return MPI_SUCCESS;
}

/* MPI_Comm_dup of an inter-communicator: same groups, new contexts, attributes copied. The
 * leaders meet over `via` (comm's twin, or for MPI_Comm_idup an operation twin), each side
 * hears over the local communicator that goes with it. */
static int
inter_dup(MPI_Comm comm, MPI_Comm via, int err, MPI_Comm *newcomm, const char *call,
          const void *caller)
{
    MPI_Comm local = via == comm->coll ? comm->local_comm->coll : collsim_comm_operation_local(via);
    int p = collsim_comm_size(comm);
    int r = collsim_comm_my_rank(comm);
    MPI_Aint msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
    if (r == 0) {
        int rc;
        gboolean maker = collsim_group_world_rank(comm->group, 0) <
                         collsim_group_world_rank(comm->remote_group, 0);
        if (maker) {
            MPI_Comm mine, other;
            MPI_Aint theirs[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
            if (!inter_pair_new(collsim_group_ref(comm->group),
                                collsim_group_ref(comm->remote_group), comm->errhandler, &mine,
                                &other)) {
                set_failure(msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
                set_failure(theirs, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
            } else {
                msg[HDR_LEN] = (MPI_Aint)(intptr_t)mine;
                theirs[HDR_LEN] = (MPI_Aint)(intptr_t)other;
            }
            rc = MPI_Send(theirs, HDR_LEN + 1, MPI_AINT, 0, COLLSIM_TAG_INTER_DUP, via);
        } else {
            rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, 0, COLLSIM_TAG_INTER_DUP, via,
                          MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS && msg[HDR_CODE] == MPI_SUCCESS)
                side_adopt_errhandler((MPI_Comm)(intptr_t)msg[HDR_LEN], comm->errhandler);
        }
        if (rc != MPI_SUCCESS)
            return rc;
    }
    int rc = rooted_bcast_aint(local, p, r, 0, COLLSIM_TAG_INTER_DUP, msg);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Comm dup = MPI_COMM_NULL;
    rc = inter_finish(comm, err, msg, &dup, call, caller);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = collsim_attr_copy_all(comm, dup);
    if (rc != MPI_SUCCESS) {
        collsim_attr_delete_all(dup);
        comm_release(dup);
        return collsim_error(comm, rc, call, "an attribute copy callback failed");
    }
    *newcomm = dup;
    return MPI_SUCCESS;
}

/*
 * MPI_Comm_split and MPI_Comm_create on an inter-communicator (MPI-3.1 §6.4.2): the members of
 * one color on each side make an inter-communicator of their own (MPI_Comm_create: the one
 * group each side passes); a color found on one side only, and MPI_UNDEFINED, give
 * MPI_COMM_NULL. Each side's records are gathered at its leader (local rank 0) over its local
 * communicator, the leaders swap them over comm's twin, the maker (the side whose leader has
 * the lower world rank, as for a dup) makes every pair and sends the other leader its side's
 * table, and each leader scatters its table to its side.
 */

/* One side's members (collect_members); MPI_Comm_create's one group per side is checked
 * (*culprit: the rank of the first bad member, or -1) and given color 0. */
static struct member *
side_members(const int *records, int n, const struct ctor *how, int *count, int *culprit)
{
    int nm;
    struct member *members = collect_members(records, n, &nm);
    *culprit = -1;
    for (int i = 0, j; i < nm && how->check_groups && *culprit < 0; i = j) {
        for (j = i; j < nm && members[j].color == members[i].color; j++)
            ;
        /* one group per side: two leaders' colors mean two different groups */
        *culprit = j < nm ? members[j].rank : check_group_run(members + i, j - i);
    }
    for (int i = 0; i < nm && how->check_groups; i++)
        members[i].color = 0; /* the two sides' groups pair up whatever their leaders */
    *count = nm;
    return members;
}

/* The group of the members [from, to) of a side whose group is `side`. */
static MPI_Group
members_group(const struct member *m, int from, int to, MPI_Group side)
{
    int *world = g_new(int, (gsize)(to - from));
    for (int k = from; k < to; k++)
        world[k - from] = collsim_group_world_rank(side, m[k].rank);
    MPI_Group g = collsim_group_new(to - from, world);
    g_free(world);
    return g;
}

/* The maker's step: both sides' tables (header, then a pointer per rank, 0 for NULL). */
static void
inter_build(MPI_Comm comm, const struct ctor *how, const int *mine, int p, const int *theirs,
            int q, MPI_Aint *my_table, MPI_Aint *their_table)
{
    for (int side = 0; side < 2; side++) {
        const int *rec = side == 0 ? mine : theirs;
        int bad = first_local_error(rec, side == 0 ? p : q);
        if (bad >= 0) {
            set_failure(my_table, rec[bad * REC_INTS + REC_ERR], bad, REASON_LOCAL_ARG);
            set_failure(their_table, rec[bad * REC_INTS + REC_ERR], bad, REASON_LOCAL_ARG);
            return;
        }
    }
    int na, nb, bad_a, bad_b;
    struct member *a = side_members(mine, p, how, &na, &bad_a);
    struct member *b = side_members(theirs, q, how, &nb, &bad_b);
    if (bad_a >= 0 || bad_b >= 0) {
        set_failure(my_table, MPI_ERR_GROUP, bad_a >= 0 ? bad_a : bad_b, REASON_GROUP_MISMATCH);
        set_failure(their_table, MPI_ERR_GROUP, bad_a >= 0 ? bad_a : bad_b,
                    REASON_GROUP_MISMATCH);
        goto out;
    }
    /* both lists are sorted by color: walk them together */
    for (int i = 0, j = 0; i < na && j < nb;) {
        if (a[i].color != b[j].color) {
            if (a[i].color < b[j].color)
                i++;
            else
                j++;
            continue;
        }
        int ie = i, je = j;
        while (ie < na && a[ie].color == a[i].color)
            ie++;
        while (je < nb && b[je].color == b[j].color)
            je++;
        MPI_Comm left, right;
        if (!inter_pair_new(members_group(a, i, ie, comm->group),
                            members_group(b, j, je, comm->remote_group), comm->errhandler,
                            &left, &right)) {
            set_failure(my_table, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
            set_failure(their_table, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
            goto out; /* pairs made already are never handed out: left to teardown */
        }
        for (int k = i; k < ie; k++)
            my_table[HDR_LEN + a[k].rank] = (MPI_Aint)(intptr_t)left;
        for (int k = j; k < je; k++)
            their_table[HDR_LEN + b[k].rank] = (MPI_Aint)(intptr_t)right;
        i = ie;
        j = je;
    }
out:
    g_free(a);
    g_free(b);
}

/* A leader's step: swap records with the other leader; *table: this side's table. */
static int
inter_leader(MPI_Comm comm, const struct ctor *how, const int *records, int p, MPI_Aint **table)
{
    int q = collsim_comm_peer_size(comm);
    int *theirs = g_new(int, (gsize)q * REC_INTS);
    int rc = MPI_Sendrecv(records, p * REC_INTS, MPI_INT, 0, how->gather_tag, theirs,
                          q * REC_INTS, MPI_INT, 0, how->gather_tag, comm->coll,
                          MPI_STATUS_IGNORE);
    *table = g_new0(MPI_Aint, HDR_LEN + (gsize)p);
    gboolean maker = collsim_group_world_rank(comm->group, 0) <
                     collsim_group_world_rank(comm->remote_group, 0);
    if (rc == MPI_SUCCESS && maker) {
        MPI_Aint *their_table = g_new0(MPI_Aint, HDR_LEN + (gsize)q);
        inter_build(comm, how, records, p, theirs, q, *table, their_table);
        rc = MPI_Send(their_table, HDR_LEN + q, MPI_AINT, 0, how->scatter_tag, comm->coll);
        g_free(their_table);
    } else if (rc == MPI_SUCCESS) {
        rc = MPI_Recv(*table, HDR_LEN + p, MPI_AINT, 0, how->scatter_tag, comm->coll,
                      MPI_STATUS_IGNORE);
        /* this side's halves take this side's handler (the maker gave them its own) */
        GHashTable *adopted = g_hash_table_new(g_direct_hash, g_direct_equal);
        for (int i = 0; rc == MPI_SUCCESS && (*table)[HDR_CODE] == MPI_SUCCESS && i < p; i++) {
            MPI_Comm side = (MPI_Comm)(intptr_t)(*table)[HDR_LEN + i];
            if (side != MPI_COMM_NULL && g_hash_table_add(adopted, side))
                side_adopt_errhandler(side, comm->errhandler);
        }
        g_hash_table_destroy(adopted);
    }
    g_free(theirs);
    return rc;
}

/* The world ranks of comm's members, in rank order (a new array of p ints). */
static int *
member_world_ranks(MPI_Comm comm, int p)
{
    int *ranks = g_new(int, (gsize)p);
    for (int i = 0; i < p; i++)
        ranks[i] = collsim_comm_world_rank(comm, i);
    return ranks;
}

/*
 * The local leader's part of MPI_Intercomm_create: meet the remote leader over peer_comm
 * with the user's tag (group sizes, then world ranks), check that the groups are disjoint,
 * and make or receive this side (see "inter-communicators" above). A failure goes into msg.
 * A leader whose own arguments are invalid cannot meet the other one: it reports, and the
 * other side (erroneous program) waits.
 */
static int
intercomm_leader(MPI_Comm local_comm, MPI_Comm peer_comm, int remote_leader, int tag, int r,
                 MPI_Aint msg[HDR_LEN + 1], const char *call)
{
    int rc = collsim_comm_arg(peer_comm, call);
    if (rc != MPI_SUCCESS) {
        set_failure(msg, rc, r, REASON_LEADER);
        return rc;
    }
    int me_peer = collsim_comm_my_rank(peer_comm);
    int peer_size = collsim_comm_peer_size(peer_comm);
    if (me_peer == MPI_UNDEFINED)
        rc = collsim_error(local_comm, MPI_ERR_COMM, call,
                           "the local leader (world rank %d) is not a member of peer_comm",
                           collsim_runtime->world_rank());
    else if (remote_leader < 0 || remote_leader >= peer_size)
        rc = collsim_error(local_comm, MPI_ERR_RANK, call,
                           "invalid remote_leader %d (peer_comm size %d)", remote_leader,
                           peer_size);
    else if (!peer_comm->inter && remote_leader == me_peer)
        rc = collsim_error(local_comm, MPI_ERR_RANK, call,
                           "remote_leader %d is the local leader itself", remote_leader);
    if (rc != MPI_SUCCESS) {
        set_failure(msg, rc, r, REASON_LEADER);
        return rc;
    }

    int p = collsim_comm_size(local_comm), q = 0;
    rc = MPI_Sendrecv(&p, 1, MPI_INT, remote_leader, tag, &q, 1, MPI_INT, remote_leader, tag,
                      peer_comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        return rc;
    int *mine = member_world_ranks(local_comm, p);
    int *theirs = g_new(int, (gsize)MAX(q, 1));
    rc = MPI_Sendrecv(mine, p, MPI_INT, remote_leader, tag, theirs, q, MPI_INT, remote_leader,
                      tag, peer_comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out;
    /* both leaders see the same two lists, so both find the same overlap */
    GHashTable *in_mine = g_hash_table_new(g_direct_hash, g_direct_equal);
    for (int i = 0; i < p; i++)
        g_hash_table_add(in_mine, GINT_TO_POINTER(mine[i]));
    int shared = -1;
    for (int i = 0; i < q && shared < 0; i++)
        if (g_hash_table_contains(in_mine, GINT_TO_POINTER(theirs[i])))
            shared = theirs[i];
    g_hash_table_destroy(in_mine);
    if (shared >= 0) {
        set_failure(msg, MPI_ERR_COMM, shared, REASON_OVERLAP);
        goto out;
    }
    int leader_world = collsim_runtime->world_rank();
    /* the other leader is the remote group's member that peer_comm calls remote_leader */
    int other_world = collsim_comm_peer_world_rank(peer_comm, remote_leader);
    if (leader_world < other_world) {
        MPI_Comm side, other;
        MPI_Aint out_msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
        if (!inter_pair_new(collsim_group_new(p, mine), collsim_group_new(q, theirs),
                            collsim_comm_visible(local_comm)->errhandler, &side, &other)) {
            set_failure(msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
            set_failure(out_msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
        } else {
            msg[HDR_LEN] = (MPI_Aint)(intptr_t)side;
            out_msg[HDR_LEN] = (MPI_Aint)(intptr_t)other;
        }
        rc = MPI_Send(out_msg, HDR_LEN + 1, MPI_AINT, remote_leader, tag, peer_comm);
    } else {
        rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, remote_leader, tag, peer_comm,
                      MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS && msg[HDR_CODE] == MPI_SUCCESS)
            side_adopt_errhandler((MPI_Comm)(intptr_t)msg[HDR_LEN],
                                  collsim_comm_visible(local_comm)->errhandler);
    }
out:
    g_free(mine);
    g_free(theirs);
    return rc;
}

/*
 * MPI_Intercomm_create: collective over the union of the two local communicators; only the
 * leaders use peer_comm (user traffic with `tag`, as MPI allows). The new inter-communicator
 * takes local_comm's error handler on each side.
 */
int
MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm,
                     int remote_leader, int tag, MPI_Comm *newintercomm)
{
    const char *call = "MPI_Intercomm_create";
    int rc = collsim_comm_arg_communicating(local_comm, call);
    if (rc == MPI_SUCCESS && local_comm->inter)
        rc = collsim_error(local_comm, MPI_ERR_COMM, call,
                           "local_comm is an inter-communicator (it must be an "
                           "intra-communicator)");
    if (rc != MPI_SUCCESS)
        return rc;
    int p = collsim_comm_size(local_comm);
    int r = collsim_comm_my_rank(local_comm);
    if (r == MPI_UNDEFINED)
        return collsim_error(local_comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of local_comm",
                             collsim_runtime->world_rank());
    /* every member passes the same leader: every member refuses a bad one, nobody waits */
    if (local_leader < 0 || local_leader >= p)
        return collsim_error(local_comm, MPI_ERR_RANK, call,
                             "invalid local_leader %d (local_comm size %d)", local_leader, p);
    if (tag < 0 || tag > MPI_TAG_UB_VALUE)
        return collsim_error(local_comm, MPI_ERR_TAG, call, "invalid tag %d", tag);
    int err = MPI_SUCCESS;
    if (newintercomm == NULL)
        err = collsim_error(local_comm, MPI_ERR_ARG, call, "newintercomm is NULL");
    MPI_Aint msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
    if (r == local_leader) {
        rc = intercomm_leader(local_comm, peer_comm, remote_leader, tag, r, msg, call);
        if (rc != MPI_SUCCESS && msg[HDR_CODE] == MPI_SUCCESS)
            return rc;   /* the transport failed: reported already */
        if (rc != MPI_SUCCESS && err == MPI_SUCCESS)
            err = rc;    /* the leader's own argument error, reported already */
    }
    if (local_comm == MPI_COMM_SELF)
        rc = MPI_SUCCESS;   /* a group of one: nobody to tell */
    else
        rc = rooted_bcast_aint(local_comm->coll, p, r, local_leader, COLLSIM_TAG_INTER_BCAST,
                               msg);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Comm result = MPI_COMM_NULL;
    rc = inter_finish(local_comm, err, msg, &result, call, COLLSIM_CALLER());
    if (rc == MPI_SUCCESS)
        *newintercomm = result;
    return rc;
}

/*
 * MPI_Intercomm_merge: the local leaders swap their `high` over the inter-communicator's twin;
 * the group that passed high = false comes first. When both pass the same value (MPI leaves
 * the order to the implementation) the group whose leader has the lower world rank comes
 * first, as Open MPI does. The first group's leader makes the intra-communicator (the
 * inter-communicator's handler, new contexts), sends it to the other leader, and each leader
 * broadcasts it over its local communicator.
 */
int
MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *call = "MPI_Intercomm_merge";
    int rc = collsim_comm_arg_communicating(intercomm, call);
    if (rc == MPI_SUCCESS && !intercomm->inter)
        rc = collsim_error(intercomm, MPI_ERR_COMM, call,
                           "the communicator is not an inter-communicator");
    if (rc != MPI_SUCCESS)
        return rc;
    int p = collsim_comm_size(intercomm);
    int r = collsim_comm_my_rank(intercomm);
    if (r == MPI_UNDEFINED)
        return collsim_error(intercomm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    int err = MPI_SUCCESS;
    if (newintracomm == NULL)
        err = collsim_error(intercomm, MPI_ERR_ARG, call, "newintracomm is NULL");
    MPI_Aint msg[HDR_LEN + 1] = {MPI_SUCCESS, 0, REASON_NONE, 0};
    if (r == 0) {
        int mine = high ? 1 : 0, theirs = 0;
        rc = MPI_Sendrecv(&mine, 1, MPI_INT, 0, COLLSIM_TAG_MERGE_EXCHANGE, &theirs, 1, MPI_INT,
                          0, COLLSIM_TAG_MERGE_EXCHANGE, intercomm->coll, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        int my_leader = collsim_group_world_rank(intercomm->group, 0);
        int their_leader = collsim_group_world_rank(intercomm->remote_group, 0);
        gboolean first = mine != theirs ? !mine : my_leader < their_leader;
        if (first) {
            uint32_t context;
            if (!context_reserve(1, &context)) {
                set_failure(msg, MPI_ERR_INTERN, 0, REASON_NO_CONTEXT);
            } else {
                MPI_Group low = intercomm->group, upper = intercomm->remote_group;
                int n = low->size + upper->size;
                int *ranks = g_new(int, (gsize)n);
                for (int i = 0; i < low->size; i++)
                    ranks[i] = collsim_group_world_rank(low, i);
                for (int i = 0; i < upper->size; i++)
                    ranks[low->size + i] = collsim_group_world_rank(upper, i);
                MPI_Comm made = comm_new(collsim_group_new(n, ranks), intercomm->errhandler, n,
                                         context);
                g_free(ranks);
                msg[HDR_LEN] = (MPI_Aint)(intptr_t)made;
            }
            rc = MPI_Send(msg, HDR_LEN + 1, MPI_AINT, 0, COLLSIM_TAG_MERGE_BCAST,
                          intercomm->coll);
        } else {
            rc = MPI_Recv(msg, HDR_LEN + 1, MPI_AINT, 0, COLLSIM_TAG_MERGE_BCAST,
                          intercomm->coll, MPI_STATUS_IGNORE);
        }
        if (rc != MPI_SUCCESS)
            return rc;
    }
    rc = rooted_bcast_aint(intercomm->local_comm->coll, p, r, 0, COLLSIM_TAG_MERGE_BCAST, msg);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Comm result = MPI_COMM_NULL;
    rc = inter_finish(intercomm, err, msg, &result, call, COLLSIM_CALLER());
    if (rc == MPI_SUCCESS)
        *newintracomm = result;
    return rc;
}

/* The calling rank's attributes on comm's twins: what collective algorithms cached there (a
 * node layout), on the twin and, for an inter-communicator, on its local side's twin. */
static int
delete_twin_attributes(MPI_Comm comm)
{
    int rc = collsim_attr_delete_all(comm->coll);
    if (comm->local_comm != NULL) {
        int local_rc = collsim_attr_delete_all(comm->local_comm->coll);
        if (rc == MPI_SUCCESS)
            rc = local_rc;
    }
    return rc;
}

/* *comm is a communicator the program may free or disconnect (`verb`): not the predefined
 * ones, nor an internal one. */
static int
comm_releasable(const MPI_Comm *comm, const char *call, const char *verb)
{
    if (comm == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "comm is NULL");
    int rc = collsim_comm_arg(*comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if ((*comm)->predefined || collsim_comm_is_internal(*comm)) {
        MPI_Comm visible = collsim_comm_visible(*comm);
        const char *what = visible == MPI_COMM_WORLD  ? "the predefined MPI_COMM_WORLD"
                           : visible == MPI_COMM_SELF ? "the predefined MPI_COMM_SELF"
                                                      : "an internal communicator";
        return collsim_error(*comm, MPI_ERR_COMM, call, "cannot %s %s", verb, what);
    }
    return MPI_SUCCESS;
}

/* This member releases comm (set to MPI_COMM_NULL); the last member destroys it. */
int
MPI_Comm_free(MPI_Comm *comm)
{
    const char *call = "MPI_Comm_free";
    int rc = comm_releasable(comm, call, "free");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!collsim_handle_held(*comm))   /* a copy of a handle this rank freed already */
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call,
                             "this rank has freed the communicator already");
    /* delete callbacks run first and may still use the communicator (§6.7.2) */
    rc = collsim_attr_delete_all(*comm);
    int twin_rc = delete_twin_attributes(*comm);
    comm_release(*comm);
    *comm = MPI_COMM_NULL;
    if (rc == MPI_SUCCESS)
        rc = twin_rc;
    if (rc != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, rc, call, "an attribute delete callback failed");
    return MPI_SUCCESS;
}

/*
 * MPI_Comm_disconnect (MPI-3.1 10.5.4): collective over comm; it waits for the communication
 * pending on comm, then frees it. Made for dynamic processes, it is also the collective form
 * of MPI_Comm_free on any communicator (MPICH's comm/inactive_reqs disconnects a duplicate of
 * MPI_COMM_WORLD that inactive persistent requests still name). The members meet in a barrier:
 * none leaves before all have come, so every message a member sent on comm before the call
 * has been sent (MPI requires it matched already, as at MPI_Finalize). PMPI_ names: a
 * profiling layer sees the program's call, not its parts.
 */
int
MPI_Comm_disconnect(MPI_Comm *comm)
{
    int rc = collsim_check_communication(MPI_COMM_NULL, "MPI_Comm_disconnect");
    if (rc == MPI_SUCCESS)
        rc = comm_releasable(comm, "MPI_Comm_disconnect", "disconnect");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Barrier(*comm);
    if (rc != MPI_SUCCESS)
        return rc;
    return PMPI_Comm_free(comm);
}

int
collsim_comm_finalize_rank(void)
{
    int rc = collsim_attr_delete_all(&collsim_comm_self);
    collsim_attr_delete_all(&self_coll);
    collsim_attr_delete_all(&world_coll);
    /* the twins of the communicators this rank still holds, newest first (a freed one's went
     * at MPI_Comm_free). Walking every live communicator instead was O(P) a rank: 20 s at
     * 65536 ranks whose node communicators the later ranks had not freed yet. A delete
     * callback may free communicators (a node layout's), so the list is copied first. */
    GPtrArray *held = collsim_handles_held_by(collsim_runtime->world_rank(), NULL);
    GPtrArray *comms = g_ptr_array_new();
    for (guint i = held->len; i-- > 0;) {
        const struct collsim_held *h = g_ptr_array_index(held, i);
        if (h->kind == COLLSIM_HELD_COMM)
            g_ptr_array_add(comms, (gpointer)h->object);
    }
    g_ptr_array_free(held, TRUE);
    for (guint i = 0; i < comms->len; i++)
        if (collsim_handle_held(comms->pdata[i]))
            delete_twin_attributes(comms->pdata[i]);
    g_ptr_array_free(comms, TRUE);
    return rc;
}

/*
 * MPI_COMM_TYPE_SHARED: one communicator per simulated host (the ranks that share its memory),
 * ordered by key, then by rank in comm. Collective over comm.
 */
int
MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    const char *call = "MPI_Comm_split_type";
    int rc = collsim_comm_arg_communicating(comm, call);
    if (rc == MPI_SUCCESS)
        rc = refuse_inter(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int err = MPI_SUCCESS;
    const char *why;
    /* no hints are defined for MPI_COMM_TYPE_SHARED, but the handle must be a real info */
    if (newcomm == NULL)
        err = collsim_error(comm, MPI_ERR_ARG, call, "newcomm is NULL");
    else if (info != MPI_INFO_NULL && collsim_info_check(info, &why) != MPI_SUCCESS)
        err = collsim_error(comm, MPI_ERR_INFO, call, "invalid info (%s)", why);
    else if (split_type != MPI_COMM_TYPE_SHARED && split_type != MPI_UNDEFINED)
        err = collsim_error(comm, MPI_ERR_ARG, call,
                            "split_type %d is not MPI_COMM_TYPE_SHARED or MPI_UNDEFINED",
                            split_type);
    int color = MPI_UNDEFINED;
    if (err == MPI_SUCCESS && split_type == MPI_COMM_TYPE_SHARED)
        color = collsim_runtime->node_of(collsim_runtime->world_rank());
    int mine[REC_INTS] = {color, key, 0, err};
    MPI_Comm result = MPI_COMM_NULL;
    rc = construct(comm, &split_type_ctor, mine, &result, COLLSIM_CALLER());
    if (rc == MPI_SUCCESS)
        *newcomm = result;
    return rc;
}

/* ---------------------------------------------------------------- info hints */

/* An info argument: MPI_INFO_NULL or a live info object. */
static int
check_info_arg(MPI_Comm comm, MPI_Info info, const char *call)
{
    const char *why;
    if (info != MPI_INFO_NULL && collsim_info_check(info, &why) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_INFO, call, "info is not an info object (%s)", why);
    return MPI_SUCCESS;
}

/* collsim defines no communicator hint: the info is checked and otherwise ignored. */
int
MPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_dup_with_info");
    if (rc == MPI_SUCCESS)
        rc = check_info_arg(comm, info, "MPI_Comm_dup_with_info");
    if (rc != MPI_SUCCESS)
        return rc;
    return comm_dup(comm, comm->coll, newcomm, "MPI_Comm_dup_with_info", COLLSIM_CALLER());
}

int
MPI_Comm_set_info(MPI_Comm comm, MPI_Info info)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_set_info");
    if (rc == MPI_SUCCESS && info == MPI_INFO_NULL)
        rc = collsim_error(comm, MPI_ERR_INFO, "MPI_Comm_set_info", "info is MPI_INFO_NULL");
    if (rc == MPI_SUCCESS)
        rc = check_info_arg(comm, info, "MPI_Comm_set_info");
    return rc;
}

/* The hints in use: none, so a new empty info object that the caller frees. */
int
MPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used)
{
    int rc = collsim_comm_arg(comm, "MPI_Comm_get_info");
    if (rc == MPI_SUCCESS)
        rc = check_out(comm, info_used, "info_used", "MPI_Comm_get_info");
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Info_create(info_used);
    /* sizes-only runs tell the algorithms their temporaries may be shared scratch */
    if (rc == MPI_SUCCESS && collsim_runtime->moves_payload != NULL &&
        !collsim_runtime->moves_payload())
        rc = MPI_Info_set(*info_used, COLLSIM_INFO_PAYLOAD, "none");
    return rc;
}
