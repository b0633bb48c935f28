/*
 * predict_allgather.c — α-β predictions of allgather and allgatherv
 * (src/coll/allgather/, src/coll/allgatherv/): ring, recursive_doubling, bruck,
 * neighbor_exchange, gather_bcast, two_proc, pair, direct, sparbit and k_bruck for both;
 * allgather's linear, recexch, 2dmesh and 3dmesh, and its smp on single-core hosts. n is one
 * rank's block; allgatherv's rows take equal blocks and share allgather's formulas.
 *
 * Invariants (as in every file of models/predict/): each formula is a pure function of its
 * struct ctx, written with the primitives of predict_core.h, and its comment gives the
 * TEXTBOOK cost and says whether the COLLSIM one is exact or approximate, and why; the rows at
 * the end name the algorithms exactly as the registry does (src/coll/coll_registry.c), one
 * row per pair, the smp row (if any) last.
 */
#include "predict_core.h"

/* ring: p-1 shifts of one block: (p-1)·xmsg(n). TEXTBOOK (p-1)α + (p-1)nβ. Exact. */
static double
allgather_ring(const struct ctx *c)
{
    return (c->p - 1) * xmsg(c, c->n);
}

/* recursive_doubling: TEXTBOOK at p = 2^F: Fα + (p-1)nβ (recursive_doubling_allgather()).
 * COLLSIM: p = 2^F: Σ xmsg(2^k n), exact. Otherwise rank by rank with MPICH's fix-up
 * messages (clocks_recursive_doubling_allgather); approximate: a fix-up message may share a
 * link with an exchange. */
static double
allgather_recursive_doubling(const struct ctx *c)
{
    if (c->textbook || is_pof2(c->p))
        return recursive_doubling_allgather(c, c->n);
    struct rank_clocks rc;
    clocks_init(&rc, c->p);
    clocks_recursive_doubling_allgather(c, &rc, c->n);
    double end = clocks_max(&rc);
    clocks_free(&rc);
    return end;
}

/* bruck: L rounds; in round k every rank sends min(2^k, p - 2^k) blocks to r - 2^k and
 * receives as many from r + 2^k (p-1 blocks in all), then rotates locally.
 * TEXTBOOK Lα + (p-1)nβ. Exact (every rank sends as much in every round). */
static double
allgather_bruck(const struct ctx *c)
{
    double time = 0.0;
    for (int k = 0; k < ceil_log2(c->p); k++)
        time += xmsg(c, (double)MIN(1LL << k, (long long)c->p - (1LL << k)) * c->n);
    return time;
}

/* neighbor_exchange (Chen et al.; Open MPI): p even: one exchange of 1 block with one
 * neighbour, then p/2 - 1 exchanges of 2 blocks alternating neighbours:
 * xmsg(n) + (p/2 - 1)·xmsg(2n); TEXTBOOK (p/2)α + (p-1)nβ. Exact. (Odd p is refused by the
 * registry; the formula then gives the ring's.) */
static double
allgather_neighbor_exchange(const struct ctx *c)
{
    if (c->p % 2 != 0)
        return allgather_ring(c);
    return xmsg(c, c->n) + (c->p / 2 - 1) * xmsg(c, 2.0 * c->n);
}

/* gather_bcast: binomial gather of the blocks to rank 0, then binomial broadcast of all p·n
 * from rank 0, every other rank waiting for it. TEXTBOOK at p = 2^F:
 * Fα + (p-1)nβ + F(α + pnβ). Exact. */
static double
allgather_gather_bcast(const struct ctx *c)
{
    return gather_binomial(c) + knomial_down(c, c->p, 2, c->p * c->n, -1);
}

/* two_proc (p = 2, refused otherwise): one exchange, xmsg(n); TEXTBOOK α + nβ. Exact. At
 * other p the ring's formula stands in. */
static double
allgather_two_proc(const struct ctx *c)
{
    return allgather_ring(c);
}

/* pair (p a power of two, refused otherwise): p-1 exchanges of the own block with r xor k,
 * (p-1)·xmsg(n); TEXTBOOK (p-1)α + (p-1)nβ. Exact. */
