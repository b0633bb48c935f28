/*
 * check_intercomm.c — inter-communicators end to end on simulated ranks: MPI_Intercomm_create,
 * the queries (sizes, ranks, remote groups, compare), point-to-point both ways, every
 * collective with its root on each side, a non-commutative reduction, MPI_Comm_dup,
 * MPI_Intercomm_merge's rank order, and the error paths.
 *
 * The world of 5 ranks is split into A = the even world ranks {0, 2, 4} and B = the odd ones
 * {1, 3}; each rank contributes v = world rank + 1 (A: 1, 3, 5; B: 2, 4). The rank functions
 * record what they see; the assertions afterwards compare with values worked out by hand in
 * the comments (an "all" collective gives each group what the OTHER group sent).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "mpi.h"
#include "sim_harness.h"
#include "src/comm.h"

#define P 5
#define N 16

static struct seen {
    int rc;
    int flag, size, rank, rsize, remote_world[N];
    int received, sources, payload;
    int bcast[2], reduce[2], gather[2][N], scatter[2], gatherv[N], scatterv[N];
    int concat_reduce[2], concat_allreduce;
    int allgather[N], allgatherv[N], allreduce, alltoall[N], rsb[N];
    int cmp_dup, cmp_world, dup_token;
    int merged[3], merged_size;
    int errors[10];
    int split_is_inter;
    MPI_Request ireq;
} seen[P];

static void
teardown_world(void)
{
    collsim_comm_world_teardown();
}

/* Digit strings {value, 10^length}: concatenation is associative and not commutative. */
static void
concat(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    (void)dt;
    int *a = in, *b = inout;
    for (int i = 0; i < *len; i++, a += 2, b += 2) {
        b[0] = a[0] * b[1] + b[0];
        b[1] = a[1] * b[1];
    }
}

/* A (color 0) = even world ranks, B (color 1) = odd; leaders are world ranks 0 and 1. */
static MPI_Comm
make_inter(int w, MPI_Comm *local)
{
    int color = w % 2;
    MPI_Comm_split(MPI_COMM_WORLD, color, w, local);
    MPI_Comm inter = MPI_COMM_NULL;
    seen[w].rc = MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, color ? 0 : 1, 7, &inter);
    return inter;
}

/* The root argument: rank `root` of group `side` is the root. */
static int
root_arg(int color, int lrank, int side, int root)
{
    if (color != side)
        return root;
    return lrank == root ? MPI_ROOT : MPI_PROC_NULL;
}

