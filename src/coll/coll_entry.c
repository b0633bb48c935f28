/*
 * coll_entry.c — the pieces every MPI collective entry point shares (coll_entry.h): argument
 * checks as the standard defines them, the call checker's type signatures, the description
 * of a call for selection, and coll_dispatch.
 *
 * Invariants: an algorithm never sees an argument the standard calls invalid; a forced
 * algorithm that cannot serve the call is refused (MPI_ERR_OTHER naming it and the unmet
 * requirement), never replaced; errors go through the user communicator's handler.
 */
#include <assert.h>
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll/coll_entry.h"
#include "coll/coll_util.h"
#include "coll/coll_watch.h"
#include "coll/inter/coll_inter.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "info.h"
#include "op.h"
#include "runtime.h"

/* ---------------------------------------------------------------- argument checks */

int
coll_arg_info(MPI_Info info, const char *call)
{
    const char *why;
    if (info != MPI_INFO_NULL && collsim_info_check(info, &why) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_WORLD, MPI_ERR_INFO, call, "invalid info (%s)", why);
    return MPI_SUCCESS;
}

int
coll_arg_comm(MPI_Comm comm, const char *call)
{
    int rc = collsim_check_live(call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator");
    if (collsim_comm_is_internal(comm))
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator (internal)");
    /* a shared object reaches a non-member only through a stray copy of the handle; its
     * rank would index the per-rank arrays below */
    if (collsim_comm_my_rank(comm) == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    /* a collective entered there would run inside a step of the algorithm that called it */
    return collsim_check_communication(comm, call);
}

int
coll_arg_count(MPI_Comm comm, int count, const char *what, const char *call)
{
    if (count < 0)
        return collsim_error(comm, MPI_ERR_COUNT, call, "negative %s %d", what, count);
    return MPI_SUCCESS;
}

int
coll_arg_type(MPI_Comm comm, MPI_Datatype dt, const char *what, const char *call)
{
    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TYPE, call, "invalid %s: %s", what,
                             collsim_datatype_problem(dt));
    return MPI_SUCCESS;
}

int
coll_arg_root(MPI_Comm comm, int root, const char *call)
{
    int size = collsim_comm_size(comm);
    if (root < 0 || root >= size)
        return collsim_error(comm, MPI_ERR_ROOT, call, "invalid root %d (communicator size %d)",
                             root, size);
    return MPI_SUCCESS;
}

static int
check_op(MPI_Comm comm, MPI_Op op, MPI_Datatype dt, const char *call)
{
    int rc = collsim_op_check(op, dt);
    if (rc != MPI_SUCCESS) {
        char why[256];
        collsim_op_describe_error(op, dt, why, sizeof why);
        return collsim_error(comm, rc, call, "%s", why);
    }
    return MPI_SUCCESS;
}

int
coll_arg_reduction(MPI_Comm comm, int count, MPI_Datatype dt, MPI_Op op, const char *call)
{
    int rc = coll_arg_comm(comm, call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_count(comm, count, "count", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, dt, "datatype", call);
    if (rc == MPI_SUCCESS)
        rc = check_op(comm, op, dt, call);
    return rc;
}

/* A buffer argument: never MPI_IN_PLACE (callers that take it say so below), and an address
 * of data when it has data to move (collsim_buffer_check). */
int
coll_arg_buffer(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt, const char *what,
                const char *call)
{
    return collsim_buffer_check(comm, buf, count, dt, what, call);
}

/* A send buffer where the call takes MPI_IN_PLACE instead. */
int
coll_arg_buffer_or_in_place(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                            const char *what, const char *call)
{
    return buf == MPI_IN_PLACE ? MPI_SUCCESS : coll_arg_buffer(comm, buf, count, dt, what, call);
}

/* The v-collectives' buffers: not NULL when they have items to move; the receive buffer
 * never MPI_IN_PLACE (the callers handle the send buffer's). */
int
coll_arg_v_buffers(MPI_Comm comm, const void *sendbuf, int send_items, const void *recvbuf,
                   int recv_items, const char *call)
{
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "recvbuf is MPI_IN_PLACE, which %s does not take there", call);
    if (recv_items > 0 && recvbuf == NULL)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "recvbuf is NULL with %d items to move",
                             recv_items);
    if (send_items > 0 && sendbuf == NULL)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "sendbuf is NULL with %d items to move",
                             send_items);
    return MPI_SUCCESS;
}

/* The send and receive buffers of one call must not overlap (MPI-3.1 2.3): the standard's
 * way to reuse the receive buffer is MPI_IN_PLACE. Checked where an overlap corrupts the
 * result (the reductions, Alltoall); Gather, Scatter and Allgather with the root's or the
 * rank's own block in place are left alone, an old idiom that Open MPI runs as intended. */
int
coll_arg_no_alias(MPI_Comm comm, const void *sendbuf, MPI_Aint scount, MPI_Datatype stype,
                  const void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype, const char *call)
{
    if (sendbuf != MPI_IN_PLACE && recvbuf != MPI_IN_PLACE &&
        collsim_buffers_overlap(sendbuf, scount, stype, recvbuf, rcount, rtype))
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "sendbuf and recvbuf overlap (recvbuf starts %lld bytes from "
                             "sendbuf): pass MPI_IN_PLACE as sendbuf to use recvbuf for both",
                             (long long)((intptr_t)recvbuf - (intptr_t)sendbuf));
    return MPI_SUCCESS;
}

