/*
 * group.c — process groups and the MPI_Group_* API.
 *
 * A group is an immutable ordered list of distinct world ranks. Three representations:
 *  - strided: world rank = first + local rank × step (world_ranks == NULL), O(1) memory: the
 *    world's group (0, 1), its prefixes, every k-th rank, any range of MPI_Group_range_incl;
 *  - caller-relative: MPI_COMM_SELF's shared group, whose member is the asking rank;
 *  - explicit: world_ranks[] plus sorted_by_world[], the local ranks in increasing world rank
 *    order, so that world → local is a binary search (O(log n)). Explicit groups are shared:
 *    a live one with the same members in the same order is found in a table by content (one
 *    pass) and given another reference, so that P ranks building the same group of P/2
 *    members make one array and one sort, not P (at 65536 ranks, every rank making the group
 *    of every other rank, then MPI_Comm_create from it, took 21 GiB and 133 s when each rank
 *    kept a sorted copy). Sharing is invisible to the program: groups are immutable and each
 *    rank's handles are counted (handles.h).
 * Building a group is O(n) plus one sort for a new explicit one; every set operation below is
 * O((n1 + n2) log n) and never allocates in proportion to the world, so groups of a million
 * members are cheap.
 *
 * Semantics follow MPI-3.1 §6.3: union = group1 then the members of group2 not in group1,
 * in group2's order; intersection and difference keep group1's order; an empty result is
 * MPI_GROUP_EMPTY. MPI_GROUP_EMPTY (and any predefined group obtained from MPI_Comm_group)
 * may be passed to MPI_Group_free, which then only sets the handle to MPI_GROUP_NULL: the
 * standard does not forbid it, constructors return MPI_GROUP_EMPTY, and MPICH, Open MPI and
 * LAM all accept it because programs free the results of group operations unconditionally.
 * Errors not tied to a communicator go to MPI_COMM_WORLD's handler.
 *
 * Handles: a group is registered (handles.h) from its creation to its destruction, and the
 * groups a rank may pass are MPI_GROUP_EMPTY and those handed out to it and not yet freed by
 * it (its holds): a handle never set, freed, of another kind, or freed by this rank while
 * other ranks or communicators still hold the object is MPI_ERR_GROUP, never a read of stray
 * memory or a silent use.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "callsite.h"
#include "errhandler.h"
#include "group.h"
#include "handles.h"
#include "runtime.h"

struct collsim_group collsim_group_empty = {
    .magic = COLLSIM_GROUP_MAGIC, .size = 0, .predefined = 1, .refcount = 1, .step = 1};

/* MPI_GROUP_EMPTY is a live handle from the moment the library loads. */
static void __attribute__((constructor))
register_group_empty(void)
{
    collsim_handle_add(&collsim_group_empty);
}

/* ---------------------------------------------------------------- construction */

static int
compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Fill group->sorted_by_world from group->world_ranks: one sort of (world, local) keys. */
static void
build_index(MPI_Group group)
{
    int n = group->size;
    uint64_t *keys = g_new(uint64_t, n);
    for (int i = 0; i < n; i++)
        keys[i] = ((uint64_t)(uint32_t)group->world_ranks[i] << 32) | (uint32_t)i;
    qsort(keys, (size_t)n, sizeof *keys, compare_u64);
    group->sorted_by_world = g_new(int, n);
    for (int i = 0; i < n; i++)
        group->sorted_by_world[i] = (int)(keys[i] & 0xffffffffu);
    g_free(keys);
}

/* The live explicit groups, by content: each is in the table from its creation to its end. */
static GHashTable *explicit_groups;

static guint
content_hash(int size, const int *world_ranks)
{
    guint h = 2166136261u ^ (guint)size; /* FNV-1a over the ranks */
    for (int i = 0; i < size; i++)
        h = (h ^ (guint)world_ranks[i]) * 16777619u;
    return h;
}

static guint
group_hash(gconstpointer group)
{
    return ((const struct collsim_group *)group)->content_hash;
}

static gboolean
group_same_members(gconstpointer a, gconstpointer b)
{
    const struct collsim_group *x = a, *y = b;
    return x->size == y->size &&
           memcmp(x->world_ranks, y->world_ranks, (size_t)x->size * sizeof(int)) == 0;
}