static void
inter_rank(int w, void *arg)
{
    (void)arg;
    struct seen *s = &seen[w];
    int color = w % 2;
    MPI_Comm local;
    MPI_Comm inter = make_inter(w, &local);
    MPI_Comm_test_inter(inter, &s->flag);
    MPI_Comm_size(inter, &s->size);
    MPI_Comm_rank(inter, &s->rank);
    MPI_Comm_remote_size(inter, &s->rsize);
    MPI_Group remote, world;
    MPI_Comm_remote_group(inter, &remote);
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    for (int i = 0; i < s->rsize; i++)
        MPI_Group_translate_ranks(remote, 1, &i, world, &s->remote_world[i]);
    MPI_Group_free(&remote);
    MPI_Group_free(&world);
    int lrank = s->rank, lsize = s->size, rsize = s->rsize;

    /* point-to-point: local rank i sends 10 * world rank to remote rank i % remote size */
    int out = 10 * w;
    MPI_Request req;
    MPI_Isend(&out, 1, MPI_INT, lrank % rsize, 1, inter, &req);
    for (int j = 0; j < rsize; j++) {
        if (j % lsize != lrank)
            continue;
        int in;
        MPI_Status st;
        MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 1, inter, &st);
        s->received++;
        s->sources += st.MPI_SOURCE + 1;
        s->payload += in;
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);

    MPI_Barrier(inter);
    int v = w + 1;
    int pair[2] = {w + 1, 10};
    MPI_Op op;
    MPI_Op_create(concat, 0, &op);
    for (int side = 0; side < 2; side++) {
        int gsize = color == side ? lsize : rsize;
        int ra = root_arg(color, lrank, side, gsize - 1);
        s->bcast[side] = ra == MPI_ROOT ? 1000 + w : -1;
        MPI_Bcast(&s->bcast[side], 1, MPI_INT, ra, inter);
        s->reduce[side] = -1;
        MPI_Reduce(&v, &s->reduce[side], 1, MPI_INT, MPI_SUM, ra, inter);
        int folded[2] = {-1, -1};
        MPI_Reduce(pair, folded, 1, MPI_2INT, op, ra, inter);
        s->concat_reduce[side] = folded[0];
        memset(s->gather[side], -1, sizeof s->gather[side]);
        MPI_Gather(&v, 1, MPI_INT, s->gather[side], 1, MPI_INT, ra, inter);
        int src[3] = {100 * (side + 1), 100 * (side + 1) + 1, 100 * (side + 1) + 2};
        s->scatter[side] = -1;
        MPI_Scatter(src, 1, MPI_INT, &s->scatter[side], 1, MPI_INT, ra, inter);
    }
    int folded[2] = {-1, -1};
    MPI_Allreduce(pair, folded, 1, MPI_2INT, op, inter);
    s->concat_allreduce = folded[0];
    MPI_Op_free(&op);

    /* Gatherv to A's rank 2 from B: counts {1, 2}, a gap at displacement 1 */
    memset(s->gatherv, -1, sizeof s->gatherv);
    int mine[2] = {v, v + 100};
    MPI_Gatherv(mine, lrank + 1, MPI_INT, s->gatherv, (int[]){1, 2}, (int[]){0, 2}, MPI_INT,
                root_arg(color, lrank, 0, 2), inter);
    /* Scatterv from B's rank 1 to A: counts {1, 1, 2} at displacements {0, 2, 5} */
    int ten[10];
    for (int k = 0; k < 10; k++)
        ten[k] = 500 + k;
    memset(s->scatterv, -1, sizeof s->scatterv);
    MPI_Scatterv(ten, (int[]){1, 1, 2}, (int[]){0, 2, 5}, MPI_INT, s->scatterv,
                 color == 0 ? (lrank == 2 ? 2 : 1) : 0, MPI_INT, root_arg(color, lrank, 1, 1),
                 inter);

    memset(s->allgather, -1, sizeof s->allgather);
    MPI_Allgather(&v, 1, MPI_INT, s->allgather, 1, MPI_INT, inter);
    /* Allgatherv: local rank i sends i + 1 items 10 w, 10 w + 1, ... */
    int items[3] = {10 * w, 10 * w + 1, 10 * w + 2};
    int rcounts[3] = {1, 2, 3}, rdispls[3] = {0, 1, 3};
    memset(s->allgatherv, -1, sizeof s->allgatherv);
    MPI_Allgatherv(items, lrank + 1, MPI_INT, s->allgatherv, rcounts, rdispls, MPI_INT, inter);
    MPI_Allreduce(&v, &s->allreduce, 1, MPI_INT, MPI_SUM, inter);
    int send[3];
    for (int j = 0; j < 3; j++)
        send[j] = 100 * w + j;
    memset(s->alltoall, -1, sizeof s->alltoall);
    MPI_Alltoall(send, 1, MPI_INT, s->alltoall, 1, MPI_INT, inter);
    /* vectors of 6 = 3 x 2 items on both sides; A's ranks get 2 items each, B's 3 */
    int vec[6];
    for (int k = 0; k < 6; k++)
        vec[k] = 10 * w + k;
    memset(s->rsb, -1, sizeof s->rsb);
    MPI_Reduce_scatter_block(vec, s->rsb, rsize, MPI_INT, MPI_SUM, inter);

    MPI_Comm dup;
    MPI_Comm_dup(inter, &dup);
    MPI_Comm_compare(dup, inter, &s->cmp_dup);
    MPI_Comm_compare(inter, MPI_COMM_WORLD, &s->cmp_world);
    s->dup_token = color == 1 && lrank == 0 ? 4242 : -1;
    MPI_Bcast(&s->dup_token, 1, MPI_INT, color == 1 ? (lrank == 0 ? MPI_ROOT : MPI_PROC_NULL) : 0,
              dup);
    MPI_Comm_free(&dup);

    for (int variant = 0; variant < 3; variant++) {
        int high = variant == 0 ? color : variant == 1 ? !color : 1;
        MPI_Comm merged;
        MPI_Intercomm_merge(inter, high, &merged);
        MPI_Comm_rank(merged, &s->merged[variant]);
        MPI_Comm_size(merged, &s->merged_size);
        MPI_Comm_free(&merged);
    }
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

