/*
 * collectives.c — the MPI collective entry points: check the arguments as the standard defines
 * them, resolve MPI_IN_PLACE for algorithms that do not take it, choose the algorithm
 * (coll_select.c), run it on the communicator's collective twin, and report what served.
 *
 * Invariants: an algorithm never sees an argument the standard calls invalid; a forced
 * algorithm that cannot serve the call is refused (MPI_ERR_OTHER naming it and the unmet
 * requirement), never replaced; errors go through the user communicator's handler.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "coll/coll_select.h"
#include "coll/coll_util.h"
#include "callsite.h"
#include "coll_check.h"
#include "comm.h"
#include "datatype.h"
#include "errhandler.h"
#include "op.h"
#include "runtime.h"

/* ---------------------------------------------------------------- argument checks */

static int
check_comm(MPI_Comm comm, const char *call)
{
    if (collsim_comm_check(comm) != MPI_SUCCESS)
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call, "invalid communicator");
    if (collsim_comm_is_internal(comm))
        return collsim_error(MPI_COMM_NULL, MPI_ERR_COMM, call,
                             "invalid communicator (internal)");
    /* a shared object reaches a non-member only through a stray copy of the handle; its
     * rank would index the per-rank arrays below */
    if (collsim_comm_my_rank(comm) == MPI_UNDEFINED)
        return collsim_error(comm, MPI_ERR_COMM, call,
                             "the calling process (world rank %d) is not a member of the "
                             "communicator",
                             collsim_runtime->world_rank());
    return MPI_SUCCESS;
}

static int
check_count(MPI_Comm comm, int count, const char *what, const char *call)
{
    if (count < 0)
        return collsim_error(comm, MPI_ERR_COUNT, call, "negative %s %d", what, count);
    return MPI_SUCCESS;
}

static int
check_type(MPI_Comm comm, MPI_Datatype dt, const char *what, const char *call)
{
    if (collsim_datatype_check(dt) != MPI_SUCCESS)
        return collsim_error(comm, MPI_ERR_TYPE, call, "invalid %s", what);
    return MPI_SUCCESS;
}

static int
check_root(MPI_Comm comm, int root, const char *call)
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

static int
check_reduction(MPI_Comm comm, int count, MPI_Datatype dt, MPI_Op op, const char *call)
{
    COLLSIM_TRY(check_comm(comm, call));
    COLLSIM_TRY(check_count(comm, count, "count", call));
    COLLSIM_TRY(check_type(comm, dt, "datatype", call));
    return check_op(comm, op, dt, call);
}

/* ---------------------------------------------------------------- buffers */

/* A buffer argument: never MPI_IN_PLACE (callers that take it say so below), and an address
 * of data when it has data to move (collsim_buffer_check). */
static int
check_buffer(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt, const char *what,
             const char *call)
{
    return collsim_buffer_check(comm, buf, count, dt, what, call);
}

/* A send buffer where the call takes MPI_IN_PLACE instead. */
static int
check_buffer_or_in_place(MPI_Comm comm, const void *buf, MPI_Aint count, MPI_Datatype dt,
                         const char *what, const char *call)
{
    return buf == MPI_IN_PLACE ? MPI_SUCCESS : check_buffer(comm, buf, count, dt, what, call);
}

/* The v-collectives' buffers: not NULL when they have items to move; the receive buffer
 * never MPI_IN_PLACE (the callers handle the send buffer's). */
static int
check_v_buffers(MPI_Comm comm, const void *sendbuf, int send_items, const void *recvbuf,
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
static int
check_no_alias(MPI_Comm comm, const void *sendbuf, MPI_Aint scount, MPI_Datatype stype,
               const void *recvbuf, MPI_Aint rcount, MPI_Datatype rtype, const char *call)
{
    uintptr_t slo, shi, rlo, rhi;
    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE ||
        !collsim_buffer_span(sendbuf, scount, stype, &slo, &shi) ||
        !collsim_buffer_span(recvbuf, rcount, rtype, &rlo, &rhi))
        return MPI_SUCCESS;
    if (slo < rhi && rlo < shi)
        return collsim_error(comm, MPI_ERR_BUFFER, call,
                             "sendbuf and recvbuf overlap (%p and %p): pass MPI_IN_PLACE as "
                             "sendbuf to use recvbuf for both",
                             sendbuf, recvbuf);
    return MPI_SUCCESS;
}

/* ---------------------------------------------------------------- the call checker */


static long long
sig_bytes(int count, MPI_Datatype dt)
{
    return (long long)collsim_datatype_packed_size(count, dt);
}