int
coll_arg_all_recv(MPI_Comm comm, const void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  const char *call)
{
    int rc = coll_arg_comm(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not a valid recvbuf");
    rc = coll_arg_count(comm, recvcount, "recvcount", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, recvtype, "recvtype", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_all_blocks(comm, recvcount, "recvcount", call);
    return rc;
}

int
coll_arg_all_recv_v(MPI_Comm comm, const void *recvbuf, const int recvcounts[],
                    const int rdispls[], MPI_Datatype recvtype, const char *call, int *total)
{
    int rc = coll_arg_comm(comm, call);
    if (rc != MPI_SUCCESS)
        return rc;
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not a valid recvbuf");
    rc = coll_arg_vector(comm, recvcounts, rdispls, "recvcounts", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_counts(comm, recvcounts, "recvcounts", call, total);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, recvtype, "recvtype", call);
    return rc;
}

long long
coll_entry_sig_bytes(int count, MPI_Datatype dt)
{
    return (long long)collsim_datatype_packed_size(count, dt);
}

/* counts[i] items of types[i] (or of dt when types is NULL), in bytes, for every rank. */
long long *
coll_entry_sig_array(MPI_Comm comm, const int counts[], MPI_Datatype dt, const MPI_Datatype types[])
{
    int size = collsim_comm_size(comm);
    long long *bytes = malloc(sizeof(long long) * (size_t)(size > 0 ? size : 1));
    for (int i = 0; i < size; i++)
        bytes[i] = coll_entry_sig_bytes(counts[i], types != NULL ? types[i] : dt);
    return bytes;
}

static int call_checked(void);

/* The program's site of the call being entered (its checker record's), for the report of a
 * nonblocking call whose buffers change too early; NULL where the call is not checked. */
static const void *entered_site;

static void
check_enter(MPI_Comm comm, const struct coll_check_call *c)
{
    entered_site = c->caller;
    coll_check_enter(comm, c);
}

/* A call whose every member passes the same count, datatype (and op, root where given). */
void
coll_entry_check_same(MPI_Comm comm, const char *name, int root, MPI_Op op, int count,
                      MPI_Datatype dt, const void *caller)
{
    if (!call_checked())
        return;
    struct coll_check_call c = {
        .name = name,
        .rule = dt == MPI_DATATYPE_NULL ? COLL_CHECK_NONE : COLL_CHECK_EQUAL,
        .root = root,
        .op = op,
        .count = dt == MPI_DATATYPE_NULL ? -1 : count,
        .type = dt,
        .bytes = dt == MPI_DATATYPE_NULL ? -1 : coll_entry_sig_bytes(count, dt),
        .recv_bytes = -1,
        .caller = caller};
    check_enter(comm, &c);
}

/* Allgatherv, Reduce_scatter: every member passes the same per-rank counts (of counts_type). */
void
coll_entry_check_same_v(MPI_Comm comm, const char *name, MPI_Op op, int count, MPI_Datatype dt,
                        long long bytes, const int counts[], MPI_Datatype counts_type,
                        const void *caller)
{
    if (!call_checked())
        return;
    long long *per_rank = coll_entry_sig_array(comm, counts, counts_type, NULL);
    struct coll_check_call c = {.name = name,
                                .rule = COLL_CHECK_SAME_V,
                                .root = -1,
                                .op = op,
                                .count = count,
                                .type = dt,
                                .bytes = bytes,
                                .recv_bytes = -1,
                                .per_rank = per_rank,
                                .caller = caller};
    check_enter(comm, &c);
    free(per_rank);
}

/*
 * Gatherv, Scatterv: every rank's own block (count items of dt, none at an in-place root)
 * against the root's per-rank counts (of root_type).
 */
void
coll_entry_check_rooted_v(MPI_Comm comm, const char *name, int root, int in_place_root, int count,
                          MPI_Datatype dt, const int root_counts[], MPI_Datatype root_type,
                          const void *caller)
{
    if (!call_checked())
        return;
    int me = collsim_comm_my_rank(comm);
    long long *counts =
        me == root ? coll_entry_sig_array(comm, root_counts, root_type, NULL) : NULL;
    struct coll_check_call c = {.name = name,
                                .rule = COLL_CHECK_ROOT_V,
                                .root = root,
                                .op = MPI_OP_NULL,
                                .count = in_place_root ? -1 : count,
                                .type = in_place_root ? MPI_DATATYPE_NULL : dt,
                                .bytes = in_place_root ? -1 : coll_entry_sig_bytes(count, dt),
                                .recv_bytes = -1,
                                .per_rank = counts,
                                .caller = caller};
    check_enter(comm, &c);
    free(counts);
}

/* Alltoallv, Alltoallw: what this rank sends to and receives from each rank. */
void
coll_entry_check_pairwise(MPI_Comm comm, const char *name, const void *sendbuf,
                          const int sendcounts[], MPI_Datatype sendtype,
                          const MPI_Datatype sendtypes[], const int recvcounts[],
                          MPI_Datatype recvtype, const MPI_Datatype recvtypes[], const void *caller)
{
    if (!call_checked())
        return;
    long long *received = coll_entry_sig_array(comm, recvcounts, recvtype, recvtypes);
    long long *sent = sendbuf == MPI_IN_PLACE
                          ? received
                          : coll_entry_sig_array(comm, sendcounts, sendtype, sendtypes);
    struct coll_check_call c = {.name = name,
                                .rule = COLL_CHECK_PAIRWISE,
                                .root = -1,
                                .op = MPI_OP_NULL,
                                .count = -1,
                                .type = MPI_DATATYPE_NULL,
                                .bytes = -1,
                                .recv_bytes = -1,
                                .per_rank = sent,
                                .recv_per_rank = received,
                                .caller = caller};
    check_enter(comm, &c);
    if (sent != received)
        free(sent);
    free(received);
}

int
coll_entry_commutes(MPI_Op op)
{
    int commute = 1;
    MPI_Op_commutative(op, &commute);
    return commute;
}

void
coll_entry_describe(struct coll_call *call, enum coll_kind kind, MPI_Comm comm, int count,
                    MPI_Datatype dt, int commutative)
{
    call->kind = kind;
    call->comm_size = collsim_comm_size(comm);
    call->count = count;
    call->bytes = collsim_datatype_packed_size(count, dt);
    call->commutative = commutative;
    call->contiguous = collsim_datatype_is_contiguous(dt);
    /* only a non-commutative op asks (it costs a pass over the members, once per comm) */
    call->node_blocks = commutative || collsim_comm_node_blocks(comm);
    /* a library's decision may pick a node-aware algorithm, which needs real data */
    call->sizes_only =
        collsim_runtime->moves_payload != NULL && !collsim_runtime->moves_payload();
}

static int
algorithm_failed(MPI_Comm comm, const char *name, const struct coll_algorithm *row, int rc)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return collsim_error(comm, rc, name, "algorithm '%s' failed", row->name);
}

/* ---------------------------------------------------------------- nonblocking forms */

/*
 * A nonblocking collective is its blocking form's entry (the same checks, the call checker at
 * the call, the same selection) whose coll_dispatch starts the algorithm as a nonblocking
 * operation of the rank (runtime hook start_nonblocking) instead of running it. The
 * algorithm runs on an operation twin of the communicator (comm.h), so that collectives in
 * flight together never match each other's messages.
 *
 * Between coll_nonblocking_begin and coll_dispatch the calling rank runs no code that lets
 * another rank run (argument checks, the checker's records), so one record of the pending
 * call is enough; it names the rank that set it, as a guard.
 */
static struct {
    MPI_Request *request; /* where the started operation's request goes; NULL: blocking */
    int world_rank;
    enum coll_kind kind;
    enum coll_form form;
    MPI_Comm twin; /* COLL_FORM_STARTED: the persistent request's operation twin */
} nonblocking;

/*
 * Whether the call being entered goes to the call checker: not an MPI_Start, whose init call
 * went. MPI-4 lets the members start their persistent collectives in different orders (unless
 * the info key mpi_assert_strict_persistent_collective_ordering says otherwise): each
 * request has its own operation twin, taken by the init calls, which are in the same order.
 */
static int
call_checked(void)
{
    if (nonblocking.request != NULL && nonblocking.form == COLL_FORM_STARTED)
        return 0;
    return coll_check_enabled();
}

const char *
coll_entry_name(enum coll_kind kind)
{
    static char inames[COLL_KIND_COUNT][MPI_MAX_OBJECT_NAME];
    static char init_names[COLL_KIND_COUNT][MPI_MAX_OBJECT_NAME];
    if (nonblocking.request == NULL || kind != nonblocking.kind)
        return coll_kind_mpi_name(kind);
    const char *blocking = coll_kind_mpi_name(kind);
    if (nonblocking.form != COLL_FORM_NONBLOCKING) {
        /* "MPI_Allreduce" -> "MPI_Allreduce_init" (MPI-4's persistent collectives) */
        if (init_names[kind][0] == '\0')
            snprintf(init_names[kind], sizeof init_names[kind], "%s_init", blocking);
        return init_names[kind];
    }
    char *name = inames[kind];
    if (name[0] == '\0') {
        /* "MPI_Allreduce" -> "MPI_Iallreduce" */
        name[0] = '\0';
        strcat(name, "MPI_I");
        size_t at = strlen(name);
        name[at] = (char)tolower((unsigned char)blocking[4]);
        name[at + 1] = '\0';
        strcat(name, blocking + 5);
    }
    return name;
}

int
coll_nonblocking_begin(enum coll_kind kind, MPI_Request *request)
{
    return coll_form_begin(kind, COLL_FORM_NONBLOCKING, request);
}

int
coll_form_begin(enum coll_kind kind, enum coll_form form, MPI_Request *request)
{
    int rc = MPI_SUCCESS;
    nonblocking.form = form;
    nonblocking.kind = kind;
    nonblocking.twin = NULL;
    entered_site = NULL;
    nonblocking.world_rank = collsim_runtime->world_rank();
    nonblocking.request = request;
    if (request == NULL) {
        rc = collsim_error(MPI_COMM_WORLD, MPI_ERR_REQUEST, coll_entry_name(kind),
                           "NULL request pointer");
        nonblocking.request = NULL;
    }
    return rc;
}

int
coll_nonblocking_end(int rc)
{
    if (nonblocking.request != NULL) {
        /* the entry stopped before coll_dispatch: nothing started */
        *nonblocking.request = MPI_REQUEST_NULL;
        nonblocking.request = NULL;
    }
    return rc;
}

int
coll_entry_call_nonblocking(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm)
{
    MPI_Request request = MPI_REQUEST_NULL;
    int rc = coll_nonblocking_begin(kind, &request);
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(coll_kind_call(kind, args, comm));
    if (rc == MPI_SUCCESS)
        rc = MPI_Wait(&request, MPI_STATUS_IGNORE);
    return rc;
}

/* ---------------------------------------------------------------- persistent forms */

void
coll_hold_init(struct coll_hold *hold, size_t max_types)
{
    hold->op = MPI_OP_NULL;
    hold->ntypes = 0;
    hold->cap = 0;
    hold->types = malloc(sizeof *hold->types * (max_types > 0 ? max_types : 1));
    if (hold->types != NULL) /* else the program has to keep its objects, as before MPI-3 */
        hold->cap = max_types;
}

void
coll_hold_type(struct coll_hold *hold, MPI_Datatype dt)
{
    if (hold->ntypes < hold->cap && dt != MPI_DATATYPE_NULL &&
        collsim_datatype_check_handle(dt) == MPI_SUCCESS && !dt->predefined)
        hold->types[hold->ntypes++] = collsim_datatype_ref(dt);
}

void
coll_hold_types(struct coll_hold *hold, const MPI_Datatype *types, int n)
{
    for (int i = 0; i < n && types != NULL; i++)
        coll_hold_type(hold, types[i]);
}

void
coll_hold_op(struct coll_hold *hold, MPI_Op op)
{
    if (hold->op == MPI_OP_NULL && op != MPI_OP_NULL &&
        collsim_op_check_handle(op) == MPI_SUCCESS)
        hold->op = collsim_op_ref(op);
}

void
coll_hold_release(struct coll_hold *hold)
{
    for (size_t i = 0; i < hold->ntypes; i++)
        collsim_datatype_unref(hold->types[i]);
    free(hold->types);
    hold->types = NULL;
    hold->ntypes = hold->cap = 0;
    collsim_op_unref(hold->op);
    hold->op = MPI_OP_NULL;
}

/* What a started collective of `kind` goes on using of args (coll_hold in coll_entry.h). */
static void
coll_hold_args(struct coll_hold *hold, enum coll_kind kind, const struct coll_args *args,
               MPI_Comm comm)
{
    int peers = kind == COLL_ALLTOALLW ? collsim_comm_peer_size(comm) : 0;
    coll_hold_init(hold, 3 + 2 * (size_t)peers);
    coll_hold_type(hold, args->datatype);
    coll_hold_type(hold, args->sendtype);
    coll_hold_type(hold, args->recvtype);
    if (peers > 0 && args->sendbuf != MPI_IN_PLACE) /* in place, sendtypes is ignored */
        coll_hold_types(hold, args->sendtypes, peers);
    if (peers > 0)
        coll_hold_types(hold, args->recvtypes, peers);
    coll_hold_op(hold, args->op);
}

/*
 * A persistent collective (MPI-4: MPI_Allreduce_init ...) is its blocking form's entry too:
 * the init call checks the arguments and is checked against the other members' calls; its
 * coll_dispatch then keeps the call (kind, arguments, communicator) in a persistent request
 * (runtime hook make_persistent) instead of running it, with an operation twin of its own
 * and what it uses held (coll_hold). Each MPI_Start enters the blocking form again in the
 * COLL_FORM_STARTED form -- checks, selection, but not the call checker (call_checked) -- and
 * starts it as a nonblocking operation on that twin.
 */
struct persistent_call {
    enum coll_kind kind;
    struct coll_args args;
    MPI_Comm comm;
    MPI_Comm twin; /* every start's operation twin */
    struct coll_hold hold;
};

static void
persistent_call_free(void *data)
{
    struct persistent_call *p = data;
    coll_hold_release(&p->hold);
    collsim_comm_operation_done(p->twin);
    free(p);
}

/* MPI_Start of a persistent collective: *op receives the operation started. */
static int
start_persistent(void *data, MPI_Request *op)
{
    const struct persistent_call *p = data;
    int rc = coll_form_begin(p->kind, COLL_FORM_STARTED, op);
    nonblocking.twin = p->twin;
    if (rc == MPI_SUCCESS)
        rc = coll_nonblocking_end(coll_kind_call(p->kind, &p->args, p->comm));
    return rc;
}

static int
make_persistent(enum coll_kind kind, const struct coll_args *args, MPI_Comm comm)
{
    MPI_Request *request = nonblocking.request;
    nonblocking.request = NULL;
    struct persistent_call *p = calloc(1, sizeof *p);
    if (p == NULL) {
        *request = MPI_REQUEST_NULL;
        return collsim_error(comm, MPI_ERR_NO_MEM, coll_entry_name(kind),
                             "no memory for the persistent request");
    }
    p->kind = kind;
    p->args = *args;
    p->comm = comm;
    p->twin = collsim_comm_operation_twin(comm);
    coll_hold_args(&p->hold, kind, args, comm);
    return collsim_runtime->make_persistent(start_persistent, p, persistent_call_free, comm,
                                            coll_entry_name(kind), request);
}

/* The operation twin a started operation runs on: a persistent request's own (its init
 * took it), or the next of comm's. */
static MPI_Comm
started_twin(MPI_Comm comm)
{
    MPI_Comm twin = nonblocking.twin;
    nonblocking.twin = NULL;
    if (twin == NULL)
        return collsim_comm_operation_twin(comm);
    collsim_comm_operation_again(twin);
    return twin;
}

/* What a started nonblocking collective needs until its end. */
struct nonblocking_job {
    enum coll_kind kind;
    const struct coll_algorithm *row;
    struct coll_args args;
    MPI_Comm comm;        /* the user's communicator: errors go to its handler */
    MPI_Comm twin;        /* the operation twin the algorithm runs on */
    size_t bytes;         /* the call's bytes per rank, for the recorder */
    struct coll_params params;
    void *mem;            /* the MPI_IN_PLACE copy, if any */
    /* a reduction's result, made in a buffer of the operation's own (private_result) */
    void *user_recvbuf;   /* the program's, written once the operation has its result */
    int result_items;
    void *result_mem;
    struct coll_hold hold;
    char name[MPI_MAX_OBJECT_NAME];
};

/* The items of a reduction's receive buffer that its algorithm may write on this rank: the
 * result, and for MPI_IN_PLACE the whole input vector it is made from; 0 at a Reduce's
 * non-root, whose receive buffer MPI ignores. */
static int
result_items(const struct nonblocking_job *job)
{
    const struct coll_args *a = &job->args;
    int rank;
    MPI_Comm_rank(job->comm, &rank);
    if (job->kind == COLL_REDUCE && rank != a->root)
        return 0;
    if (a->sendbuf == MPI_IN_PLACE)
        return coll_reduction_input_items(a, job->comm);
    switch (job->kind) {
    case COLL_REDUCE_SCATTER:
        return a->recvcounts[rank];
    case COLL_REDUCE_SCATTER_BLOCK:
        return a->recvcount;
    default:
        return a->count;
    }
}

/*
 * A nonblocking reduction makes its result in a buffer of its own and writes it into the
 * program's receive buffer once it has it, as Open MPI's libNBC does: the blocking algorithms
 * it runs use the receive buffer for their partial results, and a program may have several
 * operations in flight that write into one buffer (MPICH's comm_idup_iallreduce runs ten
 * MPI_Iallreduce into one int at once), each of which would then send and fold the others'
 * partial results. With a buffer each, each writes its own final result. The buffer starts as
 * a copy of the program's (the input of MPI_IN_PLACE, and what the operation leaves as it was,
 * such as rank 0's of MPI_Exscan). No simulated time is charged for either copy. Sizes only
 * (payload none) moves no data: then nothing is made.
 */
static int
private_result(struct nonblocking_job *job)
{
    if (!(coll_kind_info(job->kind)->traits & COLL_TRAIT_REDUCES) ||
        (collsim_runtime->moves_payload != NULL && !collsim_runtime->moves_payload()))
        return MPI_SUCCESS;
    int items = result_items(job);
    if (items <= 0 || job->args.recvbuf == NULL)
        return MPI_SUCCESS;
    void *own = coll_tmp_alloc(items, job->args.datatype, &job->result_mem);
    if (own == NULL)
        return MPI_ERR_NO_MEM;
    int rc = coll_copy(job->args.recvbuf, own, items, job->args.datatype);
    if (rc != MPI_SUCCESS)
        return rc;
    job->user_recvbuf = job->args.recvbuf;
    job->result_items = items;
    job->args.recvbuf = own;
    return MPI_SUCCESS;
}

/* The operation's whole run, on its flow. */
static int
run_nonblocking(void *data)
{
    struct nonblocking_job *job = data;
    const struct coll_kind_desc *kind = coll_kind_info(job->kind);
    collsim_runtime->coll_traced(1, job->name, (int)job->kind, job->row->name, job->bytes,
                                 job->comm);
    int rc = kind->invoke(job->row, &job->args, job->twin, &job->params);
    if (rc == MPI_SUCCESS && job->user_recvbuf != NULL) {
        rc = coll_copy(job->args.recvbuf, job->user_recvbuf, job->result_items,
                       job->args.datatype);
        if (collsim_runtime->result_written != NULL)
            collsim_runtime->result_written(job->user_recvbuf, job->result_items,
                                            job->args.datatype);
    }
    collsim_runtime->coll_traced(0, job->name, (int)job->kind, job->row->name, job->bytes,
                                 job->comm);
    free(job->result_mem);
    free(job->mem);
    collsim_comm_operation_done(job->twin);
    rc = algorithm_failed(job->comm, job->name, job->row, rc);
    coll_hold_release(&job->hold);
    free(job);
    return rc;
}

static int
start_nonblocking(enum coll_kind kind, const struct coll_algorithm *row,
                  const struct coll_args *args, MPI_Comm comm, const struct coll_params *params,
                  void *mem, size_t bytes)
{
    MPI_Request *request = nonblocking.request;
    assert(nonblocking.world_rank == collsim_runtime->world_rank());
    struct nonblocking_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        free(mem);
        nonblocking.request = NULL;
        *request = MPI_REQUEST_NULL;
        return collsim_error(comm, MPI_ERR_NO_MEM, coll_entry_name(kind),
                             "no memory to start the operation");
    }
    snprintf(job->name, sizeof job->name, "%s", coll_entry_name(kind));
    nonblocking.request = NULL;
    job->kind = kind;
    job->row = row;
    job->args = *args;
    job->comm = comm;
    job->twin = started_twin(comm);
    int rc = private_result(job);
    if (rc != MPI_SUCCESS) {
        collsim_comm_operation_done(job->twin);
        free(job->result_mem);
        free(mem);
        free(job);
        *request = MPI_REQUEST_NULL;
        return collsim_error(comm, rc, coll_entry_name(kind), "no memory for the result");
    }
    job->bytes = bytes;
    job->params = *params;
    job->mem = mem;
    coll_hold_args(&job->hold, kind, args, comm);
    return collsim_runtime->start_nonblocking(run_nonblocking, job, comm, job->name, request);
}

