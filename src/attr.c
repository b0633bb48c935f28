/*
 * attr.c — attribute caching on communicators (MPI-3.1 §6.7): keyvals, set/get/delete, the
 * copy callbacks of MPI_Comm_dup, the delete callbacks of MPI_Comm_free and MPI_Finalize, and
 * the predefined attributes of MPI_COMM_WORLD.
 *
 * In MPI an attribute belongs to one process's handle of a communicator. Here a communicator
 * object is shared by its members, so its store keeps one list per world rank, in the order
 * the rank set its attributes: every rank sees only its own values, and callbacks run in a
 * deterministic order (deletion in the reverse order of setting, as MPI-4.0 requires for
 * MPI_COMM_SELF at finalize).
 *
 * Keyvals are objects of the one simulator process, numbered from USER_KEYVAL_FIRST in
 * creation order. A keyval created by one rank and used by another (a static variable in a
 * library shared by all ranks, such as collsim's own node-aware algorithms) works as in an
 * MPI process. A freed keyval stays alive while attributes use it (§6.7.2), but only to
 * delete them: MPI_Comm_delete_attr still takes it (as §6.7.2 tells programs to), while
 * setting or getting an attribute with it, or freeing it again, is MPI_ERR_KEYVAL.
 *
 * Keyvals are plain ints: a keyval never created, created in an earlier simulation, or freed
 * is one that the table below does not hold as live, and nothing is read through it.
 * The predefined keys (MPI_TAG_UB ... MPI_APPNUM) are live from the start and never freed.
 */
#include <glib.h>

#include "attr.h"
#include "comm.h"
#include "errhandler.h"
#include "runtime.h"

#define USER_KEYVAL_FIRST 16 /* 0..6 are the predefined keys of mpi.h */

struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra_state;
    int refs;   /* the creator's handle (until MPI_Comm_free_keyval) + attributes using it */
    gboolean freed; /* MPI_Comm_free_keyval was called: alive only for the attributes left */
};

struct entry {
    int keyval;
    void *value;
};

/* A communicator's attributes: world rank -> GArray of struct entry, in setting order. */
struct collsim_attr_store {
    GHashTable *by_rank;
};

static GPtrArray *keyvals; /* index keyval - USER_KEYVAL_FIRST; NULL once destroyed */

/* ---------------------------------------------------------------- predefined callbacks */

int
collsim_comm_null_copy_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out,
                          int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int
