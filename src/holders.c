/*
 * holders.c — per-rank handle counts of shared objects (holders.h).
 *
 * One table for all ranks, as for the registry: the simulated ranks run one at a time in
 * one address space. The caller is collsim_runtime->world_rank().
 */
#include <glib.h>

#include "holders.h"
#include "runtime.h"

struct holding {
    const void *object;
    int rank;
};

static GHashTable *held; /* struct holding -> handles (GINT_TO_POINTER), never 0 */

static guint
holding_hash(gconstpointer key)
{
    const struct holding *h = key;
    return g_direct_hash(h->object) ^ (guint)h->rank * 2654435761u;
}

static gboolean
holding_equal(gconstpointer a, gconstpointer b)
{
    const struct holding *x = a, *y = b;
    return x->object == y->object && x->rank == y->rank;
}

static struct holding
mine(const void *object)
{
    return (struct holding){object, collsim_runtime->world_rank()};
}

void
collsim_holders_take(const void *object)
{
    if (held == NULL)
        held = g_hash_table_new_full(holding_hash, holding_equal, g_free, NULL);
    struct holding key = mine(object);
    int handles = GPOINTER_TO_INT(g_hash_table_lookup(held, &key));
    g_hash_table_replace(held, g_memdup2(&key, sizeof key), GINT_TO_POINTER(handles + 1));
}

int
collsim_holders_drop(const void *object)
{
    struct holding key = mine(object);
    int handles = held != NULL ? GPOINTER_TO_INT(g_hash_table_lookup(held, &key)) : 0;
    if (handles == 0)
        return FALSE;
    if (handles == 1)
        g_hash_table_remove(held, &key);
    else
        g_hash_table_replace(held, g_memdup2(&key, sizeof key), GINT_TO_POINTER(handles - 1));
    return TRUE;
}

int
collsim_holders_has(const void *object)
{
    struct holding key = mine(object);
    return held != NULL && g_hash_table_contains(held, &key);
}

void
collsim_holders_reset(void)
{
    if (held != NULL)
        g_hash_table_remove_all(held);
}
