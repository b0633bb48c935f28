/*
 * info.c — MPI_Info objects (MPI-3.1 §9): ordered (key, value) pairs of strings.
 *
 * An info object belongs to the rank that created it. Keys keep the order in which they were
 * first set, so MPI_Info_get_nthkey is deterministic (a hash table would not be).
 * collsim reads no hints: every call that takes an info accepts any live one, or
 * MPI_INFO_NULL. An info is a registered handle (handles.h) from MPI_Info_create or
 * MPI_Info_dup to MPI_Info_free: one never set, freed, or of another kind is MPI_ERR_INFO.
 *
 * MPI_INFO_ENV (MPI-3.1 §8.7) is the one predefined info: the environment the run started
 * with (command, argv, maxprocs, arch, wdir, thread_level), filled by the simulator before any
 * rank runs (collsim_info_env_fill). Under a real MPI each process has its own; here the ranks
 * share one, so it is read-only: setting, deleting or freeing it is MPI_ERR_INFO, where one
 * rank's change would have reached the others.
 */
#include <stdint.h>
#include <string.h>

#include <glib.h>

#include "errhandler.h"
#include "handles.h"
#include "info.h"
#include "mpi.h"

#define COLLSIM_INFO_MAGIC 0x496e666fu /* "Info" */

struct collsim_info {
    uint32_t magic;    /* COLLSIM_INFO_MAGIC while it lives (first: see handles.h) */
    GPtrArray *keys;   /* gchar *, in setting order */
    GPtrArray *values; /* gchar *, values[i] belongs to keys[i] */
};

int
collsim_info_check(MPI_Info info, const char **why)
{
    if (info == MPI_INFO_NULL)
        *why = "MPI_INFO_NULL";
    else if (!collsim_handle_readable(info))
        *why = "not a live info object: never set, or freed";
    else if (info->magic != COLLSIM_INFO_MAGIC)
        *why = "a handle of another kind, not an info object";
    else
        return MPI_SUCCESS;
    return MPI_ERR_INFO;
}

struct collsim_info collsim_info_env = {.magic = COLLSIM_INFO_MAGIC};

static void __attribute__((constructor))
register_info_env(void)
{
    collsim_info_env.keys = g_ptr_array_new_with_free_func(g_free);
    collsim_info_env.values = g_ptr_array_new_with_free_func(g_free);
    collsim_handle_add(&collsim_info_env);
}

void
collsim_info_env_fill(const char *const *pairs)
{
    g_ptr_array_set_size(collsim_info_env.keys, 0);
    g_ptr_array_set_size(collsim_info_env.values, 0);
    for (const char *const *p = pairs; p != NULL && p[0] != NULL && p[1] != NULL; p += 2) {
        g_ptr_array_add(collsim_info_env.keys, g_strdup(p[0]));
        g_ptr_array_add(collsim_info_env.values, g_strdup(p[1]));
    }
}

static int
check_info(MPI_Info info, const char *call)
{
    const char *why;
    if (collsim_info_check(info, &why) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO, call, "invalid info (%s)", why);
    return MPI_SUCCESS;
}

/* An info the program may change: a live one it created, not MPI_INFO_ENV. */
static int
check_changeable(MPI_Info info, const char *call)
{
    int rc = check_info(info, call);
    if (rc == MPI_SUCCESS && info == MPI_INFO_ENV)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO, call,
                             "MPI_INFO_ENV is predefined and shared by the simulated ranks: it "
                             "cannot be changed or freed (MPI_Info_dup makes a copy that can)");
    return rc;
}

static int
check_key(const char *key, const char *call)
{
    if (key == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO_KEY, call, "key is NULL");
    size_t len = strlen(key);
    if (len == 0 || len > MPI_MAX_INFO_KEY)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO_KEY, call,
                             "key of %zu characters (1 to MPI_MAX_INFO_KEY = %d)", len,
                             MPI_MAX_INFO_KEY);
    return MPI_SUCCESS;
}

static int
key_index(MPI_Info info, const char *key)
{
    for (guint i = 0; i < info->keys->len; i++)
        if (strcmp(g_ptr_array_index(info->keys, i), key) == 0)
            return (int)i;
    return -1;
}

static MPI_Info
info_new(void)
{
    MPI_Info created = g_new(struct collsim_info, 1);
    collsim_handle_add(created);
    created->magic = COLLSIM_INFO_MAGIC;
    created->keys = g_ptr_array_new_with_free_func(g_free);
    created->values = g_ptr_array_new_with_free_func(g_free);
    return created;
}

static MPI_Info
info_copy(MPI_Info info)
{
    MPI_Info copy = info_new();
    for (guint i = 0; i < info->keys->len; i++) {
        g_ptr_array_add(copy->keys, g_strdup(g_ptr_array_index(info->keys, i)));
        g_ptr_array_add(copy->values, g_strdup(g_ptr_array_index(info->values, i)));
    }
    return copy;
}

