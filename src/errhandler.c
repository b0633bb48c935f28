/*
 * errhandler.c — error classes, their strings, and communicator error handlers.
 *
 * Error codes are error classes: collsim never makes finer codes, so MPI_Error_class is the
 * identity on the classes that mpi.h defines. A program adds its own classes and codes
 * (MPI_Add_error_class/_code/_string), numbered from MPI_ERR_LASTCODE + 1 on; like every MPI
 * process each rank has its own, so ranks that add them in the same order get the same
 * numbers. Anything else is rejected.
 *
 * Handlers live in the communicator object. In MPI the handler of a communicator is a
 * per-process attribute; here a communicator object is shared by all its members (one
 * address space), so MPI_Comm_set_errhandler on one rank sets it for every member, and the
 * last rank to set it wins. Programs that set the same kind of handler on every rank (the
 * usual case) see no difference. Errors on a hidden collective twin go to its owner's handler;
 * errors with no usable communicator go to MPI_COMM_WORLD's (MPI-3.1 §8.3).
 *
 * Invariants: a communicator's handler is never NULL (twins aside); predefined handlers are
 * never freed; a user handler is freed when its last reference (communicators holding it,
 * and handles the program holds) is released. A user handler is a registered handle
 * (handles.h) while it lives, and a rank may pass only the handlers it holds (handles.h): one
 * it freed may live on in a communicator, or in another rank's handle, but is no longer its
 * to use. Such a handle, or one never set, is MPI_ERR_ARG (MPI-3.1 has no error class for
 * handlers), never a call through a stray pointer.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "callsite.h"
#include "coll_check.h"
#include "comm.h"
#include "errhandler.h"
#include "handles.h"
#include "runtime.h"

struct collsim_errhandler collsim_errors_are_fatal = {
    .magic = COLLSIM_ERRHANDLER_MAGIC, .predefined = 1, .refcount = 1};
struct collsim_errhandler collsim_errors_return = {
    .magic = COLLSIM_ERRHANDLER_MAGIC, .predefined = 1, .refcount = 1};

/* The predefined handlers are live handles from the moment the library loads. */
static void __attribute__((constructor))
register_predefined_handlers(void)
{
    collsim_handle_add(&collsim_errors_are_fatal);
    collsim_handle_add(&collsim_errors_return);
}

struct error_class_info {
    int errorclass;
    const char *name;
    const char *text;
};