collsim_comm_dup_fn(MPI_Comm oldcomm, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldcomm, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int
collsim_comm_null_delete_fn(MPI_Comm comm, int keyval, void *value, void *extra)
{
    (void)comm, (void)keyval, (void)value, (void)extra;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- keyvals */

static struct keyval *
keyval_get(int keyval)
{
    if (keyvals == NULL || keyval < USER_KEYVAL_FIRST ||
        (guint)(keyval - USER_KEYVAL_FIRST) >= keyvals->len)
        return NULL;
    return g_ptr_array_index(keyvals, (guint)(keyval - USER_KEYVAL_FIRST));
}

static void
keyval_unref(int keyval)
{
    struct keyval *k = keyval_get(keyval);
    if (k != NULL && --k->refs == 0) {
        g_free(k);
        g_ptr_array_index(keyvals, (guint)(keyval - USER_KEYVAL_FIRST)) = NULL;
    }
}

static gboolean
is_predefined_key(int keyval)
{
    return keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM;
}

/* Why keyval, whose table entry is k (NULL if none), cannot be used, for messages. */
static const char *
keyval_problem(int keyval, const struct keyval *k)
{
    if (keyval == MPI_KEYVAL_INVALID)
        return "MPI_KEYVAL_INVALID";
    if (k != NULL && k->freed)
        return "already freed with MPI_Comm_free_keyval";
    return "not a keyval: never created, or freed";
}

/* The keyval calls, named `call` in messages (MPI_Comm_* and their MPI-1 forms). */
static int
create_keyval(const char *call, MPI_Comm_copy_attr_function *copy,
              MPI_Comm_delete_attr_function *del, int *comm_keyval, void *extra_state)
{
    if (comm_keyval == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "comm_keyval is NULL");
    if (keyvals == NULL)
        keyvals = g_ptr_array_new();
    struct keyval *k = g_new0(struct keyval, 1);
    k->copy = copy != NULL ? copy : collsim_comm_null_copy_fn;
    k->del = del != NULL ? del : collsim_comm_null_delete_fn;
    k->extra_state = extra_state;
    k->refs = 1;
    g_ptr_array_add(keyvals, k);
    *comm_keyval = USER_KEYVAL_FIRST + (int)keyvals->len - 1;
    return MPI_SUCCESS;
}

static int
free_keyval(const char *call, int *comm_keyval)
{
    if (comm_keyval == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "comm_keyval is NULL");
    if (is_predefined_key(*comm_keyval))
        return collsim_error(MPI_COMM_NULL, MPI_ERR_KEYVAL, call,
                             "keyval %d is predefined and cannot be freed", *comm_keyval);
    struct keyval *k = keyval_get(*comm_keyval);
    if (k == NULL || k->freed)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_KEYVAL, call, "invalid keyval %d (%s)",
                             *comm_keyval, keyval_problem(*comm_keyval, k));
    k->freed = TRUE;
    keyval_unref(*comm_keyval);
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- stores */

static GArray *
rank_entries(MPI_Comm comm, gboolean create)
{
    int me = collsim_runtime->world_rank();
    if (comm->attrs == NULL) {
        if (!create)
            return NULL;
        comm->attrs = g_new0(struct collsim_attr_store, 1);
        comm->attrs->by_rank = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                                     (GDestroyNotify)g_array_unref);
    }
    GArray *list = g_hash_table_lookup(comm->attrs->by_rank, GINT_TO_POINTER(me));
    if (list == NULL && create) {
        list = g_array_new(FALSE, FALSE, sizeof(struct entry));
        g_hash_table_insert(comm->attrs->by_rank, GINT_TO_POINTER(me), list);
    }
    return list;
}

static int
find_entry(GArray *list, int keyval)
{
    for (guint i = 0; list != NULL && i < list->len; i++)
        if (g_array_index(list, struct entry, i).keyval == keyval)
            return (int)i;
    return -1;
}

/* Run the delete callback of entry i of `list` and remove it; the callback's error, if any. */
static int
delete_entry(MPI_Comm comm, GArray *list, guint i)
{
    struct entry e = g_array_index(list, struct entry, i);
    g_array_remove_index(list, i);
    struct keyval *k = keyval_get(e.keyval);
    int rc = MPI_SUCCESS;
    if (k != NULL) {
        rc = k->del(collsim_comm_visible(comm), e.keyval, e.value, k->extra_state);
        keyval_unref(e.keyval);
    }
    return rc;
}

void
collsim_attr_store_free(MPI_Comm comm)
{
    if (comm->attrs == NULL)
        return;
    /* values left at teardown are dropped without callbacks: the simulation is over */
    GHashTableIter it;
    gpointer value;
    g_hash_table_iter_init(&it, comm->attrs->by_rank);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        GArray *list = value;
        for (guint i = 0; i < list->len; i++)
            keyval_unref(g_array_index(list, struct entry, i).keyval);
    }
    g_hash_table_destroy(comm->attrs->by_rank);
    g_free(comm->attrs);
    comm->attrs = NULL;
}

int
collsim_attr_delete_all(MPI_Comm comm)
{
    GArray *list = rank_entries(comm, FALSE);
    int first_error = MPI_SUCCESS;
    while (list != NULL && list->len > 0) {
        int rc = delete_entry(comm, list, list->len - 1);
        if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS)
            first_error = rc;
    }
    return first_error;
}

int
collsim_attr_copy_all(MPI_Comm oldcomm, MPI_Comm newcomm)
{
    GArray *list = rank_entries(oldcomm, FALSE);
    for (guint i = 0; list != NULL && i < list->len; i++) {
        struct entry e = g_array_index(list, struct entry, i);
        struct keyval *k = keyval_get(e.keyval);
        void *out = NULL;
        int flag = 0;
        int rc = k->copy(collsim_comm_visible(oldcomm), e.keyval, k->extra_state, e.value, &out,
                         &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag) {
            k->refs++;
            struct entry copy = {e.keyval, out};
            g_array_append_val(rank_entries(newcomm, TRUE), copy);
        }
    }
    return MPI_SUCCESS;
}

void
collsim_attr_teardown(void)
{
    if (keyvals != NULL) {
        for (guint i = 0; i < keyvals->len; i++)
            g_free(g_ptr_array_index(keyvals, i));
        g_ptr_array_free(keyvals, TRUE);
        keyvals = NULL;
    }
}

/* ---------------------------------------------------------------- set, get, delete */

/* A valid communicator and keyval for an attribute call; a freed keyval (still alive for
 * the attributes that use it) only when `deleting`. */
