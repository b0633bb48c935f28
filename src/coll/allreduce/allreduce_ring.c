/*
 * Allreduce: ring — a reduce-scatter ring, then an allgather ring.
 *
 * Origin:   Patarasuk & Yuan 2009; the scheme of MPICH's and Open MPI's ring allreduce.
 * Requires: commutative op — block b is combined in the rotated order b, b+1, ..., p-1, 0,
 *           ..., b-1 (only block 0 keeps rank order); count >= p, so that every rank owns a
 *           non-empty block (a smaller count still gives the right result, with idle ranks).
 *           Each block is reduced by one chain of ranks and then copied around, so all ranks
 *           hold bitwise-identical results.
 * Cost:     2(p-1)α + 2((p-1)/p)nβ + ((p-1)/p)nγ.
 * Blocks:   p blocks of ⌊count/p⌋ items, the first count mod p of them one item longer.
 * Steps (p = 4): rank r sends to r+1 and receives from r-1.
 *
 *     reduce-scatter, step k: send block (r-k) mod p, receive block (r-k-1) mod p and
 *         combine it as received ∘ own. After p-1 steps rank r owns block (r+1) mod p:
 *
 *             rank 0      rank 1      rank 2      rank 3
 *         k=0 sends b0    sends b1    sends b2    sends b3
 *         k=1 sends b3    sends b0    sends b1    sends b2     (b0 = r0∘r1 at rank 1)
 *         k=2 sends b2    sends b3    sends b0    sends b1     (b0 = r0∘r1∘r2 at rank 2)
 *         end owns  b1    owns  b2    owns  b3    owns  b0     (b1 = r1∘r2∘r3∘r0)
 *
 *     allgather, step k: send block (r+1-k) mod p, receive block (r-k) mod p in place.
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_REDUCE_SCATTER 8
#define TAG_ALLGATHER 9

int
coll_allreduce_ring(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                    MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    int rc, size, rank;
    int *counts, *displs;
    void *tmp_mem = NULL;
    void *tmp;

    (void)params;
    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;

    rc = coll_fold_even_blocks(count, size, &counts, &displs);
    if (rc != MPI_SUCCESS)
        return rc;
    tmp = coll_tmp_alloc(counts[0], datatype, &tmp_mem);
    if (tmp == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free_tmp;
    }

    /* Reduce-scatter: the block received from the left is the lower part of the chain. */
    rc = coll_fold_ring_pass(recvbuf, counts, displs, rank, tmp, datatype, op, rank, size,
                             TAG_REDUCE_SCATTER, comm);
    if (rc != MPI_SUCCESS)
        goto out_free_tmp;

    /* Allgather: pass the finished blocks around. */
    rc = coll_fold_ring_pass(recvbuf, counts, displs, rank + 1, NULL, datatype, op, rank, size,
                             TAG_ALLGATHER, comm);

out_free_tmp:
    free(tmp_mem);
    free(counts);
    return rc;
}