static MPI_Group
group_alloc(int size)
{
    MPI_Group group = g_new0(struct collsim_group, 1);
    collsim_handle_add(group);
    group->magic = COLLSIM_GROUP_MAGIC;
    group->size = size;
    group->refcount = 1;
    group->step = 1;
    return group;
}

/* The group first, first + step, ... (size members, size > 0). */
static MPI_Group
group_strided(int size, int first, int step)
{
    MPI_Group group = group_alloc(size);
    group->first = first;
    group->step = size > 1 ? step : 1;
    return group;
}

/* Whether world_ranks[0..size) step evenly; if so, the step (1 for a single member). */
static gboolean
steps_evenly(int size, const int *world_ranks, int *step)
{
    int64_t d = size > 1 ? (int64_t)world_ranks[1] - world_ranks[0] : 1;
    for (int i = 2; i < size; i++)
        if ((int64_t)world_ranks[i] - world_ranks[i - 1] != d)
            return FALSE;
    *step = (int)d; /* distinct non-negative ints: the difference fits */
    return TRUE;
}

/* A group that takes ownership of `world_ranks` (g_malloc'd, or NULL for the identity). */
static MPI_Group
group_adopt(int size, int *world_ranks)
{
    if (size == 0) {
        g_free(world_ranks);
        return MPI_GROUP_EMPTY;
    }
    if (world_ranks == NULL)
        return group_strided(size, 0, 1);
    int step;
    if (steps_evenly(size, world_ranks, &step)) {
        MPI_Group group = group_strided(size, world_ranks[0], step);
        g_free(world_ranks);
        return group;
    }
    if (explicit_groups == NULL)
        explicit_groups = g_hash_table_new(group_hash, group_same_members);
    struct collsim_group probe = {
        .size = size, .world_ranks = world_ranks, .content_hash = content_hash(size, world_ranks)};
    MPI_Group same = g_hash_table_lookup(explicit_groups, &probe);
    if (same != NULL) {
        g_free(world_ranks);
        return collsim_group_ref(same);
    }
    MPI_Group group = group_alloc(size);
    group->world_ranks = world_ranks;
    group->content_hash = probe.content_hash;
    group->lowest = group->highest = world_ranks[0];
    for (int i = 1; i < size; i++) {
        group->lowest = MIN(group->lowest, world_ranks[i]);
        group->highest = MAX(group->highest, world_ranks[i]);
    }
    build_index(group);
    g_hash_table_add(explicit_groups, group);
    return group;
}

MPI_Group
collsim_group_new(int size, const int *world_ranks)
{
    int *copy = world_ranks != NULL ? g_memdup2(world_ranks, (gsize)size * sizeof(int)) : NULL;
    return group_adopt(size, copy);
}

MPI_Group
collsim_group_ref(MPI_Group group)
{
    if (group != MPI_GROUP_NULL && !group->predefined)
        group->refcount++;
    return group;
}

void
collsim_group_unref(MPI_Group group)
{
    if (group == MPI_GROUP_NULL || group->predefined)
        return;
    if (--group->refcount > 0)
        return;
    group->magic = 0;
    collsim_handle_remove(group);
    if (group->world_ranks != NULL)
        g_hash_table_remove(explicit_groups, group);
    g_free(group->world_ranks);
    g_free(group->sorted_by_world);
    g_free(group);
}

MPI_Group
collsim_group_hand_out(MPI_Group group, const char *call, const void *caller)
{
    /* MPI_GROUP_EMPTY is a constant the program may name at any time: nobody holds it */
    if (group != MPI_GROUP_EMPTY)
        collsim_handle_hold(group, COLLSIM_HELD_GROUP, call, caller);
    return group;
}

int
collsim_group_check(MPI_Group group, const char **why)
{
    if (group == MPI_GROUP_NULL)
        *why = "MPI_GROUP_NULL";
    else if (!collsim_handle_readable(group))
        *why = "not a live group: never set, or freed";
    else if (group->magic != COLLSIM_GROUP_MAGIC)
        *why = "a handle of another kind, not a group";
    else if (group != MPI_GROUP_EMPTY && !collsim_handle_held(group))
        *why = "a group this rank already freed, or never received";
    else
        return MPI_SUCCESS;
    return MPI_ERR_GROUP;
}

