/*
 * Allreduce: Rabenseifner's algorithm — reduce-scatter by recursive halving, then allgather
 * by recursive doubling; ranks beyond the largest power of two are folded first.
 *
 * Origin:   Rabenseifner 2004; MPICH's MPIR_Allreduce_intra_reduce_scatter_allgather
 *           (Thakur, Rabenseifner & Gropp 2005), with its handling of a non-power-of-two p.
 * Requires: count >= p (the vector is cut into pof2 blocks; with fewer items than ranks
 *           the result is still right, but ranks idle). No commutative op: unlike MPICH's
 *           version, which combines received ∘ own whichever partner is lower, this one keeps
 *           rank order. A partial result always covers a contiguous range of ranks (the
 *           survivors' newranks are in rank order, the partners of mask m are aligned groups
 *           of 2m), and the two halves of an exchange are combined lower range ∘ upper range.
 *           Each block is reduced at one rank only and then copied, so all ranks hold
 *           bitwise-identical results.
 * Cost:     p a power of two: 2 lg p α + 2((p-1)/p)nβ + ((p-1)/p)nγ;
 *           otherwise (2⌊lg p⌋ + 2)α + (2((p-1)/p) + 2)nβ + (1 + (p-1)/p)nγ.
 * Blocks:   pof2 blocks of ⌊count/pof2⌋ items, the first count mod pof2 one item longer.
 * Steps (pof2 = 4, blocks b0..b3; after the fold of the first 2·rem ranks as in
 * allreduce_recursive_doubling.c, newranks 0..3):
 *
 *     halving  mask 1: 0 <-> 1, 2 <-> 3   the lower keeps b0 b1, the upper b2 b3
 *              mask 2: 0 <-> 2, 1 <-> 3   within the kept half, lower keeps its first block
 *              now newrank 0 owns b0, 2 owns b1, 1 owns b2, 3 owns b3, fully reduced
 *     doubling mask 2: 0 <-> 2, 1 <-> 3   exchange owned blocks, then mask 1: 0 <-> 1, 2 <-> 3
 *     unfold:  odd ranks below 2·rem send the whole result to their even neighbour
 */
#include "coll/coll_algos.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

#define TAG_FOLD 12
#define TAG_HALVING 13
#define TAG_DOUBLING 14
#define TAG_UNFOLD 15

/* The pof2 survivors' part: reduce-scatter by recursive halving, then allgather by recursive
 * doubling, on blocks of recvbuf; the partner's blocks arrive in `tmp`. */
static int
halve_double(const struct coll_fold_pof2 *f)
{
    void *recvbuf = f->recvbuf, *tmp = f->scratch;
    int count = f->count, pof2 = f->pof2, rem = f->rem, newrank = f->newrank;
    MPI_Datatype datatype = f->datatype;
    int rc, send_idx = 0, recv_idx = 0, last_idx = pof2, mask;

    /* Reduce-scatter by recursive halving: keep one half of the current range of
     * blocks, send the other, combine the partner's copy of the kept half. */
    for (mask = 1; mask < pof2; mask <<= 1) {
        int newdst = newrank ^ mask, dst = coll_fold_survivor(newdst, rem);
        int send_first, send_end, recv_first, recv_end;
        if (newrank < newdst) {
            send_idx = recv_idx + pof2 / (mask * 2);
            send_first = send_idx, send_end = last_idx;
            recv_first = recv_idx, recv_end = send_idx;
        } else {
            recv_idx = send_idx + pof2 / (mask * 2);
            send_first = send_idx, send_end = recv_idx;
            recv_first = recv_idx, recv_end = last_idx;
        }
        int send_at = coll_fold_block_start(count, pof2, send_first);
        int recv_at = coll_fold_block_start(count, pof2, recv_first);
        int send_cnt = coll_fold_block_start(count, pof2, send_end) - send_at;
        int recv_cnt = coll_fold_block_start(count, pof2, recv_end) - recv_at;
        void *own = coll_item(recvbuf, recv_at, datatype);
        void *theirs = coll_item(tmp, recv_at, datatype);
        rc = MPI_Sendrecv(coll_item(recvbuf, send_at, datatype), send_cnt, datatype, dst,
                          TAG_HALVING, theirs, recv_cnt, datatype, dst, TAG_HALVING, f->comm,
                          MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (dst < f->rank) {
            rc = MPI_Reduce_local(theirs, own, recv_cnt, datatype, f->op);
        } else {
            rc = MPI_Reduce_local(own, theirs, recv_cnt, datatype, f->op);
            if (rc == MPI_SUCCESS)
                rc = coll_copy(theirs, own, recv_cnt, datatype);
        }
        if (rc != MPI_SUCCESS)
            return rc;
        send_idx = recv_idx;
        if (mask * 2 < pof2)
            last_idx = recv_idx + pof2 / (mask * 2);
    }

    /* Allgather by recursive doubling: the same pairs in reverse order, each sending
     * the range it owns and receiving the partner's next to it. */
    for (mask >>= 1; mask > 0; mask >>= 1) {
        int newdst = newrank ^ mask, dst = coll_fold_survivor(newdst, rem);
        int send_first, send_end, recv_first, recv_end;
        if (newrank < newdst) {
            if (mask != pof2 / 2)
                last_idx = last_idx + pof2 / (mask * 2);
            recv_idx = send_idx + pof2 / (mask * 2);
            send_first = send_idx, send_end = recv_idx;
            recv_first = recv_idx, recv_end = last_idx;
        } else {
            recv_idx = send_idx - pof2 / (mask * 2);
            send_first = send_idx, send_end = last_idx;
            recv_first = recv_idx, recv_end = send_idx;
        }
        int send_at = coll_fold_block_start(count, pof2, send_first);
        int recv_at = coll_fold_block_start(count, pof2, recv_first);
        rc = MPI_Sendrecv(coll_item(recvbuf, send_at, datatype),
                          coll_fold_block_start(count, pof2, send_end) - send_at, datatype, dst,
                          TAG_DOUBLING, coll_item(recvbuf, recv_at, datatype),
                          coll_fold_block_start(count, pof2, recv_end) - recv_at, datatype, dst,
                          TAG_DOUBLING, f->comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return rc;
        if (newrank > newdst)
            send_idx = recv_idx;
    }
    return MPI_SUCCESS;
}

/* Fold: even ranks below 2·rem give their data to the odd neighbour above; unfold: the odd
 * ranks send the result back to the even ones. */
int
coll_allreduce_rabenseifner(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm, const struct coll_params *params)
{
    (void)params;
    return coll_fold_pof2_allreduce(sendbuf, recvbuf, count, datatype, op, comm, TAG_FOLD,
                                    TAG_UNFOLD, halve_double);
}
