/*
 * wait_set.h — the transfers a rank's wait listens to, in the order given to
 * core_comm_wait_any, whose answer, when several are over, is the first in that order: so the
 * order is part of what a run does, and must not depend on how the set was edited.
 *
 * A blocking wait (sim/transport/p2p.c) keeps one entry per request waiting for a transfer,
 * in the order of the requests' slots, and edits it as the requests move: an entry joins or
 * leaves at its slot's place. A Waitall over P - 1 sends or receives sees them end in slot
 * order, each leaving from the front; closing each gap from the top moved the whole set every
 * time (O(P^2) per wait, 15 % of a linear Alltoall at 1024 ranks). So the live entries are
 * [start, len): an entry leaves or joins by moving the shorter side, and the dead part below
 * start is dropped once it outgrows the live one.
 *
 * The first `len` entries of the arrays are what the wait hands to the core from `start` on
 * (wait_set_comms, wait_set_count), an answer i naming wait_set_entry(set, i); entries
 * appended after the ordered ones (wait_set_append: the inbox's gets) are cut off again with
 * wait_set_truncate before the next edit. A wait that never removes (start 0) is a plain
 * list.
 */
#ifndef COLLSIM_TRANSPORT_WAIT_SET_H
#define COLLSIM_TRANSPORT_WAIT_SET_H

#include <string.h>

#include <glib.h>

#include "sim/core/core.h"
#include "sim/core/small_vec.h"

/* Most waits are over one or two requests, hence this many entries inline (small_vec.h). */
#define WAIT_INLINE 3

/* A dead part at most this long stays below the live one (moving it would cost more). */
#define WAIT_SET_DEAD_KEPT 64

struct wait_entry {
    gpointer what; /* the caller's object for the transfer */
    int slot;      /* the ordered part's key (-1 for appended entries) */
    int kind;      /* the caller's kind of transfer */
};

struct wait_set {
    SMALL_VEC(core_comm *, WAIT_INLINE) comms;
    SMALL_VEC(struct wait_entry, WAIT_INLINE) entries;
    guint start; /* entries below it have left */
};

static inline void
wait_set_init(struct wait_set *set)
{
    small_vec_init(&set->comms);
    small_vec_init(&set->entries);
    set->start = 0;
}

static inline void
wait_set_free(struct wait_set *set)
{
    small_vec_free(&set->comms);
    small_vec_free(&set->entries);
}

/* The end of the entries (live ones from set->start). */
static inline guint
wait_set_len(const struct wait_set *set)
{
    return set->comms.len;
}

/* Keep the first `len` entries (len >= set->start); 0 empties the set. */
static inline void
wait_set_truncate(struct wait_set *set, guint len)
{
    small_vec_set_len(&set->comms, len);
    small_vec_set_len(&set->entries, len);
    if (len == 0)
        set->start = 0;
}

/* Append a transfer after every entry, outside the slot order. */
static inline void
wait_set_append(struct wait_set *set, core_comm *comm, int kind, gpointer what)
{
    small_vec_push(&set->comms, comm);
    small_vec_push(&set->entries, ((struct wait_entry){what, -1, kind}));
}

/* What core_comm_wait_any is given: the live transfers, and how many. */
static inline core_comm **
wait_set_comms(struct wait_set *set)
{
    return set->comms.v + set->start;
}

static inline guint
wait_set_count(const struct wait_set *set)
{
    return set->comms.len - set->start;
}

/* The entry of the core's answer `index` (an index into wait_set_comms). */
static inline const struct wait_entry *
wait_set_entry(const struct wait_set *set, guint index)
{
    return &set->entries.v[set->start + index];
}

/* Where the entry for `slot` is, or would go, among live entries ordered by slot. */
static inline guint
wait_set_position(const struct wait_set *set, int slot)
{
    guint low = set->start, high = set->entries.len;
    while (low < high) {
        guint mid = low + (high - low) / 2;
        if (set->entries.v[mid].slot < slot)
            low = mid + 1;
        else
            high = mid;
    }
    return low;
}

/* Move entries [from, from + n) to `to`. */
static inline void
wait_set_shift(struct wait_set *set, guint to, guint from, guint n)
{
    memmove(&set->comms.v[to], &set->comms.v[from], n * sizeof *set->comms.v);
    memmove(&set->entries.v[to], &set->entries.v[from], n * sizeof *set->entries.v);
}

/* The live entry at `pos` leaves; the others keep their order. */
static inline void
wait_set_remove(struct wait_set *set, guint pos)
{
    guint start = set->start, len = set->comms.len;
    if (pos - start < len - 1 - pos) {
        wait_set_shift(set, start + 1, start, pos - start);
        start++;
    } else {
        wait_set_shift(set, pos, pos + 1, len - 1 - pos);
        len--;
    }
    if (start == len) {
        start = len = 0;
    } else if (start > WAIT_SET_DEAD_KEPT && start > len - start) {
        wait_set_shift(set, 0, start, len - start);
        len -= start;
        start = 0;
    }
    set->start = start;
    set->comms.len = len;
    set->entries.len = len;
}

/* A new entry goes before the live entry at `pos` (or last, pos = len); the shorter side of
 * the set moves. */
static inline void
wait_set_insert(struct wait_set *set, guint pos, core_comm *comm, int kind, gpointer what,
                int slot)
{
    guint start = set->start, len = set->comms.len;
    if (start > 0 && pos - start < len - pos) {
        wait_set_shift(set, start - 1, start, pos - start);
        set->start = start - 1;
        pos--;
    } else {
        small_vec_set_len(&set->comms, len + 1);
        small_vec_set_len(&set->entries, len + 1);
        wait_set_shift(set, pos + 1, pos, len - pos);
    }
    set->comms.v[pos] = comm;
    set->entries.v[pos] = (struct wait_entry){what, slot, kind};
}

#endif
