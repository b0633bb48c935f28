/*
 * Allgather: recursive exchange (radix k, recursive multiplying of the blocks held).
 *
 * Origin:   MPICH's MPIR_Allgather_intra_recexch_doubling (Thakur-style recursive doubling
 *           generalised to k-1 partners per round, with MPII_Recexchalgo_get_neighbors' way of
 *           folding the ranks beyond a power of k into the others).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4).
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     q = k^⌊log_k p⌋ ranks take part in ⌊log_k p⌋ rounds of k-1 exchanges:
 *           ⌊log_k p⌋(k-1)α + (p-1)nβ (one-port, n the bytes of one block), plus, when p > q,
 *           one message of a block before and one of all p blocks after.
 * Steps:    with rem = p - q and T = ⌊rem·k/(k-1)⌋, the first T ranks form sets of k (the last
 *           one possibly short, completed by rank T): in each set every rank but the last
 *           sends its block to the set's last rank (step 1) and receives all p blocks from it
 *           at the end (step 3). The q others (set leaders and ranks >= T) are renumbered
 *           0 … q-1, each standing for a run of consecutive ranks, so that every group of
 *           renumbered ranks holds a run of consecutive blocks. Round i (step 2): newrank n
 *           holds the blocks of its group of k^i (aligned) and exchanges them with the k-1
 *           newranks whose base-k digit i differs, all posted then waited for; afterwards it
 *           holds its group of k^(i+1). For p = 5, k = 4: rank 0 sends block 0 to rank 1;
 *           ranks 1 … 4 (newranks 0 … 3) exchange with each other; rank 1 sends all to 0.
 *
 * The blocks stay in rank order in recvbuf throughout.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_RECEXCH = 0 };

/* How the ranks are folded into q = k^phases participants (see the header). */
struct recexch {
    int k, q, phases, rem, t, sets;
};

/* The first rank newrank n stands for (n = q gives p). */
static int
run_start(const struct recexch *x, int n)
{
    return n <= x->sets ? n * x->k : n + x->rem;
}

/* The rank that takes part as newrank n. */
static int
participant(const struct recexch *x, int n)
{
    return n < x->sets ? n * x->k + x->k - 1 : n + x->rem;
}

/* Blocks [from, to) of recvbuf: one message's buffer and item count. */
static void *
run(void *recvbuf, int recvcount, MPI_Datatype recvtype, int from, int to, int *count)
{
    struct coll_blocks b = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    *count = (to - from) * recvcount;
    return coll_block_at(&b, from);
}

/* Wait for the nreq requests (also after an error: none may leak); the first error wins. */
static int
wait_all(int rc, int nreq, MPI_Request reqs[])
{
    if (nreq > 0) {
        int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
    }
    return rc;
}

/* Step 2 for newrank n: the rounds of exchanges among participants. */
static int
exchange_rounds(const struct recexch *x, int n, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                int tag, MPI_Comm comm, MPI_Request reqs[])
{
    int rc = MPI_SUCCESS;

    for (int i = 0, group = 1; i < x->phases && rc == MPI_SUCCESS; i++, group *= x->k) {
        int nreq = 0, digit = n / group % x->k;
        int mine = n - n % group;
        for (int j = 1; j < x->k && rc == MPI_SUCCESS; j++) {
            int other = n + ((digit + j) % x->k - digit) * group;
            int theirs = other - other % group, count;
            void *buf = run(recvbuf, recvcount, recvtype, run_start(x, theirs),
                            run_start(x, theirs + group), &count);
            rc = MPI_Irecv(buf, count, recvtype, participant(x, other), tag, comm, &reqs[nreq]);
            nreq += rc == MPI_SUCCESS;
            if (rc != MPI_SUCCESS)
                break;
            buf = run(recvbuf, recvcount, recvtype, run_start(x, mine), run_start(x, mine + group),
                      &count);
            rc = MPI_Isend(buf, count, recvtype, participant(x, other), tag, comm, &reqs[nreq]);
            nreq += rc == MPI_SUCCESS;
        }
        rc = wait_all(rc, nreq, reqs);
    }
    return rc;
}

int
coll_allgather_recexch(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    struct recexch x;
    int rc, rank, size, done, nreq = 0, n, count;
    MPI_Request *reqs;

    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    x.k = params != NULL && params->radix >= 2 ? params->radix : 4;
    x.q = 1;
    x.phases = 0;
    while ((long long)x.q * x.k <= size) {
        x.q *= x.k;
        x.phases++;
    }
    x.rem = size - x.q;
    x.t = (int)((long long)x.rem * x.k / (x.k - 1));
    x.sets = x.t / x.k;

    /* a rank folded into its set's last rank: its block out (step 1), all back (step 3) */
    if (rank < x.t && rank % x.k != x.k - 1) {
        int leader = rank + x.k - 1 - rank % x.k;
        if (leader > x.t - 1)
            leader = x.t;
        rc = MPI_Send(coll_block_at(&recv, rank), recvcount, recvtype, leader,
                      TAG_ALLGATHER_RECEXCH, comm);
        if (rc != MPI_SUCCESS)
            return rc;
        return MPI_Recv(recvbuf, size * recvcount, recvtype, leader, TAG_ALLGATHER_RECEXCH, comm,
                        MPI_STATUS_IGNORE);
    }

    /* at most k-1 ranks folded into this one, k-1 partners (two requests each) in a round */
    reqs = malloc(sizeof *reqs * 2 * (size_t)(x.k < size ? x.k : size));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    n = rank < x.t ? rank / x.k : rank - x.rem;

    /* step 1: the blocks of the ranks folded into this one, nearest first */
    for (int from = rank - 1; from >= run_start(&x, n) && rc == MPI_SUCCESS; from--) {
        rc = MPI_Irecv(coll_block_at(&recv, from), recvcount, recvtype, from, TAG_ALLGATHER_RECEXCH,
                       comm, &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    rc = wait_all(rc, nreq, reqs);

    if (rc == MPI_SUCCESS)
        rc =
            exchange_rounds(&x, n, recvbuf, recvcount, recvtype, TAG_ALLGATHER_RECEXCH, comm, reqs);

    /* step 3: every block to the ranks folded into this one */
    nreq = 0;
    count = size * recvcount;
    for (int to = rank - 1; to >= run_start(&x, n) && rc == MPI_SUCCESS; to--) {
        rc = MPI_Isend(recvbuf, count, recvtype, to, TAG_ALLGATHER_RECEXCH, comm, &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    rc = wait_all(rc, nreq, reqs);
    free(reqs);
    return rc;
}