int
MPI_Info_create(MPI_Info *info)
{
    if (info == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_create", "info is NULL");
    *info = info_new();
    return MPI_SUCCESS;
}

int
MPI_Info_free(MPI_Info *info)
{
    if (info == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_free", "info is NULL");
    int rc = check_changeable(*info, "MPI_Info_free");
    if (rc != MPI_SUCCESS)
        return rc;
    (*info)->magic = 0;
    collsim_handle_remove(*info);
    g_ptr_array_free((*info)->keys, TRUE);
    g_ptr_array_free((*info)->values, TRUE);
    g_free(*info);
    *info = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

int
MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    int rc = check_info(info, "MPI_Info_dup");
    if (rc != MPI_SUCCESS)
        return rc;
    if (newinfo == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_dup", "newinfo is NULL");
    *newinfo = info_copy(info);
    return MPI_SUCCESS;
}

/* MPI-4: a new info holding what MPI_INFO_ENV holds, before MPI_Init as after MPI_Finalize
 * (collsim fills it before any rank starts, from the command line the ranks all get, so argc
 * and argv add nothing). */
int
MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    (void)argc;
    (void)argv;
    if (info == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_create_env", "info is NULL");
    *info = info_copy(MPI_INFO_ENV);
    return MPI_SUCCESS;
}

int
MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    const char *call = "MPI_Info_set";
    int rc = check_changeable(info, call);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (value == NULL || strlen(value) == 0 || strlen(value) > MPI_MAX_INFO_VAL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO_VALUE, call,
                             "value of key '%s' must have 1 to MPI_MAX_INFO_VAL = %d characters",
                             key, MPI_MAX_INFO_VAL);
    int i = key_index(info, key);
    if (i >= 0) {
        g_free(g_ptr_array_index(info->values, (guint)i));
        g_ptr_array_index(info->values, (guint)i) = g_strdup(value);
    } else {
        g_ptr_array_add(info->keys, g_strdup(key));
        g_ptr_array_add(info->values, g_strdup(value));
    }
    return MPI_SUCCESS;
}

int
MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    const char *call = "MPI_Info_get";
    int rc = check_info(info, call);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL || value == NULL || valuelen < 0)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "%s",
                             flag == NULL    ? "flag is NULL"
                             : value == NULL ? "value is NULL"
                                             : "valuelen is negative");
    int i = key_index(info, key);
    *flag = i >= 0;
    if (i >= 0) {
        /* at most valuelen characters, then the terminating NUL (§9: value has valuelen+1) */
        const char *v = g_ptr_array_index(info->values, (guint)i);
        size_t n = MIN(strlen(v), (size_t)valuelen);
        memcpy(value, v, n);
        value[n] = '\0';
    }
    return MPI_SUCCESS;
}

int
MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    const char *call = "MPI_Info_get_valuelen";
    int rc = check_info(info, call);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL || valuelen == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "%s is NULL",
                             flag == NULL ? "flag" : "valuelen");
    int i = key_index(info, key);
    *flag = i >= 0;
    if (i >= 0)
        *valuelen = (int)strlen(g_ptr_array_index(info->values, (guint)i));
    return MPI_SUCCESS;
}

/* MPI-4's replacement of MPI_Info_get and MPI_Info_get_valuelen: *buflen is the room in value
 * (its NUL included) on input, the room the whole value needs on output; a value longer than
 * the room is cut, and with no room (0) value is not touched. A missing key leaves both. */
int
MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    const char *call = "MPI_Info_get_string";
    int rc = check_info(info, call);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (flag == NULL || buflen == NULL || *buflen < 0 || (*buflen > 0 && value == NULL))
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "%s",
                             flag == NULL     ? "flag is NULL"
                             : buflen == NULL ? "buflen is NULL"
                             : *buflen < 0    ? "*buflen is negative"
                                              : "value is NULL");
    int i = key_index(info, key);
    *flag = i >= 0;
    if (i < 0)
        return MPI_SUCCESS;
    const char *v = g_ptr_array_index(info->values, (guint)i);
    size_t length = strlen(v);
    if (*buflen > 0) {
        size_t n = MIN(length, (size_t)*buflen - 1);
        memcpy(value, v, n);
        value[n] = '\0';
    }
    *buflen = (int)length + 1;
    return MPI_SUCCESS;
}

int
MPI_Info_delete(MPI_Info info, const char *key)
{
    const char *call = "MPI_Info_delete";
    int rc = check_changeable(info, call);
    if (rc == MPI_SUCCESS)
        rc = check_key(key, call);
    if (rc != MPI_SUCCESS)
        return rc;
    int i = key_index(info, key);
    if (i < 0)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_INFO_NOKEY, call, "no key '%s'", key);
    g_ptr_array_remove_index(info->keys, (guint)i);
    g_ptr_array_remove_index(info->values, (guint)i);
    return MPI_SUCCESS;
}

int
MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    int rc = check_info(info, "MPI_Info_get_nkeys");
    if (rc != MPI_SUCCESS)
        return rc;
    if (nkeys == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys is NULL");
    *nkeys = (int)info->keys->len;
    return MPI_SUCCESS;
}

int
MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    const char *call = "MPI_Info_get_nthkey";
    int rc = check_info(info, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (key == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call, "key is NULL");
    if (n < 0 || (guint)n >= info->keys->len)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, call,
                             "n = %d, but the info has %u keys", n, info->keys->len);
    g_strlcpy(key, g_ptr_array_index(info->keys, (guint)n), MPI_MAX_INFO_KEY + 1);
    return MPI_SUCCESS;
}