/* ---------------------------------------------------------------- lookups */

int
collsim_group_world_rank(MPI_Group group, int local_rank)
{
    if (local_rank < 0 || local_rank >= group->size)
        return MPI_UNDEFINED;
    if (group->caller_relative)
        return collsim_runtime->world_rank();
    return group->world_ranks != NULL ? group->world_ranks[local_rank]
                                      : group->first + local_rank * group->step;
}

int
collsim_group_local_rank(MPI_Group group, int world_rank)
{
    if (world_rank < 0)
        return MPI_UNDEFINED;
    if (group->caller_relative)
        return world_rank == collsim_runtime->world_rank() ? 0 : MPI_UNDEFINED;
    if (group->world_ranks == NULL) {
        int64_t offset = (int64_t)world_rank - group->first;
        if (offset % group->step != 0)
            return MPI_UNDEFINED;
        int64_t local = offset / group->step;
        return local >= 0 && local < group->size ? (int)local : MPI_UNDEFINED;
    }
    int lo = 0, hi = group->size - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        int local = group->sorted_by_world[mid];
        int w = group->world_ranks[local];
        if (w == world_rank)
            return local;
        if (w < world_rank)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return MPI_UNDEFINED;
}

static int
is_member(MPI_Group group, int world_rank)
{
    return collsim_group_local_rank(group, world_rank) != MPI_UNDEFINED;
}

/* The world ranks [*lowest, *highest] a group's members lie in (not all of them members). */
static void
world_span(MPI_Group group, int *lowest, int *highest)
{
    if (group->caller_relative) {
        *lowest = *highest = collsim_runtime->world_rank();
    } else if (group->world_ranks != NULL) {
        *lowest = group->lowest;
        *highest = group->highest;
    } else {
        int last = group->first + (group->size - 1) * group->step;
        *lowest = MIN(group->first, last);
        *highest = MAX(group->first, last);
    }
}

int
collsim_group_includes(MPI_Group whole, MPI_Group part, int *missing)
{
    if (part->size == 0)
        return TRUE;
    if (whole->size > 0 && !whole->caller_relative && whole->world_ranks == NULL &&
        whole->step == 1) {
        /* whole is every world rank in a range: part is in it if its span is */
        int lowest, highest;
        world_span(part, &lowest, &highest);
        if (lowest >= whole->first && highest < whole->first + whole->size)
            return TRUE;
    }
    for (int i = 0; i < part->size; i++)
        if (!is_member(whole, collsim_group_world_rank(part, i))) {
            *missing = i;
            return FALSE;
        }
    return TRUE;
}

int
collsim_group_compare(MPI_Group group1, MPI_Group group2)
{
    if (group1 == group2)
        return MPI_IDENT;
    if (group1->size != group2->size)
        return MPI_UNEQUAL;
    int n = group1->size;
    int same_order = 1;
    for (int i = 0; i < n && same_order; i++)
        same_order = collsim_group_world_rank(group1, i) == collsim_group_world_rank(group2, i);
    if (same_order)
        return MPI_IDENT;
    /* same size and distinct members: group1 ⊆ group2 means the same set */
    for (int i = 0; i < n; i++)
        if (!is_member(group2, collsim_group_world_rank(group1, i)))
            return MPI_UNEQUAL;
    return MPI_SIMILAR;
}

/* ---------------------------------------------------------------- argument checks */

static int
check_group(MPI_Group group, const char *what, const char *call)
{
    const char *why;
    if (collsim_group_check(group, &why) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_GROUP, call, "invalid %s (%s)", what, why);
    return MPI_SUCCESS;
}

static int
check_out(const void *pointer, const char *what, const char *call)
{
    if (pointer == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "%s is NULL", what);
    return MPI_SUCCESS;
}

/* n >= 0, and the array present when n > 0. */
static int
check_list(int n, const void *list, const char *what, const char *call)
{
    if (n < 0)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "negative n = %d", n);
    if (n > 0 && list == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "%s is NULL with n = %d", what, n);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- queries */