/* counts[i] items of types[i] (or of dt when types is NULL), in bytes, for every rank. */
static long long *
sig_array(MPI_Comm comm, const int counts[], MPI_Datatype dt, const MPI_Datatype types[])
{
    int size = collsim_comm_size(comm);
    long long *bytes = g_new(long long, size);
    for (int i = 0; i < size; i++)
        bytes[i] = sig_bytes(counts[i], types != NULL ? types[i] : dt);
    return bytes;
}

/* A call whose every member passes the same count, datatype (and op, root where given). */
static void
check_same(MPI_Comm comm, const char *name, int root, MPI_Op op, int count, MPI_Datatype dt,
           const void *caller)
{
    if (!coll_check_enabled())
        return;
    struct coll_check_call c = {
        .name = name, .rule = dt == MPI_DATATYPE_NULL ? COLL_CHECK_NONE : COLL_CHECK_EQUAL,
        .root = root, .op = op, .count = dt == MPI_DATATYPE_NULL ? -1 : count, .type = dt,
        .bytes = dt == MPI_DATATYPE_NULL ? -1 : sig_bytes(count, dt), .recv_bytes = -1,
        .caller = caller};
    coll_check_enter(comm, &c);
}

/*
 * Gatherv, Scatterv: every rank's own block (count items of dt, none at an in-place root)
 * against the root's per-rank counts (of root_type).
 */
static void
check_rooted_v(MPI_Comm comm, const char *name, int root, int in_place_root, int count,
               MPI_Datatype dt, const int root_counts[], MPI_Datatype root_type,
               const void *caller)
{
    if (!coll_check_enabled())
        return;
    int me = collsim_comm_my_rank(comm);
    long long *counts = me == root ? sig_array(comm, root_counts, root_type, NULL) : NULL;
    struct coll_check_call c = {
        .name = name, .rule = COLL_CHECK_ROOT_V, .root = root, .op = MPI_OP_NULL,
        .count = in_place_root ? -1 : count, .type = in_place_root ? MPI_DATATYPE_NULL : dt,
        .bytes = in_place_root ? -1 : sig_bytes(count, dt), .recv_bytes = -1,
        .per_rank = counts, .caller = caller};
    coll_check_enter(comm, &c);
    g_free(counts);
}

/* Alltoallv, Alltoallw: what this rank sends to and receives from each rank. */
static void
check_pairwise(MPI_Comm comm, const char *name, const void *sendbuf, const int sendcounts[],
               MPI_Datatype sendtype, const MPI_Datatype sendtypes[], const int recvcounts[],
               MPI_Datatype recvtype, const MPI_Datatype recvtypes[], const void *caller)
{
    if (!coll_check_enabled())
        return;
    long long *received = sig_array(comm, recvcounts, recvtype, recvtypes);
    long long *sent = sendbuf == MPI_IN_PLACE ? received
                                              : sig_array(comm, sendcounts, sendtype, sendtypes);
    struct coll_check_call c = {.name = name, .rule = COLL_CHECK_PAIRWISE, .root = -1,
                                .op = MPI_OP_NULL, .count = -1, .type = MPI_DATATYPE_NULL,
                                .bytes = -1, .recv_bytes = -1, .per_rank = sent,
                                .recv_per_rank = received, .caller = caller};
    coll_check_enter(comm, &c);
    if (sent != received)
        g_free(sent);
    g_free(received);
}

/* ---------------------------------------------------------------- selection */

static int
op_commutes(MPI_Op op)
{
    int commute = 1;
    MPI_Op_commutative(op, &commute);
    return commute;
}

static void
describe_call(struct coll_call *call, enum coll_kind kind, MPI_Comm comm, int count,
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
            *rc = collsim_error(comm, MPI_ERR_OTHER, coll_kind_mpi_name(call->kind),
                                "algorithm '%s' cannot serve this call: %s", forced->name,
                                refusal);
        else
            *rc = collsim_error(comm, MPI_ERR_INTERN, coll_kind_mpi_name(call->kind),
                                "no algorithm can serve this call");
        return NULL;
    }
    /* once per call: the communicator's rank 0 reports */
    if (collsim_comm_my_rank(comm) == 0)
        collsim_runtime->coll_served((int)call->kind, row->name);
    return row;
}

static int
algorithm_failed(MPI_Comm comm, enum coll_kind kind, const struct coll_algorithm *row, int rc)
{
    if (rc == MPI_SUCCESS)
        return rc;
    return collsim_error(comm, rc, coll_kind_mpi_name(kind), "algorithm '%s' failed",
                         row->name);
}

/*
 * For an algorithm that does not take MPI_IN_PLACE: a private copy of the `count` items the
 * caller left in recvbuf, to pass as sendbuf. *mem is what to free.
 */
