/*
 * Reduce: Rabenseifner's algorithm — a reduce-scatter by recursive halving, then a binomial
 * gather of the reduced blocks to the root.
 *
 * Origin:   MPICH MPIR_Reduce_intra_reduce_scatter_gather (Rabenseifner 1997; Thakur,
 *           Rabenseifner & Gropp 2005), including its handling of P not a power of two: with
 *           p' = 2^⌊lg P⌋ and rem = P - p', each odd rank r < 2·rem first sends its data to
 *           r-1 and sits out; the p' remaining ranks get new ranks 0..p'-1. If the root sat
 *           out, new rank 0 hands it its reduced block and the root takes its place in the
 *           gather.
 * Requires: count >= P (the registry's applicability rule, as MPICH switches to this
 *           algorithm only for count >= p': with fewer items some blocks are empty and the
 *           result, though still correct, costs more than a binomial tree).
 *           No commutative op needed: it keeps rank order. The fold of the extra ranks is
 *           x_{r-1} ∘ x_r; new ranks are ascending, contiguous groups of old ranks; and in
 *           halving step i a rank's partial covers the aligned group of 2^i new ranks
 *           containing it, its partner's the adjacent group, so the lower group always goes
 *           on the left. Which of the two full-size buffers receives is swapped instead of
 *           copying, so the order costs nothing.
 * Cost:     p' = P:  2 lg P·α + 2n((P-1)/P)β + n((P-1)/P)γ;
 *           otherwise (2⌊lg P⌋ + 1)α + (2(p'-1)/p' + 1)nβ + n(1 + (p'-1)/p')γ, plus one message
 *           of n/p' when the root sat out.
 * Steps (p' = 4, blocks B0..B3; new rank k ends the halving with block B_rev(k)):
 *
 *     halving, mask 1:  0<->1, 2<->3   evens keep B0,B1, odds keep B2,B3   (sum of 2 ranks)
 *     halving, mask 2:  0<->2, 1<->3   0:B0  2:B1  1:B2  3:B3              (sum of 4 ranks)
 *     gather to 0, mask 2: 2 -> 0 (B1), 3 -> 1 (B3);  mask 1: 1 -> 0 (B2,B3)
 *
 * Invariants: recvbuf is touched only at the root (where it doubles as scratch); sendbuf is
 * never written.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"
#include "coll/coll_tree.h"

enum { TAG_FOLD = 1, TAG_HALVING = 2, TAG_GATHER = 3 };

#define MAX_STEPS 32

/* First item of block b of pof2 blocks (balanced: sizes differ by at most one). */
static int
block_start(int b, int count, int pof2)
{
    return (int)((long long)b * count / pof2);
}

/* The block range [lo[i], hi[i]) new rank nr holds before halving step i (i = 0..steps). */
static void
halving_ranges(int nr, int pof2, int steps, int *lo, int *hi)
{
    lo[0] = 0;
    hi[0] = pof2;
    for (int i = 0; i < steps; i++) {
        int mid = (lo[i] + hi[i]) / 2;
        if (nr & (1 << i)) {
            lo[i + 1] = mid;
            hi[i + 1] = hi[i];
        } else {
            lo[i + 1] = lo[i];
            hi[i + 1] = mid;
        }
    }
}