static int
check_attr_call(MPI_Comm comm, int keyval, gboolean writing, gboolean deleting,
                const char *call)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator%s",
                             comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
    if (is_predefined_key(keyval)) {
        if (writing)
            return collsim_error(comm, MPI_ERR_KEYVAL, call,
                                 "keyval %d is a predefined, read-only attribute", keyval);
        return MPI_SUCCESS;
    }
    struct keyval *k = keyval_get(keyval);
    if (k == NULL || (k->freed && !deleting))
        return collsim_error(comm, MPI_ERR_KEYVAL, call, "invalid keyval %d (%s)", keyval,
                             keyval_problem(keyval, k));
    return MPI_SUCCESS;
}

static int
set_attr(const char *call, MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    int rc = check_attr_call(comm, comm_keyval, TRUE, FALSE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    GArray *list = rank_entries(comm, TRUE);
    int i = find_entry(list, comm_keyval);
    if (i >= 0) {
        /* replacing a value deletes the old one first (§6.7.2) */
        struct entry *e = &g_array_index(list, struct entry, (guint)i);
        struct keyval *k = keyval_get(comm_keyval);
        rc = k->del(collsim_comm_visible(comm), comm_keyval, e->value, k->extra_state);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, call, "the delete callback of keyval %d failed",
                                 comm_keyval);
        e->value = attribute_val;
        return MPI_SUCCESS;
    }
    keyval_get(comm_keyval)->refs++;
    struct entry e = {comm_keyval, attribute_val};
    g_array_append_val(list, e);
    return MPI_SUCCESS;
}

/* The values of the predefined attributes; the same on every rank. */
static int predefined_values[MPI_APPNUM + 1];

static int
get_attr(const char *call, MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    int rc = check_attr_call(comm, comm_keyval, FALSE, FALSE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (attribute_val == NULL || flag == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "%s is NULL",
                             flag == NULL ? "flag" : "attribute_val");
    *flag = 0;
    if (is_predefined_key(comm_keyval)) {
        if (collsim_comm_visible(comm) != MPI_COMM_WORLD)
            return MPI_SUCCESS;
        predefined_values[MPI_TAG_UB] = MPI_TAG_UB_VALUE;
        predefined_values[MPI_HOST] = MPI_PROC_NULL;
        predefined_values[MPI_IO] = MPI_ANY_SOURCE; /* every rank may do I/O */
        predefined_values[MPI_WTIME_IS_GLOBAL] = 1; /* one simulated clock */
        predefined_values[MPI_UNIVERSE_SIZE] = collsim_runtime->world_size();
        predefined_values[MPI_LASTUSEDCODE] = collsim_error_last_used_code();
        predefined_values[MPI_APPNUM] = 0;
        *(void **)attribute_val = &predefined_values[comm_keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    GArray *list = rank_entries(comm, FALSE);
    int i = find_entry(list, comm_keyval);
    if (i >= 0) {
        *(void **)attribute_val = g_array_index(list, struct entry, (guint)i).value;
        *flag = 1;
    }
    return MPI_SUCCESS;
}

static int
delete_attr(const char *call, MPI_Comm comm, int comm_keyval)
{
    int rc = check_attr_call(comm, comm_keyval, TRUE, TRUE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    GArray *list = rank_entries(comm, FALSE);
    int i = find_entry(list, comm_keyval);
    if (i < 0)
        return collsim_error(comm, MPI_ERR_KEYVAL, call,
                             "no attribute of keyval %d is set on this communicator",
                             comm_keyval);
    rc = delete_entry(comm, list, (guint)i);
    if (rc != MPI_SUCCESS)
        return collsim_error(comm, rc, call, "the delete callback of keyval %d failed",
                             comm_keyval);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- the entry points */

int
MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                       int *comm_keyval, void *extra_state)
{
    return create_keyval("MPI_Comm_create_keyval", copy, del, comm_keyval, extra_state);
}

int
MPI_Comm_free_keyval(int *comm_keyval)
{
    return free_keyval("MPI_Comm_free_keyval", comm_keyval);
}

int
MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return set_attr("MPI_Comm_set_attr", comm, comm_keyval, attribute_val);
}

int
MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Comm_get_attr", comm, comm_keyval, attribute_val, flag);
}

int
MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_attr("MPI_Comm_delete_attr", comm, comm_keyval);
}

/* MPI-1's names of the same calls (deprecated in MPI 2.0, still in MPI 3.1's C binding): the
 * callback types have the same parameters as the MPI-2 ones. */
int
MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                  void *extra_state)
{
    return create_keyval("MPI_Keyval_create", copy_fn, delete_fn, keyval, extra_state);
}

int
MPI_Keyval_free(int *keyval)
{
    return free_keyval("MPI_Keyval_free", keyval);
}

int
MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return set_attr("MPI_Attr_put", comm, keyval, attribute_val);
}

int
MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Attr_get", comm, keyval, attribute_val, flag);
}

int
MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr("MPI_Attr_delete", comm, keyval);
}
