/*
 * reference.c — what the seed programs (scenarios/seeds/NAME.c) must print, computed
 * sequentially, without MPI, from the data each program's header comment defines. Only the
 * lines that do not depend on time are printed; test_seeds.sh compares them with the
 * programs' output minus the lines that hold "time =".
 *
 *   reference PROGRAM P [ARGS...]
 *
 * It shares no code with the programs, and wherever it can it computes differently: exact
 * integer arithmetic (Gaussian integers in long long for the complex products, closed forms
 * for sum modulo 5, long long dot products) instead of the programs' doubles and floats, and
 * a plain scan over all ranks' data for MAXLOC and MINLOC instead of a reduction tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int
usage(void)
{
    fprintf(stderr, "usage: reference PROGRAM P [ARGS...]\n");
    return 2;
}

/* ---------------------------------------------------------------- complex_product */

struct gauss {
    long long re, im;
};

static struct gauss
gmul(struct gauss x, struct gauss y)
{
    struct gauss z = {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
    return z;
}

static int
complex_product(int p, int argc, char **argv)
{
    int commute = !(argc > 0 && strcmp(argv[0], "noncommute") == 0);
    enum { N = 100 };
    struct gauss answer[N];
    for (int k = 0; k < N; k++) {
        struct gauss acc = {1, 0};
        for (int r = 0; r < p; r++) {
            /* i^((r + k) mod 4) */
            struct gauss z = {1, 0};
            for (int e = 0; e < (r + k) % 4; e++)
                z = gmul(z, (struct gauss){0, 1});
            if (r < 32 && (3 * r + k) % 5 == 0)
                z = gmul(z, (struct gauss){1, 1});
            if (r < 32 && (3 * r + k) % 5 == 1)
                z = gmul(z, (struct gauss){1, -1});
            acc = gmul(acc, z); /* rank order: acc = a_0 * a_1 * ... * a_r */
        }
        answer[k] = acc;
    }
    long long checksum = 0;
    for (int k = 0; k < N; k++)
        checksum += (k + 1) * (answer[k].re + 2 * answer[k].im);
    printf("myOp commutative = %d\n", commute);
    const int show[] = {0, 1, N - 1};
    for (int s = 0; s < 3; s++)
        printf("answer[%d] = (%lld, %lld)\n", show[s], answer[show[s]].re, answer[show[s]].im);
    printf("checksum = %lld\n", checksum);
    return 0;
}

/* ---------------------------------------------------------------- smod5 */

static int
smod5(int p)
{
    enum { N = 1000 };
    long long sum = 0;
    long long b[N + 1];
    for (int r = 0; r < p; r++)
        printf("process %d a(1) = %d\n", r, 1 + r);
    for (long long i = 1; i <= N; i++) {
        /* one rank: the op is never applied and b = a; else sum_r (i + r) mod 5 */
        b[i] = p == 1 ? i : (p * i + (long long)p * (p - 1) / 2) % 5;
        sum += b[i];
    }
    printf("b(1) = %lld\nb(2) = %lld\nb(3) = %lld\nb(%d) = %lld\n", b[1], b[2], b[3], N, b[N]);
    printf("sum of b = %lld\n", sum);
    printf("op == MPI_OP_NULL after MPI_Op_free: yes\n");
    return 0;
}

/* ---------------------------------------------------------------- maxloc */

static int
maxloc(int p)
{
    for (int i = 0; i < 30; i++) {
        /* value of rank r, doubled to stay in integers: 2i + min(r, i mod 10) */
        long best = -1;
        int where = -1;
        for (int r = 0; r < p; r++) {
            long v = 2L * i + (r < i % 10 ? r : i % 10);
            if (v > best) { /* strictly greater: the first (lowest) rank keeps a tie */
                best = v;
                where = r;
            }
        }
        printf("aout[%d] = %ld.%s  ind[%d] = %d\n", i, best / 2, best % 2 ? "50" : "00", i,
               where);
    }
    return 0;
}

/* ---------------------------------------------------------------- minloc */

static int
minloc(int p)
{
    enum { LEN = 1000 };
    long best = -1, best_global = -1;
    for (int r = 0; r < p; r++) {
        /* values doubled: |2r - (P-1)| + 1 + 2 ((37 j + 11 r) mod 101) */
        long local = -1;
        int local_j = -1;
        for (int j = 0; j < LEN; j++) {
            long v = labs(2L * r - (p - 1)) + 1 + 2 * ((37L * j + 11L * r) % 101);
            if (local < 0 || v < local) {
                local = v;
                local_j = j;
            }
        }
        printf("rank %d: local minimum %ld.%d at index %d\n", r, local / 2, local % 2 ? 5 : 0,
               local_j);
        if (best < 0 || local < best) {
            best = local;
            best_global = (long)r * LEN + local_j;
        }
    }
    printf("minval = %ld.%d  minrank = %ld  minindex = %ld\n", best / 2, best % 2 ? 5 : 0,
           best_global / LEN, best_global % LEN);
    return 0;
}

/* ---------------------------------------------------------------- par_blas1, par_blas2 */

static int
par_blas1(int p, int argc, char **argv)
{
    long long m = argc > 0 ? atoll(argv[0]) : 10, c = 0;
    for (long long g = 0; g < m * p; g++)
        c += (g % 7 - 3) * (g % 5 - 2);
    printf("c = %lld.0 (MPI_Reduce to rank 0)\n", c);
    printf("c = %lld.0 (MPI_Allreduce), the same on every rank: yes\n", c);
    return 0;
}

static int
par_blas2(int p, int argc, char **argv)
{
    long long m = argc > 0 ? atoll(argv[0]) : 4;
    int n = argc > 1 ? atoi(argv[1]) : 6;
    long long *c = calloc((size_t)n, sizeof *c);
    for (long long g = 0; g < m * p; g++)
        for (int j = 0; j < n; j++)
            c[j] += (g % 3 - 1) * ((g + 2 * j) % 5 - 2);
    printf("MPI_Reduce to rank 0:\n");
    for (int j = 0; j < n; j++)
        printf("c(%d) = %lld.0\n", j + 1, c[j]);
    printf("MPI_Allreduce, the same on every rank: yes\n");
    for (int j = 0; j < n; j++)
        printf("c(%d) = %lld.0\n", j + 1, c[j]);
    free(c);
    return 0;
}

/* ---------------------------------------------------------------- doubling_sum */

static int
doubling_sum(int p)
{
    if (p & (p - 1))
        return fprintf(stderr, "reference: doubling_sum needs a power of two\n"), 1;
    /* P copies of 1/P, P a power of two: exactly 1 */
    printf("model b(1)= %.15f\n", 1.0);
    printf("reduce b(1)= %.15f\n", 1.0);
    return 0;
}

/* ---------------------------------------------------------------- the two exercises */

static int
allreduce_from_reduce_bcast(int p, int argc, char **argv)
{
    long long n = argc > 0 ? atoll(argv[0]) : 1000, sum = 0, first = 0, last = 0;
    for (long long i = 0; i < n; i++) {
        long long y = 0;
        for (long long r = 0; r < p; r++)
            y += i % 10 + r;
        if (i == 0)
            first = y;
        last = y;
        sum += y;
    }
    printf("y(1) = %lld.0\ny(%lld) = %lld.0\nsum of y = %lld.0\n", first, n, last, sum);
    printf("reduce + bcast equals MPI_Allreduce on every rank: yes\n");
    return 0;
}

static int
barrier_from_messages(int p)
{
    printf("message barrier: %d messages per call\n", 2 * (p - 1));
    printf("message barrier: no rank left before the last one arrived: yes\n");
    printf("MPI_Barrier: no rank left before the last one arrived: yes\n");
    return 0;
}

/* Exercise 9: P blocks of n ints rank*1000+i gathered at rank 0. */
static void
gather_from_messages(int p, int argc, char **argv)
{
    int n = argc > 0 ? atoi(argv[0]) : 100;
    long long sum = 0;
    for (int r = 0; r < p; r++)
        for (int i = 0; i < n; i++)
            sum += r * 1000 + i;
    printf("gathered %d x %d ints, sum %lld, last %d\n", p, n, sum, (p - 1) * 1000 + n - 1);
    printf("hand-written gather equals MPI_Gather: yes\n");
}

/* Exercise 6: the broadcast gives all P*n values 0..P*n-1, the scatter block r: r*n..r*n+n-1. */
static void
bcast_vs_scatter(int p, int argc, char **argv)
{
    int n = argc > 0 ? atoi(argv[0]) : 4;
    for (int r = 0; r < p; r++)
        printf("rank %d: MPI_Bcast gave %d ints [0..%d], MPI_Scatter gave %d ints [%d..%d]\n", r,
               p * n, p * n - 1, n, r * n, r * n + n - 1);
}

/* Exercise 4: the pending receive never catches the broadcast; it gets the root's later
 * point-to-point message (value r, tag 5, from rank 0). */
static void
recv_from_bcast(int p)
{
    for (int r = 1; r < p; r++)
        printf("rank %d: broadcast gave 42; the pending receive did not catch the broadcast; "
               "it then got %d (tag 5) from rank 0\n",
               r, r);
}

int
main(int argc, char **argv)
{
    if (argc < 3)
        return usage();
    const char *name = argv[1];
    int p = atoi(argv[2]);
    if (p < 1)
        return usage();
    argc -= 3;
    argv += 3;
    if (strcmp(name, "complex_product") == 0)
        return complex_product(p, argc, argv);
    if (strcmp(name, "smod5") == 0)
        return smod5(p);
    if (strcmp(name, "maxloc") == 0)
        return maxloc(p);
    if (strcmp(name, "minloc") == 0)
        return minloc(p);
    if (strcmp(name, "par_blas1") == 0)
        return par_blas1(p, argc, argv);
    if (strcmp(name, "par_blas2") == 0)
        return par_blas2(p, argc, argv);
    if (strcmp(name, "doubling_sum") == 0)
        return doubling_sum(p);
    if (strcmp(name, "allreduce_from_reduce_bcast") == 0)
        return allreduce_from_reduce_bcast(p, argc, argv);
    if (strcmp(name, "gather_from_messages") == 0) {
        gather_from_messages(p, argc, argv);
        return 0;
    }
    if (strcmp(name, "bcast_vs_scatter") == 0) {
        bcast_vs_scatter(p, argc, argv);
        return 0;
    }
    if (strcmp(name, "recv_from_bcast") == 0) {
        recv_from_bcast(p);
        return 0;
    }
    if (strcmp(name, "barrier_from_messages") == 0)
        return barrier_from_messages(p);
    fprintf(stderr, "reference: unknown program '%s'\n", name);
    return 2;
}