/* Choose the algorithm or report the refusal. Returns NULL after reporting. */
static const struct coll_algorithm *
choose(const struct coll_call *call, MPI_Comm comm, struct coll_params *params, int *rc)
{
    const char *refusal;
    const struct coll_algorithm *row = coll_select(call, params, &refusal);
    *rc = MPI_SUCCESS;
    if (row == NULL) {
        const struct coll_algorithm *forced = coll_select_forced(call->kind);
        if (forced != NULL)
            *rc = collsim_error(comm, MPI_ERR_OTHER, coll_entry_name(call->kind),
                                "algorithm '%s' cannot serve this call: %s", forced->name, refusal);
        else
            *rc = collsim_error(comm, MPI_ERR_INTERN, coll_entry_name(call->kind),
                                "no algorithm can serve this call");
        return NULL;
    }
    /* once per call: the communicator's rank 0 reports */
    if (collsim_comm_my_rank(comm) == 0)
        collsim_runtime->coll_served((int)call->kind, row->name);
    return row;
}

/* Root-side checks of a v-variant's counts and displacements. */
int
coll_arg_vector(MPI_Comm comm, const int counts[], const int displs[], const char *what,
                const char *call)
{
    if (counts == NULL || displs == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "NULL %s or displacements", what);
    int size = collsim_comm_size(comm);
    for (int i = 0; i < size; i++)
        if (counts[i] < 0)
            return collsim_error(comm, MPI_ERR_COUNT, call, "negative %s[%d] = %d", what, i,
                                 counts[i]);
    return MPI_SUCCESS;
}

