/*
 * intercomm.c — inter-communicators: MPI_COMM_WORLD is split into two groups in two ways
 * (even/odd ranks, then the first third against the rest: unequal sizes), the groups are
 * joined with MPI_Intercomm_create, and every rank exercises the inter-communicator: its
 * queries, point-to-point both ways (MPI_SOURCE is the sender's rank in its own group), every
 * collective with a root on each side, a non-commutative reduction, MPI_Comm_dup, and
 * MPI_Intercomm_merge with high = 0/1 either way and with equal `high`, then nonblocking and
 * persistent collectives on it, several in flight. Each rank records
 * numbers in a row; world rank 0 gathers the rows and prints them, so the output does not
 * depend on scheduling. At one rank there are no two groups: only a line says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#define ROW 128

static int row[ROW];
static int at;

static void
put(int v)
{
    if (at < ROW)
        row[at++] = v;
}

/* Weighted checksum of n ints: order matters. */
static int
digest(const int *v, int n)
{
    long long s = 0;
    for (int i = 0; i < n; i++)
        s = (s * 31 + v[i] + 7) % 1000003;
    return (int)s;
}

/* 2x2 integer matrices modulo 10007: associative, not commutative. */
static void
matmul(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int k = 0; k < *len; k++, a += 4, b += 4) {
        int c[4] = {(a[0] * b[0] + a[1] * b[2]) % 10007, (a[0] * b[1] + a[1] * b[3]) % 10007,
                    (a[2] * b[0] + a[3] * b[2]) % 10007, (a[2] * b[1] + a[3] * b[3]) % 10007};
        memcpy(b, c, sizeof c);
    }
}

/* The root argument of a rooted call whose root is rank `root` of group `side`. */
static int
root_arg(int color, int lrank, int side, int root)
{
    if (color != side)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

/* Five nonblocking collectives in flight on the inter-communicator, completed in reverse
 * order, then a persistent Allreduce started twice. */
static void
nonblocking(MPI_Comm inter, int color, int lrank, int lsize, int rsize, int wrank, MPI_Datatype mat,
            MPI_Op op)
{
    MPI_Request r[5];
    int token = color == 1 && lrank == rsize % lsize ? 500 + wrank : -1;
    MPI_Ibcast(&token, 1, MPI_INT,
               root_arg(color, lrank, 1, color == 1 ? rsize % lsize : lsize % rsize), inter, &r[0]);
    int m[4] = {wrank + 1, 1, wrank % 3, 2}, prod[4] = {-1, -1, -1, -1};
    MPI_Iallreduce(m, prod, 1, mat, op, inter, &r[1]);
    int *gathered = malloc(sizeof(int) * (size_t)rsize);
    for (int i = 0; i < rsize; i++)
        gathered[i] = -1;
    int v = 3 * wrank + 1;
    MPI_Igather(&v, 1, MPI_INT, gathered, 1, MPI_INT,
                root_arg(color, lrank, 0, color == 0 ? lsize - 1 : rsize - 1), inter, &r[2]);
    int *out = malloc(sizeof(int) * (size_t)rsize), *in = malloc(sizeof(int) * (size_t)rsize);
    for (int i = 0; i < rsize; i++) {
        out[i] = 1000 * wrank + i;
        in[i] = -1;
    }
    MPI_Ialltoall(out, 1, MPI_INT, in, 1, MPI_INT, inter, &r[3]);
    MPI_Ibarrier(inter, &r[4]);
    for (int i = 4; i >= 0; i--)
        MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    put(token);
    put(digest(prod, 4));
    put(digest(gathered, rsize));
    put(digest(in, rsize));

    /* MPI-4's persistent form where the library has it (Open MPI 4.1 does not: the same
     * operations as nonblocking ones, which must give the same numbers) */
    int x = wrank + 1, sum = -1;
#if MPI_VERSION >= 4 || defined(COLLSIM_MPI)
    MPI_Request pr;
    MPI_Allreduce_init(&x, &sum, 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL, &pr);
    for (int round = 0; round < 2; round++) {
        MPI_Start(&pr);
        MPI_Wait(&pr, MPI_STATUS_IGNORE);
        put(sum);
        x *= 10;
    }
    MPI_Request_free(&pr);
#else
    for (int round = 0; round < 2; round++) {
        MPI_Request one;
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, inter, &one);
        MPI_Wait(&one, MPI_STATUS_IGNORE);
        put(sum);
        x *= 10;
    }
#endif
    free(gathered);
    free(out);
    free(in);
}

