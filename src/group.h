/*
 * group.h — process groups: ordered sets of world ranks.
 *
 * A group maps local ranks 0..size-1 to world ranks. A group whose world ranks step evenly
 * (the world's, its prefixes, every other rank, a reversed range) keeps no array, so that
 * MPI_COMM_WORLD, or half of it, costs O(1) memory at a million ranks. Any other group keeps
 * its array and a sorted index for reverse lookups (world rank → local rank), built on
 * creation, and is shared: the ranks of an SPMD program all build the same groups, and one
 * object of P/2 members made by each of P ranks would be O(P²) memory and sorting. Groups are
 * immutable once built and reference-counted (communicators share them).
 *
 * Predefined groups (MPI_GROUP_EMPTY, the groups of MPI_COMM_WORLD and MPI_COMM_SELF) are
 * static objects: ref/unref leave them alone. Every group is a registered handle while it
 * lives (handles.h), and a rank may pass only the groups it holds (handles.h): one object is
 * shared by every member that asked for a communicator's group, so a rank's MPI_Group_free
 * must make its handle invalid for it alone. MPI_COMM_SELF's group is `caller_relative`: its
 * one member is whichever simulated rank asks (all ranks share the object), so it is only
 * ever used inside comm.c and never handed to a user (MPI_Comm_group gives a real {caller}).
 */
#ifndef COLLSIM_GROUP_H
#define COLLSIM_GROUP_H

#include <stdint.h>

#include "mpi.h"

#define COLLSIM_GROUP_MAGIC 0x47727570u /* "Grup" */

struct collsim_group {
    uint32_t magic;        /* COLLSIM_GROUP_MAGIC while the object lives (first: handles.h) */
    int size;
    int predefined;
    int refcount;
    int caller_relative;   /* size 1, member 0 = collsim_runtime->world_rank() */
    int first, step;       /* world_ranks == NULL: local l is world rank first + l × step
                              (the identity: 0 and 1) */
    int *world_ranks;      /* local → world, or NULL */
    int *sorted_by_world;  /* local ranks ordered by world rank; NULL without world_ranks */
    unsigned content_hash; /* of world_ranks: the table of shared groups (group.c) */
    int lowest, highest;   /* world_ranks != NULL: the least and the greatest of them */
};

/*
 * A group of `size` members from a local→world array (copied); identity when NULL. The world
 * ranks must be distinct and non-negative. An array that steps evenly is stored as its first
 * rank and step (no array); a live group with the same members in the same order is shared
 * (one more reference to it); size 0 gives MPI_GROUP_EMPTY. O(size), or O(size log size) for
 * a new array's index.
 */
MPI_Group collsim_group_new(int size, const int *world_ranks);
MPI_Group collsim_group_ref(MPI_Group group);
void collsim_group_unref(MPI_Group group);

/*
 * Give the calling rank a handle to group, handing over one reference that the program
 * releases with MPI_Group_free (MPI_Comm_group and the group constructors); `call` and
 * `caller` (the program's call site) name it in the report of what a rank never freed.
 * Returns group.
 */
MPI_Group collsim_group_hand_out(MPI_Group group, const char *call, const void *caller);

/*
 * MPI_SUCCESS if group is a handle the calling rank may pass: MPI_GROUP_EMPTY, or a live group
 * that it holds (handed out to it and not freed since). Otherwise MPI_ERR_GROUP, and *why
 * says what is wrong, for the message. Reads the object only once it is known to be live.
 */
int collsim_group_check(MPI_Group group, const char **why);

/* World rank of a local rank; MPI_UNDEFINED if local_rank is out of range. O(1). */
int collsim_group_world_rank(MPI_Group group, int local_rank);
/* Local rank of a world rank, or MPI_UNDEFINED if it is not a member. O(log size). */
int collsim_group_local_rank(MPI_Group group, int world_rank);

/*
 * Whether every member of `part` is a member of `whole`; if not, *missing is the local rank in
 * `part` of the first one that is not. O(1) when `whole` is a range of world ranks (the world,
 * or a prefix of it) and `part` steps evenly or is explicit; O(size of part × log) otherwise.
 */
int collsim_group_includes(MPI_Group whole, MPI_Group part, int *missing);

/* MPI_IDENT (same members, same order), MPI_SIMILAR (same members) or MPI_UNEQUAL. */
int collsim_group_compare(MPI_Group group1, MPI_Group group2);

#endif