static int
in_place_copy(const void *recvbuf, int count, MPI_Datatype dt, const void **sendbuf, void **mem)
{
    *mem = NULL;
    if (count == 0) {
        *sendbuf = recvbuf;
        return MPI_SUCCESS;
    }
    void *copy = coll_tmp_alloc(count, dt, mem);
    if (copy == NULL)
        return MPI_ERR_NO_MEM;
    *sendbuf = copy;
    return coll_copy(recvbuf, copy, count, dt);
}

/* ---------------------------------------------------------------- reductions */

int
MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           int root, MPI_Comm comm)
{
    const char *name = "MPI_Reduce";
    COLLSIM_TRY(check_reduction(comm, count, datatype, op, name));
    COLLSIM_TRY(check_root(comm, root, name));
    int me = collsim_comm_my_rank(comm);
    if (sendbuf == MPI_IN_PLACE && me != root)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, count, datatype, "sendbuf", name));
    if (me == root) {
        COLLSIM_TRY(check_buffer(comm, recvbuf, count, datatype, "recvbuf", name));
        COLLSIM_TRY(check_no_alias(comm, sendbuf, count, datatype, recvbuf, count, datatype, name));
    }
    check_same(comm, name, root, op, count, datatype, COLLSIM_CALLER());

    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_REDUCE, comm, count, datatype, op_commutes(op));
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(recvbuf, count, datatype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
    }
    rc = row->fn.reduce(sendbuf, recvbuf, count, datatype, op, root, comm->coll, &params);
    free(mem);
    return algorithm_failed(comm, COLL_REDUCE, row, rc);
}

/* Allreduce, Scan and Exscan share their argument rules. */
static int
everyone_reduces(enum coll_kind kind, const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, const void *caller)
{
    const char *name = coll_kind_mpi_name(kind);
    COLLSIM_TRY(check_reduction(comm, count, datatype, op, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, count, datatype, "sendbuf", name));
    COLLSIM_TRY(check_buffer(comm, recvbuf, count, datatype, "recvbuf", name));
    COLLSIM_TRY(check_no_alias(comm, sendbuf, count, datatype, recvbuf, count, datatype, name));
    check_same(comm, name, -1, op, count, datatype, caller);
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, kind, comm, count, datatype, op_commutes(op));
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(recvbuf, count, datatype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
    }
    switch (kind) {
    case COLL_ALLREDUCE:
        rc = row->fn.allreduce(sendbuf, recvbuf, count, datatype, op, comm->coll, &params);
        break;
    case COLL_SCAN:
        rc = row->fn.scan(sendbuf, recvbuf, count, datatype, op, comm->coll, &params);
        break;
    default:
        rc = row->fn.exscan(sendbuf, recvbuf, count, datatype, op, comm->coll, &params);
        break;
    }
    free(mem);
    return algorithm_failed(comm, kind, row, rc);
}

int
MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm)
{
    return everyone_reduces(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm)
{
    return everyone_reduces(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm)
{
    return everyone_reduces(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm, COLLSIM_CALLER());
}

int
MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[],
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *name = "MPI_Reduce_scatter";
    COLLSIM_TRY(check_comm(comm, name));
    if (recvcounts == NULL)
        return collsim_error(comm, MPI_ERR_ARG, name, "NULL recvcounts");
    int size = collsim_comm_size(comm);
    long long total = 0;
    for (int i = 0; i < size; i++) {
        if (recvcounts[i] < 0)
            return collsim_error(comm, MPI_ERR_COUNT, name, "negative recvcounts[%d] = %d", i,
                                 recvcounts[i]);
        total += recvcounts[i];
    }
    if (total > 0x7fffffff)
        return collsim_error(comm, MPI_ERR_COUNT, name, "sum of recvcounts overflows an int");
    COLLSIM_TRY(check_reduction(comm, (int)total, datatype, op, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    int me = collsim_comm_my_rank(comm);
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, total, datatype, "sendbuf", name));
    COLLSIM_TRY(check_buffer(comm, recvbuf, recvcounts[me], datatype, "recvbuf", name));
    COLLSIM_TRY(check_no_alias(comm, sendbuf, total, datatype, recvbuf, recvcounts[me], datatype,
                               name));
    if (coll_check_enabled()) {
        long long *counts = sig_array(comm, recvcounts, datatype, NULL);
        struct coll_check_call c = {.name = name, .rule = COLL_CHECK_SAME_V, .root = -1,
                                    .op = op, .count = (int)total, .type = datatype,
                                    .bytes = -1, .recv_bytes = -1, .per_rank = counts,
                                    .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
        g_free(counts);
    }
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_REDUCE_SCATTER, comm, (int)total, datatype, op_commutes(op));
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(recvbuf, (int)total, datatype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
    }
    rc = row->fn.reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm->coll,
                                &params);
    free(mem);
    return algorithm_failed(comm, COLL_REDUCE_SCATTER, row, rc);
}

