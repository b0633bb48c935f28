/*
 * Allgather: 2-D mesh (all-to-all within each row, then within each column).
 *
 * Origin:   SMPI's allgather "2dmesh" (src/smpi/colls/allgather/allgather-2dmesh.cpp, Faraj &
 *           Yuan's generated routines, ICS 2005): p = X·Y with X <= Y found as SMPI's
 *           is_2dmesh finds it (the least divisor x >= ⌊√p⌋, x <= p/2, and p/x, ordered).
 * Requires: nothing. SMPI refuses a p it cannot factor that way (p = 1 and the primes above
 *           3); here such a p runs as the degenerate mesh of one row of p ranks (X = 1), which
 *           is the direct algorithm with blocking sends. Any datatypes. Handles MPI_IN_PLACE:
 *           sendbuf == MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     (Y-1)α + (Y-1)nβ (row) + (X-1)α + (X-1)Ynβ (column) on a one-port model, n the
 *           bytes of one block: (X+Y-2)α + (p-1)nβ.
 * Steps:    rank r sits in row ⌊r/Y⌋ (ranks ⌊r/Y⌋·Y … +Y-1) and column r mod Y. Row phase: it
 *           posts a receive of each row member's block, sends its own block to each of them in
 *           turn (blocking sends), then waits. Column phase: the same with the column members
 *           (r mod Y + i·Y), each message a whole row of Y blocks. For p = 6 (X = 2, Y = 3),
 *           rank 4: row {3, 4, 5} swaps blocks 3, 4, 5; then column {1, 4}: rank 1 sends
 *           blocks 0-2, rank 4 blocks 3-5.
 *
 * The blocks stay in rank order in recvbuf throughout.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_2DMESH = 0 };

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

/*
 * One dimension of the mesh: the `count` ranks (start + i·stride) mod p, i = 0 … count-1,
 * this rank left out, each hold the run of `run` consecutive blocks beginning at their own
 * rank rounded down to a multiple of `run`. Post a receive of every other member's run into
 * its place, then send this rank's run to each member in turn (blocking sends, as SMPI's),
 * then wait.
 */
static int
mesh_phase(const struct coll_blocks *recv, int rank, int size, int start, int stride, int count,
           int run, int tag, MPI_Comm comm, MPI_Request reqs[])
{
    int rc = MPI_SUCCESS, nreq = 0, items = run * recv->count;

    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        int peer = (int)((start + (long long)i * stride) % size);
        if (peer == rank)
            continue;
        rc = MPI_Irecv(coll_block_at(recv, peer - peer % run), items, recv->type, peer, tag, comm,
                       &reqs[nreq]);
        nreq += rc == MPI_SUCCESS;
    }
    for (int i = 0; i < count && rc == MPI_SUCCESS; i++) {
        int peer = (int)((start + (long long)i * stride) % size);
        if (peer != rank)
            rc = MPI_Send(coll_block_at(recv, rank - rank % run), items, recv->type, peer, tag,
                          comm);
    }
    return wait_all(rc, nreq, reqs);
}

/*
 * SMPI's factorisation p = x·y, x <= y: its is_2dmesh takes the least divisor d of p with
 * ⌊√p⌋ <= d <= p/2, then x = min(d, p/d). That divisor is ⌊√p⌋ itself or p/e, e the largest
 * divisor below ⌊√p⌋ (none lies strictly between ⌊√p⌋ and √p): found in O(√p) steps where
 * SMPI's search takes O(p). FALSE when there is none (p = 1, and the primes above 3).
 */
static int
factor_2d(int p, int *x, int *y)
{
    int root = 0, d;

    while ((long long)(root + 1) * (root + 1) <= p)
        root++;
    if (root == 0)
        return 0;
    d = root;
    if (p % root != 0) {
        int e = root - 1;
        while (p % e != 0)
            e--;
        d = p / e;
    }
    if (d > p / 2)
        return 0;
    *x = d < p / d ? d : p / d;
    *y = p / *x;
    return 1;
}

int
coll_allgather_2dmesh(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, done, x, y;
    MPI_Request *reqs;

    (void)params;
    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    if (!factor_2d(size, &x, &y)) {
        x = 1; /* one row: the degenerate mesh */
        y = size;
    }
    reqs = malloc(sizeof *reqs * (size_t)y); /* y >= x */
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    rc = mesh_phase(&recv, rank, size, rank - rank % y, 1, y, 1, TAG_ALLGATHER_2DMESH, comm, reqs);
    if (rc == MPI_SUCCESS)
        rc = mesh_phase(&recv, rank, size, rank % y, y, x, y, TAG_ALLGATHER_2DMESH, comm, reqs);
    free(reqs);
    return rc;
}
