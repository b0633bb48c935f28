/*
 * attr.c — attribute caching on communicators and datatypes (MPI-3.1 §6.7): keyvals,
 * set/get/delete, the copy callbacks of MPI_Comm_dup and MPI_Type_dup, the delete callbacks of
 * MPI_Comm_free, MPI_Type_free and MPI_Finalize, and the predefined attributes of
 * MPI_COMM_WORLD.
 *
 * Both kinds of object share one machinery: a keyval has the kind of the call that created it
 * (MPI_Comm_create_keyval or MPI_Type_create_keyval) and is refused, MPI_ERR_KEYVAL, on an
 * object of the other kind; an object is a communicator or a datatype (struct attr_obj), each
 * with a store pointer of its own. The predefined keys are communicator attributes only.
 *
 * In MPI an attribute belongs to one process's handle of an object. Here a communicator
 * object is shared by its members (and a predefined datatype by every rank), so its store
 * keeps one list per world rank, in the order
 * the rank set its attributes: every rank sees only its own values, and callbacks run in a
 * deterministic order (deletion in the reverse order of setting, as MPI-4.0 requires for
 * MPI_COMM_SELF at finalize).
 *
 * Keyvals are objects of the one simulator process, numbered from USER_KEYVAL_FIRST in
 * creation order. A keyval created by one rank and used by another (a static variable in a
 * library shared by all ranks, such as collsim's own node-aware algorithms) works as in an
 * MPI process. A freed keyval stays alive while attributes use it (§6.7.2), but only to
 * delete them: MPI_Comm_delete_attr (MPI_Type_delete_attr) still takes it (as §6.7.2 tells
 * programs to), while setting or getting an attribute with it, or freeing it again, is
 * MPI_ERR_KEYVAL. Datatype stores are listed (type_stores) so that the end of a simulation
 * drops what is left on them, predefined types included, before the keyvals go.
 *
 * Keyvals are plain ints: a keyval never created, created in an earlier simulation, or freed
 * is one that the table below does not hold as live, and nothing is read through it.
 * The predefined keys (MPI_TAG_UB ... MPI_APPNUM) are live from the start and never freed.
 */
#include <glib.h>

#include "attr.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "runtime.h"

#define USER_KEYVAL_FIRST 16 /* 0..6 are the predefined keys of mpi.h */

/* The kinds of object that hold attributes here (windows are out of scope). */
enum attr_kind { ATTR_COMM, ATTR_TYPE };

struct keyval {
    enum attr_kind kind;
    union {
        MPI_Comm_copy_attr_function *comm;
        MPI_Type_copy_attr_function *type;
    } copy;
    union {
        MPI_Comm_delete_attr_function *comm;
        MPI_Type_delete_attr_function *type;
    } del;
    void *extra_state;
    int refs;   /* the creator's handle (until MPI_*_free_keyval) + attributes using it */
    gboolean freed; /* MPI_*_free_keyval was called: alive only for the attributes left */
};

struct entry {
    int keyval;
    void *value;
};

/* A communicator's attributes: world rank -> GArray of struct entry, in setting order. */
struct collsim_attr_store {
    GHashTable *by_rank;
};

/* An object whose attributes a call reads or writes. */
struct attr_obj {
    enum attr_kind kind;
    MPI_Comm comm;      /* ATTR_COMM */
    MPI_Datatype type;  /* ATTR_TYPE */
};

static GPtrArray *keyvals; /* index keyval - USER_KEYVAL_FIRST; NULL once destroyed */
/* Datatypes that have a store (a set, for the end of a simulation: predefined types live on
 * into the next one, and their stores name this simulation's keyvals). */
static GHashTable *type_stores;

static struct attr_obj
comm_obj(MPI_Comm comm)
{
    return (struct attr_obj){ATTR_COMM, comm, MPI_DATATYPE_NULL};
}

static struct attr_obj
type_obj(MPI_Datatype type)
{
    return (struct attr_obj){ATTR_TYPE, MPI_COMM_NULL, type};
}

static struct collsim_attr_store **
obj_store(struct attr_obj o)
{
    return o.kind == ATTR_COMM ? &o.comm->attrs : &o.type->attrs;
}

/* Words for messages, by kind of object. */
static const struct {
    const char *object;       /* "on this ..." */
    const char *keyval_arg;   /* the keyval argument's name */
} kind_words[] = {
    [ATTR_COMM] = {"communicator", "comm_keyval"},
    [ATTR_TYPE] = {"datatype", "type_keyval"},
};

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

