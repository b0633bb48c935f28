/*
 * scale_probe.c — one MPI construct, at whatever number of ranks it is run with, checked: the
 * probes of tests/bench/scale_probes.sh, which look for what grows faster than P in a
 * simulator (a walk of every communicator at each rank's MPI_Finalize, P copies of a group of
 * P/2 members, message records kept until the end). Plain MPI: built for collsim (cc -shared)
 * and for SMPI (smpicc) alike, without globals (SMPI runs it unprivatized). Rank 0 prints the construct, P, the simulated time and "ok",
 * or "wrong" with the first rank that saw a wrong result.
 *   scale_probe CONSTRUCT [N]
 * CONSTRUCT: split dup split_type group_range group_incl cart dist_graph intercomm barrier
 * scan exscan ibarrier (N in flight at once, default 8) alltoall allgather gatherv waitany
 * split_self comm_idup cart_sub neighbor ibcast iallreduce bcast_init (started N times)
 * type_vector attr_dup user_op any_source reduce_scatter allgatherv
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

/* A sum over the communicator, to use what a constructor made. */
static int
members(MPI_Comm comm)
{
    int one = 1, n = 0;
    MPI_Allreduce(&one, &n, 1, MPI_INT, MPI_SUM, comm);
    return n;
}

static int
probe_split(int rank, int size)
{
    MPI_Comm c;
    int color = rank % 7, n, expect = size / 7 + (color < size % 7);
    MPI_Comm_split(MPI_COMM_WORLD, color, size - rank, &c);
    n = members(c);
    MPI_Comm_free(&c);
    return n == expect;
}

static int
probe_dup(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    MPI_Comm c;
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    int n = members(c);
    MPI_Comm_free(&c);
    return n == size;
}

static int
probe_split_type(int rank, int size)
{
    (void)size; /* every probe is called alike */
    MPI_Comm c;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &c);
    int n = members(c), local;
    MPI_Comm_size(c, &local);
    MPI_Comm_free(&c);
    return n == local;
}

/* The members of `group` make a communicator of them and sum over it. */
static int
create_from(MPI_Group group, int expect)
{
    MPI_Comm c;
    int ok = 1;
    MPI_Comm_create(MPI_COMM_WORLD, group, &c);
    if (c != MPI_COMM_NULL) {
        ok = members(c) == expect;
        MPI_Comm_free(&c);
    }
    return ok;
}

static int
probe_group_range(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    MPI_Group world, evens;
    int range[1][3] = {{0, size - 1, 2}};
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_range_incl(world, 1, range, &evens);
    int ok = create_from(evens, (size + 1) / 2);
    MPI_Group_free(&evens);
    MPI_Group_free(&world);
    return ok;
}

/* Every rank but multiples of 3, listed: members that do not step evenly. */
static int
probe_group_incl(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    MPI_Group world, some;
    int *list = malloc(sizeof(int) * (size_t)size), n = 0;
    for (int i = 0; i < size; i++)
        if (i % 3 != 0)
            list[n++] = i;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, n, list, &some);
    free(list);
    int ok = create_from(some, n);
    MPI_Group_free(&some);
    MPI_Group_free(&world);
    return ok;
}

static int
probe_cart(int rank, int size)
{
    int dims[3] = {0, 0, 0}, periods[3] = {1, 1, 1}, src, dst, got = -1;
    MPI_Comm c;
    MPI_Dims_create(size, 3, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &c);
    MPI_Cart_shift(c, 0, 1, &src, &dst);
    MPI_Sendrecv(&rank, 1, MPI_INT, dst, 0, &got, 1, MPI_INT, src, 0, c, MPI_STATUS_IGNORE);
    MPI_Comm_free(&c);
    return got == src;
}

static int
probe_dist_graph(int rank, int size)
{
    int peers[2] = {(rank + size - 1) % size, (rank + 1) % size}, out[2] = {rank, rank}, in[2];
    MPI_Comm c;
    MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, peers, MPI_UNWEIGHTED, 2, peers,
                                   MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &c);
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, c);
    MPI_Comm_free(&c);
    return in[0] == peers[0] && in[1] == peers[1];
}

static int
probe_intercomm(int rank, int size)
{
    MPI_Comm half, inter, merged;
    int color = rank % 2, sum = 0;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
    MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
    MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter);
    MPI_Intercomm_merge(inter, color, &merged);
    int n = members(merged);
    MPI_Comm_free(&merged);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&half);
    /* the other group's ranks: the odd ranks' sum for the evens, and the evens' for the odds */
    long odd = (long)(size / 2) * (size / 2), even = (long)size * (size - 1) / 2 - odd;
    return n == size && sum == (color == 0 ? odd : even);
}