static double
allgather_pair(const struct ctx *c)
{
    return allgather_ring(c);
}

/* k messages of m bytes each rank posts at once to k different ranks, receiving as many from
 * k others, every rank alike (alltoall linear's round): eager α + k·max(m,1)β(1+x) (the NIC
 * sends them back to back, the i-th one arriving as the (i+1)-th leaves); rendezvous their
 * data flows share the sender's link (isend_rendezvous). TEXTBOOK k(α + mβ). */
double
posted_round(const struct ctx *c, double k, double m)
{
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b);
    if (is_eager(c, m))
        return c->a + k * wire(c, m) * c->b * (1.0 + c->x) + (k - 1) * (c->os + c->orr);
    return isend_rendezvous(c, (guint)k, m, c->b * (1.0 + c->x));
}

/* direct: every rank posts p-1 receives and p-1 sends of its block at once, to r+1, r+2 …:
 * one posted round of p-1 messages. TEXTBOOK (p-1)(α + nβ). Exact (as alltoall linear). */
static double
allgather_direct(const struct ctx *c)
{
    return posted_round(c, c->p - 1, c->n);
}

/* sparbit: L rounds at distances 2^(L-1) … 1; in each a rank posts one message per block it
 * sends (h of them, fewer by one where Open MPI's mask excludes a block), all to r+d, and
 * receives as many from r-d: a posted round of h messages of n. TEXTBOOK (one port, every
 * message α + nβ) (p-1)(α + nβ). COLLSIM exact: every rank does the same, and the h messages
 * into a rank come from one sender's NIC one after the other. */
static double
allgather_sparbit(const struct ctx *c)
{
    int rounds = ceil_log2(c->p), low = 0;
    double time = 0.0;
    while ((((unsigned)c->p >> low) & 1u) == 0)
        low++;
    unsigned ignore = (~((unsigned)c->p >> low) | 1u) << low;
    long long expected = 1;
    for (int i = rounds - 1; i >= 0; i--) {
        unsigned d = 1u << i;
        int exclusion = (d & ignore) == d;
        time += posted_round(c, (double)(expected - exclusion), c->n);
        expected = 2 * expected - exclusion;
    }
    return time;
}

/* k_bruck (radix k): rounds d = 1, k, k², … < p; in each a rank posts k-1 sends (fewer in the
 * last round) of min(d, p - j·d) blocks to r - j·d and as many receives from r + j·d.
 * TEXTBOOK Σ rounds Σ_j (α + m_j β). COLLSIM: a posted round; where the messages of a round
 * differ in size (p not a power of k), their total is spread evenly over them: exact when
 * eager (the NIC sends them back to back, only the total counts), an approximation when
 * rendezvous. */
static double
allgather_k_bruck(const struct ctx *c)
{
    double time = 0.0;
    for (long long d = 1; d < c->p; d *= c->radix) {
        double k = 0, blocks = 0;
        for (long long j = 1; j < c->radix && j * d < c->p; j++) {
            k++;
            blocks += (double)MIN(d, c->p - j * d);
        }
        if (c->textbook || is_eager(c, blocks / k * c->n)) {
            double eager_part = 0.0;
            for (long long j = 1; j < c->radix && j * d < c->p; j++)
                eager_part += wire(c, (double)MIN(d, c->p - j * d) * c->n);
            time += c->textbook ? k * c->a + eager_part * c->b
                                : c->a + eager_part * c->b * (1.0 + c->x) +
                                      (k - 1) * (c->os + c->orr);
        } else {
            time += posted_round(c, k, blocks / k * c->n);
        }
    }
    return time;
}

/* linear: rank 0 posts p-1 receives, every other rank sends its block (fan_in_posted); then
 * rank 0 sends all p blocks to each other rank in turn with blocking sends (bcast linear's
 * fan_out_equal), the others already waiting. TEXTBOOK (p-1)(α + nβ) + (p-1)(α + pnβ).
 * Exact. */
static double
allgather_linear(const struct ctx *c)
{
    return fan_in_posted(c, c->p - 1, c->n) + fan_out_equal(c, c->p - 1, c->p * c->n);
}