static void
exercise(MPI_Comm inter, int color, int wrank, MPI_Datatype mat, MPI_Op op)
{
    int flag, lsize, lrank, rsize;
    MPI_Comm_test_inter(inter, &flag);
    MPI_Comm_size(inter, &lsize);
    MPI_Comm_rank(inter, &lrank);
    MPI_Comm_remote_size(inter, &rsize);
    put(flag);
    put(lsize);
    put(lrank);
    put(rsize);
    MPI_Group remote, world;
    MPI_Comm_remote_group(inter, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int last = rsize - 1, w0, wl;
    MPI_Group_translate_ranks(remote, 1, (int[]){0}, world, &w0);
    MPI_Group_translate_ranks(remote, 1, &last, world, &wl);
    put(w0);
    put(wl);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);

    /* point-to-point: local rank i sends to remote rank i % rsize */
    int out = 100 + wrank;
    MPI_Request req;
    MPI_Isend(&out, 1, MPI_INT, lrank % rsize, 3, inter, &req);
    int expected = 0;
    for (int j = 0; j < rsize; j++)
        expected += j % lsize == lrank;
    int sources = 0, payload = 0;
    for (int k = 0; k < expected; k++) {
        int in;
        MPI_Status st;
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 3, inter, &st);
        sources += st.MPI_SOURCE + 1;
        payload += in;
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    put(sources);
    put(payload);

    MPI_Barrier(inter);

    int v = wrank + 1;
    for (int side = 0; side < 2; side++) {
        int gsize = color == side ? lsize : rsize; /* the root group's size */
        int other = color == side ? rsize : lsize; /* the receiving group's size */
        int root = gsize - 1;                      /* the root group's last rank */
        int ra = root_arg(color, lrank, side, root);
        int is_root = ra == MPI_ROOT, receives = color != side;

        int b = is_root ? 1000 + wrank : -1;
        MPI_Bcast(&b, 1, MPI_INT, ra, inter);
        put(b);

        int sum = -1;
        MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, ra, inter);
        put(sum);

        int m[4] = {wrank % 3 + 1, 1, wrank % 2, 2}, prod[4] = {-1, -1, -1, -1};
        MPI_Reduce(m, prod, 1, mat, op, ra, inter);
        put(is_root ? digest(prod, 4) : -1);

        int *all = calloc((size_t)other * 4 + 4, sizeof(int));
        MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, ra, inter);
        put(is_root ? digest(all, other) : -1);

        int *counts = calloc((size_t)other + 1, sizeof(int));
        int *displs = calloc((size_t)other + 1, sizeof(int));
        for (int i = 0, d = 0; i < other; i++) {
            counts[i] = i % 2 + 1;
            displs[i] = d;
            d += counts[i] + 1; /* a gap between blocks */
        }
        int mine[2] = {v, -v};
        memset(all, 0, ((size_t)other * 4 + 4) * sizeof(int));
        MPI_Gatherv(mine, receives ? lrank % 2 + 1 : 0, MPI_INT, all, counts, displs, MPI_INT, ra,
                    inter);
        put(is_root ? digest(all, other * 3) : -1);

        int *src = calloc((size_t)other * 4 + 4, sizeof(int));
        for (int i = 0; i < other * 3; i++)
            src[i] = 50 * wrank + i;
        int got[2] = {-1, -1};
        MPI_Scatter(src, 1, MPI_INT, got, 1, MPI_INT, ra, inter);
        put(got[0]);
        got[0] = got[1] = -1;
        MPI_Scatterv(src, counts, displs, MPI_INT, got, receives ? lrank % 2 + 1 : 0, MPI_INT, ra,
                     inter);
        put(got[0]);
        put(got[1]);
        free(src);
        free(counts);
        free(displs);
        free(all);
    }

    int *all = calloc((size_t)rsize * 4 + 4, sizeof(int));
    MPI_Allgather(&v, 1, MPI_INT, all, 1, MPI_INT, inter);
    put(digest(all, rsize));

    int *rcounts = calloc((size_t)rsize + 1, sizeof(int));
    int *rdispls = calloc((size_t)rsize + 1, sizeof(int));
    for (int i = 0, d = 0; i < rsize; i++) {
        rcounts[i] = i % 2 + 1;
        rdispls[i] = d;
        d += rcounts[i];
    }
    int mine[2] = {v, 2 * v};
    memset(all, 0, ((size_t)rsize * 4 + 4) * sizeof(int));
    MPI_Allgatherv(mine, lrank % 2 + 1, MPI_INT, all, rcounts, rdispls, MPI_INT, inter);
    put(digest(all, rsize * 2));

    int *send = calloc((size_t)rsize * 4 + 4, sizeof(int));
    for (int i = 0; i < rsize * 2; i++)
        send[i] = wrank * 100 + i;
    memset(all, 0, ((size_t)rsize * 4 + 4) * sizeof(int));
    MPI_Alltoall(send, 1, MPI_INT, all, 1, MPI_INT, inter);
    put(digest(all, rsize));

    /* alltoallv: remote rank j gets j % 2 + 1 items; this rank gets lrank % 2 + 1 from each */
    int *scounts = calloc((size_t)rsize + 1, sizeof(int));
    int *sdispls = calloc((size_t)rsize + 1, sizeof(int));
    int *vcounts = calloc((size_t)rsize + 1, sizeof(int));
    int *vdispls = calloc((size_t)rsize + 1, sizeof(int));
    for (int j = 0; j < rsize; j++) {
        scounts[j] = j % 2 + 1;
        sdispls[j] = 2 * j;
        vcounts[j] = lrank % 2 + 1;
        vdispls[j] = 2 * j;
    }
    memset(all, 0, ((size_t)rsize * 4 + 4) * sizeof(int));
    MPI_Alltoallv(send, scounts, sdispls, MPI_INT, all, vcounts, vdispls, MPI_INT, inter);
    put(digest(all, rsize * 2));

    MPI_Datatype *types = calloc((size_t)rsize + 1, sizeof(MPI_Datatype));
    for (int j = 0; j < rsize; j++) {
        types[j] = MPI_INT;
        sdispls[j] = (int)sizeof(int) * 2 * j;
        vdispls[j] = (int)sizeof(int) * 2 * j;
    }
    memset(all, 0, ((size_t)rsize * 4 + 4) * sizeof(int));
    MPI_Alltoallw(send, scounts, sdispls, types, all, vcounts, vdispls, types, inter);
    put(digest(all, rsize * 2));

    int s2[2] = {v, 10 * v}, r2[2] = {-1, -1};
    MPI_Allreduce(s2, r2, 2, MPI_INT, MPI_SUM, inter);
    put(r2[0]);
    put(r2[1]);

    int m[4] = {wrank % 3 + 1, 1, wrank % 2, 2}, prod[4];
    MPI_Allreduce(m, prod, 1, mat, op, inter);
    put(digest(prod, 4));

    /* the two groups' vectors have the same length lsize * rsize (MPI-3.1 §5.10) */
    int n = lsize * rsize;
    int *vec = calloc((size_t)n + 1, sizeof(int));
    for (int i = 0; i < n; i++)
        vec[i] = wrank * 1000 + i;
    int *res = calloc((size_t)rsize + 1, sizeof(int));
    MPI_Reduce_scatter_block(vec, res, rsize, MPI_INT, MPI_SUM, inter);
    put(digest(res, rsize));
    int *rs = calloc((size_t)lsize + 1, sizeof(int));
    for (int i = 0; i < lsize; i++)
        rs[i] = rsize;
    if (lsize > 1) { /* uneven: rank 0 gets two blocks, the last rank none */
        rs[0] += rsize;
        rs[lsize - 1] -= rsize;
    }
    int *res2 = calloc((size_t)rsize * 2 + 1, sizeof(int));
    MPI_Reduce_scatter(vec, res2, rs, MPI_INT, MPI_SUM, inter);
    put(digest(res2, rs[lrank]));

    nonblocking(inter, color, lrank, lsize, rsize, wrank, mat, op);

    MPI_Comm dup;
    MPI_Comm_dup(inter, &dup);
    int cmp;
    MPI_Comm_compare(dup, inter, &cmp);
    put(cmp == MPI_CONGRUENT);
    int token = lrank == 0 ? 77 + color : -1;
    MPI_Bcast(&token, 1, MPI_INT, color == 0 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0, dup);
    put(token);
    MPI_Comm_free(&dup);

    for (int variant = 0; variant < 3; variant++) {
        int high = variant == 0 ? color : variant == 1 ? !color : 0;
        MPI_Comm merged;
        MPI_Intercomm_merge(inter, high, &merged);
        int mrank, msize, mflag, low;
        MPI_Comm_rank(merged, &mrank);
        MPI_Comm_size(merged, &msize);
        MPI_Comm_test_inter(merged, &mflag);
        MPI_Allreduce(&mrank, &low, 1, MPI_INT, MPI_MIN, merged);
        put(mrank);
        put(msize + 10 * mflag + 100 * low);
        MPI_Comm_free(&merged);
    }

    free(all);
    free(rcounts);
    free(rdispls);
    free(send);
    free(scounts);
    free(sdispls);
    free(vcounts);
    free(vdispls);
    free(types);
    free(vec);
    free(res);
    free(rs);
    free(res2);
}

