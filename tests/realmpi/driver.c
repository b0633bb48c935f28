/*
 * driver.c — runs every registered collective algorithm directly, by function pointer, on
 * fixed inputs, and prints one digest line per (collective, algorithm, input). The same file
 * is built against Open MPI (mpicc, run with mpirun) and against collsim (cc -shared, run with
 * collsim exec); test_realmpi.sh checks that both print exactly the same lines, which proves
 * that the algorithm files compile unchanged against a real MPI and give bitwise-identical
 * results there.
 *
 * Inputs: the non-commutative matrix witness (order-preserving rows only), int MPI_SUM, and
 * a double MPI_SUM whose value depends on the order of additions. Only standard MPI calls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "coll/coll_registry.h"
#include "coll/witness.h"

#define COUNT 64          /* items per rank: >= P for every P the test uses */
#define TAG_DIGEST 4242

static int rank, size;
static MPI_Comm work;     /* where algorithms run; digests travel on MPI_COMM_WORLD */

/* FNV-1a, 64 bits. */
static unsigned long long
fnv(unsigned long long h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* Rank 0 hashes the `bytes` bytes every selected rank holds, in rank order. */
static unsigned long long
digest(const void *buf, int bytes, int include)
{
    unsigned long long h = 1469598103934665603ULL;
    if (rank != 0) {
        int n = include ? bytes : -1;
        MPI_Send(&n, 1, MPI_INT, 0, TAG_DIGEST, MPI_COMM_WORLD);
        if (include)
            MPI_Send(buf, bytes, MPI_BYTE, 0, TAG_DIGEST, MPI_COMM_WORLD);
        return 0;
    }
    if (include)
        h = fnv(h, buf, (size_t)bytes);
    for (int r = 1; r < size; r++) {
        int n;
        MPI_Recv(&n, 1, MPI_INT, r, TAG_DIGEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (n < 0)
            continue;
        char *tmp = malloc((size_t)n + 1);
        MPI_Recv(tmp, n, MPI_BYTE, r, TAG_DIGEST, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        h = fnv(h, tmp, (size_t)n);
        free(tmp);
    }
    return h;
}

/* Inputs of one rank for one data kind. */
enum input { IN_WITNESS, IN_INT, IN_DOUBLE, IN_COUNT };
static const char *const input_names[IN_COUNT] = {"witness", "int_sum", "double_sum"};

struct data {
    MPI_Datatype type;
    MPI_Op op;
    int item_bytes;
    void *send, *recv;
};

static void
fill(enum input in, struct data *d, int items)
{
    const struct witness *w = witness_get(WITNESS_MATRIX);
    switch (in) {
    case IN_WITNESS:
        d->type = w->type;
        d->op = w->op;
        d->item_bytes = 4 * (int)sizeof(int);
        d->send = calloc((size_t)items, (size_t)d->item_bytes);
        witness_fill(w, rank, 11, d->send, items);
        break;
    case IN_INT:
        d->type = MPI_INT;
        d->op = MPI_SUM;
        d->item_bytes = sizeof(int);
        d->send = calloc((size_t)items, sizeof(int));
        for (int i = 0; i < items; i++)
            ((int *)d->send)[i] = (rank + 1) * 1000 + i;
        break;
    default:
        d->type = MPI_DOUBLE;
        d->op = MPI_SUM;
        d->item_bytes = sizeof(double);
        d->send = calloc((size_t)items, sizeof(double));
        /* magnitudes far apart: the rounded sum depends on the order of additions */
        for (int i = 0; i < items; i++)
            ((double *)d->send)[i] = (rank % 3 == 0 ? 1e16 : 1.0) * (1.0 + 0.1 * i) +
                                     0.3 * rank - (rank % 2 ? 1e16 : 0.0);
        break;
    }
    d->recv = calloc((size_t)items, (size_t)d->item_bytes);
}

static void
release(struct data *d)
{
    free(d->send);
    free(d->recv);
}

static void
report(const struct coll_algorithm *row, const char *variant, enum input in, int rc,
       unsigned long long h)
{
    if (rank != 0)
        return;
    if (rc != MPI_SUCCESS)
        printf("%s %s %s %s P=%d error %d\n", coll_kind_name(row->kind), row->name, variant,
               input_names[in], size, rc);
    else
        printf("%s %s %s %s P=%d %016llx\n", coll_kind_name(row->kind), row->name, variant,
               input_names[in], size, h);
}

static void
run_reduction(const struct coll_algorithm *row, enum input in)
{
    struct data d;
    struct coll_params params = row->defaults;
    if (params.segment_bytes > 0)
        params.segment_bytes = 48;   /* several segments even for COUNT items */
    int recvcounts[256];
    int total = COUNT;
    int rc = MPI_SUCCESS;
    for (int r = 0; r < size; r++)
        recvcounts[r] = r % 3 + 1;
    if (row->kind == COLL_REDUCE_SCATTER) {
        total = 0;
        for (int r = 0; r < size; r++)
            total += recvcounts[r];
    } else if (row->kind == COLL_REDUCE_SCATTER_BLOCK) {
        total = 2 * size;
    }
    fill(in, &d, total);
    unsigned long long h;
    switch (row->kind) {
    case COLL_REDUCE:
        for (int k = 0; k < 2; k++) {
            int root = k == 0 ? 0 : size - 1;
            memset(d.recv, 0, (size_t)total * (size_t)d.item_bytes);
            rc = row->fn.reduce(d.send, d.recv, total, d.type, d.op, root, work, &params);
            h = digest(d.recv, total * d.item_bytes, rank == root);
            report(row, k == 0 ? "root0" : "rootlast", in, rc, h);
        }
        break;
    case COLL_ALLREDUCE:
        rc = row->fn.allreduce(d.send, d.recv, total, d.type, d.op, work, &params);
        report(row, "all", in, rc, digest(d.recv, total * d.item_bytes, 1));
        break;
    case COLL_REDUCE_SCATTER:
        rc = row->fn.reduce_scatter(d.send, d.recv, recvcounts, d.type, d.op, work, &params);
        report(row, "irregular", in, rc, digest(d.recv, recvcounts[rank] * d.item_bytes, 1));
        break;
    case COLL_REDUCE_SCATTER_BLOCK:
        rc = row->fn.reduce_scatter_block(d.send, d.recv, 2, d.type, d.op, work, &params);
        report(row, "block2", in, rc, digest(d.recv, 2 * d.item_bytes, 1));
        break;
    case COLL_SCAN:
        rc = row->fn.scan(d.send, d.recv, total, d.type, d.op, work, &params);
        report(row, "all", in, rc, digest(d.recv, total * d.item_bytes, 1));
        break;
    case COLL_EXSCAN:
        rc = row->fn.exscan(d.send, d.recv, total, d.type, d.op, work, &params);
        report(row, "all", in, rc, digest(d.recv, total * d.item_bytes, rank != 0));
        break;
    default:
        break;
    }
    release(&d);
}

static void
run_movement(const struct coll_algorithm *row)
{
    int rc = MPI_SUCCESS;
    int buf[COUNT], counts[256], displs[256], all[256 * 4];
    int root = size / 2;
    for (int i = 0; i < COUNT; i++)
        buf[i] = rank == root ? 7 * i + 1 : -1;
    for (int r = 0, off = 0; r < size; r++) {
        counts[r] = r % 4;
        displs[r] = off;
        off += counts[r] + 1;   /* gaps between blocks */
    }
    for (int i = 0; i < 256 * 4; i++)
        all[i] = rank == root ? 1000 + i : -1;
    struct coll_params params = row->defaults;
    if (params.segment_bytes > 0)
        params.segment_bytes = 48;
    switch (row->kind) {
    case COLL_BARRIER:
        rc = row->fn.barrier(work, &params);
        report(row, "-", IN_INT, rc, digest(NULL, 0, 0));
        break;
    case COLL_BCAST:
        rc = row->fn.bcast(buf, COUNT, MPI_INT, root, work, &params);
        report(row, "root_mid", IN_INT, rc, digest(buf, sizeof buf, 1));
        break;
    case COLL_SCATTERV: {
        int mine[4] = {-1, -1, -1, -1};
        rc = row->fn.scatterv(all, counts, displs, MPI_INT, mine, counts[rank], MPI_INT, root,
                              work, &params);
        report(row, "root_mid", IN_INT, rc, digest(mine, sizeof mine, 1));
        break;
    }
    case COLL_GATHERV: {
        int mine[4];
        for (int i = 0; i < 4; i++)
            mine[i] = 100 * rank + i;
        for (int i = 0; i < 256 * 4; i++)
            all[i] = -1;
        rc = row->fn.gatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT, root,
                             work, &params);
        report(row, "root_mid", IN_INT, rc,
               digest(all, (int)sizeof(int) * (displs[size - 1] + counts[size - 1]),
                      rank == root));
        break;
    }
    case COLL_SCATTER: {
        int mine[3] = {-1, -1, -1};
        rc = row->fn.scatter(all, 3, MPI_INT, mine, 3, MPI_INT, root, work, &params);
        report(row, "root_mid", IN_INT, rc, digest(mine, sizeof mine, 1));
        break;
    }
    case COLL_GATHER: {
        int mine[3] = {100 * rank, 100 * rank + 1, 100 * rank + 2};
        for (int i = 0; i < 256 * 4; i++)
            all[i] = -1;
        rc = row->fn.gather(mine, 3, MPI_INT, all, 3, MPI_INT, root, work, &params);
        report(row, "root_mid", IN_INT, rc,
               digest(all, (int)sizeof(int) * 3 * size, rank == root));
        break;
    }
    case COLL_ALLGATHER:
    case COLL_ALLGATHERV: {
        int mine[4];
        for (int i = 0; i < 4; i++)
            mine[i] = 100 * rank + i;
        for (int i = 0; i < 256 * 4; i++)
            all[i] = -1;
        if (row->kind == COLL_ALLGATHER) {
            rc = row->fn.allgather(mine, 3, MPI_INT, all, 3, MPI_INT, work, &params);
            report(row, "-", IN_INT, rc, digest(all, (int)sizeof(int) * 3 * size, 1));
        } else {
            rc = row->fn.allgatherv(mine, counts[rank], MPI_INT, all, counts, displs, MPI_INT,
                                    work, &params);
            report(row, "-", IN_INT, rc,
                   digest(all, (int)sizeof(int) * (displs[size - 1] + counts[size - 1]), 1));
        }
        break;
    }
    case COLL_ALLTOALL:
    case COLL_ALLTOALLV:
    case COLL_ALLTOALLW: {
        /* rank s sends d the (s + d) % 3 ints 1000s + 10d + j (Alltoall: always 2) */
        int out[256 * 2], scounts[256], sdispls[256], rcounts[256], rdispls[256];
        int sbytes[256], rbytes[256];
        MPI_Datatype types[256];
        for (int d = 0, at = 0; d < size; d++) {
            scounts[d] = row->kind == COLL_ALLTOALL ? 2 : (rank + d) % 3;
            sdispls[d] = at;
            sbytes[d] = at * (int)sizeof(int);
            for (int j = 0; j < scounts[d]; j++)
                out[at + j] = 1000 * rank + 10 * d + j;
            at += scounts[d];
        }
        for (int s = 0, at = 0; s < size; s++) {
            rcounts[s] = row->kind == COLL_ALLTOALL ? 2 : (s + rank) % 3;
            rdispls[s] = at;
            rbytes[s] = at * (int)sizeof(int);
            types[s] = MPI_INT;
            at += rcounts[s] + 1;   /* gaps between blocks */
        }
        for (int i = 0; i < 256 * 4; i++)
            all[i] = -1;
        if (row->kind == COLL_ALLTOALL)
            rc = row->fn.alltoall(out, 2, MPI_INT, all, 2, MPI_INT, work, &params);
        else if (row->kind == COLL_ALLTOALLV)
            rc = row->fn.alltoallv(out, scounts, sdispls, MPI_INT, all, rcounts, rdispls,
                                   MPI_INT, work, &params);
        else
            rc = row->fn.alltoallw(out, scounts, sbytes, types, all, rcounts, rbytes, types,
                                   work, &params);
        report(row, "-", IN_INT, rc,
               digest(all, (int)sizeof(int) * (rdispls[size - 1] + rcounts[size - 1] + 1), 1));
        break;
    }
    default:
        break;
    }
}

/* Whether the row's requirements on the number of ranks hold at this size (a row that cannot
 * serve a size is refused by the dispatcher under collsim, and is not called at all here). */
static int
size_served(const struct coll_algorithm *row)
{
    if ((row->requires & COLL_REQ_POWER_OF_TWO) && (size & (size - 1)))
        return 0;
    if ((row->requires & COLL_REQ_EVEN_RANKS) && size % 2 != 0)
        return 0;
    if ((row->requires & COLL_REQ_TWO_RANKS) && size != 2)
        return 0;
    return 1;
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_dup(MPI_COMM_WORLD, &work);
    witness_setup();
    size_t n;
    const struct coll_algorithm *rows = coll_registry_rows(&n);
    for (size_t i = 0; i < n; i++) {
        const struct coll_algorithm *row = &rows[i];
        if (!size_served(row))
            continue;
        int reduces = row->kind == COLL_REDUCE || row->kind == COLL_ALLREDUCE ||
                      row->kind == COLL_REDUCE_SCATTER ||
                      row->kind == COLL_REDUCE_SCATTER_BLOCK || row->kind == COLL_SCAN ||
                      row->kind == COLL_EXSCAN;
        if (!reduces) {
            run_movement(row);
            continue;
        }
        for (int in = 0; in < IN_COUNT; in++) {
            if (in == IN_WITNESS && (row->requires & COLL_REQ_COMMUTATIVE))
                continue;   /* not order-preserving: no rank-order result to compare */
            run_reduction(row, (enum input)in);
        }
    }
    witness_teardown();
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