static int
probe_barrier(int rank, int size)
{
    (void)rank, (void)size; /* every probe is called alike */
    return MPI_Barrier(MPI_COMM_WORLD) == MPI_SUCCESS;
}

static int
probe_scan(int rank, int size)
{
    (void)size; /* every probe is called alike */
    long x = rank, prefix = -1;
    MPI_Scan(&x, &prefix, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return prefix == (long)rank * (rank + 1) / 2;
}

static int
probe_exscan(int rank, int size)
{
    (void)size; /* every probe is called alike */
    long one = 1, before = -1;
    MPI_Exscan(&one, &before, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
    return rank == 0 || before == rank;
}

static int
probe_ibarrier(int rank, int size, int n)
{
    (void)rank, (void)size; /* every probe is called alike */
    MPI_Request *r = malloc(sizeof *r * (size_t)n);
    for (int i = 0; i < n; i++)
        MPI_Ibarrier(MPI_COMM_WORLD, &r[i]);
    int rc = MPI_Waitall(n, r, MPI_STATUSES_IGNORE);
    free(r);
    return rc == MPI_SUCCESS;
}

static int
probe_alltoall(int rank, int size)
{
    int *s = malloc(sizeof(int) * (size_t)size), *r = malloc(sizeof(int) * (size_t)size), ok = 1;
    for (int i = 0; i < size; i++)
        s[i] = rank * size + i;
    MPI_Alltoall(s, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size && ok; i++)
        ok = r[i] == i * size + rank;
    free(s);
    free(r);
    return ok;
}

static int
probe_allgather(int rank, int size)
{
    int *r = malloc(sizeof(int) * (size_t)size), ok = 1;
    MPI_Allgather(&rank, 1, MPI_INT, r, 1, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size && ok; i++)
        ok = r[i] == i;
    free(r);
    return ok;
}

/* The root receives from every rank, taking the messages with MPI_Waitany one at a time: P
 * calls over P requests, O(P^2) in any MPI (a master collecting its workers' results). */
static int
probe_waitany(int rank, int size)
{
    if (rank != 0)
        return MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD) == MPI_SUCCESS;
    int *got = malloc(sizeof(int) * (size_t)size), ok = 1;
    MPI_Request *r = malloc(sizeof *r * (size_t)size);
    for (int i = 1; i < size; i++)
        MPI_Irecv(&got[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &r[i - 1]);
    for (int k = 1; k < size; k++) {
        int index;
        MPI_Status st;
        MPI_Waitany(size - 1, r, &index, &st);
        ok = ok && index >= 0 && st.MPI_SOURCE == index + 1 && got[index + 1] == index + 1;
    }
    free(r);
    free(got);
    return ok;
}

static int
probe_gatherv(int rank, int size)
{
    int *counts = NULL, *displs = NULL, *all = NULL, ok = 1;
    if (rank == 0) {
        counts = malloc(sizeof(int) * (size_t)size);
        displs = malloc(sizeof(int) * (size_t)size);
        all = malloc(sizeof(int) * (size_t)size);
        for (int i = 0; i < size; i++) {
            counts[i] = 1;
            displs[size - 1 - i] = i; /* reversed */
        }
    }
    MPI_Gatherv(&rank, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        for (int i = 0; i < size && ok; i++)
            ok = all[i] == size - 1 - i;
        free(counts);
        free(displs);
        free(all);
    }
    return ok;
}

/* Each rank its own color: P communicators of one rank each. */
static int
probe_split_self(int rank, int size)
{
    (void)size; /* every probe is called alike */
    MPI_Comm c;
    MPI_Comm_split(MPI_COMM_WORLD, rank, 0, &c);
    int n = members(c);
    MPI_Comm_free(&c);
    return n == 1;
}

static int
probe_comm_idup(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    MPI_Comm c;
    MPI_Request r;
    MPI_Comm_idup(MPI_COMM_WORLD, &c, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    int n = members(c);
    MPI_Comm_free(&c);
    return n == size;
}

/* The planes of a two-dimensional grid: MPI_Cart_sub keeps the second dimension. */
static int
probe_cart_sub(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    int dims[2] = {0, 0}, periods[2] = {0, 0}, keep[2] = {0, 1}, n;
    MPI_Comm grid, row;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Cart_sub(grid, keep, &row);
    n = members(row);
    MPI_Comm_free(&row);
    MPI_Comm_free(&grid);
    return n == dims[1];
}

/* A five-point stencil's exchange on a periodic 2-D grid. */
static int
probe_neighbor(int rank, int size)
{
    int dims[2] = {0, 0}, periods[2] = {1, 1}, got[4] = {-1, -1, -1, -1}, ok = 1;
    MPI_Comm grid;
    MPI_Dims_create(size, 2, dims);
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    MPI_Neighbor_allgather(&rank, 1, MPI_INT, got, 1, MPI_INT, grid);
    for (int d = 0; d < 2; d++) {
        int src, dst;
        MPI_Cart_shift(grid, d, 1, &src, &dst);
        ok = ok && got[2 * d] == src && got[2 * d + 1] == dst;
    }
    MPI_Comm_free(&grid);
    return ok;
}

static int
probe_ibcast(int rank, int size)
{
    (void)size; /* every probe is called alike */
    int x = rank == 0 ? 42 : -1;
    MPI_Request r;
    MPI_Ibcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return x == 42;
}

static int
probe_iallreduce(int rank, int size)
{
    long x = rank, sum = -1;
    MPI_Request r;
    MPI_Iallreduce(&x, &sum, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    return sum == (long)size * (size - 1) / 2;
}

/* A persistent broadcast started N times. */
static int
probe_bcast_init(int rank, int size, int n)
{
    (void)size; /* every probe is called alike */
    int x = -1, ok = 1;
#ifdef SCALE_PROBE_NO_BCAST_INIT /* SMPI 3.32 has no MPI-4 persistent collectives */
    if (rank == 0)
        fprintf(stderr, "MPI_Bcast_init: Not yet implemented\n");
    MPI_Abort(MPI_COMM_WORLD, 3);
    return x == n && ok;
#else
    MPI_Request r;
    MPI_Bcast_init(&x, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
    for (int i = 0; i < n; i++) {
        if (rank == 0)
            x = i;
        MPI_Start(&r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        ok = ok && x == i;
    }
    MPI_Request_free(&r);
    return ok;
#endif
}

/* Every rank makes a strided type and sends one element of it around a ring. */
static int
probe_type_vector(int rank, int size)
{
    int v[6] = {rank, -1, rank + 1, -1, rank + 2, -1}, got[3] = {-1, -1, -1};
    int src = (rank + size - 1) % size;
    MPI_Datatype every_other;
    MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Sendrecv(v, 1, every_other, (rank + 1) % size, 0, got, 3, MPI_INT, src, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Type_free(&every_other);
    return got[0] == src && got[1] == src + 1 && got[2] == src + 2;
}

/* An attribute with a copy callback, carried over by MPI_Comm_dup. */
static int
probe_attr_dup(int rank, int size)
{
    (void)rank; /* every probe is called alike */
    int keyval, *found = NULL, flag = 0;
    static int value = 7; /* the same address on every rank (and under SMPI, unprivatized) */
    MPI_Comm c;
    MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &keyval, NULL);
    MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &value);
    MPI_Comm_dup(MPI_COMM_WORLD, &c);
    MPI_Comm_get_attr(c, keyval, &found, &flag);
    int n = members(c);
    MPI_Comm_free(&c);
    MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval);
    MPI_Comm_free_keyval(&keyval);
    return flag && found == &value && n == size;
}

/* A non-commutative user op (2x2 integer matrix product) reduced to the root. */
static void
matrix_product(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type; /* the op is only used with four ints */
    for (int k = 0; k < *len; k++) {
        long *a = (long *)in + 4 * k, *b = (long *)inout + 4 * k, c[4];
        c[0] = a[0] * b[0] + a[1] * b[2];
        c[1] = a[0] * b[1] + a[1] * b[3];
        c[2] = a[2] * b[0] + a[3] * b[2];
        c[3] = a[2] * b[1] + a[3] * b[3];
        memcpy(b, c, sizeof c);
    }
}

/* The product of the ranks' [[1, 1], [0, 1]] shears, in rank order, is [[1, P], [0, 1]]. */
static int
probe_user_op(int rank, int size)
{
    long shear[4] = {1, 1, 0, 1}, product[4] = {0, 0, 0, 0};
    MPI_Op op;
    MPI_Datatype quad;
    MPI_Type_contiguous(4, MPI_LONG, &quad);
    MPI_Type_commit(&quad);
    MPI_Op_create(matrix_product, 0, &op);
    MPI_Reduce(shear, product, 1, quad, op, 0, MPI_COMM_WORLD);
    MPI_Op_free(&op);
    MPI_Type_free(&quad);
    return rank != 0 || (product[0] == 1 && product[1] == size && product[2] == 0 &&
                         product[3] == 1);
}

/* Every rank sends to its right neighbour; the receiver takes it from whoever sent it. */
static int
probe_any_source(int rank, int size)
{
    int got = -1;
    MPI_Status st;
    MPI_Request r;
    MPI_Irecv(&got, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
    MPI_Ssend(&rank, 1, MPI_INT, (rank + 1) % size, rank, MPI_COMM_WORLD);
    MPI_Wait(&r, &st);
    int src = (rank + size - 1) % size;
    return got == src && st.MPI_SOURCE == src && st.MPI_TAG == src;
}

static int
probe_reduce_scatter(int rank, int size)
{
    int *s = malloc(sizeof(int) * (size_t)size), got = -1;
    for (int i = 0; i < size; i++)
        s[i] = rank + i;
    MPI_Reduce_scatter_block(s, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    free(s);
    /* sum over r of (r + rank) */
    return got == (int)((long)size * (size - 1) / 2 + (long)size * rank);
}

static int
probe_allgatherv(int rank, int size)
{
    int *r = malloc(sizeof(int) * (size_t)size), *counts = malloc(sizeof(int) * (size_t)size);
    int *displs = malloc(sizeof(int) * (size_t)size), ok = 1;
    for (int i = 0; i < size; i++) {
        counts[i] = 1;
        displs[i] = size - 1 - i;
    }
    MPI_Allgatherv(&rank, 1, MPI_INT, r, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (int i = 0; i < size && ok; i++)
        ok = r[i] == size - 1 - i;
    free(r);
    free(counts);
    free(displs);
    return ok;
}

int
main(int argc, char **argv)
{
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const char *what = argc > 1 ? argv[1] : "split";
    int n = argc > 2 ? atoi(argv[2]) : 8;
    double t0 = MPI_Wtime();
    int ok = -1;
    if (!strcmp(what, "split")) ok = probe_split(rank, size);
    else if (!strcmp(what, "dup")) ok = probe_dup(rank, size);
    else if (!strcmp(what, "split_type")) ok = probe_split_type(rank, size);
    else if (!strcmp(what, "group_range")) ok = probe_group_range(rank, size);
    else if (!strcmp(what, "group_incl")) ok = probe_group_incl(rank, size);
    else if (!strcmp(what, "cart")) ok = probe_cart(rank, size);
    else if (!strcmp(what, "dist_graph")) ok = probe_dist_graph(rank, size);
    else if (!strcmp(what, "intercomm")) ok = probe_intercomm(rank, size);
    else if (!strcmp(what, "barrier")) ok = probe_barrier(rank, size);
    else if (!strcmp(what, "scan")) ok = probe_scan(rank, size);
    else if (!strcmp(what, "exscan")) ok = probe_exscan(rank, size);
    else if (!strcmp(what, "ibarrier")) ok = probe_ibarrier(rank, size, n > 0 ? n : 1);
    else if (!strcmp(what, "alltoall")) ok = probe_alltoall(rank, size);
    else if (!strcmp(what, "allgather")) ok = probe_allgather(rank, size);
    else if (!strcmp(what, "gatherv")) ok = probe_gatherv(rank, size);
    else if (!strcmp(what, "waitany")) ok = probe_waitany(rank, size);
    else if (!strcmp(what, "split_self")) ok = probe_split_self(rank, size);
    else if (!strcmp(what, "comm_idup")) ok = probe_comm_idup(rank, size);
    else if (!strcmp(what, "cart_sub")) ok = probe_cart_sub(rank, size);
    else if (!strcmp(what, "neighbor")) ok = probe_neighbor(rank, size);
    else if (!strcmp(what, "ibcast")) ok = probe_ibcast(rank, size);
    else if (!strcmp(what, "iallreduce")) ok = probe_iallreduce(rank, size);
    else if (!strcmp(what, "bcast_init")) ok = probe_bcast_init(rank, size, n > 0 ? n : 1);
    else if (!strcmp(what, "type_vector")) ok = probe_type_vector(rank, size);
    else if (!strcmp(what, "attr_dup")) ok = probe_attr_dup(rank, size);
    else if (!strcmp(what, "user_op")) ok = probe_user_op(rank, size);
    else if (!strcmp(what, "any_source")) ok = probe_any_source(rank, size);
    else if (!strcmp(what, "reduce_scatter")) ok = probe_reduce_scatter(rank, size);
    else if (!strcmp(what, "allgatherv")) ok = probe_allgatherv(rank, size);
    if (ok < 0) {
        if (rank == 0)
            fprintf(stderr, "scale_probe: unknown construct %s\n", what);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    double elapsed = MPI_Wtime() - t0;
    int first_wrong = ok ? size : rank, worst;
    MPI_Reduce(&first_wrong, &worst, 1, MPI_INT, MPI_MIN, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        if (worst == size)
            printf("%s P=%d simulated=%.9f ok\n", what, size, elapsed);
        else
            printf("%s P=%d simulated=%.9f wrong (rank %d)\n", what, size, elapsed, worst);
    }
    MPI_Finalize();
    return 0;
}