int
main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (wsize < 2) {
        printf("intercomm: one rank, no two groups\n");
        MPI_Finalize();
        return 0;
    }
    MPI_Datatype mat;
    MPI_Type_contiguous(4, MPI_INT, &mat);
    MPI_Type_commit(&mat);
    MPI_Op op;
    MPI_Op_create(matmul, 0, &op);

    int third = (wsize + 2) / 3;
    for (int split = 0; split < 2; split++) {
        int color = split == 0 ? wrank % 2 : wrank >= third;
        int remote_leader = split == 0 ? !color : (color ? 0 : third);
        MPI_Comm local, inter;
        MPI_Comm_split(MPI_COMM_WORLD, color, wrank, &local);
        MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, remote_leader, 40 + split, &inter);
        at = 0;
        memset(row, -1, sizeof row);
        exercise(inter, color, wrank, mat, op);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&local);

        int *rows = wrank == 0 ? malloc(sizeof(int) * ROW * (size_t)wsize) : NULL;
        MPI_Gather(row, ROW, MPI_INT, rows, ROW, MPI_INT, 0, MPI_COMM_WORLD);
        if (wrank == 0) {
            for (int r = 0; r < wsize; r++) {
                printf("split %d rank %d:", split, r);
                for (int i = 0; i < at; i++)
                    printf(" %d", rows[r * ROW + i]);
                printf("\n");
            }
            free(rows);
        }
    }
    MPI_Op_free(&op);
    MPI_Type_free(&mat);
    MPI_Finalize();
    return 0;
}