int
collsim_type_null_copy_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out,
                          int *flag)
{
    (void)oldtype, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int
collsim_type_dup_fn(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out,
                    int *flag)
{
    (void)oldtype, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int
collsim_type_null_delete_fn(MPI_Datatype datatype, int keyval, void *value, void *extra)
{
    (void)datatype, (void)keyval, (void)value, (void)extra;
    return MPI_SUCCESS;
}

/* The window callbacks, for programs that name them (MPICH's test harness passes them to
 * MPI_Win_create_keyval, which collsim refuses when called, with the rest of one-sided
 * communication): what MPI says they do, like their communicator twins. */
int
collsim_win_null_copy_fn(MPI_Win oldwin, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldwin, (void)keyval, (void)extra, (void)in, (void)out;
    *flag = 0;
    return MPI_SUCCESS;
}

int
collsim_win_dup_fn(MPI_Win oldwin, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldwin, (void)keyval, (void)extra;
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int
collsim_win_null_delete_fn(MPI_Win win, int keyval, void *value, void *extra)
{
    (void)win, (void)keyval, (void)value, (void)extra;
    return MPI_SUCCESS;
}

/* The callbacks of keyval k on object o. */
static int
call_delete(const struct keyval *k, struct attr_obj o, int keyval, void *value)
{
    if (o.kind == ATTR_COMM)
        return k->del.comm(collsim_comm_visible(o.comm), keyval, value, k->extra_state);
    return k->del.type(o.type, keyval, value, k->extra_state);
}

static int
call_copy(const struct keyval *k, struct attr_obj o, int keyval, void *in, void *out, int *flag)
{
    if (o.kind == ATTR_COMM)
        return k->copy.comm(collsim_comm_visible(o.comm), keyval, k->extra_state, in, out, flag);
    return k->copy.type(o.type, keyval, k->extra_state, in, out, flag);
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

/* Why keyval, whose table entry is k (NULL if none), cannot be used on an object of `kind`,
 * for messages; NULL if it can (a live keyval of that kind). */
static const char *
keyval_problem(enum attr_kind kind, int keyval, const struct keyval *k)
{
    if (keyval == MPI_KEYVAL_INVALID)
        return "MPI_KEYVAL_INVALID";
    if (k != NULL && k->kind != kind)
        return kind == ATTR_TYPE ? "a communicator keyval, made by MPI_Comm_create_keyval"
                                 : "a datatype keyval, made by MPI_Type_create_keyval";
    if (k != NULL && k->freed)
        return kind == ATTR_TYPE ? "already freed with MPI_Type_free_keyval"
                                 : "already freed with MPI_Comm_free_keyval";
    if (kind == ATTR_TYPE && is_predefined_key(keyval))
        return "a predefined communicator attribute";
    if (k == NULL)
        return "not a keyval: never created, or freed";
    return NULL;
}

/* The communicator whose handler reports errors of keyval calls of `kind` (datatype calls
 * report through MPI_COMM_WORLD's, as the rest of datatype.c does). */
static MPI_Comm
keyval_error_comm(enum attr_kind kind)
{
    return kind == ATTR_COMM ? MPI_COMM_NULL : MPI_COMM_WORLD;
}

/* A new keyval of `kind` (its callbacks set by the caller) into *keyval_out. */
static struct keyval *
keyval_new(enum attr_kind kind, int *keyval_out, void *extra_state)
{
    if (keyvals == NULL)
        keyvals = g_ptr_array_new();
    struct keyval *k = g_new0(struct keyval, 1);
    k->kind = kind;
    k->extra_state = extra_state;
    k->refs = 1;
    g_ptr_array_add(keyvals, k);
    *keyval_out = USER_KEYVAL_FIRST + (int)keyvals->len - 1;
    return k;
}

/* The keyval calls, named `call` in messages (MPI_Comm_* and their MPI-1 forms). */
static int
create_keyval(const char *call, MPI_Comm_copy_attr_function *copy,
              MPI_Comm_delete_attr_function *del, int *comm_keyval, void *extra_state)
{
    if (comm_keyval == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "comm_keyval is NULL");
    struct keyval *k = keyval_new(ATTR_COMM, comm_keyval, extra_state);
    k->copy.comm = copy != NULL ? copy : collsim_comm_null_copy_fn;
    k->del.comm = del != NULL ? del : collsim_comm_null_delete_fn;
    return MPI_SUCCESS;
}

static int
create_type_keyval(const char *call, MPI_Type_copy_attr_function *copy,
                   MPI_Type_delete_attr_function *del, int *type_keyval, void *extra_state)
{
    if (type_keyval == NULL)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, call, "type_keyval is NULL");
    struct keyval *k = keyval_new(ATTR_TYPE, type_keyval, extra_state);
    k->copy.type = copy != NULL ? copy : collsim_type_null_copy_fn;
    k->del.type = del != NULL ? del : collsim_type_null_delete_fn;
    return MPI_SUCCESS;
}
static int
free_keyval(enum attr_kind kind, const char *call, int *keyval)
{
    MPI_Comm err_comm = keyval_error_comm(kind);
    if (keyval == NULL)
        return collsim_error(err_comm, MPI_ERR_ARG, call, "%s is NULL",
                             kind_words[kind].keyval_arg);
    if (kind == ATTR_COMM && is_predefined_key(*keyval))
        return collsim_error(err_comm, MPI_ERR_KEYVAL, call,
                             "keyval %d is predefined and cannot be freed", *keyval);
    struct keyval *k = keyval_get(*keyval);
    const char *problem = keyval_problem(kind, *keyval, k);
    if (problem != NULL)
        return collsim_error(err_comm, MPI_ERR_KEYVAL, call, "invalid keyval %d (%s)", *keyval,
                             problem);
    k->freed = TRUE;
    keyval_unref(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- stores */

static GArray *
rank_entries(struct attr_obj o, gboolean create)
{
    int me = collsim_runtime->world_rank();
    struct collsim_attr_store **store = obj_store(o);
    if (*store == NULL) {
        if (!create)
            return NULL;
        *store = g_new0(struct collsim_attr_store, 1);
        (*store)->by_rank = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL,
                                                  (GDestroyNotify)g_array_unref);
        if (o.kind == ATTR_TYPE) {
            if (type_stores == NULL)
                type_stores = g_hash_table_new(g_direct_hash, g_direct_equal);
            g_hash_table_add(type_stores, o.type);
        }
    }
    GArray *list = g_hash_table_lookup((*store)->by_rank, GINT_TO_POINTER(me));
    if (list == NULL && create) {
        list = g_array_new(FALSE, FALSE, sizeof(struct entry));
        g_hash_table_insert((*store)->by_rank, GINT_TO_POINTER(me), list);
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
delete_entry(struct attr_obj o, GArray *list, guint i)
{
    struct entry e = g_array_index(list, struct entry, i);
    g_array_remove_index(list, i);
    struct keyval *k = keyval_get(e.keyval);
    int rc = MPI_SUCCESS;
    if (k != NULL) {
        rc = call_delete(k, o, e.keyval, e.value);
        keyval_unref(e.keyval);
    }
    return rc;
}

static void
store_free(struct attr_obj o)
{
    struct collsim_attr_store **store = obj_store(o);
    if (*store == NULL)
        return;
    /* values left at teardown are dropped without callbacks: the simulation is over */
    GHashTableIter it;
    gpointer value;
    g_hash_table_iter_init(&it, (*store)->by_rank);
    while (g_hash_table_iter_next(&it, NULL, &value)) {
        GArray *list = value;
        for (guint i = 0; i < list->len; i++)
            keyval_unref(g_array_index(list, struct entry, i).keyval);
    }
    g_hash_table_destroy((*store)->by_rank);
    g_free(*store);
    *store = NULL;
}

void
collsim_attr_store_free(MPI_Comm comm)
{
    store_free(comm_obj(comm));
}

void
collsim_attr_type_store_free(MPI_Datatype type)
{
    if (type->attrs == NULL)
        return;
    store_free(type_obj(type));
    g_hash_table_remove(type_stores, type);
}

static int
delete_all(struct attr_obj o)
{
    GArray *list = rank_entries(o, FALSE);
    int first_error = MPI_SUCCESS;
    while (list != NULL && list->len > 0) {
        int rc = delete_entry(o, list, list->len - 1);
        if (rc != MPI_SUCCESS && first_error == MPI_SUCCESS)
            first_error = rc;
    }
    return first_error;
}

int
collsim_attr_delete_all(MPI_Comm comm)
{
    return delete_all(comm_obj(comm));
}

int
collsim_attr_type_delete_all(MPI_Datatype type)
{
    return delete_all(type_obj(type));
}

static int
copy_all(struct attr_obj old, struct attr_obj new)
{
    GArray *list = rank_entries(old, FALSE);
    for (guint i = 0; list != NULL && i < list->len; i++) {
        struct entry e = g_array_index(list, struct entry, i);
        struct keyval *k = keyval_get(e.keyval);
        void *out = NULL;
        int flag = 0;
        int rc = call_copy(k, old, e.keyval, e.value, &out, &flag);
        if (rc != MPI_SUCCESS)
            return rc;
        if (flag) {
            k->refs++;
            struct entry copy = {e.keyval, out};
            g_array_append_val(rank_entries(new, TRUE), copy);
        }
    }
    return MPI_SUCCESS;
}

int
collsim_attr_copy_all(MPI_Comm oldcomm, MPI_Comm newcomm)
{
    return copy_all(comm_obj(oldcomm), comm_obj(newcomm));
}

int
collsim_attr_type_copy_all(MPI_Datatype oldtype, MPI_Datatype newtype)
{
    return copy_all(type_obj(oldtype), type_obj(newtype));
}

void
collsim_attr_teardown(void)
{
    if (type_stores != NULL) {
        GHashTableIter it;
        gpointer type;
        g_hash_table_iter_init(&it, type_stores);
        while (g_hash_table_iter_next(&it, &type, NULL))
            store_free(type_obj(type));
        g_hash_table_destroy(type_stores);
        type_stores = NULL;
    }
    if (keyvals != NULL) {
        for (guint i = 0; i < keyvals->len; i++)
            g_free(g_ptr_array_index(keyvals, i));
        g_ptr_array_free(keyvals, TRUE);
        keyvals = NULL;
    }
}

/* ---------------------------------------------------------------- set, get, delete */

/* The communicator whose handler reports an attribute call's errors on o. */
static MPI_Comm
obj_error_comm(struct attr_obj o)
{
    return o.kind == ATTR_COMM ? o.comm : MPI_COMM_WORLD;
}

/* A valid object and keyval for an attribute call; a freed keyval (still alive for the
 * attributes that use it) only when `deleting`. */
static int
check_attr_call(struct attr_obj o, int keyval, gboolean writing, gboolean deleting,
                const char *call)
{
    if (o.kind == ATTR_COMM) {
        MPI_Comm comm = o.comm;
        if (collsim_comm_check(comm) != MPI_SUCCESS)
            return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator%s",
                                 comm == MPI_COMM_NULL ? " (MPI_COMM_NULL)" : "");
        if (is_predefined_key(keyval)) {
            if (writing)
                return collsim_error(comm, MPI_ERR_KEYVAL, call,
                                     "keyval %d is a predefined, read-only attribute", keyval);
            return MPI_SUCCESS;
        }
    } else if (collsim_datatype_check_handle(o.type) != MPI_SUCCESS) {
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_TYPE, call,
                             "datatype argument is not a valid datatype (%s)",
                             collsim_datatype_name(o.type));
    }
    struct keyval *k = keyval_get(keyval);
    const char *problem = keyval_problem(o.kind, keyval, k);
    if (problem != NULL && !(deleting && k != NULL && k->kind == o.kind && k->freed))
        return collsim_error(obj_error_comm(o), MPI_ERR_KEYVAL, call, "invalid keyval %d (%s)",
                             keyval, problem);
    return MPI_SUCCESS;
}

static int
set_attr(const char *call, struct attr_obj o, int keyval, void *attribute_val)
{
    int rc = check_attr_call(o, keyval, TRUE, FALSE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    GArray *list = rank_entries(o, TRUE);
    int i = find_entry(list, keyval);
    if (i >= 0) {
        /* replacing a value deletes the old one first (§6.7.2) */
        struct entry *e = &g_array_index(list, struct entry, (guint)i);
        rc = call_delete(keyval_get(keyval), o, keyval, e->value);
        if (rc != MPI_SUCCESS)
            return collsim_error(obj_error_comm(o), rc, call,
                                 "the delete callback of keyval %d failed", keyval);
        e->value = attribute_val;
        return MPI_SUCCESS;
    }
    keyval_get(keyval)->refs++;
    struct entry e = {keyval, attribute_val};
    g_array_append_val(list, e);
    return MPI_SUCCESS;
}

/* The values of the predefined attributes; the same on every rank. */
static int predefined_values[MPI_APPNUM + 1];

static int
get_attr(const char *call, struct attr_obj o, int keyval, void *attribute_val, int *flag)
{
    int rc = check_attr_call(o, keyval, FALSE, FALSE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (attribute_val == NULL || flag == NULL)
        return collsim_error(obj_error_comm(o), MPI_ERR_ARG, call, "%s is NULL",
                             flag == NULL ? "flag" : "attribute_val");
    *flag = 0;
    if (o.kind == ATTR_COMM && is_predefined_key(keyval)) {
        if (collsim_comm_visible(o.comm) != MPI_COMM_WORLD)
            return MPI_SUCCESS;
        predefined_values[MPI_TAG_UB] = MPI_TAG_UB_VALUE;
        predefined_values[MPI_HOST] = MPI_PROC_NULL;
        predefined_values[MPI_IO] = MPI_ANY_SOURCE; /* every rank may do I/O */
        predefined_values[MPI_WTIME_IS_GLOBAL] = 1; /* one simulated clock */
        predefined_values[MPI_UNIVERSE_SIZE] = collsim_runtime->world_size();
        predefined_values[MPI_LASTUSEDCODE] = collsim_error_last_used_code();
        predefined_values[MPI_APPNUM] = 0;
        *(void **)attribute_val = &predefined_values[keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    GArray *list = rank_entries(o, FALSE);
    int i = find_entry(list, keyval);
    if (i >= 0) {
        *(void **)attribute_val = g_array_index(list, struct entry, (guint)i).value;
        *flag = 1;
    }
    return MPI_SUCCESS;
}

static int
delete_attr(const char *call, struct attr_obj o, int keyval)
{
    int rc = check_attr_call(o, keyval, TRUE, TRUE, call);
    if (rc != MPI_SUCCESS)
        return rc;
    GArray *list = rank_entries(o, FALSE);
    int i = find_entry(list, keyval);
    if (i < 0)
        return collsim_error(obj_error_comm(o), MPI_ERR_KEYVAL, call,
                             "no attribute of keyval %d is set on this %s", keyval,
                             kind_words[o.kind].object);
    /* a delete callback that fails leaves the attribute in place, as a failed replacement
     * does (set_attr): the call fails, nothing changes */
    struct keyval *k = keyval_get(keyval);
    if (k != NULL) {
        rc = call_delete(k, o, keyval, g_array_index(list, struct entry, (guint)i).value);
        if (rc != MPI_SUCCESS)
            return collsim_error(obj_error_comm(o), rc, call,
                                 "the delete callback of keyval %d failed (the attribute stays)",
                                 keyval);
        /* the callback may have set or deleted attributes of the object */
        list = rank_entries(o, FALSE);
        i = find_entry(list, keyval);
    }
    if (i >= 0) {
        g_array_remove_index(list, (guint)i);
        keyval_unref(keyval);
    }
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
    return free_keyval(ATTR_COMM, "MPI_Comm_free_keyval", comm_keyval);
}

int
MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    return set_attr("MPI_Comm_set_attr", comm_obj(comm), comm_keyval, attribute_val);
}

int
MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Comm_get_attr", comm_obj(comm), comm_keyval, attribute_val, flag);
}

int
MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    return delete_attr("MPI_Comm_delete_attr", comm_obj(comm), comm_keyval);
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
    return free_keyval(ATTR_COMM, "MPI_Keyval_free", keyval);
}

int
MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return set_attr("MPI_Attr_put", comm_obj(comm), keyval, attribute_val);
}

int
MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Attr_get", comm_obj(comm), keyval, attribute_val, flag);
}

int
MPI_Attr_delete(MPI_Comm comm, int keyval)
{
    return delete_attr("MPI_Attr_delete", comm_obj(comm), keyval);
}

/* Attributes of datatypes (MPI-3.1 §6.7.4). */
int
MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                       MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                       void *extra_state)
{
    return create_type_keyval("MPI_Type_create_keyval", type_copy_attr_fn, type_delete_attr_fn,
                              type_keyval, extra_state);
}

int
MPI_Type_free_keyval(int *type_keyval)
{
    return free_keyval(ATTR_TYPE, "MPI_Type_free_keyval", type_keyval);
}

int
MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val)
{
    return set_attr("MPI_Type_set_attr", type_obj(datatype), type_keyval, attribute_val);
}

int
MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag)
{
    return get_attr("MPI_Type_get_attr", type_obj(datatype), type_keyval, attribute_val, flag);
}

int
MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
    return delete_attr("MPI_Type_delete_attr", type_obj(datatype), type_keyval);
}