int
MPI_Group_size(MPI_Group group, int *size)
{
    int rc = check_group(group, "group", "MPI_Group_size");
    if (rc == MPI_SUCCESS)
        rc = check_out(size, "size", "MPI_Group_size");
    if (rc != MPI_SUCCESS)
        return rc;
    *size = group->size;
    return MPI_SUCCESS;
}

/* Rank of the calling simulated process in the group, MPI_UNDEFINED if not a member. */
int
MPI_Group_rank(MPI_Group group, int *rank)
{
    int rc = check_group(group, "group", "MPI_Group_rank");
    if (rc == MPI_SUCCESS)
        rc = check_out(rank, "rank", "MPI_Group_rank");
    if (rc != MPI_SUCCESS)
        return rc;
    *rank = collsim_group_local_rank(group, collsim_runtime->world_rank());
    return MPI_SUCCESS;
}

/* ranks2[i] = rank in group2 of the process ranks1[i] of group1 (MPI_PROC_NULL passes). */
int
MPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                          int ranks2[])
{
    const char *call = "MPI_Group_translate_ranks";
    int rc = check_group(group1, "group1", call);
    if (rc == MPI_SUCCESS)
        rc = check_group(group2, "group2", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranks1, "ranks1", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranks2, "ranks2", call);
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        if (r != MPI_PROC_NULL && (r < 0 || r >= group1->size))
            return collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                                 "ranks1[%d] = %d is not a rank of group1 (size %d)", i, r,
                                 group1->size);
    }
    for (int i = 0; i < n; i++) {
        int r = ranks1[i];
        ranks2[i] = r == MPI_PROC_NULL
                        ? MPI_PROC_NULL
                        : collsim_group_local_rank(group2, collsim_group_world_rank(group1, r));
    }
    return MPI_SUCCESS;
}

int
MPI_Group_compare(MPI_Group group1, MPI_Group group2, int *result)
{
    int rc = check_group(group1, "group1", "MPI_Group_compare");
    if (rc == MPI_SUCCESS)
        rc = check_group(group2, "group2", "MPI_Group_compare");
    if (rc == MPI_SUCCESS)
        rc = check_out(result, "result", "MPI_Group_compare");
    if (rc != MPI_SUCCESS)
        return rc;
    *result = collsim_group_compare(group1, group2);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- set operations */

/* Common checks of the three binary constructors. */
static int
check_binary(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup, const char *call)
{
    int rc = check_group(group1, "group1", call);
    if (rc == MPI_SUCCESS)
        rc = check_group(group2, "group2", call);
    if (rc != MPI_SUCCESS)
        return rc;
    return check_out(newgroup, "newgroup", call);
}

int
MPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int rc = check_binary(group1, group2, newgroup, "MPI_Group_union");
    if (rc != MPI_SUCCESS)
        return rc;
    int n1 = group1->size;
    int *ranks = g_new(int, (gsize)n1 + (gsize)group2->size + 1);
    for (int i = 0; i < n1; i++)
        ranks[i] = collsim_group_world_rank(group1, i);
    int n = n1;
    for (int i = 0; i < group2->size; i++) {
        int w = collsim_group_world_rank(group2, i);
        if (!is_member(group1, w))
            ranks[n++] = w;
    }
    if (n == n1 && !group1->caller_relative) {
        /* nothing added: the union is group1 itself (groups are immutable) */
        g_free(ranks);
        *newgroup =
            collsim_group_hand_out(collsim_group_ref(group1), "MPI_Group_union", COLLSIM_CALLER());
        return MPI_SUCCESS;
    }
    *newgroup = collsim_group_hand_out(group_adopt(n, ranks), "MPI_Group_union", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

/* Members of group1 that are (keep_members) or are not in group2, in group1's order. */
static MPI_Group
filter(MPI_Group group1, MPI_Group group2, int keep_members)
{
    int *ranks = g_new(int, (gsize)group1->size + 1);
    int n = 0;
    for (int i = 0; i < group1->size; i++) {
        int w = collsim_group_world_rank(group1, i);
        if (is_member(group2, w) == keep_members)
            ranks[n++] = w;
    }
    return group_adopt(n, ranks);
}

int
MPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int rc = check_binary(group1, group2, newgroup, "MPI_Group_intersection");
    if (rc != MPI_SUCCESS)
        return rc;
    *newgroup = collsim_group_hand_out(filter(group1, group2, 1), "MPI_Group_intersection",
                                       COLLSIM_CALLER());
    return MPI_SUCCESS;
}

int
MPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group *newgroup)
{
    int rc = check_binary(group1, group2, newgroup, "MPI_Group_difference");
    if (rc != MPI_SUCCESS)
        return rc;
    *newgroup =
        collsim_group_hand_out(filter(group1, group2, 0), "MPI_Group_difference", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- incl / excl */

static int
compare_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The first rank ranks[0..n) names twice, or -1 (every rank valid); O(n log n), or
 * O(n + group size / 8) when the list is a sizeable part of the group. */
static int
first_duplicate(MPI_Group group, int n, const int ranks[])
{
    int duplicate = -1;
    if (n < 2)
        return duplicate;
    if ((int64_t)n * 32 >= group->size) {
        guint8 *seen = g_malloc0((gsize)group->size / 8 + 1);
        for (int i = 0; i < n && duplicate < 0; i++) {
            guint8 bit = (guint8)(1u << (ranks[i] & 7));
            if (seen[ranks[i] >> 3] & bit)
                duplicate = ranks[i];
            seen[ranks[i] >> 3] |= bit;
        }
        g_free(seen);
        return duplicate;
    }
    int *sorted = g_memdup2(ranks, (gsize)n * sizeof(int));
    qsort(sorted, (size_t)n, sizeof(int), compare_int);
    for (int i = 1; i < n && duplicate < 0; i++)
        if (sorted[i] == sorted[i - 1])
            duplicate = sorted[i];
    g_free(sorted);
    return duplicate;
}

/* Every rank in range and none twice. */
static int
check_rank_list(MPI_Group group, int n, const int ranks[], const char *call)
{
    for (int i = 0; i < n; i++)
        if (ranks[i] < 0 || ranks[i] >= group->size)
            return collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                                 "ranks[%d] = %d is not a rank of the group (size %d)", i,
                                 ranks[i], group->size);
    int duplicate = first_duplicate(group, n, ranks);
    if (duplicate >= 0)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                             "rank %d appears more than once", duplicate);
    return MPI_SUCCESS;
}