/* recexch (radix k): q = k^F ranks (F = ⌊log_k p⌋) exchange, the p - q others folded in by
 * sets of k (MPICH's recursive exchange). Steps: a folded rank's block to its set's last rank
 * (up to k-1 arriving together: fan_in_posted); F rounds, each a posted round of k-1
 * messages of a group's blocks; all p blocks back to the folded ranks (fan_out_posted).
 * TEXTBOOK at p = k^F: F(k-1)α + (p-1)nβ (round i: k-1 messages of k^i·n, one port).
 * COLLSIM: exact at p = k^F (every rank alike); otherwise the groups hold different numbers
 * of blocks and a round is taken at its largest group: an approximation. */
static double
allgather_recexch(const struct ctx *c)
{
    int k = c->radix, q = 1, phases = 0;
    while ((long long)q * k <= c->p) {
        q *= k;
        phases++;
    }
    int rem = c->p - q;
    int t = (int)((long long)rem * k / (k - 1));
    int sets = t / k;
    double time = 0.0;
    if (rem > 0)
        time += fan_in_posted(c, MIN(k - 1, t), c->n);
    for (long long group = 1, i = 0; i < phases; i++, group *= k) {
        long long most = 0;
        for (long long g = 0; g < q; g += group) {
            long long first = g <= sets ? g * k : g + rem;
            long long end = g + group <= sets ? (g + group) * k : g + group + rem;
            most = MAX(most, end - first);
        }
        time += posted_round(c, k - 1, (double)most * c->n);
    }
    if (rem > 0)
        time += fan_out_posted(c, (guint)MIN(k - 1, t), c->p * c->n);
    return time;
}

/* One phase of SMPI's 2dmesh/3dmesh: each of `members` ranks posts its receives, then sends
 * m bytes to every other member in the same order (blocking sends), so that the members'
 * messages all head for the same rank first. Eager: every link carries k = members-1
 * messages in and out, taken as the fan-in of k messages into one rank (the first target's
 * incast delays the rest a little). Rendezvous: a blocking send waits for its transfer, so
 * the members meet the targets in turn: the k others' data into the first target, then the
 * k-1 still behind into the second, and so on: about (k+1)/2 fans-in of k messages.
 * TEXTBOOK (members-1)(α + mβ). An approximation either way: the bands of
 * tests/coll/check_timing.c and tests/validation/test_validation.sh give how far off. */
static double
mesh_phase(const struct ctx *c, int members, double m)
{
    double k = members - 1;
    if (k <= 0)
        return 0.0;
    if (c->textbook)
        return k * (c->a + m * c->b);
    if (is_eager(c, m))
        return fan_in_posted(c, k, m);
    return (k + 1) / 2.0 * fan_in_posted(c, k, m);
}

/* 2dmesh: p = X·Y as SMPI's is_2dmesh factors it (X = 1, Y = p when it finds nothing): a phase
 * of Y members and one block, then one of X members and Y blocks. TEXTBOOK
 * (Y-1)(α + nβ) + (X-1)(α + Ynβ). Approximate (see mesh_phase). */
static double
allgather_2dmesh(const struct ctx *c)
{
    int root = 0, x = 1, y = c->p;
    while ((long long)(root + 1) * (root + 1) <= c->p)
        root++;
    /* the least divisor d >= root is root itself or p/e, e the largest divisor below root */
    int d = root, e = root;
    while (e > 1 && c->p % e != 0)
        e--;
    if (root > 0 && c->p % root != 0)
        d = c->p / e;
    if (root > 0 && d <= c->p / 2) {
        x = MIN(d, c->p / d);
        y = c->p / x;
    }
    return mesh_phase(c, y, c->n) + mesh_phase(c, x, y * c->n);
}

/* 3dmesh: p = X·X·Z as SMPI's is_3dmesh factors it (X = 1, Z = p when it finds nothing): phases
 * of X members and one block, X members and X blocks, Z members and X² blocks. TEXTBOOK
 * (X-1)(α + nβ) + (X-1)(α + Xnβ) + (Z-1)(α + X²nβ). Approximate (see mesh_phase). */
