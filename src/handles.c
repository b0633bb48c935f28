/*
 * handles.c — the registry of live MPI objects and of what each rank holds (handles.h).
 *
 * The simulated ranks run one at a time in one address space, so one table serves them all.
 * Predefined objects register themselves when the library loads (constructors in comm.c,
 * datatype.c, op.c).
 */
#include "handles.h"
#include "runtime.h"

static GHashTable *live;       /* registered object -> itself */
static GHashTable *holds;      /* world rank -> GPtrArray of struct hold *, creation order */
static guint64 serial;

/* A rank holds few objects at a time (what it created and has not freed yet), so a list per
 * rank is searched linearly; ranks that hold nothing cost nothing. */
struct hold {
    const void *object;
    struct collsim_held held;
};
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

/* The calling rank's holds (created on demand), or NULL. */
static GPtrArray *
holds_of(int rank, gboolean create)
{
    if (holds == NULL) {
        if (!create)
            return NULL;
        holds = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                      (GDestroyNotify)g_ptr_array_unref);
    }
    GPtrArray *mine = g_hash_table_lookup(holds, GINT_TO_POINTER(rank));
    if (mine == NULL && create) {
        mine = g_ptr_array_new_with_free_func(g_free);
        g_hash_table_insert(holds, GINT_TO_POINTER(rank), mine);
    }
    return mine;
}

/* Index of object among a rank's holds, or -1. From the newest: programs mostly free what
 * they made last, or hold a few objects for the whole run. */
static int
find_hold(GPtrArray *mine, const void *object)
{
    for (guint i = mine != NULL ? mine->len : 0; i-- > 0;)
        if (((struct hold *)g_ptr_array_index(mine, i))->object == object)
            return (int)i;
    return -1;
}

void
collsim_handle_hold(const void *object, enum collsim_held_kind kind, const char *call,
                    const void *caller)
{
    GPtrArray *mine = holds_of(collsim_runtime->world_rank(), TRUE);
    int at = find_hold(mine, object);
    if (at >= 0) {
        ((struct hold *)g_ptr_array_index(mine, (guint)at))->held.handles++;
        return;
    }
    struct hold *h = g_new(struct hold, 1);
    h->object = object;
    h->held = (struct collsim_held){kind, call, caller, serial++, 1};
    g_ptr_array_add(mine, h);
}

int
collsim_handle_held(const void *object)
{
    return find_hold(holds_of(collsim_runtime->world_rank(), FALSE), object) >= 0;
}

int
collsim_handle_let_go(const void *object)
{
    GPtrArray *mine = holds_of(collsim_runtime->world_rank(), FALSE);
    int at = find_hold(mine, object);
    if (at < 0)
        return FALSE;
    struct hold *h = g_ptr_array_index(mine, (guint)at);
    if (--h->held.handles == 0)
        g_ptr_array_remove_index(mine, (guint)at);   /* keeps creation order */
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
    GPtrArray *mine = holds_of(world_rank, FALSE);
    for (guint i = 0; mine != NULL && i < mine->len; i++)
        g_ptr_array_add(out, &((struct hold *)g_ptr_array_index(mine, i))->held);
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