int
MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                         MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *name = "MPI_Reduce_scatter_block";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
    long long total = (long long)recvcount * collsim_comm_size(comm);
    if (total > 0x7fffffff)
        return collsim_error(comm, MPI_ERR_COUNT, name, "recvcount x ranks overflows an int");
    COLLSIM_TRY(check_reduction(comm, (int)total, datatype, op, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, total, datatype, "sendbuf", name));
    COLLSIM_TRY(check_buffer(comm, recvbuf, recvcount, datatype, "recvbuf", name));
    COLLSIM_TRY(check_no_alias(comm, sendbuf, total, datatype, recvbuf, recvcount, datatype, name));
    check_same(comm, name, -1, op, recvcount, datatype, COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_REDUCE_SCATTER_BLOCK, comm, (int)total, datatype,
                  op_commutes(op));
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(recvbuf, (int)total, datatype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
    }
    rc = row->fn.reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm->coll,
                                      &params);
    free(mem);
    return algorithm_failed(comm, COLL_REDUCE_SCATTER_BLOCK, row, rc);
}

/* ---------------------------------------------------------------- data movement */

int
MPI_Barrier(MPI_Comm comm)
{
    const char *name = "MPI_Barrier";
    COLLSIM_TRY(check_comm(comm, name));
    check_same(comm, name, -1, MPI_OP_NULL, 0, MPI_DATATYPE_NULL, COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_BARRIER, comm, 0, MPI_BYTE, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    rc = row->fn.barrier(comm->coll, &params);
    return algorithm_failed(comm, COLL_BARRIER, row, rc);
}

int
MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Bcast";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_count(comm, count, "count", name));
    COLLSIM_TRY(check_type(comm, datatype, "datatype", name));
    COLLSIM_TRY(check_root(comm, root, name));
    COLLSIM_TRY(check_buffer(comm, buffer, count, datatype, "buffer", name));
    check_same(comm, name, root, MPI_OP_NULL, count, datatype, COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_BCAST, comm, count, datatype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    rc = row->fn.bcast(buffer, count, datatype, root, comm->coll, &params);
    return algorithm_failed(comm, COLL_BCAST, row, rc);
}

/*
 * For an algorithm that does not take MPI_IN_PLACE in a rooted gather or scatter: the address
 * of the root's block (item `index` of `dt` in `buf`), to pass as the root's own buffer; the
 * algorithm then copies the block onto itself.
 */
static void *
root_block(const void *buf, MPI_Aint index, MPI_Datatype dt)
{
    return (char *)buf + index * collsim_datatype_extent(dt);
}

/* Root-side checks of a v-variant's counts and displacements. */
static int
check_vector(MPI_Comm comm, const int counts[], const int displs[], const char *what,
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

int
MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[],
             MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
             int root, MPI_Comm comm)
{
    const char *name = "MPI_Scatterv";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_root(comm, root, name));
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && recvbuf == MPI_IN_PLACE;
    if (me == root) {
        COLLSIM_TRY(check_vector(comm, sendcounts, displs, "sendcounts", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
    } else if (recvbuf == MPI_IN_PLACE) {
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as recvbuf is only valid at the root");
    }
    if (!in_place_root) {
        COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
        COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    }
    if (!in_place_root)
        COLLSIM_TRY(check_buffer(comm, recvbuf, recvcount, recvtype, "recvbuf", name));
    check_rooted_v(comm, name, root, in_place_root, recvcount, recvtype, sendcounts, sendtype,
                   COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_SCATTERV, comm, in_place_root ? 0 : recvcount,
                  in_place_root ? MPI_BYTE : recvtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    if (in_place_root && !(row->caps & COLL_IN_PLACE)) {
        /* the root's block, received onto itself */
        recvbuf = root_block(sendbuf, displs[root], sendtype);
        recvcount = sendcounts[root];
        recvtype = sendtype;
    }
    rc = row->fn.scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype,
                          root, comm->coll, &params);
    return algorithm_failed(comm, COLL_SCATTERV, row, rc);
}

int
MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
            MPI_Comm comm)
{
    const char *name = "MPI_Gatherv";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_root(comm, root, name));
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && sendbuf == MPI_IN_PLACE;
    if (me == root) {
        COLLSIM_TRY(check_vector(comm, recvcounts, displs, "recvcounts", name));
        COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    } else if (sendbuf == MPI_IN_PLACE) {
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    }
    if (!in_place_root) {
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
    }
    if (!in_place_root)
        COLLSIM_TRY(check_buffer(comm, sendbuf, sendcount, sendtype, "sendbuf", name));
    check_rooted_v(comm, name, root, in_place_root, sendcount, sendtype, recvcounts, recvtype,
                   COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_GATHERV, comm, in_place_root ? 0 : sendcount,
                  in_place_root ? MPI_BYTE : sendtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    if (in_place_root && !(row->caps & COLL_IN_PLACE)) {
        /* the root's block, sent from where it already is */
        sendbuf = root_block(recvbuf, displs[root], recvtype);
        sendcount = recvcounts[root];
        sendtype = recvtype;
    }
    rc = row->fn.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root, comm->coll, &params);
    return algorithm_failed(comm, COLL_GATHERV, row, rc);
}