/* The group of ranks[0..n) of group, in that order (ranks already validated). */
static MPI_Group
incl_checked(MPI_Group group, int n, const int ranks[])
{
    int *world = g_new(int, (gsize)n + 1);
    for (int i = 0; i < n; i++)
        world[i] = collsim_group_world_rank(group, ranks[i]);
    return group_adopt(n, world);
}

/* Group without the local ranks flagged in `excluded` (group->size bytes), in group order. */
static MPI_Group
excl_marked(MPI_Group group, const guint8 *excluded)
{
    int *world = g_new(int, (gsize)group->size + 1);
    int n = 0;
    for (int i = 0; i < group->size; i++)
        if (!excluded[i])
            world[n++] = collsim_group_world_rank(group, i);
    return group_adopt(n, world);
}

int
MPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    const char *call = "MPI_Group_incl";
    int rc = check_group(group, "group", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranks, "ranks", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(newgroup, "newgroup", call);
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(group, n, ranks, call);
    if (rc != MPI_SUCCESS)
        return rc;
    *newgroup =
        collsim_group_hand_out(incl_checked(group, n, ranks), "MPI_Group_incl", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

int
MPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group *newgroup)
{
    const char *call = "MPI_Group_excl";
    int rc = check_group(group, "group", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranks, "ranks", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(newgroup, "newgroup", call);
    if (rc == MPI_SUCCESS)
        rc = check_rank_list(group, n, ranks, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n == 0 && !group->caller_relative) {
        *newgroup = collsim_group_hand_out(collsim_group_ref(group), "MPI_Group_excl",
                                           COLLSIM_CALLER()); /* "identical to group" */
        return MPI_SUCCESS;
    }
    guint8 *excluded = g_malloc0((gsize)group->size + 1);
    for (int i = 0; i < n; i++)
        excluded[ranks[i]] = 1;
    *newgroup =
        collsim_group_hand_out(excl_marked(group, excluded), "MPI_Group_excl", COLLSIM_CALLER());
    g_free(excluded);
    return MPI_SUCCESS;
}

/*
 * The number of ranks (first, last, stride) triplets name. Each triplet must name valid
 * ranks, have a non-zero stride and reach `last` going from `first` (as MPICH and Open MPI
 * require); more ranks in total than the group has means some rank is named twice. Duplicates
 * within the list are left to the callers.
 */
static int
count_ranges(MPI_Group group, int n, int ranges[][3], int *out_n, const char *call)
{
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (first < 0 || first >= group->size || last < 0 || last >= group->size)
            return collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                                 "ranges[%d] = (%d, %d, %d) names a rank outside the group "
                                 "(size %d)",
                                 i, first, last, stride, group->size);
        if (stride == 0 || (stride > 0 && first > last) || (stride < 0 && first < last))
            return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call,
                                 "ranges[%d] = (%d, %d, %d) does not run from first to last", i,
                                 first, last, stride);
        total += ((int64_t)last - first) / stride + 1;
        if (total > group->size)
            return collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                                 "the ranges name %lld ranks but the group has only %d: some "
                                 "rank appears more than once",
                                 (long long)total, group->size);
    }
    *out_n = (int)total;
    return MPI_SUCCESS;
}

