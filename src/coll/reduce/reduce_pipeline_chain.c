/*
 * Reduce: the seed's chain 0 -> 1 -> ... -> P-1, pipelined in segments. The buffer is cut
 * into segments of whole items, len = segment_bytes / type size (< count for long messages,
 * as the standard's advice suggests); rank r folds segment s of its own data onto the partial
 * from r-1 and passes it on while r-1 already works on segment s+1. P-1 streams the finished
 * segments to the root.
 *
 * Origin:   the MPI standard's sequential reduce with its "chunks of size len < count"
 *           advice. Open MPI coll/base ompi_coll_base_reduce_intra_pipeline (a chain of
 *           fan-out 1 driven by ompi_coll_base_reduce_generic) pipelines the same way, but
 *           its chain starts at the root; this one runs 0 -> P-1 as the seed does, which is
 *           what keeps rank order.
 * Requires: nothing (order-preserving: segment by segment, the same fold as the chain).
 * Params:   segment_bytes (> 0; without params the whole message is one segment).
 * Cost:     with S segments of m = n/S bytes, (P - 1 + S - 1)(α + mβ + mγ) + (α + mβ) when
 *           root != P-1 (the last segment's trip to the root).
 * Steps (P = 3, S = 3, time flows right; a|b|c are segments):
 *
 *     r0:  send a   send b   send c
 *     r1:           fold a   fold b   fold c
 *     r2:                    fold a   fold b   fold c  -> root, segment by segment
 *
 * Each rank keeps one receive posted ahead (two receive buffers) and one send in flight (two
 * accumulation buffers). The root posts its receives of the result from P-1 before taking part
 * in the chain, so a rendezvous-sized stream never waits on it.
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_CHAIN = 1, TAG_RESULT = 2 };

/* Items per segment: whole items, at least one, at most count. */
static int
segment_items(int count, MPI_Datatype datatype, const struct coll_params *params)
{
    int type_size = 0;
    MPI_Type_size(datatype, &type_size);
    if (params == NULL || params->segment_bytes <= 0 || type_size <= 0)
        return count;
    int items = params->segment_bytes / type_size;
    if (items < 1)
        items = 1;
    return items < count ? items : count;
}

int
coll_reduce_pipeline_chain(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                           MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *mem[4] = {NULL, NULL, NULL, NULL};
    void *rbuf[2] = {NULL, NULL}, *abuf[2] = {NULL, NULL};
    MPI_Request rreq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    MPI_Request sreq = MPI_REQUEST_NULL;
    MPI_Request *final = NULL;

    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return coll_copy(sendbuf, recvbuf, count, datatype);

    int seg = segment_items(count, datatype, params);
    int nseg = (int)(((long long)count + seg - 1) / seg);
    int last = size - 1;
    int prev = rank > 0 ? rank - 1 : -1;
    int next = rank < last ? rank + 1 : (rank != root ? root : -1);
    int tag_out = rank < last ? TAG_CHAIN : TAG_RESULT;

    /* The root's receives of the finished segments, posted before anything else. */
    if (rank == root && rank != last) {
        final = malloc((size_t)nseg * sizeof *final);
        if (final == NULL)
            return MPI_ERR_NO_MEM;
        for (int s = 0; s < nseg; s++) {
            int off = s * seg, len = count - off < seg ? count - off : seg;
            rc = MPI_Irecv(coll_item(recvbuf, off, datatype), len, datatype, last, TAG_RESULT, comm,
                           &final[s]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    if (prev >= 0) {
        for (int b = 0; b < 2; b++) {
            rbuf[b] = coll_tmp_alloc(seg, datatype, &mem[b]);
            if (rbuf[b] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
            if (rank == last && rank == root)
                continue; /* folds straight into recvbuf */
            abuf[b] = coll_tmp_alloc(seg, datatype, &mem[2 + b]);
            if (abuf[b] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
        rc = MPI_Irecv(rbuf[0], seg, datatype, prev, TAG_CHAIN, comm, &rreq[0]);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    for (int s = 0; s < nseg; s++) {
        int off = s * seg, len = count - off < seg ? count - off : seg;
        const void *out = coll_citem(sendbuf, off, datatype);
        if (prev >= 0) {
            if (s + 1 < nseg) {
                int next_len = count - (off + seg) < seg ? count - (off + seg) : seg;
                rc = MPI_Irecv(rbuf[(s + 1) & 1], next_len, datatype, prev, TAG_CHAIN, comm,
                               &rreq[(s + 1) & 1]);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            void *acc = abuf[0] == NULL ? coll_item(recvbuf, off, datatype) : abuf[s & 1];
            rc = coll_copy(out, acc, len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
            rc = MPI_Wait(&rreq[s & 1], MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
            /* acc = (x_0 ∘ ... ∘ x_{rank-1}) ∘ x_rank on this segment */
            rc = MPI_Reduce_local(rbuf[s & 1], acc, len, datatype, op);
            if (rc != MPI_SUCCESS)
                goto out_free;
            out = acc;
        }
        if (next >= 0) {
            rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE); /* frees the other accumulation buffer */
            if (rc != MPI_SUCCESS)
                goto out_free;
            rc = MPI_Isend(out, len, datatype, next, tag_out, comm, &sreq);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }
    rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS)
        goto out_free;
    if (final != NULL)
        rc = MPI_Waitall(nseg, final, MPI_STATUSES_IGNORE);

out_free:
    free(final);
    for (int b = 0; b < 4; b++)
        free(mem[b]);
    return rc;
}