/* ---------------------------------------------------------------- allgather, alltoall */

/*
 * The local half of the standard's type-signature rule: the block a rank sends itself must
 * have as many bytes as the block it receives from itself (the other ranks are not
 * visible from here).
 */
static int
check_own_block(MPI_Comm comm, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
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
static int
check_counts(MPI_Comm comm, const int counts[], const char *what, const char *call, int *total)
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
static int
check_all_blocks(MPI_Comm comm, int count, const char *what, const char *call)
{
    if ((long long)count * collsim_comm_size(comm) > INT_MAX)
        return collsim_error(comm, MPI_ERR_COUNT, call, "%s x ranks overflows an int", what);
    return MPI_SUCCESS;
}

/* The mean of `total` bytes over the ranks, rounded up: what `bytes` means for v-variants. */
static size_t
mean_block(size_t total, MPI_Comm comm)
{
    size_t size = (size_t)collsim_comm_size(comm);
    return (total + size - 1) / size;
}

int
MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *name = "MPI_Allgather";
    COLLSIM_TRY(check_comm(comm, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
    COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    COLLSIM_TRY(check_all_blocks(comm, recvcount, "recvcount", name));
    if (sendbuf != MPI_IN_PLACE) {
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
        COLLSIM_TRY(check_own_block(comm, sendcount, sendtype, recvcount, recvtype, name));
    }
    int size = collsim_comm_size(comm);
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, sendcount, sendtype, "sendbuf", name));
    COLLSIM_TRY(check_buffer(comm, recvbuf, (MPI_Aint)recvcount * size, recvtype, "recvbuf", name));
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name, .rule = COLL_CHECK_BLOCKS, .root = -1, .op = MPI_OP_NULL,
            .count = recvcount, .type = recvtype,
            .bytes = sendbuf == MPI_IN_PLACE ? -1 : sig_bytes(sendcount, sendtype),
            .recv_bytes = sig_bytes(recvcount, recvtype), .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_ALLGATHER, comm, recvcount, recvtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        int me = collsim_comm_my_rank(comm);
        rc = in_place_copy(coll_item(recvbuf, (MPI_Aint)me * recvcount, recvtype), recvcount,
                           recvtype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
        sendcount = recvcount;
        sendtype = recvtype;
    }
    rc = row->fn.allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm->coll,
                           &params);
    free(mem);
    return algorithm_failed(comm, COLL_ALLGATHER, row, rc);
}

int
MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *name = "MPI_Allgatherv";
    int total;
    COLLSIM_TRY(check_comm(comm, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_vector(comm, recvcounts, displs, "recvcounts", name));
    COLLSIM_TRY(check_counts(comm, recvcounts, "recvcounts", name, &total));
    COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    int me = collsim_comm_my_rank(comm);
    if (sendbuf != MPI_IN_PLACE) {
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
        COLLSIM_TRY(check_own_block(comm, sendcount, sendtype, recvcounts[me], recvtype, name));
    }
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, sendcount, sendtype, "sendbuf", name));
    COLLSIM_TRY(check_v_buffers(comm, NULL, 0, recvbuf, total, name));
    if (coll_check_enabled()) {
        long long *counts = sig_array(comm, recvcounts, recvtype, NULL);
        struct coll_check_call c = {
            .name = name, .rule = COLL_CHECK_SAME_V, .root = -1, .op = MPI_OP_NULL,
            .count = sendbuf == MPI_IN_PLACE ? -1 : sendcount,
            .type = sendbuf == MPI_IN_PLACE ? MPI_DATATYPE_NULL : sendtype,
            .bytes = sendbuf == MPI_IN_PLACE ? -1 : sig_bytes(sendcount, sendtype),
            .recv_bytes = -1, .per_rank = counts, .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
        g_free(counts);
    }
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_ALLGATHERV, comm, total, recvtype, 1);
    call.bytes = mean_block(collsim_datatype_packed_size(total, recvtype), comm);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(coll_item(recvbuf, displs[me], recvtype), recvcounts[me], recvtype,
                           &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
        sendcount = recvcounts[me];
        sendtype = recvtype;
    }
    rc = row->fn.allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                            comm->coll, &params);
    free(mem);
    return algorithm_failed(comm, COLL_ALLGATHERV, row, rc);
}