/* The rank list of triplets that count_ranges accepted (count of them). */
static int *
expand_ranges(int n, int ranges[][3], int count)
{
    int *ranks = g_new(int, (gsize)count + 1);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int64_t first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        for (int64_t r = first; stride > 0 ? r <= last : r >= last; r += stride)
            ranks[k++] = (int)r;
    }
    return ranks;
}

int
MPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    const char *call = "MPI_Group_range_incl";
    int rc = check_group(group, "group", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranges, "ranges", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(newgroup, "newgroup", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int count;
    rc = count_ranges(group, n, ranges, &count, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (n == 1 && group->world_ranks == NULL && !group->caller_relative) {
        /* one range of an evenly stepping group steps evenly: no list, and no rank twice */
        MPI_Group range = group_strided(count, collsim_group_world_rank(group, ranges[0][0]),
                                        ranges[0][2] * group->step);
        *newgroup = collsim_group_hand_out(range, "MPI_Group_range_incl", COLLSIM_CALLER());
        return MPI_SUCCESS;
    }
    int *ranks = expand_ranges(n, ranges, count);
    rc = check_rank_list(group, count, ranks, call);
    if (rc == MPI_SUCCESS)
        *newgroup = collsim_group_hand_out(incl_checked(group, count, ranks),
                                           "MPI_Group_range_incl", COLLSIM_CALLER());
    g_free(ranks);
    return rc;
}

int
MPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup)
{
    const char *call = "MPI_Group_range_excl";
    int rc = check_group(group, "group", call);
    if (rc == MPI_SUCCESS)
        rc = check_list(n, ranges, "ranges", call);
    if (rc == MPI_SUCCESS)
        rc = check_out(newgroup, "newgroup", call);
    if (rc != MPI_SUCCESS)
        return rc;
    int count;
    rc = count_ranges(group, n, ranges, &count, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int *ranks = expand_ranges(n, ranges, count);
    guint8 *excluded = g_malloc0((gsize)group->size + 1);
    rc = MPI_SUCCESS;
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        if (excluded[ranks[i]])
            rc = collsim_error(MPI_COMM_NULL, MPI_ERR_RANK, call,
                               "rank %d appears more than once", ranks[i]);
        excluded[ranks[i]] = 1;
    }
    if (rc == MPI_SUCCESS)
        *newgroup = collsim_group_hand_out(excl_marked(group, excluded), "MPI_Group_range_excl",
                                           COLLSIM_CALLER());
    g_free(excluded);
    g_free(ranks);
    return rc;
}

/* ---------------------------------------------------------------- free */

/* Release the handle and set it to MPI_GROUP_NULL (a no-op on predefined groups). */
int
MPI_Group_free(MPI_Group *group)
{
    int rc = check_out(group, "group", "MPI_Group_free");
    if (rc == MPI_SUCCESS)
        rc = check_group(*group, "group", "MPI_Group_free");
    if (rc != MPI_SUCCESS)
        return rc;
    if (*group != MPI_GROUP_EMPTY)
        collsim_handle_let_go(*group);
    collsim_group_unref(*group);
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}
