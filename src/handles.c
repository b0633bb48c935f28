/*
 * handles.c — the registry of live MPI objects (handles.h).
 *
 * The simulated ranks run one at a time in one address space, so one table serves them all.
 * Predefined objects register themselves when the library loads (constructors in comm.c,
 * datatype.c, op.c).
 */
#include <glib.h>

#include "handles.h"

static GHashTable *live;                 /* registered object -> itself */

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
    if (live != NULL)
        g_hash_table_remove(live, object);
}

int
collsim_handle_readable(const void *object)
{
    if (object == NULL)
        return 0;
    return live != NULL && g_hash_table_contains(live, object);
}