/*
 * For an Alltoallv/w algorithm that does not take MPI_IN_PLACE: a private copy of the blocks
 * an in-place caller left in recvbuf, at the same byte offsets, to pass as sendbuf. Block i
 * is counts[i] items of types[i] (or of `type` when types is NULL) at byte displs[i] * unit.
 * *mem is what to free.
 */
static int
in_place_copy_blocks(const void *recvbuf, int size, const int counts[], const int displs[],
                     MPI_Aint unit, const MPI_Datatype types[], MPI_Datatype type,
                     const void **sendbuf, void **mem)
{
    MPI_Aint lo = 0, hi = 0, lb, extent, true_lb, true_extent;
    int any = 0;
    *mem = NULL;
    *sendbuf = recvbuf;
    /* the byte span the blocks cover, relative to recvbuf */
    for (int i = 0; i < size; i++) {
        MPI_Datatype t = types != NULL ? types[i] : type;
        if (counts[i] == 0)
            continue;
        MPI_Type_get_extent(t, &lb, &extent);
        MPI_Type_get_true_extent(t, &true_lb, &true_extent);
        MPI_Aint at = (MPI_Aint)displs[i] * unit + true_lb;
        MPI_Aint last = (MPI_Aint)(counts[i] - 1) * extent;
        MPI_Aint first = at + (last < 0 ? last : 0);
        MPI_Aint end = at + (last > 0 ? last : 0) + true_extent;
        if (!any || first < lo)
            lo = first;
        if (!any || end > hi)
            hi = end;
        any = 1;
    }
    if (!any)
        return MPI_SUCCESS;
    *mem = malloc(hi > lo ? (size_t)(hi - lo) : 1);
    if (*mem == NULL)
        return MPI_ERR_NO_MEM;
    char *copy = (char *)*mem - lo;
    for (int i = 0; i < size; i++) {
        MPI_Datatype t = types != NULL ? types[i] : type;
        MPI_Aint at = (MPI_Aint)displs[i] * unit;
        int rc = coll_copy((const char *)recvbuf + at, copy + at, counts[i], t);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    *sendbuf = copy;
    return MPI_SUCCESS;
}

int
MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *name = "MPI_Alltoall";
    COLLSIM_TRY(check_comm(comm, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
    COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    COLLSIM_TRY(check_all_blocks(comm, recvcount, "recvcount", name));
    if (sendbuf != MPI_IN_PLACE) {
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
        COLLSIM_TRY(check_all_blocks(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_own_block(comm, sendcount, sendtype, recvcount, recvtype, name));
    }
    int size = collsim_comm_size(comm);
    COLLSIM_TRY(check_buffer_or_in_place(comm, sendbuf, (MPI_Aint)sendcount * size, sendtype,
                                         "sendbuf", name));
    COLLSIM_TRY(check_buffer(comm, recvbuf, (MPI_Aint)recvcount * size, recvtype, "recvbuf", name));
    COLLSIM_TRY(check_no_alias(comm, sendbuf, (MPI_Aint)sendcount * size, sendtype, recvbuf,
                               (MPI_Aint)recvcount * size, recvtype, name));
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name, .rule = COLL_CHECK_BLOCKS, .root = -1, .op = MPI_OP_NULL,
            .count = recvcount, .type = recvtype,
            .bytes = sendbuf == MPI_IN_PLACE ? -1 : sig_bytes(sendcount, sendtype),
            .recv_bytes = sig_bytes(recvcount, recvtype), .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_ALLTOALL, comm, recvcount, recvtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy(recvbuf, recvcount * collsim_comm_size(comm), recvtype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS)
            return collsim_error(comm, rc, name, "no memory for the MPI_IN_PLACE copy");
        sendcount = recvcount;
        sendtype = recvtype;
    }
    rc = row->fn.alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm->coll,
                          &params);
    free(mem);
    return algorithm_failed(comm, COLL_ALLTOALL, row, rc);
}

int
MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm)
{
    const char *name = "MPI_Alltoallv";
    int total, stotal = 0;
    COLLSIM_TRY(check_comm(comm, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_vector(comm, recvcounts, rdispls, "recvcounts", name));
    COLLSIM_TRY(check_counts(comm, recvcounts, "recvcounts", name, &total));
    COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    int me = collsim_comm_my_rank(comm);
    if (sendbuf != MPI_IN_PLACE) {
        COLLSIM_TRY(check_vector(comm, sendcounts, sdispls, "sendcounts", name));
        COLLSIM_TRY(check_counts(comm, sendcounts, "sendcounts", name, &stotal));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
        COLLSIM_TRY(
            check_own_block(comm, sendcounts[me], sendtype, recvcounts[me], recvtype, name));
    }
    COLLSIM_TRY(check_v_buffers(comm, sendbuf, sendbuf == MPI_IN_PLACE ? 0 : stotal, recvbuf,
                                total, name));
    check_pairwise(comm, name, sendbuf, sendcounts, sendtype, NULL, recvcounts, recvtype, NULL,
                   COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_ALLTOALLV, comm, total, recvtype, 1);
    call.bytes = mean_block(collsim_datatype_packed_size(total, recvtype), comm);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        MPI_Aint lb, extent;
        MPI_Type_get_extent(recvtype, &lb, &extent);
        rc = in_place_copy_blocks(recvbuf, collsim_comm_size(comm), recvcounts, rdispls, extent,
                                  NULL, recvtype, &sendbuf, &mem);
        if (rc != MPI_SUCCESS) {
            free(mem);
            return collsim_error(comm, rc, name, "cannot copy recvbuf for MPI_IN_PLACE");
        }
        sendcounts = recvcounts;
        sdispls = rdispls;
        sendtype = recvtype;
    }
    rc = row->fn.alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                           recvtype, comm->coll, &params);
    free(mem);
    return algorithm_failed(comm, COLL_ALLTOALLV, row, rc);
}