/*
 * The local half of the standard's type-signature rule: the block a rank sends itself must
 * have as many bytes as the block it receives from itself (the other ranks are not
 * visible from here).
 */
int
coll_arg_own_block(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
                   const char *call)
{
    size_t sent = collsim_datatype_packed_size(scount, stype);
    size_t received = collsim_datatype_packed_size(rcount, rtype);
    if (sent != received)
        return collsim_error(comm, MPI_ERR_TRUNCATE, call,
                             "the block this rank sends itself has %zu bytes but the one it "
                             "receives from itself %zu (type signatures must match)",
                             sent, received);
    return MPI_SUCCESS;
}

/* counts[i] >= 0 for every rank; *total their sum, which must fit an int. */
int
coll_arg_counts(MPI_Comm comm, const int counts[], const char *what, const char *call, int *total)
{
    int size = collsim_comm_size(comm);
    long long sum = 0;
    for (int i = 0; i < size; i++) {
        if (counts[i] < 0)
            return collsim_error(comm, MPI_ERR_COUNT, call, "negative %s[%d] = %d", what, i,
                                 counts[i]);
        sum += counts[i];
    }
    if (sum > INT_MAX)
        return collsim_error(comm, MPI_ERR_COUNT, call, "sum of %s overflows an int", what);
    *total = (int)sum;
    return MPI_SUCCESS;
}

