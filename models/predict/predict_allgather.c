/*
 * predict_allgather.c — α-β predictions of allgather and allgatherv
 * (src/coll/allgather/, src/coll/allgatherv/): ring, recursive_doubling, bruck,
 * neighbor_exchange, gather_bcast, two_proc, pair, direct, sparbit and k_bruck, and
 * allgather's smp on single-core hosts. n is one rank's block; allgatherv's rows take equal
 * blocks and share allgather's formulas.
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
static double
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
    {"allgather", "smp", allgather_smp,
     NODE_AWARE | SYMMETRIC | RETURNS_AT_ZERO | APPROXIMATE_NON_POF2,
     "allgatherv recursive_doubling, bruck or ring by total size (one rank per node)"},
};
const gsize predict_rows_allgather_count = G_N_ELEMENTS(predict_rows_allgather);

const struct predict_row predict_rows_allgatherv[] = {
    ALLGATHER_COMMON_ROWS("allgatherv"),
};
const gsize predict_rows_allgatherv_count = G_N_ELEMENTS(predict_rows_allgatherv);
