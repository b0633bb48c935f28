/*
 * Allgather: 3-D mesh (all-to-all within each row, then each column, then along z).
 *
 * Origin:   SMPI's allgather "3dmesh" (src/smpi/colls/allgather/allgather-3dmesh.cpp, Faraj &
 *           Yuan's generated routines, ICS 2005): p = X·X·Z with X the least x >= ⌊∛p⌋,
 *           x <= p/3, such that x² divides p, as SMPI's is_3dmesh finds it (for p < 8 that
 *           is X = 1, Z = p: a mesh of one column of planes).
 * Requires: nothing. SMPI refuses a p without such an x (p = 1, 2, and e.g. 11, 13, 17, 19:
 *           any p >= 8 with no square x² dividing it for ⌊∛p⌋ <= x <= p/3); here such a p runs
 *           as the degenerate mesh X = 1, Z = p (every rank its own plane: the direct
 *           algorithm with blocking sends). Any datatypes. Handles MPI_IN_PLACE: sendbuf ==
 *           MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     (X-1)(α + nβ) (row) + (X-1)(α + Xnβ) (column) + (Z-1)(α + X²nβ) (z) on a one-port
 *           model, n the bytes of one block: (2X+Z-3)α + (p-1)nβ.
 * Steps:    rank r sits in plane ⌊r/X²⌋, row ⌊r/X⌋ (ranks ⌊r/X⌋·X … +X-1) and column
 *           r mod X of its plane. Each phase posts a receive from every other member, sends
 *           to each in turn (blocking sends), then waits: the row members swap their blocks,
 *           the column members their rows of X blocks, and the ranks r + i·X² (mod p) of the
 *           other planes their planes of X² blocks. For p = 8 (X = 2, Z = 2), rank 5: row
 *           {4, 5} swaps blocks 4, 5; column {5, 7}: rows 4-5 and 6-7; z: {5, 1}: planes 4-7
 *           and 0-3.
 *
 * The blocks stay in rank order in recvbuf throughout.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"

enum { TAG_ALLGATHER_3DMESH = 0 };

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
 * SMPI's factorisation p = x·x·z: its is_3dmesh takes the least x with ⌊∛p⌋ <= x <= p/3
 * whose square divides p. The search stops once x² > p (no larger square can divide p), so
 * it takes O(√p) steps. FALSE when there is none.
 */
static int
factor_3d(int p, int *x, int *z)
{
    int root = 0;

    while ((long long)(root + 1) * (root + 1) * (root + 1) <= p)
        root++;
    for (long long d = root > 0 ? root : 1; d <= p / 3 && d * d <= p; d++) {
        if (p % (d * d) == 0) {
            *x = (int)d;
            *z = (int)(p / (d * d));
            return 1;
        }
    }
    return 0;
}

int
coll_allgather_3dmesh(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);
    int rc, rank, size, done, x, z, plane;
    MPI_Request *reqs;

    (void)params;
    rc = coll_allgather_open(&own, &recv, comm, &rank, &size, &done);
    if (rc != MPI_SUCCESS || done)
        return rc;
    if (!factor_3d(size, &x, &z)) {
        x = 1; /* one line of planes of one rank: the degenerate mesh */
        z = size;
    }
    plane = x * x;
    reqs = malloc(sizeof *reqs * (size_t)(x > z ? x : z));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    rc = mesh_phase(&recv, rank, size, rank - rank % x, 1, x, 1, TAG_ALLGATHER_3DMESH, comm, reqs);
    if (rc == MPI_SUCCESS)
        rc = mesh_phase(&recv, rank, size, rank - rank % plane + rank % x, x, x, x,
                        TAG_ALLGATHER_3DMESH, comm, reqs);
    if (rc == MPI_SUCCESS)
        rc = mesh_phase(&recv, rank, size, rank, plane, z, plane, TAG_ALLGATHER_3DMESH, comm, reqs);
    free(reqs);
    return rc;
}