/* count x ranks, the items of a whole Allgather or Alltoall buffer, must fit an int. */
int
coll_arg_all_blocks(MPI_Comm comm, int count, const char *what, const char *call)
{
    if ((long long)count * collsim_comm_size(comm) > INT_MAX)
        return collsim_error(comm, MPI_ERR_COUNT, call, "%s x ranks overflows an int", what);
    return MPI_SUCCESS;
}

/* A reduction's buffers: the input vector of `total` items (or MPI_IN_PLACE), this rank's
 * `mine` items of result, not overlapping. */
int
coll_arg_reduction_buffers(MPI_Comm comm, const void *sendbuf, MPI_Aint total, const void *recvbuf,
                           MPI_Aint mine, MPI_Datatype dt, const char *call)
{
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, call, "MPI_IN_PLACE is not a valid recvbuf");
    int rc = coll_arg_buffer_or_in_place(comm, sendbuf, total, dt, "sendbuf", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, recvbuf, mine, dt, "recvbuf", call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_no_alias(comm, sendbuf, total, dt, recvbuf, mine, dt, call);
    return rc;
}

/* The mean of `total` bytes over the ranks, rounded up: what `bytes` means for v-variants. */
size_t
coll_entry_mean_block(size_t total, MPI_Comm comm)
{
    size_t size = (size_t)collsim_comm_size(comm);
    return (total + size - 1) / size;
}

/* Every types[i] is a valid datatype; *contiguous: all of them are. */
int
coll_arg_types(MPI_Comm comm, const MPI_Datatype types[], const char *what, const char *call,
               int *contiguous)
{
    int size = collsim_comm_size(comm);
    if (types == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "NULL %s", what);
    for (int i = 0; i < size; i++) {
        if (collsim_datatype_check(types[i]) != MPI_SUCCESS)
            return collsim_error(comm, MPI_ERR_TYPE, call, "invalid %s[%d]: %s", what, i,
                                 collsim_datatype_problem(types[i]));
        *contiguous = *contiguous && collsim_datatype_is_contiguous(types[i]);
    }
    return MPI_SUCCESS;
}

int
coll_entry_everyone_reduces(enum coll_kind kind, const void *sendbuf, void *recvbuf, int count,
                            MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm)) {
        struct coll_args inter = {.sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op};
        return coll_entry_inter(kind, &inter, comm);
    }
    const char *name = coll_entry_name(kind);
    int rc = coll_arg_reduction(comm, count, datatype, op, name);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_arg_reduction_buffers(comm, sendbuf, count, recvbuf, count, datatype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_same(comm, name, -1, op, count, datatype, caller);
    struct coll_call call;
    coll_entry_describe(&call, kind, comm, count, datatype, coll_entry_commutes(op));
    struct coll_args args = {
        .sendbuf = sendbuf, .recvbuf = recvbuf, .count = count, .datatype = datatype, .op = op};
    return coll_dispatch(&call, &args, comm);
}

/*
 * One side of a rooted block mover. Gather and Gatherv move every rank's own block (the send
 * side) to the root's buffer of all blocks (the receive side); Scatter and Scatterv move the
 * other way, so the same rules apply with the sides swapped.
 */
struct rooted_side {
    const void *buf;
    int count;                     /* own side, or the root's blocks of Gather/Scatter */
    const int *counts, *displs;    /* the root's blocks of Gatherv/Scatterv */
    MPI_Datatype type;
    const char *buf_name, *count_name, *type_name;
};

static void
rooted_sides(enum coll_kind kind, const struct coll_args *a, struct rooted_side *own,
             struct rooted_side *all)
{
    struct rooted_side send = {a->sendbuf, a->sendcount, a->sendcounts, a->sdispls, a->sendtype,
                               "sendbuf", a->sendcounts ? "sendcounts" : "sendcount", "sendtype"};
    struct rooted_side recv = {a->recvbuf, a->recvcount, a->recvcounts, a->rdispls, a->recvtype,
                               "recvbuf", a->recvcounts ? "recvcounts" : "recvcount", "recvtype"};
    int gathers = coll_kind_has(kind, COLL_TRAIT_GATHERS);
    *own = gathers ? send : recv;
    *all = gathers ? recv : send;
}

/* A rooted call as its checks see it: the two sides, who this rank is, whether it is an
 * in-place root. */
struct rooted_call {
    enum coll_kind kind;
    const char *name;
    struct coll_args *args;
    struct rooted_side own, all;
    int me, in_place_root;
};