/* Wording as in Open MPI (whose numbering mpi.h follows), prefixed by the class name. */
static const struct error_class_info error_classes[] = {
    {MPI_SUCCESS, "MPI_SUCCESS", "no errors"},
    {MPI_ERR_BUFFER, "MPI_ERR_BUFFER", "invalid buffer pointer"},
    {MPI_ERR_COUNT, "MPI_ERR_COUNT", "invalid count argument"},
    {MPI_ERR_TYPE, "MPI_ERR_TYPE", "invalid datatype"},
    {MPI_ERR_TAG, "MPI_ERR_TAG", "invalid tag"},
    {MPI_ERR_COMM, "MPI_ERR_COMM", "invalid communicator"},
    {MPI_ERR_RANK, "MPI_ERR_RANK", "invalid rank"},
    {MPI_ERR_REQUEST, "MPI_ERR_REQUEST", "invalid request"},
    {MPI_ERR_ROOT, "MPI_ERR_ROOT", "invalid root"},
    {MPI_ERR_GROUP, "MPI_ERR_GROUP", "invalid group"},
    {MPI_ERR_OP, "MPI_ERR_OP", "invalid reduce operation"},
    {MPI_ERR_TOPOLOGY, "MPI_ERR_TOPOLOGY", "invalid communicator topology"},
    {MPI_ERR_DIMS, "MPI_ERR_DIMS", "invalid topology dimension"},
    {MPI_ERR_ARG, "MPI_ERR_ARG", "invalid argument of some other kind"},
    {MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN", "unknown error"},
    {MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE", "message truncated"},
    {MPI_ERR_OTHER, "MPI_ERR_OTHER", "known error not in list"},
    {MPI_ERR_INTERN, "MPI_ERR_INTERN", "internal error"},
    {MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS", "error code is in status"},
    {MPI_ERR_PENDING, "MPI_ERR_PENDING", "pending request"},
    {MPI_ERR_ACCESS, "MPI_ERR_ACCESS", "invalid access mode"},
    {MPI_ERR_AMODE, "MPI_ERR_AMODE", "invalid amode argument"},
    {MPI_ERR_ASSERT, "MPI_ERR_ASSERT", "invalid assert argument"},
    {MPI_ERR_BAD_FILE, "MPI_ERR_BAD_FILE", "bad file"},
    {MPI_ERR_BASE, "MPI_ERR_BASE", "invalid base"},
    {MPI_ERR_CONVERSION, "MPI_ERR_CONVERSION", "error in data conversion"},
    {MPI_ERR_DISP, "MPI_ERR_DISP", "invalid displacement"},
    {MPI_ERR_DUP_DATAREP, "MPI_ERR_DUP_DATAREP", "error duplicating data representation"},
    {MPI_ERR_FILE_EXISTS, "MPI_ERR_FILE_EXISTS", "file exists already"},
    {MPI_ERR_FILE_IN_USE, "MPI_ERR_FILE_IN_USE", "file already in use"},
    {MPI_ERR_FILE, "MPI_ERR_FILE", "invalid file"},
    {MPI_ERR_INFO_KEY, "MPI_ERR_INFO_KEY", "invalid info key"},
    {MPI_ERR_INFO_NOKEY, "MPI_ERR_INFO_NOKEY", "no such info key"},
    {MPI_ERR_INFO_VALUE, "MPI_ERR_INFO_VALUE", "invalid info value"},
    {MPI_ERR_INFO, "MPI_ERR_INFO", "invalid info object"},
    {MPI_ERR_IO, "MPI_ERR_IO", "input/output error"},
    {MPI_ERR_KEYVAL, "MPI_ERR_KEYVAL", "invalid key value"},
    {MPI_ERR_LOCKTYPE, "MPI_ERR_LOCKTYPE", "invalid lock"},
    {MPI_ERR_NAME, "MPI_ERR_NAME", "invalid name argument"},
    {MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM", "out of memory"},
    {MPI_ERR_NOT_SAME, "MPI_ERR_NOT_SAME", "objects are not identical"},
    {MPI_ERR_NO_SPACE, "MPI_ERR_NO_SPACE", "no space left on device"},
    {MPI_ERR_NO_SUCH_FILE, "MPI_ERR_NO_SUCH_FILE", "no such file or directory"},
    {MPI_ERR_PORT, "MPI_ERR_PORT", "invalid port"},
    {MPI_ERR_QUOTA, "MPI_ERR_QUOTA", "out of quota"},
    {MPI_ERR_READ_ONLY, "MPI_ERR_READ_ONLY", "file is read only"},
    {MPI_ERR_RMA_CONFLICT, "MPI_ERR_RMA_CONFLICT", "rma conflict during operation"},
    {MPI_ERR_RMA_SYNC, "MPI_ERR_RMA_SYNC", "error executing rma sync"},
    {MPI_ERR_SERVICE, "MPI_ERR_SERVICE", "unknown service name"},
    {MPI_ERR_SIZE, "MPI_ERR_SIZE", "invalid size"},
    {MPI_ERR_SPAWN, "MPI_ERR_SPAWN", "could not spawn processes"},
    {MPI_ERR_UNSUPPORTED_DATAREP, "MPI_ERR_UNSUPPORTED_DATAREP",
     "data representation not supported"},
    {MPI_ERR_UNSUPPORTED_OPERATION, "MPI_ERR_UNSUPPORTED_OPERATION", "operation not supported"},
    {MPI_ERR_WIN, "MPI_ERR_WIN", "invalid window"},
    {MPI_ERR_RMA_RANGE, "MPI_ERR_RMA_RANGE", "invalid RMA address range"},
    {MPI_ERR_RMA_ATTACH, "MPI_ERR_RMA_ATTACH", "Could not attach RMA segment"},
    {MPI_ERR_RMA_FLAVOR, "MPI_ERR_RMA_FLAVOR", "Invalid type of window"},
    {MPI_ERR_RMA_SHARED, "MPI_ERR_RMA_SHARED", "Memory cannot be shared"},
};

static const struct error_class_info *
find_class(int errorclass)
{
    for (size_t i = 0; i < G_N_ELEMENTS(error_classes); i++)
        if (error_classes[i].errorclass == errorclass)
            return &error_classes[i];
    return NULL;
}

/* A code a rank added: its class, and its string ("" until MPI_Add_error_string). */
struct user_code {
    int errorclass;
    char string[MPI_MAX_ERROR_STRING];
};

/*
 * The codes every rank added: (rank, code) → struct user_code, and rank → last code used.
 * Ranks run one at a time (the simulation never runs two rank actors at once).
 */
static GHashTable *user_codes, *last_used;

static gint64 *
user_key(int rank, int code)
{
    gint64 *key = g_new(gint64, 1);
    *key = ((gint64)rank << 32) | (guint32)code;
    return key;
}

static struct user_code *
find_user_code(int code)
{
    if (user_codes == NULL || code <= MPI_ERR_LASTCODE)
        return NULL;
    gint64 key = ((gint64)collsim_runtime->world_rank() << 32) | (guint32)code;
    return g_hash_table_lookup(user_codes, &key);
}

int
collsim_error_last_used_code(void)
{
    if (last_used == NULL)
        return MPI_ERR_LASTCODE;
    gpointer v = g_hash_table_lookup(last_used, GINT_TO_POINTER(collsim_runtime->world_rank()));
    return v != NULL ? GPOINTER_TO_INT(v) : MPI_ERR_LASTCODE;
}

/* A new code of the calling rank: the class of a class is itself. */
static int
add_user_code(int errorclass)
{
    int rank = collsim_runtime->world_rank();
    int code = collsim_error_last_used_code() + 1;
    struct user_code *uc = g_new0(struct user_code, 1);

    if (user_codes == NULL) {
        user_codes = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, g_free);
        last_used = g_hash_table_new(g_direct_hash, g_direct_equal);
    }
    uc->errorclass = errorclass < 0 ? code : errorclass;
    g_hash_table_insert(user_codes, user_key(rank, code), uc);
    g_hash_table_insert(last_used, GINT_TO_POINTER(rank), GINT_TO_POINTER(code));
    return code;
}

int
MPI_Add_error_class(int *errorclass)
{
    if (errorclass == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_class",
                             "errorclass is NULL");
    *errorclass = add_user_code(-1);
    return MPI_SUCCESS;
}

int
MPI_Add_error_code(int errorclass, int *errorcode)
{
    struct user_code *uc = find_user_code(errorclass);

    if (errorcode == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code",
                             "errorcode is NULL");
    if ((uc == NULL || uc->errorclass != errorclass) &&
        (find_class(errorclass) == NULL || errorclass == MPI_SUCCESS))
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_code",
                             "errorclass %d is not an error class", errorclass);
    *errorcode = add_user_code(errorclass);
    return MPI_SUCCESS;
}

/* Only the codes and classes the program added take a string (MPI-3.1 §8.5). */
int
MPI_Add_error_string(int errorcode, const char *string)
{
    struct user_code *uc = find_user_code(errorcode);

    if (string == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string",
                             "string is NULL");
    if (uc == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Add_error_string",
                             "error code %d was not added by MPI_Add_error_class or "
                             "MPI_Add_error_code",
                             errorcode);
    g_strlcpy(uc->string, string, sizeof(uc->string));
    return MPI_SUCCESS;
}

const char *
collsim_error_class_name(int errorclass)
{
    const struct error_class_info *info = find_class(errorclass);
    return info != NULL ? info->name : NULL;
}

MPI_Errhandler
collsim_errhandler_ref(MPI_Errhandler errhandler)
{
    if (errhandler != MPI_ERRHANDLER_NULL && !errhandler->predefined)
        errhandler->refcount++;
    return errhandler;
}

void
collsim_errhandler_unref(MPI_Errhandler errhandler)
{
    if (errhandler == MPI_ERRHANDLER_NULL || errhandler->predefined)
        return;
    if (--errhandler->refcount == 0) {
        errhandler->magic = 0;
        collsim_handle_remove(errhandler);
        g_free(errhandler);
    }
}

int
collsim_errhandler_check(MPI_Errhandler errhandler, const char **why)
{
    if (errhandler == MPI_ERRHANDLER_NULL)
        *why = "MPI_ERRHANDLER_NULL";
    else if (!collsim_handle_readable(errhandler))
        *why = "not a live error handler: never set, or freed";
    else if (errhandler->magic != COLLSIM_ERRHANDLER_MAGIC)
        *why = "a handle of another kind, not an error handler";
    else if (!errhandler->predefined && !collsim_handle_held(errhandler))
        *why = "an error handler this rank already freed, or never received";
    else
        return MPI_SUCCESS;
    return MPI_ERR_ARG;
}

/* Give the calling rank a handle to errhandler, with one reference it frees; `call` and
 * `caller` name it in the report of what the rank never freed. */
static MPI_Errhandler
hand_out(MPI_Errhandler errhandler, const char *call, const void *caller)
{
    if (!errhandler->predefined)
        collsim_handle_hold(errhandler, COLLSIM_HELD_ERRHANDLER, call, caller);
    return collsim_errhandler_ref(errhandler);
}

/* The communicator whose handler deals with an error raised on `comm`: MPI_COMM_WORLD for
 * MPI_COMM_NULL and for a handle that is no communicator (which is not read). */
static MPI_Comm
handling_comm(MPI_Comm comm)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return MPI_COMM_WORLD;
    comm = collsim_comm_visible(comm);
    if (comm == MPI_COMM_NULL || comm->errhandler == MPI_ERRHANDLER_NULL)
        return MPI_COMM_WORLD;
    return comm;
}

/* Print the one-line report of a fatal error and end the simulation; `inside` names the
 * program's collective call when the error arose in collsim's algorithm for it. */
static void __attribute__((noreturn))
die(int code, const char *call, const char *inside, const char *fmt, va_list ap)
{
    /* on the stack: nothing to free on a path that ends the process */
    char message[1024];
    vsnprintf(message, sizeof message, fmt, ap);
    for (char *c = message; *c != '\0'; c++)
        if (*c == '\n' || *c == '\r')
            *c = ' ';   /* one line whatever the message holds */
    const char *name = collsim_error_class_name(code);
    char unknown[64 + MPI_MAX_ERROR_STRING];
    if (name == NULL) {
        /* a code of the program's (MPI_Add_error_code): with its string, if it set one */
        const struct user_code *uc = find_user_code(code);
        if (uc != NULL && uc->string[0] != '\0')
            snprintf(unknown, sizeof unknown, "error code %d: %s", code, uc->string);
        else
            snprintf(unknown, sizeof unknown, "error code %d", code);
        name = unknown;
    }
    fprintf(stderr, "collsim: rank %d: %s%s: %s [%s]\n", collsim_runtime->world_rank(), call,
            inside, message, name);
    fflush(stderr);
    collsim_runtime->abort(COLLSIM_EXIT_MPI_ERROR);
}

int
collsim_check_live(const char *call)
{
    int state = collsim_runtime->mpi_state != NULL ? collsim_runtime->mpi_state() : 1;
    if (state == 1)
        return MPI_SUCCESS;
    return collsim_error(MPI_COMM_WORLD, MPI_ERR_OTHER, call,
                         state == 0 ? "called before MPI_Init" : "called after MPI_Finalize");
}

int
collsim_check_communication(MPI_Comm comm, const char *call)
{
    if (collsim_runtime->in_user_function == NULL || !collsim_runtime->in_user_function())
        return MPI_SUCCESS;
    return collsim_error(comm, MPI_ERR_OTHER, call,
                         "called inside a user-defined reduction function, where MPI-3.1 5.9.5 "
                         "allows no communication (MPI_Abort only)");
}

int
collsim_error(MPI_Comm comm, int code, const char *call, const char *fmt, ...)
{
    MPI_Comm target = handling_comm(comm);
    MPI_Errhandler handler = target->errhandler;
    if (handler == MPI_ERRHANDLER_NULL)
        handler = MPI_ERRORS_ARE_FATAL;

    if (handler == MPI_ERRORS_RETURN)
        return code;
    if (handler == MPI_ERRORS_ARE_FATAL || handler->function == NULL) {
        /* an error on a hidden twin came from the algorithm of the program's collective call
         * (a message of the wrong type that the program's arguments sent): name that call */
        char inside[768] = "";
        if (collsim_comm_check(comm) == MPI_SUCCESS && comm->owner != NULL) {
            GString *what = g_string_new(NULL);
            if (coll_check_describe_rank(comm->owner, collsim_runtime->world_rank(), what))
                snprintf(inside, sizeof inside, " in %s", what->str);
            g_string_free(what, TRUE);
        }
        va_list ap;
        va_start(ap, fmt);
        die(code, call, inside, fmt, ap);
    }
    /* a user handler gets the handle and the code by address, as MPI prescribes */
    int code_arg = code;
    handler->function(&target, &code_arg);
    return code;
}

/* ---------------------------------------------------------------- error classes */

/* Error codes are classes: the class of a known code is itself. */
int
MPI_Error_class(int errorcode, int *errorclass)
{
    if (errorclass == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class",
                             "errorclass is NULL");
    struct user_code *uc = find_user_code(errorcode);
    if (uc != NULL) {
        *errorclass = uc->errorclass;
        return MPI_SUCCESS;
    }
    if (find_class(errorcode) == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_class",
                             "unknown error code %d", errorcode);
    *errorclass = errorcode;
    return MPI_SUCCESS;
}

/* "MPI_ERR_RANK: invalid rank" — at most MPI_MAX_ERROR_STRING bytes with the NUL. */
int
MPI_Error_string(int errorcode, char *string, int *resultlen)
{
    if (string == NULL || resultlen == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string",
                             "%s is NULL", string == NULL ? "string" : "resultlen");
    struct user_code *uc = find_user_code(errorcode);
    if (uc != NULL) {
        g_strlcpy(string, uc->string, MPI_MAX_ERROR_STRING);
        *resultlen = (int)strlen(string);
        return MPI_SUCCESS;
    }
    const struct error_class_info *info = find_class(errorcode);
    if (info == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Error_string",
                             "unknown error code %d", errorcode);
    int len = snprintf(string, MPI_MAX_ERROR_STRING, "%s: %s", info->name, info->text);
    *resultlen = MIN(len, MPI_MAX_ERROR_STRING - 1);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- handlers */

static int
check_comm_arg(MPI_Comm comm, const char *call)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator");
    return MPI_SUCCESS;
}

static int
check_errhandler_arg(MPI_Comm comm, MPI_Errhandler errhandler, const char *call)
{
    const char *why;
    if (collsim_errhandler_check(errhandler, &why) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_ARG, call, "invalid error handler (%s)", why);
    return MPI_SUCCESS;
}

/* Replace the handler of comm (shared by all its members, see the file comment). */
static int
set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler, const char *call)
{
    int rc = check_comm_arg(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = check_errhandler_arg(comm, errhandler, call);
    if (rc != MPI_SUCCESS)
        return rc;
    comm = collsim_comm_visible(comm);
    MPI_Errhandler old = comm->errhandler;
    comm->errhandler = collsim_errhandler_ref(errhandler);
    collsim_errhandler_unref(old);
    return MPI_SUCCESS;
}

int
MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, "MPI_Comm_set_errhandler");
}

