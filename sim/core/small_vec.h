/*
 * small_vec.h — a growable array whose first few elements live inside the structure that
 * holds it. The waits of a rank run at the rate of messages and usually hold one or two
 * requests: GArrays would put each of their arrays (and each array's header) on its own
 * heap block, a cache line apiece to fetch for every message once there are more ranks
 * than the caches hold; kept inline, they come with the wait record itself.
 *
 *   SMALL_VEC(int, 8) slots;          a member (its type is anonymous: use the macros)
 *   small_vec_init(&w->slots);        before first use, where the structure will stay
 *   small_vec_push(&w->slots, 3);     w->slots.v[i], w->slots.len
 *   small_vec_free(&w->slots);
 *
 * A structure holding one must not be copied or moved once initialised (v may point into it).
 */
#ifndef COLLSIM_CORE_SMALL_VEC_H
#define COLLSIM_CORE_SMALL_VEC_H

#include <string.h>

#include <glib.h>

#define SMALL_VEC(type, inline_count)                                                        \
    struct {                                                                                 \
        type *v;                                                                             \
        guint len, cap;                                                                      \
        type local[inline_count];                                                            \
    }

/* The array at `v` (the inline one or a heap block) grown to hold at least `want` elements
 * of `size` bytes, its first `len` kept; returns where it now is. */
static inline void *
small_vec_grow(void *v, void *local, guint len, guint *cap, gsize size, guint want)
{
    guint grown = MAX(want, *cap * 2);
    void *bigger = g_malloc_n(grown, size);
    memcpy(bigger, v, (gsize)len * size);
    if (v != local)
        g_free(v);
    *cap = grown;
    return bigger;
}

/* Whether `want` elements need more than `cap` (a function: a constant 0 would make the
 * comparison one that -Wtype-limits rejects). */
static inline gboolean
small_vec_short(guint want, guint cap)
{
    return want > cap;
}

#define small_vec_init(sv)                                                                   \
    ((sv)->v = (sv)->local, (sv)->len = 0, (sv)->cap = G_N_ELEMENTS((sv)->local))

#define small_vec_reserve(sv, want)                                                          \
    (small_vec_short((want), (sv)->cap)                                                      \
         ? (void)((sv)->v = small_vec_grow((sv)->v, (sv)->local, (sv)->len, &(sv)->cap,      \
                                           sizeof *(sv)->v, (want)))                         \
         : (void)0)

#define small_vec_push(sv, x)                                                                \
    (small_vec_reserve((sv), (sv)->len + 1), (void)((sv)->v[(sv)->len++] = (x)))

/* Insert x before element pos (0 <= pos <= len). */
#define small_vec_insert(sv, pos, x)                                                         \
    (small_vec_reserve((sv), (sv)->len + 1),                                                 \
     memmove(&(sv)->v[(pos) + 1], &(sv)->v[(pos)], ((sv)->len - (pos)) * sizeof *(sv)->v),   \
     (void)((sv)->v[(pos)] = (x)), (void)(sv)->len++)

/* Remove element pos, keeping the order of the others. */
#define small_vec_remove(sv, pos)                                                            \
    (memmove(&(sv)->v[(pos)], &(sv)->v[(pos) + 1],                                           \
             ((sv)->len - (pos)-1) * sizeof *(sv)->v),                                       \
     (void)(sv)->len--)

/* Set the length; elements past the old length are not initialised. */
#define small_vec_set_len(sv, n) (small_vec_reserve((sv), (n)), (void)((sv)->len = (n)))

#define small_vec_free(sv) ((sv)->v != (sv)->local ? g_free((sv)->v) : (void)0)

#endif
