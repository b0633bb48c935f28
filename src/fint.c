/*
 * fint.c — the C side of MPI's language interoperability (MPI-3.1 §17.2.4 and §17.2.5): the
 * MPI_*_c2f / MPI_*_f2c handle conversions and MPI_Status_c2f / MPI_Status_f2c.
 *
 * collsim's handles are pointers, so a Fortran handle (an MPI_Fint) is an index into a table
 * of the objects of that kind converted so far, as in Open MPI: 0 is the kind's null handle,
 * an object gets the next free index the first time it is converted, and keeps it until it is
 * destroyed (collsim_fint_forget, called from collsim_handle_remove), when its index becomes
 * free again. The indices therefore depend only on the order of the program's calls, never on
 * addresses. Every rank shares one table per kind, as the ranks share communicators and
 * predefined objects: MPI_COMM_WORLD converts to the same integer on every rank, and an
 * integer names its object until the object is destroyed (a communicator: when its last member
 * frees it; a rank's use of the integer after its own free is erroneous, MPI-3.1 §17.2.4).
 *
 * A handle that is not a live object converts to -1 (Open MPI does the same), and an integer
 * that names no live object converts back to the null handle: neither reads the object.
 * Windows and files stay out, with one-sided communication and MPI-IO.
 */
#include <string.h>

#include <glib.h>

#include "errhandler.h"
#include "fint.h"
#include "handles.h"
#include "mpi.h"

enum fint_kind {
    FINT_COMM,
    FINT_DATATYPE,
    FINT_GROUP,
    FINT_REQUEST,
    FINT_OP,
    FINT_ERRHANDLER,
    FINT_INFO,
    FINT_MESSAGE,
    FINT_KINDS
};

struct fint_table {
    GPtrArray *objects;    /* index -> object; [0] is the null handle; NULL where freed */
    GHashTable *index_of;  /* object -> its index */
    GArray *free_indices;  /* freed indices, reused last freed first */
};

static struct fint_table tables[FINT_KINDS];
static guint converted; /* objects in all tables: collsim_fint_forget's fast way out */

MPI_Fint collsim_f_status_ignore[MPI_F_STATUS_SIZE];
MPI_Fint collsim_f_statuses_ignore[MPI_F_STATUS_SIZE];

static MPI_Fint
fint_of(enum fint_kind kind, const void *object)
{
    if (object == NULL)
        return 0;
    if (object != MPI_MESSAGE_NO_PROC && !collsim_handle_readable(object))
        return -1;
    struct fint_table *table = &tables[kind];
    if (table->objects == NULL) {
        table->objects = g_ptr_array_new();
        g_ptr_array_add(table->objects, NULL);
        table->index_of = g_hash_table_new(g_direct_hash, g_direct_equal);
        table->free_indices = g_array_new(FALSE, FALSE, sizeof(guint));
    }
    gpointer found;
    if (g_hash_table_lookup_extended(table->index_of, object, NULL, &found))
        return (MPI_Fint)GPOINTER_TO_UINT(found);
    guint index;
    if (table->free_indices->len > 0) {
        index = g_array_index(table->free_indices, guint, table->free_indices->len - 1);
        g_array_set_size(table->free_indices, table->free_indices->len - 1);
        g_ptr_array_index(table->objects, index) = (gpointer)object;
    } else {
        if (table->objects->len > G_MAXINT32)
            return -1; /* no Fortran integer left */
        index = table->objects->len;
        g_ptr_array_add(table->objects, (gpointer)object);
    }
    g_hash_table_insert(table->index_of, (gpointer)object, GUINT_TO_POINTER(index));
    converted++;
    return (MPI_Fint)index;
}

static void *
object_of(enum fint_kind kind, MPI_Fint index)
{
    const struct fint_table *table = &tables[kind];
    if (index <= 0 || table->objects == NULL || (guint)index >= table->objects->len)
        return NULL;
    return g_ptr_array_index(table->objects, (guint)index);
}

