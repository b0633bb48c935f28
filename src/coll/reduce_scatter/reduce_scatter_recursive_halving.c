/*
 * Reduce_scatter: recursive halving (commutative ops).
 *
 * Origin:   MPICH's MPIR_Reduce_scatter_intra_recursive_halving (Thakur, Rabenseifner & Gropp
 *           2005), including its non-power-of-two handling.
 * Requires: commutative op: each half is reduced with whatever the partner holds, received
 *           operand first, whichever side of the partner the rank is. Handles MPI_IN_PLACE.
 * Cost:     p a power of two: lgp·α + n·((p-1)/p)·(β + γ);
 *           otherwise about (⌊lgp⌋ + 2)·α + n·(1 + (p-1)/p)·(β + γ) (n = sum of recvcounts).
 * Steps:    let p' be the largest power of two <= p and rem = p - p'.
 *           1. the even ranks below 2·rem send their whole vector to rank+1, which reduces it
 *              (lower rank first, so this step alone keeps order) and takes the even rank's
 *              block as well; the p' remaining ranks are renumbered 0..p'-1.
 *           2. with mask = p'/2, p'/4, ..., 1: newrank exchanges with newrank ^ mask; the lower
 *              one keeps the lower half of its current window of blocks and sends the upper,
 *              the upper one the converse; each reduces what it received into what it kept.
 *                 p' = 4, blocks B0..B3:
 *                 mask 2:  0 <-> 2 (0 keeps B0 B1, 2 keeps B2 B3),  1 <-> 3 (likewise)
 *                 mask 1:  0 <-> 1 (0 keeps B0, 1 keeps B1),  2 <-> 3 (2 keeps B2, 3 B3)
 *           3. each rank rank+1 of step 1 sends the even rank its finished block.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_fold.h"
#include "coll/coll_util.h"

enum { TAG_RS_HALVING = 0 };

int
coll_reduce_scatter_recursive_halving(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                                      const struct coll_params *params)
{
    int rank, size, total, rc, pof2, rem, newrank;
    int *displs, *newcnts = NULL, *newdispls = NULL;
    void *results = NULL, *results_mem = NULL, *incoming = NULL, *incoming_mem = NULL;
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;

    (void)params;
    rc = coll_fold_block_displs(recvcounts, comm, &rank, &size, &displs, &total);
    if (rc != MPI_SUCCESS || total == 0)
        goto out_free;

    pof2 = coll_pof2_floor(size);
    newcnts = malloc(sizeof *newcnts * (size_t)pof2);
    newdispls = malloc(sizeof *newdispls * (size_t)pof2);
    if (newcnts == NULL || newdispls == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    rc = coll_fold_working_copy(input, total, total, datatype, &results, &results_mem, &incoming,
                                &incoming_mem);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* Step 1: fold the first 2·rem ranks pairwise, the even one into the odd one. */
    rem = size - pof2;
    rc = coll_fold_pof2_in(results, incoming, total, datatype, op, rank, rem, TAG_RS_HALVING, comm,
                           &newrank);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* Step 2: recursive halving among the pof2 renumbered ranks. */
    if (newrank != -1) {
        for (int i = 0; i < pof2; i++) {
            int old = coll_fold_survivor(i, rem);
            newcnts[i] = recvcounts[old] + (old < 2 * rem ? recvcounts[old - 1] : 0);
        }
        newdispls[0] = 0;
        for (int i = 1; i < pof2; i++)
            newdispls[i] = newdispls[i - 1] + newcnts[i - 1];

        int send_idx = 0, recv_idx = 0, last_idx = pof2;
        for (int mask = pof2 >> 1; mask > 0; mask >>= 1) {
            int newdst = newrank ^ mask;
            int dst = coll_fold_survivor(newdst, rem);
            int send_cnt = 0, recv_cnt = 0;
            if (newrank < newdst) {
                send_idx = recv_idx + mask;
                for (int i = send_idx; i < last_idx; i++)
                    send_cnt += newcnts[i];
                for (int i = recv_idx; i < send_idx; i++)
                    recv_cnt += newcnts[i];
            } else {
                recv_idx = send_idx + mask;
                for (int i = send_idx; i < recv_idx; i++)
                    send_cnt += newcnts[i];
                for (int i = recv_idx; i < last_idx; i++)
                    recv_cnt += newcnts[i];
            }
            void *send_at = coll_item(results, newdispls[send_idx], datatype);
            void *recv_at = coll_item(incoming, newdispls[recv_idx], datatype);
            /* Partners agree on both counts, so empty halves are skipped on both sides. */
            if (send_cnt != 0 && recv_cnt != 0)
                rc = MPI_Sendrecv(send_at, send_cnt, datatype, dst, TAG_RS_HALVING, recv_at,
                                  recv_cnt, datatype, dst, TAG_RS_HALVING, comm, MPI_STATUS_IGNORE);
            else if (send_cnt != 0)
                rc = MPI_Send(send_at, send_cnt, datatype, dst, TAG_RS_HALVING, comm);
            else if (recv_cnt != 0)
                rc = MPI_Recv(recv_at, recv_cnt, datatype, dst, TAG_RS_HALVING, comm,
                              MPI_STATUS_IGNORE);
            if (rc != MPI_SUCCESS)
                goto out_free;
            if (recv_cnt != 0) {
                /* received first whatever the partner's side: the commutative requirement */
                rc = MPI_Reduce_local(recv_at, coll_item(results, newdispls[recv_idx], datatype),
                                      recv_cnt, datatype, op);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            send_idx = recv_idx;
            last_idx = recv_idx + mask;
        }
        rc = coll_copy(coll_item(results, displs[rank], datatype), recvbuf, recvcounts[rank],
                       datatype);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }

    /* Step 3: the odd ranks below 2·rem hand the even ones their blocks. */
    int even = rank - rank % 2;   /* the rank of my pair whose block travels */
    rc = coll_fold_pof2_out(coll_item(results, displs[even], datatype), recvbuf,
                            recvcounts[even], datatype, rank, rem, TAG_RS_HALVING, comm);
out_free:
    free(newdispls);
    free(newcnts);
    free(incoming_mem);
    free(results_mem);
    free(displs);
    return rc;
}