/* Every types[i] is a valid datatype; *contiguous: all of them are. */
static int
check_types(MPI_Comm comm, const MPI_Datatype types[], const char *what, const char *call,
            int *contiguous)
{
    int size = collsim_comm_size(comm);
    if (types == NULL)
        return collsim_error(comm, MPI_ERR_ARG, call, "NULL %s", what);
    for (int i = 0; i < size; i++) {
        if (collsim_datatype_check(types[i]) != MPI_SUCCESS)
            return collsim_error(comm, MPI_ERR_TYPE, call, "invalid %s[%d]", what, i);
        *contiguous = *contiguous && collsim_datatype_is_contiguous(types[i]);
    }
    return MPI_SUCCESS;
}

int
MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
              const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
              const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    const char *name = "MPI_Alltoallw";
    int total, stotal = 0, contiguous = 1;
    COLLSIM_TRY(check_comm(comm, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
    COLLSIM_TRY(check_vector(comm, recvcounts, rdispls, "recvcounts", name));
    COLLSIM_TRY(check_counts(comm, recvcounts, "recvcounts", name, &total));
    COLLSIM_TRY(check_types(comm, recvtypes, "recvtypes", name, &contiguous));
    int me = collsim_comm_my_rank(comm);
    int size = collsim_comm_size(comm);
    if (sendbuf != MPI_IN_PLACE) {
        COLLSIM_TRY(check_vector(comm, sendcounts, sdispls, "sendcounts", name));
        COLLSIM_TRY(check_counts(comm, sendcounts, "sendcounts", name, &stotal));
        COLLSIM_TRY(check_types(comm, sendtypes, "sendtypes", name, &contiguous));
        COLLSIM_TRY(check_own_block(comm, sendcounts[me], sendtypes[me], recvcounts[me],
                                    recvtypes[me], name));
    }
    COLLSIM_TRY(check_v_buffers(comm, sendbuf, sendbuf == MPI_IN_PLACE ? 0 : stotal, recvbuf,
                                total, name));
    check_pairwise(comm, name, sendbuf, sendcounts, MPI_DATATYPE_NULL, sendtypes, recvcounts,
                   MPI_DATATYPE_NULL, recvtypes, COLLSIM_CALLER());
    struct coll_call call;
    struct coll_params params;
    int rc;
    size_t bytes = 0;
    for (int i = 0; i < size; i++)
        bytes += collsim_datatype_packed_size(recvcounts[i], recvtypes[i]);
    call.kind = COLL_ALLTOALLW;
    call.comm_size = size;
    call.count = total;
    call.bytes = mean_block(bytes, comm);
    call.commutative = 1;
    call.contiguous = contiguous;
    call.node_blocks = 1;
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    void *mem = NULL;
    if (sendbuf == MPI_IN_PLACE && !(row->caps & COLL_IN_PLACE)) {
        rc = in_place_copy_blocks(recvbuf, size, recvcounts, rdispls, 1, recvtypes,
                                  MPI_DATATYPE_NULL, &sendbuf, &mem);
        if (rc != MPI_SUCCESS) {
            free(mem);
            return collsim_error(comm, rc, name, "cannot copy recvbuf for MPI_IN_PLACE");
        }
        sendcounts = recvcounts;
        sdispls = rdispls;
        sendtypes = recvtypes;
    }
    rc = row->fn.alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                           recvtypes, comm->coll, &params);
    free(mem);
    return algorithm_failed(comm, COLL_ALLTOALLW, row, rc);
}