static double
allgather_3dmesh(const struct ctx *c)
{
    int root = 0, x = 1, z = c->p;
    while ((long long)(root + 1) * (root + 1) * (root + 1) <= c->p)
        root++;
    for (long long d = MAX(root, 1); d <= c->p / 3 && d * d <= c->p; d++) {
        if (c->p % (d * d) == 0) {
            x = (int)d;
            z = (int)(c->p / (d * d));
            break;
        }
    }
    return mesh_phase(c, x, c->n) + mesh_phase(c, x, x * c->n) +
           mesh_phase(c, z, (double)x * x * c->n);
}

/* smp on single-core hosts: the inter-node algorithm it picks (predict_bcast.c, bcast_smp,
 * says why). */
static double
allgather_smp(const struct ctx *c)
{
    double total = c->n * c->p;
    if (total < 512 * 1024 && is_pof2(c->p))
        return allgather_recursive_doubling(c);
    return total < 80 * 1024 ? allgather_bruck(c) : allgather_ring(c);
}

/* ---------------------------------------------------------------- rows */

/* Allgatherv's rows take equal blocks and share allgather's formulas (see the file header),
 * so the two tables differ only in the collective's name and allgather's smp row. */
#define ALLGATHER_COMMON_ROWS(kind)                                                                \
    {kind, "ring", allgather_ring, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},            \
    {kind, "recursive_doubling", allgather_recursive_doubling,                                     \
     SYMMETRIC | APPROXIMATE_NON_POF2 | RETURNS_AT_ZERO, "lg p a + (p-1) n b"},                    \
    {kind, "bruck", allgather_bruck, SYMMETRIC | RETURNS_AT_ZERO, "ceil(lg p) a + (p-1) n b"},     \
    {kind, "neighbor_exchange", allgather_neighbor_exchange, SYMMETRIC | RETURNS_AT_ZERO,          \
     "(p/2) a + (p-1) n b"},                                                                       \
    {kind, "gather_bcast", allgather_gather_bcast, RETURNS_AT_ZERO | ONE_WAY,                      \
     "lg p a + (p-1) n b + lg p (a + p n b)"},                                                     \
    {kind, "two_proc", allgather_two_proc, SYMMETRIC | RETURNS_AT_ZERO, "a + n b"},                \
    {kind, "pair", allgather_pair, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},            \
    {kind, "direct", allgather_direct, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},        \
    {kind, "sparbit", allgather_sparbit, SYMMETRIC | RETURNS_AT_ZERO, "(p-1) a + (p-1) n b"},      \
    {kind, "k_bruck", allgather_k_bruck, NEEDS_RADIX | SYMMETRIC | RETURNS_AT_ZERO | APPROXIMATE,  \
     "ceil(log_k p)(k-1) a + (p-1) n b"}

const struct predict_row predict_rows_allgather[] = {
    ALLGATHER_COMMON_ROWS("allgather"),
    {"allgather", "linear", allgather_linear, RETURNS_AT_ZERO | ONE_WAY,
     "(p-1)(a + n b) + (p-1)(a + p n b)"},
    {"allgather", "recexch", allgather_recexch, NEEDS_RADIX | RETURNS_AT_ZERO | APPROXIMATE,
     "floor(log_k p)(k-1) a + (p-1) n b"},
    {"allgather", "2dmesh", allgather_2dmesh, RETURNS_AT_ZERO | APPROXIMATE,
     "(X+Y-2) a + (p-1) n b, p = X Y"},
    {"allgather", "3dmesh", allgather_3dmesh, RETURNS_AT_ZERO | APPROXIMATE,
     "(2X+Z-3) a + (p-1) n b, p = X X Z"},
    {"allgather", "smp", allgather_smp,
     NODE_AWARE | SYMMETRIC | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "allgatherv recursive_doubling, bruck or ring by total size (one rank per node)"},
};
const gsize predict_rows_allgather_count = G_N_ELEMENTS(predict_rows_allgather);

const struct predict_row predict_rows_allgatherv[] = {
    ALLGATHER_COMMON_ROWS("allgatherv"),
};
const gsize predict_rows_allgatherv_count = G_N_ELEMENTS(predict_rows_allgatherv);
