/*
 * Reduce: in-order binary tree over ranks 0..P-1, pipelined in segments; the top of the tree
 * (P-1) streams the finished segments to the root.
 *
 * The tree is the one of in_order_binary: the subtree of a rank range [lo, hi] is rooted at
 * hi, with the tops of its low half [lo, lo+L-1] (L = (hi-lo+1)/2) and high half [lo+L, hi-1]
 * as children; a node computes low ∘ high ∘ own. Here every message is cut into segments of
 * whole items (len = segment_bytes / type size), so that a node folds segment s while its
 * children already send segment s+1 and its parent folds segment s-1.
 *
 * Origin:   Open MPI coll/base ompi_coll_base_reduce_intra_in_order_binary, which runs
 *           ompi_coll_base_reduce_generic with a segment size over the in-order binary tree.
 * Requires: nothing (order-preserving: segment by segment, the same fold as in_order_binary).
 * Params:   segment_bytes (> 0; without params the whole message is one segment).
 * Cost:     with d = ⌊lg P⌋ levels and S segments of m = n/S bytes, about
 *           (d + S - 1)(α + 2mβ + 2mγ), plus (α + mβ) when root != P-1.
 * Steps (P = 7, segments a, b, c; a node folds low ∘ high ∘ own per segment):
 *
 *     t1: 0,1 -> 2 (a)   3,4 -> 5 (a)
 *     t2: 0,1 -> 2 (b)   3,4 -> 5 (b)   2,5 -> 6 (a)
 *     t3: 0,1 -> 2 (c)   3,4 -> 5 (c)   2,5 -> 6 (b)   6 -> root (a)
 *
 * Each rank keeps one receive per child posted ahead (two buffers per child) and one send in
 * flight (two accumulation buffers). The root posts its receives of the result from P-1
 * before taking part in the tree, so a rendezvous-sized stream never waits on it.
 * Invariants: recvbuf is touched only at the root; sendbuf is never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_TREE = 1, TAG_RESULT = 2 };
enum { LOW = 0, HIGH = 1 };

/* Parent (-1 for P-1) and the tops of the low and high halves below rank (-1 if empty). */
static void
in_order_tree(int rank, int size, int *parent, int *low, int *high)
{
    int lo = 0, hi = size - 1, up = -1;
    for (;;) {
        int nlow = (hi - lo + 1) / 2;
        if (rank == hi) {
            *parent = up;
            *low = nlow > 0 ? lo + nlow - 1 : -1;
            *high = hi - 1 >= lo + nlow ? hi - 1 : -1;
            return;
        }
        up = hi;
        if (rank < lo + nlow) {
            hi = lo + nlow - 1;
        } else {
            lo = lo + nlow;
            hi = hi - 1;
        }
    }
}

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
coll_reduce_pipeline_binary(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, parent, child[2], rc;
    void *mem[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    void *rbuf[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [child][segment parity] */
    void *abuf[2] = {NULL, NULL};
    MPI_Request rreq[2][2] = {{MPI_REQUEST_NULL, MPI_REQUEST_NULL},
                              {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};
    MPI_Request sreq = MPI_REQUEST_NULL;
    MPI_Request *final = NULL;

    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return coll_copy(sendbuf, recvbuf, count, datatype);
    in_order_tree(rank, size, &parent, &child[LOW], &child[HIGH]);

    int seg = segment_items(count, datatype, params);
    int nseg = (int)(((long long)count + seg - 1) / seg);
    int top = size - 1;
    int dest = parent >= 0 ? parent : (rank != root ? root : -1);
    int tag_out = parent >= 0 ? TAG_TREE : TAG_RESULT;
    int internal = child[LOW] >= 0; /* a node with children always has a low child */
    int into_recvbuf = rank == top && rank == root;

    /* The root's receives of the finished segments, posted before anything else. */
    if (rank == root && rank != top) {
        final = malloc((size_t)nseg * sizeof *final);
        if (final == NULL)
            return MPI_ERR_NO_MEM;
        for (int s = 0; s < nseg; s++) {
            int off = s * seg, len = count - off < seg ? count - off : seg;
            rc = MPI_Irecv(coll_item(recvbuf, off, datatype), len, datatype, top, TAG_RESULT, comm,
                           &final[s]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    if (internal) {
        for (int c = LOW; c <= HIGH; c++) {
            if (child[c] < 0)
                continue;
            for (int b = 0; b < 2; b++) {
                rbuf[c][b] = coll_tmp_alloc(seg, datatype, &mem[2 * c + b]);
                if (rbuf[c][b] == NULL) {
                    rc = MPI_ERR_NO_MEM;
                    goto out_free;
                }
            }
            rc = MPI_Irecv(rbuf[c][0], seg, datatype, child[c], TAG_TREE, comm, &rreq[c][0]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        for (int b = 0; b < 2 && !into_recvbuf; b++) {
            abuf[b] = coll_tmp_alloc(seg, datatype, &mem[4 + b]);
            if (abuf[b] == NULL) {
                rc = MPI_ERR_NO_MEM;
                goto out_free;
            }
        }
    }

    for (int s = 0; s < nseg; s++) {
        int off = s * seg, len = count - off < seg ? count - off : seg;
        const void *out = coll_citem(sendbuf, off, datatype);
        if (internal) {
            if (s + 1 < nseg) {
                int next_len = count - (off + seg) < seg ? count - (off + seg) : seg;
                for (int c = LOW; c <= HIGH; c++) {
                    if (child[c] < 0)
                        continue;
                    rc = MPI_Irecv(rbuf[c][(s + 1) & 1], next_len, datatype, child[c], TAG_TREE,
                                   comm, &rreq[c][(s + 1) & 1]);
                    if (rc != MPI_SUCCESS)
                        goto out_free;
                }
            }
            void *acc = into_recvbuf ? coll_item(recvbuf, off, datatype) : abuf[s & 1];
            rc = coll_copy(out, acc, len, datatype);
            if (rc != MPI_SUCCESS)
                goto out_free;
            /* acc = low ∘ (high ∘ own) on this segment */
            for (int c = HIGH; c >= LOW; c--) {
                if (child[c] < 0)
                    continue;
                rc = MPI_Wait(&rreq[c][s & 1], MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS)
                    goto out_free;
                rc = MPI_Reduce_local(rbuf[c][s & 1], acc, len, datatype, op);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            out = acc;
        }
        if (dest >= 0) {
            rc = MPI_Wait(&sreq, MPI_STATUS_IGNORE); /* frees the other accumulation buffer */
            if (rc != MPI_SUCCESS)
                goto out_free;
            rc = MPI_Isend(out, len, datatype, dest, tag_out, comm, &sreq);
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
    for (int b = 0; b < 6; b++)
        free(mem[b]);
    return rc;
}