/* ---------------------------------------------------------------- gather, scatter */

int
MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Gather";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_root(comm, root, name));
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && sendbuf == MPI_IN_PLACE;
    if (me != root && sendbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as sendbuf is only valid at the root");
    if (!in_place_root) {
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
    }
    if (me == root) {
        if (recvbuf == MPI_IN_PLACE)
            return collsim_error(comm, MPI_ERR_BUFFER, name,
                                 "MPI_IN_PLACE is not a valid recvbuf");
        COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
        COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
        if (!in_place_root)
            COLLSIM_TRY(check_own_block(comm, sendcount, sendtype, recvcount, recvtype, name));
    }
    if (!in_place_root)
        COLLSIM_TRY(check_buffer(comm, sendbuf, sendcount, sendtype, "sendbuf", name));
    if (me == root) {
        MPI_Aint all = (MPI_Aint)recvcount * collsim_comm_size(comm);
        COLLSIM_TRY(check_buffer(comm, recvbuf, all, recvtype, "recvbuf", name));
    }
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name, .rule = COLL_CHECK_TO_ROOT, .root = root, .op = MPI_OP_NULL,
            .count = in_place_root ? -1 : sendcount,
            .type = in_place_root ? MPI_DATATYPE_NULL : sendtype,
            .bytes = in_place_root ? -1 : sig_bytes(sendcount, sendtype),
            .recv_bytes = me == root ? sig_bytes(recvcount, recvtype) : -1, .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    /* bytes per rank, the same on every rank: the root's receive side, the others' send side */
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_GATHER, comm, me == root ? recvcount : sendcount,
                  me == root ? recvtype : sendtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    if (in_place_root && !(row->caps & COLL_IN_PLACE)) {
        sendbuf = root_block(recvbuf, (MPI_Aint)root * recvcount, recvtype);
        sendcount = recvcount;
        sendtype = recvtype;
    }
    rc = row->fn.gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                        comm->coll, &params);
    return algorithm_failed(comm, COLL_GATHER, row, rc);
}

int
MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
            int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    const char *name = "MPI_Scatter";
    COLLSIM_TRY(check_comm(comm, name));
    COLLSIM_TRY(check_root(comm, root, name));
    int me = collsim_comm_my_rank(comm);
    int in_place_root = me == root && recvbuf == MPI_IN_PLACE;
    if (me != root && recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name,
                             "MPI_IN_PLACE as recvbuf is only valid at the root");
    if (!in_place_root) {
        COLLSIM_TRY(check_count(comm, recvcount, "recvcount", name));
        COLLSIM_TRY(check_type(comm, recvtype, "recvtype", name));
    }
    if (me == root) {
        if (sendbuf == MPI_IN_PLACE)
            return collsim_error(comm, MPI_ERR_BUFFER, name,
                                 "MPI_IN_PLACE is not a valid sendbuf");
        COLLSIM_TRY(check_count(comm, sendcount, "sendcount", name));
        COLLSIM_TRY(check_type(comm, sendtype, "sendtype", name));
        if (!in_place_root)
            COLLSIM_TRY(check_own_block(comm, sendcount, sendtype, recvcount, recvtype, name));
    }
    if (!in_place_root)
        COLLSIM_TRY(check_buffer(comm, recvbuf, recvcount, recvtype, "recvbuf", name));
    if (me == root) {
        MPI_Aint all = (MPI_Aint)sendcount * collsim_comm_size(comm);
        COLLSIM_TRY(check_buffer(comm, sendbuf, all, sendtype, "sendbuf", name));
    }
    if (coll_check_enabled()) {
        struct coll_check_call c = {
            .name = name, .rule = COLL_CHECK_FROM_ROOT, .root = root, .op = MPI_OP_NULL,
            .count = in_place_root ? -1 : recvcount,
            .type = in_place_root ? MPI_DATATYPE_NULL : recvtype,
            .bytes = me == root ? sig_bytes(sendcount, sendtype) : -1,
            .recv_bytes = in_place_root ? -1 : sig_bytes(recvcount, recvtype),
            .caller = COLLSIM_CALLER()};
        coll_check_enter(comm, &c);
    }
    /* bytes per rank, the same on every rank: the root's send side, the others' receive side */
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_SCATTER, comm, me == root ? sendcount : recvcount,
                  me == root ? sendtype : recvtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    if (in_place_root && !(row->caps & COLL_IN_PLACE)) {
        recvbuf = root_block(sendbuf, (MPI_Aint)root * sendcount, sendtype);
        recvcount = sendcount;
        recvtype = sendtype;
    }
    rc = row->fn.scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
                         comm->coll, &params);
    return algorithm_failed(comm, COLL_SCATTER, row, rc);
}