START_TEST(test_intercomm_queries_p2p_collectives_merge)
{
    memset(seen, 0, sizeof seen);
    ck_assert_int_eq(collsim_test_run_ranks(P, inter_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
    for (int w = 0; w < P; w++) {
        const struct seen *s = &seen[w];
        int a = w % 2 == 0, i = w / 2;   /* i: the rank in its group */
        ck_assert_int_eq(s->rc, MPI_SUCCESS);
        ck_assert_int_eq(s->flag, 1);
        ck_assert_int_eq(s->size, a ? 3 : 2);
        ck_assert_int_eq(s->rank, i);
        ck_assert_int_eq(s->rsize, a ? 2 : 3);
        for (int j = 0; j < s->rsize; j++)
            ck_assert_int_eq(s->remote_world[j], a ? 2 * j + 1 : 2 * j);
        /* A0 <- B0 (w1), A1 <- B1 (w3), A2 nothing; B0 <- A0 (w0) and A2 (w4), B1 <- A1 (w2) */
        const int received[P] = {1, 2, 1, 1, 0};
        const int sources[P] = {1, 1 + 3, 2, 2, 0};
        const int payload[P] = {10, 0 + 40, 30, 20, 0};
        ck_assert_int_eq(s->received, received[w]);
        ck_assert_int_eq(s->sources, sources[w]);
        ck_assert_int_eq(s->payload, payload[w]);

        /* side 0: root A2 (w4); side 1: root B1 (w3) */
        ck_assert_int_eq(s->bcast[0], a ? (w == 4 ? 1004 : -1) : 1004);
        ck_assert_int_eq(s->bcast[1], a ? 1003 : (w == 3 ? 1003 : -1));
        ck_assert_int_eq(s->reduce[0], w == 4 ? 2 + 4 : -1);
        ck_assert_int_eq(s->reduce[1], w == 3 ? 1 + 3 + 5 : -1);
        /* rank order within the sending group: B "2" then "4", A "1", "3", "5" */
        ck_assert_int_eq(s->concat_reduce[0], w == 4 ? 24 : -1);
        ck_assert_int_eq(s->concat_reduce[1], w == 3 ? 135 : -1);
        ck_assert_int_eq(s->concat_allreduce, a ? 24 : 135);
        if (w == 4) {
            ck_assert_int_eq(s->gather[0][0], 2);
            ck_assert_int_eq(s->gather[0][1], 4);
            ck_assert_int_eq(s->gather[0][2], -1);
        } else {
            ck_assert_int_eq(s->gather[0][0], -1);
        }
        if (w == 3) {
            ck_assert_int_eq(s->gather[1][0], 1);
            ck_assert_int_eq(s->gather[1][1], 3);
            ck_assert_int_eq(s->gather[1][2], 5);
        } else {
            ck_assert_int_eq(s->gather[1][0], -1);
        }
        ck_assert_int_eq(s->scatter[0], a ? -1 : 100 + i);
        ck_assert_int_eq(s->scatter[1], a ? 200 + i : -1);
        if (w == 4) {   /* B0 sent {2}, B1 {4, 104}; displacement 1 untouched */
            const int want[5] = {2, -1, 4, 104, -1};
            for (int k = 0; k < 5; k++)
                ck_assert_int_eq(s->gatherv[k], want[k]);
        } else {
            ck_assert_int_eq(s->gatherv[0], -1);
        }
        const int scatterv[P][2] = {{500, -1}, {-1, -1}, {502, -1}, {-1, -1}, {505, 506}};
        ck_assert_int_eq(s->scatterv[0], scatterv[w][0]);
        ck_assert_int_eq(s->scatterv[1], scatterv[w][1]);

        const int allgather_a[3] = {2, 4, -1}, allgather_b[3] = {1, 3, 5};
        for (int k = 0; k < 3; k++)
            ck_assert_int_eq(s->allgather[k], a ? allgather_a[k] : allgather_b[k]);
        /* A gets B0 {10}, B1 {30, 31}; B gets A0 {0}, A1 {20, 21}, A2 {40, 41, 42} */
        const int agv_a[7] = {10, 30, 31, -1, -1, -1, -1};
        const int agv_b[7] = {0, 20, 21, 40, 41, 42, -1};
        for (int k = 0; k < 7; k++)
            ck_assert_int_eq(s->allgatherv[k], a ? agv_a[k] : agv_b[k]);
        ck_assert_int_eq(s->allreduce, a ? 2 + 4 : 1 + 3 + 5);
        /* from remote rank j: 100 * (its world rank) + my rank */
        for (int j = 0; j < s->rsize; j++)
            ck_assert_int_eq(s->alltoall[j], 100 * (a ? 2 * j + 1 : 2 * j) + i);
        ck_assert_int_eq(s->alltoall[s->rsize], -1);
        /* A's sum over w = 0, 2, 4 is 60 + 3k, scattered to B by 3; B's 40 + 2k to A by 2 */
        for (int k = 0; k < s->rsize; k++)
            ck_assert_int_eq(s->rsb[k], a ? 40 + 2 * (2 * i + k) : 60 + 3 * (3 * i + k));
        ck_assert_int_eq(s->rsb[s->rsize], -1);

        ck_assert_int_eq(s->cmp_dup, MPI_CONGRUENT);
        ck_assert_int_eq(s->cmp_world, MPI_UNEQUAL);
        ck_assert_int_eq(s->dup_token, a ? 4242 : (w == 1 ? 4242 : -1));
        /* high = color: A (high 0) first; high = !color: B first; both 1: the group of the
         * lower leader world rank (A's, world rank 0) first */
        ck_assert_int_eq(s->merged_size, P);
        ck_assert_int_eq(s->merged[0], a ? i : 3 + i);
        ck_assert_int_eq(s->merged[1], a ? 2 + i : i);
        ck_assert_int_eq(s->merged[2], a ? i : 3 + i);
    }
}
END_TEST

/* Groups {3, 4} (leader world 3) and {0, 1, 2} (leader world 0), both merged with high = 0:
 * the group of world rank 0 comes first although it is the second group created. */
static void
merge_equal_high(int w, void *arg)
{
    (void)arg;
    int color = w >= 3 ? 0 : 1;
    MPI_Comm local, inter, merged;
    MPI_Comm_split(MPI_COMM_WORLD, color, w, &local);
    seen[w].rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color == 0 ? 0 : 3, 3, &inter);
    MPI_Intercomm_merge(inter, 0, &merged);
    MPI_Comm_rank(merged, &seen[w].merged[0]);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

START_TEST(test_intercomm_merge_equal_high_lower_leader_first)
{
    memset(seen, 0, sizeof seen);
    ck_assert_int_eq(collsim_test_run_ranks(P, merge_equal_high, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
    const int want[P] = {0, 1, 2, 3, 4};
    for (int w = 0; w < P; w++) {
        ck_assert_int_eq(seen[w].rc, MPI_SUCCESS);
        ck_assert_int_eq(seen[w].merged[0], want[w]);
    }
}
END_TEST

static void
error_rank(int w, void *arg)
{
    (void)arg;
    struct seen *s = &seen[w];
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int color = w % 2, x = 1, y = 0, size = 0;
    MPI_Comm local, inter = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color, w, &local);
    /* every member refuses a local leader out of range */
    s->errors[0] = MPI_Intercomm_create(local, 7, MPI_COMM_WORLD, color ? 0 : 1, 7, &inter);
    /* both leaders name a remote leader outside peer_comm: the whole of each group fails */
    s->errors[1] = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, 99, 7, &inter);
    s->errors[2] = MPI_Comm_remote_size(MPI_COMM_WORLD, &size);
    s->errors[3] = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, color ? 0 : 1, 7, &inter);
    s->errors[4] = MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    s->errors[5] = MPI_Exscan(&x, &y, 1, MPI_INT, MPI_SUM, inter);
    s->errors[6] = MPI_Bcast(&x, 1, MPI_INT, 5, inter);   /* no remote rank 5 */
    MPI_Request r = (MPI_Request)&r;   /* not MPI_REQUEST_NULL: the refusal must set it */
    s->errors[7] = MPI_Iscan(&x, &y, 1, MPI_INT, MPI_SUM, inter, &r);
    s->ireq = r;
    MPI_Comm sub = MPI_COMM_NULL;
    s->errors[8] = MPI_Comm_split(inter, 0, 0, &sub); /* MPI-2: both sides of color 0 */
    s->split_is_inter = 0;
    if (sub != MPI_COMM_NULL) {
        MPI_Comm_test_inter(sub, &s->split_is_inter);
        MPI_Comm_free(&sub);
    }
    s->errors[9] = MPI_Allreduce(MPI_IN_PLACE, &y, 1, MPI_INT, MPI_SUM, inter);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

START_TEST(test_intercomm_errors)
{
    memset(seen, 0, sizeof seen);
    ck_assert_int_eq(collsim_test_run_ranks(4, error_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
    for (int w = 0; w < 4; w++) {
        const struct seen *s = &seen[w];
        ck_assert_int_eq(s->errors[0], MPI_ERR_RANK);
        ck_assert_int_eq(s->errors[1], MPI_ERR_RANK);
        ck_assert_int_eq(s->errors[2], MPI_ERR_COMM);
        ck_assert_int_eq(s->errors[3], MPI_SUCCESS);
        ck_assert_int_eq(s->errors[4], MPI_ERR_COMM);
        ck_assert_int_eq(s->errors[5], MPI_ERR_COMM);
        ck_assert_int_eq(s->errors[6], MPI_ERR_ROOT);
        ck_assert_int_eq(s->errors[7], MPI_ERR_COMM);
        ck_assert_ptr_eq(s->ireq, MPI_REQUEST_NULL);
        ck_assert_int_eq(s->errors[8], MPI_SUCCESS);
        ck_assert_int_eq(s->split_is_inter, 1);
        ck_assert_int_eq(s->errors[9], MPI_ERR_BUFFER);
    }
}
END_TEST

/*
 * Nonblocking and persistent collectives on the inter-communicator of the 5-rank world (A =
 * even world ranks {0, 2, 4}, v = 1, 3, 5; B = odd {1, 3}, v = 2, 4), six in flight at once,
 * completed in the reverse order, then a persistent Allreduce started twice:
 *   Ibcast from A's rank 2 (world 4): everyone in B gets 1004;
 *   Iallreduce sum: A gets B's 2 + 4 = 6, B gets A's 1 + 3 + 5 = 9;
 *   Igather to B's rank 0 (world 1) from A: {1, 3, 5};
 *   Ireduce of digit strings to A's rank 0 (world 0) from B, in B's rank order: "24";
 *   Iallgather: A gets {2, 4}, B gets {1, 3, 5};
 *   Ibarrier;
 *   Allreduce_init sum of 10 v, started twice with v changed in between (+1 on every rank):
 *   A gets 60 then 60 + 20 = 80, B gets 90 then 90 + 30 = 120.
 */
static struct nb_seen {
    int bcast, allreduce, gather[3], reduce, allgather[3], persistent[2];
    int rc;
} nb_seen[P];

static void
nonblocking_rank(int w, void *arg)
{
    (void)arg;
    struct nb_seen *s = &nb_seen[w];
    int color = w % 2;
    MPI_Comm local;
    MPI_Comm inter = make_inter(w, &local);
    int lrank;
    MPI_Comm_rank(inter, &lrank);
    int v = w + 1, pair[2] = {w + 1, 10}, folded[2] = {-1, -1};
    MPI_Op op;
    MPI_Op_create(concat, 0, &op);
    MPI_Request r[6];
    s->bcast = color == 0 && lrank == 2 ? 1004 : -1;
    int rc = MPI_Ibcast(&s->bcast, 1, MPI_INT, root_arg(color, lrank, 0, 2), inter, &r[0]);
    rc |= MPI_Iallreduce(&v, &s->allreduce, 1, MPI_INT, MPI_SUM, inter, &r[1]);
    memset(s->gather, -1, sizeof s->gather);
    rc |= MPI_Igather(&v, 1, MPI_INT, s->gather, 1, MPI_INT, root_arg(color, lrank, 1, 0), inter,
                      &r[2]);
    rc |= MPI_Ireduce(pair, folded, 1, MPI_2INT, op, root_arg(color, lrank, 0, 0), inter, &r[3]);
    memset(s->allgather, -1, sizeof s->allgather);
    rc |= MPI_Iallgather(&v, 1, MPI_INT, s->allgather, 1, MPI_INT, inter, &r[4]);
    rc |= MPI_Ibarrier(inter, &r[5]);
    for (int i = 5; i >= 0; i--)
        rc |= MPI_Wait(&r[i], MPI_STATUS_IGNORE);
    s->reduce = folded[0];
    MPI_Op_free(&op);

    int ten_v = 10 * v;
    MPI_Request pr;
    rc |= MPI_Allreduce_init(&ten_v, &s->persistent[0], 1, MPI_INT, MPI_SUM, inter, MPI_INFO_NULL,
                             &pr);
    rc |= MPI_Start(&pr);
    rc |= MPI_Wait(&pr, MPI_STATUS_IGNORE);
    int first = s->persistent[0];
    ten_v += 10;
    rc |= MPI_Start(&pr);
    rc |= MPI_Wait(&pr, MPI_STATUS_IGNORE);
    s->persistent[1] = s->persistent[0];
    s->persistent[0] = first;
    rc |= MPI_Request_free(&pr);
    s->rc = rc;
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
}

START_TEST(test_intercomm_nonblocking_and_persistent)
{
    memset(nb_seen, 0, sizeof nb_seen);
    ck_assert_int_eq(collsim_test_run_ranks(P, nonblocking_rank, NULL), 0);
    ck_assert_int_eq(collsim_comm_live_count(), 0);
    for (int w = 0; w < P; w++) {
        const struct nb_seen *s = &nb_seen[w];
        int a = w % 2 == 0;
        ck_assert_int_eq(s->rc, MPI_SUCCESS);
        ck_assert_int_eq(s->bcast, a ? (w == 4 ? 1004 : -1) : 1004);
        ck_assert_int_eq(s->allreduce, a ? 6 : 9);
        if (w == 1) {
            ck_assert_int_eq(s->gather[0], 1);
            ck_assert_int_eq(s->gather[1], 3);
            ck_assert_int_eq(s->gather[2], 5);
        } else {
            ck_assert_int_eq(s->gather[0], -1);
        }
        ck_assert_int_eq(s->reduce, w == 0 ? 24 : -1);
        if (a) {
            ck_assert_int_eq(s->allgather[0], 2);
            ck_assert_int_eq(s->allgather[1], 4);
            ck_assert_int_eq(s->allgather[2], -1);
        } else {
            ck_assert_int_eq(s->allgather[0], 1);
            ck_assert_int_eq(s->allgather[1], 3);
            ck_assert_int_eq(s->allgather[2], 5);
        }
        ck_assert_int_eq(s->persistent[0], a ? 60 : 90);
        ck_assert_int_eq(s->persistent[1], a ? 80 : 120);
    }
}
END_TEST

static Suite *
intercomm_suite(void)
{
    Suite *s = suite_create("intercomm");
    TCase *tc = tcase_create("intercomm");
    tcase_add_checked_fixture(tc, NULL, teardown_world);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_intercomm_queries_p2p_collectives_merge);
    tcase_add_test(tc, test_intercomm_merge_equal_high_lower_leader_first);
    tcase_add_test(tc, test_intercomm_errors);
    tcase_add_test(tc, test_intercomm_nonblocking_and_persistent);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(intercomm_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
