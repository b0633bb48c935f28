/*
 * greq_typeattr.c — generalized requests and datatype attributes in one ordinary MPI program.
 * test_realmpi.sh builds it unchanged with Open MPI's mpicc (run by mpirun) and against
 * collsim (run by collsim exec) and requires the same output.
 *
 * Each rank wraps a ring exchange in a generalized request ("the neighbour's value has
 * arrived"), completes it itself, and waits for it alone and together with receives; every
 * callback appends to the rank's log, which rank 0 gathers and prints with what the waits
 * returned. Then attributes on datatypes: copies on MPI_Type_dup with the predefined and a
 * program's own copy callback, delete callbacks on replacement, deletion and MPI_Type_free,
 * and the failure of setting a datatype attribute with a communicator keyval. Only what MPI
 * defines is printed: error classes (not codes), callback order, attribute values. (The
 * class of that failure is not printed: it is erroneous in MPI, and Open MPI 4.1 answers
 * MPI_ERR_OTHER where collsim, like MPICH, answers MPI_ERR_KEYVAL.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"

#define LOG 256

static int rank, size;
static char log_text[LOG];

static void
note(const char *event)
{
    size_t len = strlen(log_text);
    snprintf(log_text + len, LOG - len, "%s%s", len > 0 ? " " : "", event);
}

/* Rank 0 prints every rank's log under `title`, then every log starts again. */
static void
print_logs(const char *title)
{
    static char all[64 * LOG];
    MPI_Gather(log_text, LOG, MPI_CHAR, all, LOG, MPI_CHAR, 0, MPI_COMM_WORLD);
    for (int r = 0; rank == 0 && r < size; r++)
        printf("%s rank %d: %s\n", title, r, all + r * LOG);
    log_text[0] = '\0';
}

/* ---------------------------------------------------------------- generalized requests */

struct exchange {
    char name;        /* 'a', 'b' ... in the log */
    int from;         /* the rank whose value it carries */
    int value;        /* the value, once it has arrived */
    int query_error;  /* what query_fn returns */
    int cancelled;
};

static int
query_fn(void *extra_state, MPI_Status *status)
{
    struct exchange *x = extra_state;
    char event[16];
    snprintf(event, sizeof event, "q%c", x->name);
    note(event);
    status->MPI_SOURCE = x->from;
    status->MPI_TAG = x->value;
    MPI_Status_set_elements(status, MPI_INT, 1);
    MPI_Status_set_cancelled(status, x->cancelled);
    return x->query_error;
}

static int
free_fn(void *extra_state)
{
    char event[16];
    snprintf(event, sizeof event, "f%c", ((struct exchange *)extra_state)->name);
    note(event);
    return MPI_SUCCESS;
}

static int
cancel_fn(void *extra_state, int complete)
{
    struct exchange *x = extra_state;
    char event[16];
    snprintf(event, sizeof event, "c%c%d", x->name, complete);
    note(event);
    if (!complete)
        x->cancelled = 1;   /* too late once complete: the request completes normally */
    return MPI_SUCCESS;
}

static void
start(struct exchange *x, char name, MPI_Request *request)
{
    memset(x, 0, sizeof *x);
    x->name = name;
    x->from = (rank + size - 1) % size;
    MPI_Grequest_start(query_fn, free_fn, cancel_fn, x, request);
}