/* MPI-1 name of MPI_Comm_set_errhandler. */
int
MPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler)
{
    return set_errhandler(comm, errhandler, "MPI_Errhandler_set");
}

/* A new reference to comm's handler: the program frees it with MPI_Errhandler_free. */
int
MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler *errhandler)
{
    int rc = check_comm_arg(comm, "MPI_Comm_get_errhandler");
    if (rc != MPI_SUCCESS)
        return rc;
    if (errhandler == NULL)
        return collsim_error(comm, MPI_ERR_ARG, "MPI_Comm_get_errhandler",
                             "errhandler is NULL");
    *errhandler =
        hand_out(handling_comm(comm)->errhandler, "MPI_Comm_get_errhandler", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

int
MPI_Comm_create_errhandler(MPI_Comm_errhandler_function *function, MPI_Errhandler *errhandler)
{
    if (function == NULL || errhandler == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Comm_create_errhandler",
                             "%s is NULL", function == NULL ? "function" : "errhandler");
    MPI_Errhandler handler = g_new0(struct collsim_errhandler, 1);
    collsim_handle_add(handler);
    handler->magic = COLLSIM_ERRHANDLER_MAGIC;
    handler->function = function;
    /* the creator's reference: refcount 1 */
    *errhandler = hand_out(handler, "MPI_Comm_create_errhandler", COLLSIM_CALLER());
    return MPI_SUCCESS;
}

/* Invoke comm's handler on a code the program raises; MPI_SUCCESS if the handler returns. */
int
MPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
    int rc = check_comm_arg(comm, "MPI_Comm_call_errhandler");
    if (rc != MPI_SUCCESS)
        return rc;
    collsim_error(comm, errorcode, "MPI_Comm_call_errhandler",
                  "error code %d raised by the program", errorcode);
    return MPI_SUCCESS;
}

/*
 * Release a handle. The predefined handlers may be freed as a no-op: MPI_Comm_get_errhandler
 * hands them out as new references that the program is told to free.
 */
int
MPI_Errhandler_free(MPI_Errhandler *errhandler)
{
    if (errhandler == NULL)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Errhandler_free",
                             "errhandler is NULL");
    int rc = check_errhandler_arg(MPI_COMM_NULL, *errhandler, "MPI_Errhandler_free");
    if (rc != MPI_SUCCESS)
        return rc;
    if (!(*errhandler)->predefined)
        collsim_handle_let_go(*errhandler);
    collsim_errhandler_unref(*errhandler);
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}
