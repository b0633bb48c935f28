/*
 * handles.c — the registry of live MPI objects and of what each rank holds (handles.h).
 *
 * The simulated ranks run one at a time in one address space, so one table serves them all.
 * Predefined objects register themselves when the library loads (constructors in comm.c,
 * datatype.c, op.c).
 */
#include "fint.h"
#include "handles.h"
#include "runtime.h"

static GHashTable *live;       /* registered object -> itself */
/* Objects found live lately, one per slot by address: every MPI call checks its handles, and an
 * algorithm checks the same datatype at each of its block copies (a Bruck Alltoall of ints at
 * P = 4096 asked the table a billion times). A slot holds only a registered object: removal
 * clears it. */
#define LIVE_CACHE_SLOTS 256
static const void *live_cache[LIVE_CACHE_SLOTS];

static inline guint
live_slot(const void *object)
{
    return (guint)((guintptr)object >> 4) & (LIVE_CACHE_SLOTS - 1);
}
/* A rank's holds are found by object: a program may hold thousands at once (MPICH's
 * too_many_comms duplicates MPI_COMM_WORLD until it fails), and a list searched at every
 * use made that quadratic. Their order, when listed, is their creation order (serial). */
static GHashTable *holds;      /* world rank -> GHashTable of object -> struct collsim_held * */
static guint64 serial;

void
collsim_handle_add(const void *object)
{
    if (live == NULL)
        live = g_hash_table_new(g_direct_hash, g_direct_equal);
    g_hash_table_add(live, (gpointer)object);
}

void
collsim_handle_remove(const void *object)
{
    collsim_fint_forget(object);
    if (live_cache[live_slot(object)] == object)
        live_cache[live_slot(object)] = NULL;
    if (live != NULL)
        g_hash_table_remove(live, object);
}

int
collsim_handle_readable(const void *object)
{
    if (object == NULL)
        return 0;
    guint slot = live_slot(object);
    if (live_cache[slot] == object)
        return 1;
    if (live == NULL || !g_hash_table_contains(live, object))
        return 0;
    live_cache[slot] = object;
    return 1;
}

/* The calling rank's holds (created on demand), or NULL. */
static GHashTable *
holds_of(int rank, gboolean create)
{
    if (holds == NULL) {
        if (!create)
            return NULL;
        holds = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                      (GDestroyNotify)g_hash_table_unref);
    }
    GHashTable *mine = g_hash_table_lookup(holds, GINT_TO_POINTER(rank));
    if (mine == NULL && create) {
        mine = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
        g_hash_table_insert(holds, GINT_TO_POINTER(rank), mine);
    }
    return mine;
}

static struct collsim_held *
find_hold(GHashTable *mine, const void *object)
{
    return mine != NULL ? g_hash_table_lookup(mine, object) : NULL;
}

void
collsim_handle_hold(const void *object, enum collsim_held_kind kind, const char *call,
                    const void *caller)
{
    GHashTable *mine = holds_of(collsim_runtime->world_rank(), TRUE);
    struct collsim_held *h = find_hold(mine, object);
    if (h != NULL) {
        h->handles++;
        return;
    }
    h = g_new(struct collsim_held, 1);
    *h = (struct collsim_held){object, kind, call, caller, serial++, 1};
    g_hash_table_insert(mine, (gpointer)object, h);
}

int
collsim_handle_held(const void *object)
{
    return find_hold(holds_of(collsim_runtime->world_rank(), FALSE), object) != NULL;
}

int
collsim_handle_let_go(const void *object)
{
    GHashTable *mine = holds_of(collsim_runtime->world_rank(), FALSE);
    struct collsim_held *h = find_hold(mine, object);
    if (h == NULL)
        return FALSE;
    if (--h->handles == 0)
        g_hash_table_remove(mine, object);
    return TRUE;
}

static gint
held_order(gconstpointer a, gconstpointer b)
{
    const struct collsim_held *x = *(struct collsim_held *const *)a;
    const struct collsim_held *y = *(struct collsim_held *const *)b;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->serial < y->serial ? -1 : x->serial > y->serial;
}

GPtrArray *
collsim_handles_held_by(int world_rank, guint counts[COLLSIM_HELD_KINDS])
{
    GPtrArray *out = g_ptr_array_new();
    GHashTable *mine = holds_of(world_rank, FALSE);
    if (mine != NULL) {
        GHashTableIter it;
        gpointer value;
        g_hash_table_iter_init(&it, mine);
        while (g_hash_table_iter_next(&it, NULL, &value))
            g_ptr_array_add(out, value);
    }
    /* the table's order is its own: kind, then creation (serials are unique) */
    g_ptr_array_sort(out, held_order);
    if (counts != NULL) {
        for (int k = 0; k < COLLSIM_HELD_KINDS; k++)
            counts[k] = 0;
        for (guint i = 0; i < out->len; i++)
            counts[((struct collsim_held *)g_ptr_array_index(out, i))->kind] +=
                (guint)((struct collsim_held *)g_ptr_array_index(out, i))->handles;
    }
    return out;
}

void
collsim_handles_forget_holds(void)
{
    if (holds != NULL)
        g_hash_table_destroy(holds);
    holds = NULL;
    serial = 0;
}

const char *
collsim_held_kind_name(enum collsim_held_kind kind)
{
    switch (kind) {
    case COLLSIM_HELD_COMM:
        return "communicator";
    case COLLSIM_HELD_GROUP:
        return "group";
    case COLLSIM_HELD_ERRHANDLER:
        return "error handler";
    case COLLSIM_HELD_DATATYPE:
        return "datatype";
    case COLLSIM_HELD_OP:
        return "op";
    case COLLSIM_HELD_KINDS:
        break;
    }
    return "object";
}