/* Gather, Scatter: one block per rank, of the same signature everywhere. */
static int
rooted_blocks(const struct rooted_call *r, MPI_Comm comm, const void *caller)
{
    const char *name = r->name;
    int me = r->me, root = r->args->root, in_place_root = r->in_place_root, rc = MPI_SUCCESS;
    const struct rooted_side own = r->own, all = r->all;
    if (me != root && own.buf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as %s is only valid at the root", own.buf_name);
    if (!in_place_root) {
        rc = coll_arg_count(comm, own.count, own.count_name, name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, own.type, own.type_name, name);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    if (me == root) {
        if (all.buf == MPI_IN_PLACE)
            return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid %s",
                                 all.buf_name);
        rc = coll_arg_count(comm, all.count, all.count_name, name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, all.type, all.type_name, name);
        if (rc == MPI_SUCCESS && !in_place_root)
            rc = coll_arg_own_block(comm, r->args->sendcount, r->args->sendtype,
                                    r->args->recvcount, r->args->recvtype, name);
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, own.buf, own.count, own.type, own.buf_name, name);
    if (rc == MPI_SUCCESS && me == root)
        rc = coll_arg_buffer(comm, all.buf, (MPI_Aint)all.count * collsim_comm_size(comm),
                             all.type, all.buf_name, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (call_checked()) {
        long long own_bytes = in_place_root ? -1 : coll_entry_sig_bytes(own.count, own.type);
        long long all_bytes = me == root ? coll_entry_sig_bytes(all.count, all.type) : -1;
        int gathers = coll_kind_has(r->kind, COLL_TRAIT_GATHERS);
        struct coll_check_call c = {
            .name = name,
            .rule = gathers ? COLL_CHECK_TO_ROOT : COLL_CHECK_FROM_ROOT,
            .root = root,
            .op = MPI_OP_NULL,
            .count = in_place_root ? -1 : own.count,
            .type = in_place_root ? MPI_DATATYPE_NULL : own.type,
            .bytes = gathers ? own_bytes : all_bytes,
            .recv_bytes = gathers ? all_bytes : own_bytes,
            .caller = caller};
        check_enter(comm, &c);
    }
    /* bytes per rank, the same on every rank: the root's side at the root, the own elsewhere */
    struct coll_call call;
    coll_entry_describe(&call, r->kind, comm, me == root ? all.count : own.count,
                        me == root ? all.type : own.type, 1);
    return coll_dispatch(&call, r->args, comm);
}

/* Gatherv, Scatterv: the root's counts and displacements, one block of its own elsewhere. */
static int
rooted_vectors(const struct rooted_call *r, MPI_Comm comm, const void *caller)
{
    const char *name = r->name;
    int me = r->me, root = r->args->root, in_place_root = r->in_place_root, rc = MPI_SUCCESS;
    const struct rooted_side own = r->own, all = r->all;
    if (me == root) {
        rc = coll_arg_vector(comm, all.counts, all.displs, all.count_name, name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, all.type, all.type_name, name);
    } else if (own.buf == MPI_IN_PLACE) {
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as %s is only valid at the root", own.buf_name);
    }
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_count(comm, own.count, own.count_name, name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_type(comm, own.type, own.type_name, name);
    if (rc == MPI_SUCCESS && !in_place_root)
        rc = coll_arg_buffer(comm, own.buf, own.count, own.type, own.buf_name, name);
    if (rc != MPI_SUCCESS)
        return rc;
    coll_entry_check_rooted_v(comm, name, root, in_place_root, own.count, own.type, all.counts,
                              all.type, caller);
    struct coll_call call;
    coll_entry_describe(&call, r->kind, comm, in_place_root ? 0 : own.count,
                        in_place_root ? MPI_BYTE : own.type, 1);
    return coll_dispatch(&call, r->args, comm);
}

int
coll_entry_rooted(enum coll_kind kind, struct coll_args *args, MPI_Comm comm, const void *caller)
{
    if (coll_entry_is_inter(comm))
        return coll_entry_inter(kind, args, comm);
    struct rooted_call r = {.kind = kind, .name = coll_entry_name(kind), .args = args};
    int rc = coll_arg_comm(comm, r.name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_root(comm, args->root, r.name);
    if (rc != MPI_SUCCESS)
        return rc;
    rooted_sides(kind, args, &r.own, &r.all);
    r.me = collsim_comm_my_rank(comm);
    r.in_place_root = r.me == args->root && r.own.buf == MPI_IN_PLACE;
    return coll_kind_has(kind, COLL_TRAIT_VECTOR) ? rooted_vectors(&r, comm, caller)
                                                   : rooted_blocks(&r, comm, caller);
}

int
coll_entry_every_block(enum coll_kind kind, struct coll_args *a, MPI_Comm comm,
                       const void *caller)
{
    if (coll_entry_is_inter(comm))
        return coll_entry_inter(kind, a, comm);
    const char *name = coll_entry_name(kind);
    int rc = coll_arg_all_recv(comm, a->recvbuf, a->recvcount, a->recvtype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    /* Alltoall sends a block to every rank, Allgather the same block to all */
    int size = collsim_comm_size(comm);
    int send_blocks = coll_kind_has(kind, COLL_TRAIT_SCATTERS) ? size : 1;
    if (a->sendbuf != MPI_IN_PLACE) {
        rc = coll_arg_count(comm, a->sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, a->sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS && send_blocks > 1)
            rc = coll_arg_all_blocks(comm, a->sendcount, "sendcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_own_block(comm, a->sendcount, a->sendtype, a->recvcount, a->recvtype,
                                    name);
    }
    MPI_Aint send_items = (MPI_Aint)a->sendcount * send_blocks;
    MPI_Aint recv_items = (MPI_Aint)a->recvcount * size;
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer_or_in_place(comm, a->sendbuf, send_items, a->sendtype, "sendbuf",
                                         name);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_buffer(comm, a->recvbuf, recv_items, a->recvtype, "recvbuf", name);
    if (rc == MPI_SUCCESS && send_blocks > 1)
        rc = coll_arg_no_alias(comm, a->sendbuf, send_items, a->sendtype, a->recvbuf, recv_items,
                               a->recvtype, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (call_checked()) {
        struct coll_check_call c = {
            .name = name,
            .rule = COLL_CHECK_BLOCKS,
            .root = -1,
            .op = MPI_OP_NULL,
            .count = a->recvcount,
            .type = a->recvtype,
            .bytes = a->sendbuf == MPI_IN_PLACE ? -1
                                                : coll_entry_sig_bytes(a->sendcount, a->sendtype),
            .recv_bytes = coll_entry_sig_bytes(a->recvcount, a->recvtype),
            .caller = caller};
        check_enter(comm, &c);
    }
    struct coll_call call;
    coll_entry_describe(&call, kind, comm, a->recvcount, a->recvtype, 1);
    return coll_dispatch(&call, a, comm);
}

int
coll_dispatch(const struct coll_call *call, struct coll_args *args, MPI_Comm comm)
{
    /* an init call keeps the call; each start selects (and reports what served) */
    if (nonblocking.request != NULL && nonblocking.form == COLL_FORM_PERSISTENT)
        return make_persistent(call->kind, args, comm);
    const struct coll_kind_desc *kind = coll_kind_info(call->kind);
    struct coll_params params;
    int rc;
    const struct coll_algorithm *row = choose(call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    /* the program's buffers, before MPI_IN_PLACE is resolved into a copy of the library's */
    struct collsim_span spans[COLLSIM_WATCHED_SPANS];
    int watched = 0;
    if (nonblocking.request != NULL && collsim_runtime->watch_buffers != NULL &&
        coll_check_enabled())
        watched = coll_watch_spans(call->kind, args, comm, spans);
    const void *site = entered_site;
    entered_site = NULL;
    void *mem = NULL;
    if (kind->resolve_in_place != NULL && !(row->caps & COLL_IN_PLACE)) {
        rc = kind->resolve_in_place(args, comm, &mem);
        if (rc != MPI_SUCCESS) {
            free(mem);
            return collsim_error(comm, rc, kind->mpi_name, "no memory for the MPI_IN_PLACE copy");
        }
    }
    if (nonblocking.request != NULL) {
        MPI_Request *request = nonblocking.request;
        const char *name = coll_entry_name(call->kind); /* before the form is forgotten */
        rc = start_nonblocking(call->kind, row, args, comm, &params, mem, call->bytes);
        if (rc == MPI_SUCCESS && watched > 0 && *request != MPI_REQUEST_NULL)
            collsim_runtime->watch_buffers(*request, spans, watched, name, site);
        return rc;
    }
    collsim_runtime->coll_traced(1, kind->mpi_name, (int)call->kind, row->name, call->bytes, comm);
    rc = kind->invoke(row, args, comm->coll, &params);
    collsim_runtime->coll_traced(0, kind->mpi_name, (int)call->kind, row->name, call->bytes, comm);
    free(mem);
    return algorithm_failed(comm, kind->mpi_name, row, rc);
}

/* ---------------------------------------------------------------- inter-communicators */

int
coll_entry_is_inter(MPI_Comm comm)
{
    return collsim_comm_check(comm) == MPI_SUCCESS && collsim_comm_is_inter(comm);
}

/* count items of a valid type, where the caller's part of the call moves data. */
static int
inter_arg_items(MPI_Comm comm, int count, MPI_Datatype dt, const char *count_name,
                const char *type_name, const char *call)
{
    int rc = coll_arg_count(comm, count, count_name, call);
    if (rc == MPI_SUCCESS)
        rc = coll_arg_type(comm, dt, type_name, call);
    return rc;
}

/* A per-rank vector of n counts (and displacements), where significant. */
static int
inter_arg_vector(MPI_Comm comm, const int counts[], const int displs[], int n,
                 const char *what, const char *call)
{
    if (counts == NULL || displs == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "NULL %s or displacements", what);
    for (int i = 0; i < n; i++)
        if (counts[i] < 0)
            return collsim_error(comm, MPI_ERR_COUNT, call, "negative %s[%d] = %d", what, i,
                                 counts[i]);
    return MPI_SUCCESS;
}

/* The inter-communicator's argument rules of a rooted call: MPI_ROOT, MPI_PROC_NULL or a
 * rank of the remote group. */
static int
inter_arg_root(MPI_Comm comm, int root, const char *call)
{
    int remote = collsim_comm_peer_size(comm);
    if (root == MPI_ROOT || root == MPI_PROC_NULL || (root >= 0 && root < remote))
        return MPI_SUCCESS;
    return collsim_error(comm, MPI_ERR_ROOT, call,
                         "invalid root %d on an inter-communicator (MPI_ROOT, MPI_PROC_NULL or a "
                         "rank of the remote group, of size %d)",
                         root, remote);
}

/* The arguments each kind's caller must get right on an inter-communicator. */
static int
inter_args(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm, const char *name)
{
    int remote = collsim_comm_peer_size(comm), size = collsim_comm_size(comm);
    int root = a->root;
    int sends = root != MPI_ROOT && root != MPI_PROC_NULL;   /* rooted: a non-root member */
    int rc = MPI_SUCCESS;
    if (a->sendbuf == MPI_IN_PLACE || a->recvbuf == MPI_IN_PLACE || a->buffer == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE is not allowed on an inter-communicator");
    switch (kind) {
    case COLL_BARRIER:
        break;
    case COLL_BCAST:
        rc = inter_arg_root(comm, root, name);
        if (rc == MPI_SUCCESS && root != MPI_PROC_NULL)
            rc = inter_arg_items(comm, a->count, a->datatype, "count", "datatype", name);
        break;
    case COLL_GATHER:
    case COLL_SCATTER: {
        int gathers = kind == COLL_GATHER;
        rc = inter_arg_root(comm, root, name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT)
            rc = gathers ? inter_arg_items(comm, a->recvcount, a->recvtype, "recvcount",
                                           "recvtype", name)
                         : inter_arg_items(comm, a->sendcount, a->sendtype, "sendcount",
                                           "sendtype", name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT &&
            (long long)(gathers ? a->recvcount : a->sendcount) * remote > INT_MAX)
            rc = collsim_error(comm, MPI_ERR_COUNT, name,
                               "the root's buffer holds more than INT_MAX items");
        if (rc == MPI_SUCCESS && sends)
            rc = gathers ? inter_arg_items(comm, a->sendcount, a->sendtype, "sendcount",
                                           "sendtype", name)
                         : inter_arg_items(comm, a->recvcount, a->recvtype, "recvcount",
                                           "recvtype", name);
        break;
    }
    case COLL_GATHERV:
        rc = inter_arg_root(comm, root, name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT)
            rc = inter_arg_vector(comm, a->recvcounts, a->rdispls, remote, "recvcounts", name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT)
            rc = coll_arg_type(comm, a->recvtype, "recvtype", name);
        if (rc == MPI_SUCCESS && sends)
            rc = inter_arg_items(comm, a->sendcount, a->sendtype, "sendcount", "sendtype", name);
        break;
    case COLL_SCATTERV:
        rc = inter_arg_root(comm, root, name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT)
            rc = inter_arg_vector(comm, a->sendcounts, a->sdispls, remote, "sendcounts", name);
        if (rc == MPI_SUCCESS && root == MPI_ROOT)
            rc = coll_arg_type(comm, a->sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS && sends)
            rc = inter_arg_items(comm, a->recvcount, a->recvtype, "recvcount", "recvtype", name);
        break;
    case COLL_ALLGATHER:
    case COLL_ALLTOALL:
        rc = inter_arg_items(comm, a->sendcount, a->sendtype, "sendcount", "sendtype", name);
        if (rc == MPI_SUCCESS)
            rc = inter_arg_items(comm, a->recvcount, a->recvtype, "recvcount", "recvtype", name);
        if (rc == MPI_SUCCESS && ((long long)a->recvcount * remote > INT_MAX ||
                                  (long long)a->sendcount * MAX(size, remote) > INT_MAX))
            rc = collsim_error(comm, MPI_ERR_COUNT, name,
                               "a buffer holds more than INT_MAX items");
        break;
    case COLL_ALLGATHERV:
        rc = inter_arg_items(comm, a->sendcount, a->sendtype, "sendcount", "sendtype", name);
        if (rc == MPI_SUCCESS)
            rc = inter_arg_vector(comm, a->recvcounts, a->rdispls, remote, "recvcounts", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_type(comm, a->recvtype, "recvtype", name);
        break;
    case COLL_ALLTOALLV:
    case COLL_ALLTOALLW:
        rc = inter_arg_vector(comm, a->sendcounts, a->sdispls, remote, "sendcounts", name);
        if (rc == MPI_SUCCESS)
            rc = inter_arg_vector(comm, a->recvcounts, a->rdispls, remote, "recvcounts", name);
        for (int i = 0; rc == MPI_SUCCESS && kind == COLL_ALLTOALLW && i < remote; i++) {
            if (a->sendtypes == NULL || a->recvtypes == NULL)
                rc = collsim_error(comm, MPI_ERR_ARG, name, "NULL sendtypes or recvtypes");
            else if ((rc = coll_arg_type(comm, a->sendtypes[i], "sendtypes[i]", name)) ==
                     MPI_SUCCESS)
                rc = coll_arg_type(comm, a->recvtypes[i], "recvtypes[i]", name);
        }
        if (rc == MPI_SUCCESS && kind == COLL_ALLTOALLV)
            rc = coll_arg_type(comm, a->sendtype, "sendtype", name);
        if (rc == MPI_SUCCESS && kind == COLL_ALLTOALLV)
            rc = coll_arg_type(comm, a->recvtype, "recvtype", name);
        break;
    case COLL_REDUCE:
        rc = inter_arg_root(comm, root, name);
        if (rc == MPI_SUCCESS && root != MPI_PROC_NULL)
            rc = coll_arg_reduction(comm, a->count, a->datatype, a->op, name);
        break;
    case COLL_ALLREDUCE:
        rc = coll_arg_reduction(comm, a->count, a->datatype, a->op, name);
        break;
    case COLL_REDUCE_SCATTER:
        if (a->recvcounts == NULL)
            return collsim_error(comm, MPI_ERR_ARG, name, "NULL recvcounts");
        int total = 0;
        rc = coll_arg_counts(comm, a->recvcounts, "recvcounts", name, &total);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_reduction(comm, total, a->datatype, a->op, name);
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        rc = coll_arg_count(comm, a->recvcount, "recvcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_all_blocks(comm, a->recvcount, "recvcount", name);
        if (rc == MPI_SUCCESS)
            rc = coll_arg_reduction(comm, a->recvcount, a->datatype, a->op, name);
        break;
    default:
        break;
    }
    return rc;
}

static int inter_run(enum coll_kind kind, const struct coll_args *a, MPI_Comm inter,
                     MPI_Comm local);
static int start_inter_nonblocking(enum coll_kind kind, const struct coll_args *a,
                                   MPI_Comm comm);

int
coll_entry_inter(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    const char *name = coll_entry_name(kind);
    int rc = coll_arg_comm(comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (kind == COLL_SCAN || kind == COLL_EXSCAN)
        return collsim_error(comm, MPI_ERR_COMM, name,
                             "not defined on an inter-communicator (MPI-3.1 §5.11: an "
                             "intra-communicator is required)");
    rc = inter_args(kind, a, comm, name);
    if (rc != MPI_SUCCESS)
        return rc;
    if (nonblocking.request != NULL)
        return nonblocking.form == COLL_FORM_PERSISTENT ? make_persistent(kind, a, comm)
                                                        : start_inter_nonblocking(kind, a, comm);
    rc = inter_run(kind, a, comm->coll, collsim_comm_inter_local(comm)->coll);
    if (rc != MPI_SUCCESS)
        return collsim_error(comm, rc, name, "the inter-communicator algorithm failed");
    return MPI_SUCCESS;
}

/* Run kind's inter-communicator algorithm on `inter` (a twin) with `local` for the group. */
static int
inter_run(enum coll_kind kind, const struct coll_args *a, MPI_Comm inter, MPI_Comm local)
{
    int rc;
    switch (kind) {
    case COLL_BARRIER:
        rc = coll_inter_barrier(inter, local);
        break;
    case COLL_BCAST:
        rc = coll_inter_bcast(a->buffer, a->count, a->datatype, a->root, inter, local);
        break;
    case COLL_GATHER:
        rc = coll_inter_gather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                               a->recvtype, a->root, inter, local);
        break;
    case COLL_SCATTER:
        rc = coll_inter_scatter(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf, a->recvcount,
                                a->recvtype, a->root, inter, local);
        break;
    case COLL_GATHERV:
        rc = coll_inter_gatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                a->recvcounts, a->rdispls, a->recvtype, a->root, inter, local);
        break;
    case COLL_SCATTERV:
        rc = coll_inter_scatterv(a->sendbuf, a->sendcounts, a->sdispls, a->sendtype, a->recvbuf,
                                 a->recvcount, a->recvtype, a->root, inter, local);
        break;
    case COLL_ALLGATHER:
        rc = coll_inter_allgather(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                  a->recvcount, a->recvtype, inter, local);
        break;
    case COLL_ALLGATHERV:
        rc = coll_inter_allgatherv(a->sendbuf, a->sendcount, a->sendtype, a->recvbuf,
                                   a->recvcounts, a->rdispls, a->recvtype, inter, local);
        break;
    case COLL_ALLTOALL:
    case COLL_ALLTOALLV:
    case COLL_ALLTOALLW:
        rc = coll_inter_alltoallw(a->sendbuf, a->sendcount, a->sendcounts, a->sdispls,
                                  a->sendtype, a->sendtypes, a->recvbuf, a->recvcount,
                                  a->recvcounts, a->rdispls, a->recvtype, a->recvtypes, inter,
                                  local);
        break;
    case COLL_REDUCE:
        rc = coll_inter_reduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, a->root,
                               inter, local);
        break;
    case COLL_ALLREDUCE:
        rc = coll_inter_allreduce(a->sendbuf, a->recvbuf, a->count, a->datatype, a->op, inter,
                                  local);
        break;
    case COLL_REDUCE_SCATTER:
    case COLL_REDUCE_SCATTER_BLOCK:
        rc = coll_inter_reduce_scatter(a->sendbuf, a->recvbuf, a->recvcounts, a->recvcount,
                                       a->datatype, a->op, inter, local);
        break;
    default:
        rc = MPI_ERR_INTERN;
        break;
    }
    return rc;
}

/* A nonblocking collective on an inter-communicator: the operation twin (shared context with
 * the other side, a local communicator of its own) and the arguments, until its end. */
struct inter_job {
    enum coll_kind kind;
    struct coll_args args;
    MPI_Comm comm;
    MPI_Comm twin;
    struct coll_hold hold;
};

static int
run_inter_nonblocking(void *data)
{
    struct inter_job *job = data;
    int rc = inter_run(job->kind, &job->args, job->twin, collsim_comm_operation_local(job->twin));
    collsim_comm_operation_done(job->twin);
    if (rc != MPI_SUCCESS)
        rc = collsim_error(job->comm, rc, coll_entry_name(job->kind),
                           "the inter-communicator algorithm failed");
    coll_hold_release(&job->hold);
    free(job);
    return rc;
}

static int
start_inter_nonblocking(enum coll_kind kind, const struct coll_args *a, MPI_Comm comm)
{
    MPI_Request *request = nonblocking.request;
    nonblocking.request = NULL;
    struct inter_job *job = calloc(1, sizeof *job);
    if (job == NULL) {
        *request = MPI_REQUEST_NULL;
        return collsim_error(comm, MPI_ERR_NO_MEM, coll_entry_name(kind),
                             "no memory to start the operation");
    }
    job->kind = kind;
    job->args = *a;
    job->comm = comm;
    job->twin = started_twin(comm);
    coll_hold_args(&job->hold, kind, a, comm);
    return collsim_runtime->start_nonblocking(run_inter_nonblocking, job, comm,
                                              coll_entry_name(kind), request);
}
