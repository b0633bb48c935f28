/*
 * Allreduce: segmented ring — the ring of allreduce_ring.c with every block cut into
 * segments of params->segment_bytes, so that a rank combines one segment while the next one
 * is already on its way.
 *
 * Origin:   Open MPI's ompi_coll_base_allreduce_intra_ring_segmented and MPICH's pipelined
 *           ring; the seed's "pipelining in chunks len < count".
 * Requires: commutative op (blocks are combined in a rotated rank order, as in the ring);
 *           count >= p (as in the ring, a smaller count still gives the right result). Each
 *           segment is reduced by one chain of ranks and then copied around, so all ranks hold
 *           bitwise-identical results.
 * Params:   segment_bytes: a segment holds max(1, segment_bytes / type size) items (the whole
 *           block if segment_bytes <= 0).
 * Cost:     with s segments per block of n/p bytes (s = ⌈n / (p·segment_bytes)⌉):
 *           2(p-1)sα + 2((p-1)/p)nβ + ((p-1)/p)nγ, the γ term of a segment overlapping the
 *           transfer of the next.
 * Steps:    those of the ring (block (r-k) mod p goes to r+1 at step k of the reduce-scatter,
 *           block (r+1-k) mod p at step k of the allgather), each block as a train of
 *           segments. Within a step, with two receive buffers A and B:
 *
 *         post recv seg0 -> A
 *         post recv seg1 -> B   send seg0   wait seg0   A ∘= into block   (B in flight)
 *         post recv seg2 -> A   send seg1   wait seg1   B ∘= into block   (A in flight)
 *         ...
 */
#include <stdlib.h>

#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_REDUCE_SCATTER 10
#define TAG_ALLGATHER 11

/* Items of segment s of a block of len items cut into segments of seg items. */
static int
segment_len(int len, int seg, int s)
{
    int rest = len - s * seg;
    return rest < seg ? rest : seg;
}

static int
segment_count(int len, int seg)
{
    return (len + seg - 1) / seg;
}

/* Where segment s lands: a half of the scratch buffer, or its place in the block. */
static void *
segment_dest(void *in, void *const slot[2], int reduce, int seg, int s, MPI_Datatype datatype)
{
    return reduce ? slot[s % 2] : coll_item(in, (MPI_Aint)s * seg, datatype);
}

/*
 * One ring step: send the `out_len` items at `out` to `right` and receive `in_len` items
 * from `left`, segment by segment. With `reduce`, a received segment lands in one of the two
 * halves of `tmp` (2·seg items) and is combined into `in` as received ∘ own; without, it is
 * received straight into `in`.
 */
static int
ring_step(const void *out, int out_len, void *in, int in_len, int seg, int reduce, void *tmp,
          MPI_Datatype datatype, MPI_Op op, int left, int right, int tag, MPI_Comm comm)
{
    int rc = MPI_SUCCESS;
    int nout = segment_count(out_len, seg), nin = segment_count(in_len, seg);
    int nsteps = nout > nin ? nout : nin;
    MPI_Request recv[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    void *slot[2] = {tmp, reduce ? coll_item(tmp, seg, datatype) : NULL};

    if (nin > 0) {
        rc = MPI_Irecv(segment_dest(in, slot, reduce, seg, 0, datatype),
                       segment_len(in_len, seg, 0), datatype, left, tag, comm, &recv[0]);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    for (int s = 0; s < nsteps; s++) {
        if (s + 1 < nin) {
            rc = MPI_Irecv(segment_dest(in, slot, reduce, seg, s + 1, datatype),
                           segment_len(in_len, seg, s + 1), datatype, left, tag, comm,
                           &recv[(s + 1) % 2]);
            if (rc != MPI_SUCCESS)
                goto out_wait;
        }
        if (s < nout) {
            rc = MPI_Send(coll_citem(out, (MPI_Aint)s * seg, datatype),
                          segment_len(out_len, seg, s), datatype, right, tag, comm);
            if (rc != MPI_SUCCESS)
                goto out_wait;
        }
        if (s < nin) {
            rc = MPI_Wait(&recv[s % 2], MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_wait;
            if (reduce) {
                rc = MPI_Reduce_local(slot[s % 2], coll_item(in, (MPI_Aint)s * seg, datatype),
                                      segment_len(in_len, seg, s), datatype, op);
                if (rc != MPI_SUCCESS)
                    goto out_wait;
            }
        }
    }
    return MPI_SUCCESS;

out_wait:
    /* Leave no receive pending into memory that is about to be freed. */
    for (int i = 0; i < 2; i++)
        if (recv[i] != MPI_REQUEST_NULL)
            MPI_Wait(&recv[i], MPI_STATUS_IGNORE);
    return rc;
}

int
coll_allreduce_ring_segmented(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              const struct coll_params *params)
{
    int rc, size, rank, left, right, type_size, seg, max_block;
    int *counts, *displs;
    void *tmp_mem = NULL;
    void *tmp;

    rc = coll_fold_start(sendbuf, recvbuf, count, datatype, comm, &rank, &size);
    if (rc != MPI_SUCCESS || count == 0 || size == 1)
        return rc;
    rc = MPI_Type_size(datatype, &type_size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = coll_fold_even_blocks(count, size, &counts, &displs);
    if (rc != MPI_SUCCESS)
        return rc;

    max_block = counts[0];
    seg = max_block;
    if (params != NULL && params->segment_bytes > 0 && type_size > 0)
        seg = params->segment_bytes / type_size;
    if (seg < 1)
        seg = 1;
    if (seg > max_block)
        seg = max_block;

    tmp = coll_tmp_alloc(2 * seg, datatype, &tmp_mem);
    if (tmp == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free_tmp;
    }
    left = (rank - 1 + size) % size;
    right = (rank + 1) % size;

    /*
     * Pass 0, the reduce-scatter (after p-1 steps rank r owns block (r+1) mod p), then pass 1,
     * the allgather: they differ only in the first block sent, in combining and in the tag.
     */
    for (int pass = 0; pass < 2; pass++) {
        int reduce = pass == 0, tag = reduce ? TAG_REDUCE_SCATTER : TAG_ALLGATHER;
        for (int k = 0; k < size - 1; k++) {
            int sb = (rank + pass - k + size) % size;
            int rb = (rank + pass - k - 1 + size) % size;
            rc = ring_step(coll_item(recvbuf, displs[sb], datatype), counts[sb],
                           coll_item(recvbuf, displs[rb], datatype), counts[rb], seg, reduce, tmp,
                           datatype, op, left, right, tag, comm);
            if (rc != MPI_SUCCESS)
                goto out_free_tmp;
        }
    }

out_free_tmp:
    free(tmp_mem);
    free(counts);
    return rc;
}
