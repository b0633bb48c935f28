/*
 * nonblocking.c — every nonblocking collective of MPI 3.1, run as an ordinary program would:
 * several in flight at once on one communicator, completed in another order than started,
 * mixed with point-to-point traffic and blocking collectives, with MPI_IN_PLACE, roots other
 * than 0, a non-commutative user op (2x2 integer matrix product, associative), polling with
 * MPI_Test and completion with Waitall, Waitany and Waitsome. Under collsim, computation
 * between the calls and the waits lets the asynchronous progress model move the operations
 * (test_nonblocking.sh runs both models).
 *
 * Every rank's results are gathered to rank 0 (with blocking collectives), which prints one
 * line per check: the same source built with Open MPI's mpicc and with collsim's header
 * must print exactly the same lines (test_nonblocking.sh). Only integers: no output depends
 * on the order of floating-point additions, nor on timing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

static int rank, size;

/* Simulated computation with operations in flight (nothing under another MPI). */
static void
compute(double seconds)
{
#ifdef COLLSIM_MPI
    collsim_compute(seconds);
#else
    (void)seconds;
#endif
}

/* 2x2 matrices of unsigned ints mod 2^32, row-major (a contiguous type of 4 MPI_UNSIGNED):
 * a non-commutative associative op. */
static void
matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    const unsigned *a = in;
    unsigned *b = inout;
    for (int i = 0; i < *len; i++, a += 4, b += 4) {
        unsigned r[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3],
                         a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]};
        memcpy(b, r, sizeof r);
    }
}

/* Rank r's matrix for element k: distinct for every (r, k), far from the identity. */
static void
matrix_of(int r, int k, unsigned m[4])
{
    m[0] = 1u + (unsigned)r;
    m[1] = 2u + (unsigned)k;
    m[2] = 3u * (unsigned)r + 1u;
    m[3] = 7u + (unsigned)(r * k);
}