void
collsim_fint_forget(const void *object)
{
    if (G_LIKELY(converted == 0))
        return;
    for (int kind = 0; kind < FINT_KINDS; kind++) {
        struct fint_table *table = &tables[kind];
        gpointer found;
        if (table->index_of == NULL ||
            !g_hash_table_lookup_extended(table->index_of, object, NULL, &found))
            continue;
        guint index = GPOINTER_TO_UINT(found);
        g_hash_table_remove(table->index_of, object);
        g_ptr_array_index(table->objects, index) = NULL;
        g_array_append_val(table->free_indices, index);
        converted--;
        return; /* an object is of one kind */
    }
}

/* Each kind's two conversions, and their profiling names (pmpi.ld finds only definitions
 * that start a line). */
#define FINT_CONVERSIONS(Name, Handle, KIND)                                                   \
    MPI_Fint MPI_##Name##_c2f(Handle handle) { return fint_of(KIND, handle); }                 \
    Handle MPI_##Name##_f2c(MPI_Fint handle) { return (Handle)object_of(KIND, handle); }      \
    MPI_Fint PMPI_##Name##_c2f(Handle handle) __attribute__((alias("MPI_" #Name "_c2f")));    \
    Handle PMPI_##Name##_f2c(MPI_Fint handle) __attribute__((alias("MPI_" #Name "_f2c")));

FINT_CONVERSIONS(Comm, MPI_Comm, FINT_COMM)
FINT_CONVERSIONS(Type, MPI_Datatype, FINT_DATATYPE)
FINT_CONVERSIONS(Group, MPI_Group, FINT_GROUP)
FINT_CONVERSIONS(Request, MPI_Request, FINT_REQUEST)
FINT_CONVERSIONS(Op, MPI_Op, FINT_OP)
FINT_CONVERSIONS(Errhandler, MPI_Errhandler, FINT_ERRHANDLER)
FINT_CONVERSIONS(Info, MPI_Info, FINT_INFO)
FINT_CONVERSIONS(Message, MPI_Message, FINT_MESSAGE)

/*
 * A Fortran status is MPI_F_STATUS_SIZE integers: the three public fields at MPI_F_SOURCE,
 * MPI_F_TAG and MPI_F_ERROR, then the received byte count (low and high 32 bits) and the
 * cancelled flag, which only these two functions read.
 */
int
MPI_Status_c2f(const MPI_Status *c_status, MPI_Fint *f_status)
{
    if (c_status == NULL) /* also MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE */
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_c2f",
                             "c_status is NULL or MPI_STATUS(ES)_IGNORE");
    if (f_status == NULL || f_status == MPI_F_STATUS_IGNORE || f_status == MPI_F_STATUSES_IGNORE)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_c2f",
                             "f_status is NULL or MPI_F_STATUS(ES)_IGNORE");
    guint64 bytes = c_status->collsim_bytes;
    f_status[MPI_F_SOURCE] = c_status->MPI_SOURCE;
    f_status[MPI_F_TAG] = c_status->MPI_TAG;
    f_status[MPI_F_ERROR] = c_status->MPI_ERROR;
    f_status[3] = (MPI_Fint)(guint32)(bytes & 0xffffffffu);
    f_status[4] = (MPI_Fint)(guint32)(bytes >> 32);
    f_status[5] = c_status->collsim_cancelled;
    return MPI_SUCCESS;
}

int
MPI_Status_f2c(const MPI_Fint *f_status, MPI_Status *c_status)
{
    if (f_status == NULL || f_status == MPI_F_STATUS_IGNORE || f_status == MPI_F_STATUSES_IGNORE)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_f2c",
                             "f_status is NULL or MPI_F_STATUS(ES)_IGNORE");
    if (c_status == NULL) /* also MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE */
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Status_f2c",
                             "c_status is NULL or MPI_STATUS(ES)_IGNORE");
    memset(c_status, 0, sizeof *c_status);
    c_status->MPI_SOURCE = f_status[MPI_F_SOURCE];
    c_status->MPI_TAG = f_status[MPI_F_TAG];
    c_status->MPI_ERROR = f_status[MPI_F_ERROR];
    c_status->collsim_bytes =
        (size_t)((guint64)(guint32)f_status[3] | (guint64)(guint32)f_status[4] << 32);
    c_status->collsim_cancelled = f_status[5];
    return MPI_SUCCESS;
}
