/*
 * collectives.c — the MPI collective entry points: check the arguments as the standard defines
 * them, resolve MPI_IN_PLACE for algorithms that do not take it, choose the algorithm
 * (coll_select.c), run it on the communicator's collective twin, and report what served.
 *
 * Invariants: an algorithm never sees an argument the standard calls invalid; a forced
 * algorithm that cannot serve the call is refused (MPI_ERR_OTHER naming it and the unmet
 * requirement), never replaced; errors go through the user communicator's handler.
 */
#include <stdlib.h>
#include <string.h>

#include "coll/coll_select.h"
#include "coll/coll_util.h"
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
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    const char *name = coll_kind_mpi_name(kind);
    COLLSIM_TRY(check_reduction(comm, count, datatype, op, name));
    if (recvbuf == MPI_IN_PLACE)
        return collsim_error(comm, MPI_ERR_BUFFER, name, "MPI_IN_PLACE is not a valid recvbuf");
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
    return everyone_reduces(COLL_ALLREDUCE, sendbuf, recvbuf, count, datatype, op, comm);
}

int
MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
         MPI_Comm comm)
{
    return everyone_reduces(COLL_SCAN, sendbuf, recvbuf, count, datatype, op, comm);
}

int
MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
           MPI_Comm comm)
{
    return everyone_reduces(COLL_EXSCAN, sendbuf, recvbuf, count, datatype, op, comm);
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
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_SCATTERV, comm, in_place_root ? 0 : recvcount,
                  in_place_root ? MPI_BYTE : recvtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
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
    struct coll_call call;
    struct coll_params params;
    int rc;
    describe_call(&call, COLL_GATHERV, comm, in_place_root ? 0 : sendcount,
                  in_place_root ? MPI_BYTE : sendtype, 1);
    const struct coll_algorithm *row = choose(&call, comm, &params, &rc);
    if (row == NULL)
        return rc;
    rc = row->fn.gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                         root, comm->coll, &params);
    return algorithm_failed(comm, COLL_GATHERV, row, rc);
}