/* Print what every rank holds in `mine` (n ints), one line, on rank 0. */
static void
show(const char *what, const int *mine, int n)
{
    int *all = rank == 0 ? malloc(sizeof(int) * (size_t)n * (size_t)size) : NULL;
    MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("%s:", what);
        for (int i = 0; i < n * size; i++)
            printf(" %d", all[i]);
        printf("\n");
        free(all);
    }
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int root = size > 2 ? 2 : size - 1;
    MPI_Op mat;
    MPI_Op_create(matmul, 0, &mat);
    MPI_Datatype mat_t;
    MPI_Type_contiguous(4, MPI_UNSIGNED, &mat_t);
    MPI_Type_commit(&mat_t);

    /* 1. six operations in flight on MPI_COMM_WORLD, completed by one Waitall */
    MPI_Request r[8];
    int x = rank + 1, sum = 0, prefix = 0, exclusive = -1, bval = 0, bar_done = 0;
    unsigned m[2][4], mres[2][4];
    matrix_of(rank, 0, m[0]);
    matrix_of(rank, 1, m[1]);
    if (rank == root)
        bval = 4242;
    MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Ibcast(&bval, 1, MPI_INT, root, MPI_COMM_WORLD, &r[1]);
    MPI_Iscan(&x, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[2]);
    MPI_Iexscan(&x, &exclusive, 1, MPI_INT, MPI_PROD, MPI_COMM_WORLD, &r[3]);
    MPI_Iallreduce(m, mres, 2, mat_t, mat, MPI_COMM_WORLD, &r[4]);
    MPI_Ibarrier(MPI_COMM_WORLD, &r[5]);
    compute(20e-6 * (rank + 1));
    MPI_Waitall(6, r, MPI_STATUSES_IGNORE);
    bar_done = 1;
    if (rank == 0)
        exclusive = -1; /* undefined on rank 0 */
    int row1[6] = {sum, bval, prefix, exclusive, bar_done, (int)(mres[0][0] ^ mres[1][3])};
    show("allreduce bcast scan exscan barrier matmul", row1, 6);
    int mm[8];
    for (int i = 0; i < 8; i++)
        mm[i] = (int)mres[i / 4][i % 4];
    show("matmul allreduce", mm, 8);

    /* 2. rooted block movers, with a blocking collective and point-to-point in between */
    int *gbuf = malloc(sizeof(int) * 2 * (size_t)size);
    int *sbuf = malloc(sizeof(int) * 2 * (size_t)size);
    int *counts = malloc(sizeof(int) * (size_t)size), *displs = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < 2 * size; i++) {
        gbuf[i] = -1;
        sbuf[i] = 100 * rank + i;
    }
    for (int i = 0; i < size; i++) {
        counts[i] = 1 + i % 2;
        displs[i] = 2 * (size - 1 - i);
    }
    int two[2] = {10 * rank, 10 * rank + 1}, got[2] = {-1, -1}, gotv[2] = {-1, -1};
    int *gvbuf = malloc(sizeof(int) * 2 * (size_t)size);
    for (int i = 0; i < 2 * size; i++)
        gvbuf[i] = -1;
    MPI_Igather(two, 2, MPI_INT, gbuf, 2, MPI_INT, root, MPI_COMM_WORLD, &r[0]);
    MPI_Iscatter(sbuf, 2, MPI_INT, got, 2, MPI_INT, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Igatherv(two, counts[rank], MPI_INT, gvbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD,
                 &r[2]);
    MPI_Iscatterv(sbuf, counts, displs, MPI_INT, gotv, counts[rank], MPI_INT, root, MPI_COMM_WORLD,
                  &r[3]);
    int token = rank, from = -1, total = 0;
    MPI_Sendrecv(&token, 1, MPI_INT, (rank + 1) % size, 7, &from, 1, MPI_INT,
                 (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&from, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    /* complete in reverse order, one at a time */
    for (int i = 3; i >= 0; i--)
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    show("gather at root", gbuf, 2 * size); /* untouched (-1) elsewhere */
    show("scatter", got, 2);
    show("gatherv at 0", gvbuf, 2 * size);
    show("scatterv", gotv, 2);
    show("ring total", &total, 1);

    /* 3. every-block movers, polled with MPI_Test, completed by Waitany / Waitsome */
    int *ag = malloc(sizeof(int) * 2 * (size_t)size), *a2a = malloc(sizeof(int) * (size_t)size);
    int *agv = malloc(sizeof(int) * 2 * (size_t)size),
        *a2av = malloc(sizeof(int) * 2 * (size_t)size);
    int *a2aw = malloc(sizeof(int) * (size_t)size);
    int *mine = malloc(sizeof(int) * (size_t)size);
    int *scounts = malloc(sizeof(int) * (size_t)size),
        *sdispls = malloc(sizeof(int) * (size_t)size);
    int *rcounts = malloc(sizeof(int) * (size_t)size),
        *rdispls = malloc(sizeof(int) * (size_t)size);
    int *wcounts = malloc(sizeof(int) * (size_t)size),
        *wdispls = malloc(sizeof(int) * (size_t)size);
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)size);
    for (int i = 0; i < size; i++) {
        mine[i] = 1000 * rank + i;
        scounts[i] = 1 + (rank + i) % 2; /* what I send to i */
        sdispls[i] = 0;
        rcounts[i] = 1 + (i + rank) % 2; /* what i sends me */
        rdispls[i] = 2 * i;
        wcounts[i] = 1;
        wdispls[i] = (int)sizeof(int) * i;
        types[i] = MPI_INT;
        agv[2 * i] = agv[2 * i + 1] = a2av[2 * i] = a2av[2 * i + 1] = -1;
    }
    for (int i = 0; i < 2 * size; i++)
        ag[i] = -1;
    int agvcounts_mine = 1 + rank % 2;
    int *agvcounts = malloc(sizeof(int) * (size_t)size),
        *agvdispls = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++) {
        agvcounts[i] = 1 + i % 2;
        agvdispls[i] = 2 * i;
    }
    /* MPI_IN_PLACE allgather: my block already sits in place */
    ag[2 * rank] = 5 * rank;
    ag[2 * rank + 1] = 5 * rank + 1;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 2, MPI_INT, MPI_COMM_WORLD, &r[0]);
    MPI_Ialltoall(mine, 1, MPI_INT, a2a, 1, MPI_INT, MPI_COMM_WORLD, &r[1]);
    MPI_Iallgatherv(two, agvcounts_mine, MPI_INT, agv, agvcounts, agvdispls, MPI_INT,
                    MPI_COMM_WORLD, &r[2]);
    MPI_Ialltoallv(mine, scounts, sdispls, MPI_INT, a2av, rcounts, rdispls, MPI_INT, MPI_COMM_WORLD,
                   &r[3]);
    MPI_Ialltoallw(mine, wcounts, wdispls, types, a2aw, wcounts, wdispls, types, MPI_COMM_WORLD,
                   &r[4]);
    int flag = 0;
    while (!flag)
        MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
    int index, done = 1, outcount, indices[5];
    MPI_Waitany(5, r, &index, MPI_STATUS_IGNORE);
    done += index != MPI_UNDEFINED;
    while (done < 5) {
        MPI_Waitsome(5, r, &outcount, indices, MPI_STATUSES_IGNORE);
        done += outcount;
    }
    show("allgather in place", ag, 2 * size);
    show("alltoall", a2a, size);
    show("allgatherv", agv, 2 * size);
    show("alltoallv", a2av, 2 * size);
    show("alltoallw", a2aw, size);

    /* 4. reductions to a root and scattered reductions, non-commutative and in place */
    unsigned mr[4] = {0, 0, 0, 0};
    matrix_of(rank, 3, m[0]);
    int *rsv = malloc(sizeof(int) * (size_t)size * 2), rsout[2] = {-1, -1}, rsb[2] = {-1, -1};
    int *rscounts = malloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < 2 * size; i++)
        rsv[i] = rank * (i + 1);
    for (int i = 0; i < size; i++)
        rscounts[i] = 1 + i % 2;
    int inplace[3] = {rank, 2 * rank, 3 * rank};
    MPI_Ireduce(m[0], mr, 1, mat_t, mat, root, MPI_COMM_WORLD, &r[0]);
    MPI_Ireduce_scatter(rsv, rsout, rscounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[1]);
    MPI_Ireduce_scatter_block(rsv, rsb, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &r[2]);
    MPI_Iallreduce(MPI_IN_PLACE, inplace, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[3]);
    compute(5e-6);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    int mri[4] = {(int)mr[0], (int)mr[1], (int)mr[2], (int)mr[3]};
    show("reduce matmul at root", mri, 4); /* untouched (0) elsewhere */
    show("reduce_scatter", rsout, 2);
    show("reduce_scatter_block", rsb, 2);
    show("allreduce in place", inplace, 3);

    /* 5. on a split communicator, while one is in flight on the parent */
    MPI_Comm half;
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
    int hx = rank, hsum = -1, wsum = -1;
    MPI_Iallreduce(&hx, &wsum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[0]);
    MPI_Iallreduce(&hx, &hsum, 1, MPI_INT, MPI_MAX, half, &r[1]);
    MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    int hrow[2] = {wsum, hsum};
    show("world sum, half max", hrow, 2);
    MPI_Comm_free(&half);

    MPI_Op_free(&mat);
    MPI_Type_free(&mat_t);
    free(gbuf);
    free(sbuf);
    free(counts);
    free(displs);
    free(gvbuf);
    free(ag);
    free(a2a);
    free(agv);
    free(a2av);
    free(a2aw);
    free(mine);
    free(scounts);
    free(sdispls);
    free(rcounts);
    free(rdispls);
    free(wcounts);
    free(wdispls);
    free(types);
    free(agvcounts);
    free(agvdispls);
    free(rsv);
    free(rscounts);
    MPI_Finalize();
    return 0;
}