int
coll_reduce_rabenseifner(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                         MPI_Op op, int root, MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc;
    void *mem[2] = {NULL, NULL};
    void *cur = NULL, *other = NULL; /* this rank's partial; the receiving buffer */
    int lo[MAX_STEPS + 1], hi[MAX_STEPS + 1];

    (void)params;
    rc = coll_tree_ranks(comm, root, &rank, &size, NULL);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;

    int pof2 = coll_pof2_floor(size);
    int rem = size - pof2;
    int steps = coll_ceil_log2(pof2);
    int newrank = rank < 2 * rem ? (rank % 2 ? -1 : rank / 2) : rank - rem;
    int root_sits_out = root < 2 * rem && root % 2 == 1;
    int newroot = root_sits_out ? 0 : (root < 2 * rem ? root / 2 : root - rem);

    /* Buffers: the root's recvbuf is one of the two. */
    if (newrank >= 0 || rank == root) {
        cur = rank == root ? recvbuf : coll_tmp_alloc(count, datatype, &mem[0]);
        if (cur == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
    }
    if (newrank >= 0 && steps > 0) {
        other = coll_tmp_alloc(count, datatype, &mem[1]);
        if (other == NULL) {
            rc = MPI_ERR_NO_MEM;
            goto out_free;
        }
    }

    /* Phase 1: odd ranks below 2·rem fold into their even neighbour, x_{r} ∘ x_{r+1}. */
    if (newrank < 0) {
        rc = MPI_Send(sendbuf, count, datatype, rank - 1, TAG_FOLD, comm);
        if (rc != MPI_SUCCESS)
            goto out_free;
    } else if (rank < 2 * rem) {
        rc = MPI_Recv(cur, count, datatype, rank + 1, TAG_FOLD, comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        rc = MPI_Reduce_local(sendbuf, cur, count, datatype, op);
        if (rc != MPI_SUCCESS)
            goto out_free;
    } else {
        rc = coll_copy(sendbuf, cur, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* Phase 2: reduce-scatter by recursive halving among the p' new ranks. */
    if (newrank >= 0) {
        halving_ranges(newrank, pof2, steps, lo, hi);
        for (int i = 0; i < steps; i++) {
            int partner = newrank ^ (1 << i);
            int dst = partner < rem ? 2 * partner : partner + rem;
            /* keep [lo[i+1], hi[i+1]); send the other half of [lo[i], hi[i]) */
            int send_lo = lo[i + 1] == lo[i] ? hi[i + 1] : lo[i];
            int send_hi = lo[i + 1] == lo[i] ? hi[i] : lo[i + 1];
            int keep_first = block_start(lo[i + 1], count, pof2);
            int keep_items = block_start(hi[i + 1], count, pof2) - keep_first;
            int send_first = block_start(send_lo, count, pof2);
            int send_items = block_start(send_hi, count, pof2) - send_first;
            rc = MPI_Sendrecv(coll_item(cur, send_first, datatype), send_items, datatype, dst,
                              TAG_HALVING, coll_item(other, keep_first, datatype), keep_items,
                              datatype, dst, TAG_HALVING, comm, MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
            if (newrank < partner) {
                /* mine ∘ partner's, into the receiving buffer, which becomes cur */
                rc = MPI_Reduce_local(coll_item(cur, keep_first, datatype),
                                      coll_item(other, keep_first, datatype), keep_items, datatype,
                                      op);
                void *t = cur;
                cur = other;
                other = t;
            } else {
                rc = MPI_Reduce_local(coll_item(other, keep_first, datatype),
                                      coll_item(cur, keep_first, datatype), keep_items, datatype,
                                      op);
            }
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    /* Phase 3: if the root sat out, new rank 0 hands it its block and the root stands in. */
    if (root_sits_out) {
        if (newrank == 0) {
            int first = block_start(lo[steps], count, pof2);
            int items = block_start(hi[steps], count, pof2) - first;
            rc = MPI_Send(coll_item(cur, first, datatype), items, datatype, root, TAG_GATHER, comm);
            goto out_free;
        }
        if (rank == root) {
            newrank = 0;
            halving_ranges(0, pof2, steps, lo, hi);
            int first = block_start(lo[steps], count, pof2);
            int items = block_start(hi[steps], count, pof2) - first;
            rc = MPI_Recv(coll_item(cur, first, datatype), items, datatype, 0, TAG_GATHER, comm,
                          MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
    }

    /* Phase 4: binomial gather to newroot, undoing the halving steps in reverse. */
    if (newrank >= 0) {
        for (int i = steps - 1; i >= 0; i--) {
            int mask = 1 << i;
            int partner = newrank ^ mask;
            int dst = partner < rem ? 2 * partner : partner + rem;
            if (partner == 0 && root_sits_out)
                dst = root;
            if (((newrank ^ newroot) & mask) == 0) {
                /* the partner holds the half of [lo[i], hi[i]) that this rank gave away */
                int recv_lo = lo[i + 1] == lo[i] ? hi[i + 1] : lo[i];
                int recv_hi = lo[i + 1] == lo[i] ? hi[i] : lo[i + 1];
                int first = block_start(recv_lo, count, pof2);
                int items = block_start(recv_hi, count, pof2) - first;
                rc = MPI_Recv(coll_item(cur, first, datatype), items, datatype, dst, TAG_GATHER,
                              comm, MPI_STATUS_IGNORE);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            } else {
                int first = block_start(lo[i + 1], count, pof2);
                int items = block_start(hi[i + 1], count, pof2) - first;
                rc = MPI_Send(coll_item(cur, first, datatype), items, datatype, dst, TAG_GATHER,
                              comm);
                goto out_free;
            }
        }
    }

    if (rank == root && cur != recvbuf)
        rc = coll_copy(cur, recvbuf, count, datatype);

out_free:
    free(mem[0]);
    free(mem[1]);
    return rc;
}