/* The ring step the generalized request stands for: this rank's value to the next rank. */
static void
ring_step(struct exchange *x, int mine)
{
    MPI_Sendrecv(&mine, 1, MPI_INT, (rank + 1) % size, 7, &x->value, 1, MPI_INT, x->from, 7,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void
generalized_requests(void)
{
    struct exchange a, b, c;
    MPI_Request r[2];
    MPI_Status st[2];
    int flag, count, cancelled;
    char line[128];

    /* test before completion, complete, get_status, wait */
    start(&a, 'a', &r[0]);
    MPI_Test(&r[0], &flag, &st[0]);
    snprintf(line, sizeof line, "test:%d", flag);
    note(line);
    ring_step(&a, 100 + rank);
    MPI_Grequest_complete(r[0]);
    MPI_Request_get_status(r[0], &flag, &st[0]);
    snprintf(line, sizeof line, "get_status:%d", flag);
    note(line);
    MPI_Wait(&r[0], &st[0]);
    MPI_Get_count(&st[0], MPI_INT, &count);
    snprintf(line, sizeof line, "wait:source=%d,tag=%d,count=%d,null=%d", st[0].MPI_SOURCE,
             st[0].MPI_TAG, count, r[0] == MPI_REQUEST_NULL);
    note(line);
    print_logs("greq wait");

    /* a receive and a generalized request in one Waitall; query_fn of one fails */
    int got = -1, mine = 200 + rank;
    MPI_Request s;
    start(&b, 'b', &r[0]);
    MPI_Irecv(&got, 1, MPI_INT, (rank + size - 1) % size, 8, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(&mine, 1, MPI_INT, (rank + 1) % size, 8, MPI_COMM_WORLD, &s);
    b.query_error = MPI_ERR_OTHER;
    b.value = 1;
    MPI_Grequest_complete(r[0]);
    int rc = MPI_Waitall(2, r, st);
    int cls;
    MPI_Error_class(st[0].MPI_ERROR, &cls);
    snprintf(line, sizeof line, "waitall:%s,status0=%s,status1=%s,got=%d",
             rc == MPI_ERR_IN_STATUS ? "in_status" : "other",
             cls == MPI_ERR_OTHER ? "other" : "?",
             st[1].MPI_ERROR == MPI_SUCCESS ? "success" : "?", got);
    note(line);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    print_logs("greq waitall");

    /* cancel before completion, and MPI_Request_free before MPI_Grequest_complete */
    start(&c, 'c', &r[0]);
    MPI_Cancel(&r[0]);
    MPI_Grequest_complete(r[0]);
    MPI_Cancel(&r[0]);
    MPI_Wait(&r[0], &st[0]);
    MPI_Test_cancelled(&st[0], &cancelled);
    snprintf(line, sizeof line, "cancelled:%d", cancelled);
    note(line);
    start(&c, 'd', &r[0]);
    MPI_Request kept = r[0];
    MPI_Request_free(&r[0]);
    note("freed");
    MPI_Grequest_complete(kept);
    print_logs("greq cancel/free");
}

/* ---------------------------------------------------------------- datatype attributes */

/* The keyvals, logged by their order of creation (their numbers are the library's). */
static int keys[3];

static int
key_index(int keyval)
{
    for (int i = 0; i < 3; i++)
        if (keys[i] == keyval)
            return i;
    return -1;
}

static int
copy_even(MPI_Datatype oldtype, int keyval, void *extra, void *in, void *out, int *flag)
{
    (void)oldtype, (void)extra;
    char event[32];
    snprintf(event, sizeof event, "copy%d=%d", key_index(keyval), *(int *)in);
    note(event);
    *flag = *(int *)in % 2 == 0;
    *(void **)out = in;
    return MPI_SUCCESS;
}

static int
delete_fn(MPI_Datatype type, int keyval, void *value, void *extra)
{
    (void)type, (void)extra;
    char event[32];
    snprintf(event, sizeof event, "del%d=%d", key_index(keyval), *(int *)value);
    note(event);
    return MPI_SUCCESS;
}

static void
show(const char *what, MPI_Datatype type, int keyval)
{
    int *v, flag;
    char event[48];
    MPI_Type_get_attr(type, keyval, &v, &flag);
    if (flag)
        snprintf(event, sizeof event, "%s=%d", what, *v);
    else
        snprintf(event, sizeof event, "%s=unset", what);
    note(event);
}

static void
type_attributes(void)
{
    static int values[6];
    int k_dup, k_null, k_own, k_comm;
    MPI_Datatype t, d;

    for (int i = 0; i < 6; i++)
        values[i] = 10 * rank + i;
    MPI_Type_create_keyval(MPI_TYPE_DUP_FN, delete_fn, &k_dup, NULL);
    MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, delete_fn, &k_null, NULL);
    MPI_Type_create_keyval(copy_even, delete_fn, &k_own, NULL);
    keys[0] = k_dup, keys[1] = k_null, keys[2] = k_own;
    int order_ok = k_dup != k_null && k_null != k_own;
    MPI_Type_vector(3, 1, 2, MPI_INT, &t);
    MPI_Type_commit(&t);
    MPI_Type_set_attr(t, k_dup, &values[0]);
    MPI_Type_set_attr(t, k_null, &values[1]);
    MPI_Type_set_attr(t, k_own, &values[2]);
    show("t.own", t, k_own);
    MPI_Type_set_attr(t, k_own, &values[3]);   /* replaced: its delete callback runs */
    show("t.own", t, k_own);
    MPI_Type_dup(t, &d);
    show("d.dup", d, k_dup);
    show("d.null", d, k_null);
    show("d.own", d, k_own);
    MPI_Type_delete_attr(t, k_null);
    show("t.null", t, k_null);
    MPI_Type_set_attr(MPI_INT, k_dup, &values[4]);
    show("int.dup", MPI_INT, k_dup);
    MPI_Type_delete_attr(MPI_INT, k_dup);
    print_logs("type attr set/dup");

    MPI_Type_free(&d);
    note("|");
    MPI_Type_free(&t);
    print_logs("type attr free");

    /* a communicator keyval on a datatype */
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &k_comm, NULL);
    int set_rc = MPI_Type_set_attr(MPI_INT, k_comm, &values[5]);
    char line[96];
    snprintf(line, sizeof line, "comm_keyval_refused:%d order:%d", set_rc != MPI_SUCCESS,
             order_ok);
    note(line);
    MPI_Comm_free_keyval(&k_comm);
    MPI_Type_free_keyval(&k_dup);
    MPI_Type_free_keyval(&k_null);
    MPI_Type_free_keyval(&k_own);
    snprintf(line, sizeof line, "freed:%d", k_own == MPI_KEYVAL_INVALID);
    note(line);
    print_logs("type attr errors");
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    generalized_requests();
    type_attributes();
    MPI_Finalize();
    return 0;
}
