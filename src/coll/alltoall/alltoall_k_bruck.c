/*
 * Alltoall: Bruck's index algorithm of radix k.
 *
 * Origin:   MPICH's MPIR_Alltoall_intra_k_brucks (radix MPIR_CVAR_ALLTOALL_BRUCKS_KVAL, 2 by
 *           default, which is collsim's "bruck"); Bruck, Ho, Kipnis, Upfal & Weathersby 1997
 *           give the radix-k form. collsim copies the blocks of a message into a scratch
 *           buffer where MPICH packs them: the messages are the same.
 * Requires: nothing (any number of ranks, any datatypes); radix k >= 2 (COLL_RADIX, default
 *           4). MPI_IN_PLACE is resolved by the dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     ⌈log_k p⌉(k-1)α + ⌈log_k p⌉(k-1)(p/k)bβ at p = k^F, b the bytes of one block:
 *           fewer rounds than radix 2, each with k-1 messages posted together.
 * Steps:    1. rotate: slot j of a scratch buffer holds the block for rank (r+j) mod p.
 *           2. in round i (δ = k^i < p), for each digit d = 1 … k-1 rank r sends the slots j
 *              whose base-k digit i is d to r + dδ and receives the same slots from r - dδ;
 *              the k-1 receives and sends of a round are posted together, then one
 *              MPI_Waitall. A block in slot j travels j ranks forward in all, digit by digit;
 *              afterwards slot j holds the block from rank (r-j) mod p.
 *           3. unrotate: block i of recvbuf is slot (r-i) mod p.
 *           For p = 9, k = 3: round 0 sends slots 1, 4, 7 to r+1 and 2, 5, 8 to r+2; round 1
 *           sends slots 3, 4, 5 to r+3 and 6, 7, 8 to r+6. A call whose blocks have no bytes
 *           sends nothing.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_K_BRUCK = 0 };

/* Copy the slots whose digit (j / delta) mod k is d between `slots` and `packed` (at item
 * *offset onwards): to_packed packs them, else unpacks. *n receives how many there were. */
static int
move_digit(void *slots, void *packed, int to_packed, int size, int delta, int k, int d, int count,
           const struct coll_layout *lay, int offset, int *n)
{
    int rc = MPI_SUCCESS;

    *n = 0;
    for (int j = 1; j < size && rc == MPI_SUCCESS; j++) {
        void *slot, *item;
        if ((j / delta) % k != d)
            continue;
        slot = coll_at(slots, (MPI_Aint)j * count, lay);
        item = coll_at(packed, (MPI_Aint)(offset + *n) * count, lay);
        rc = to_packed ? coll_copy_laid(slot, item, count, lay)
                       : coll_copy_laid(item, slot, count, lay);
        (*n)++;
    }
    return rc;
}

int
coll_alltoall_k_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                      int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                      const struct coll_params *params)
{
    int rc, rank, size, tsize, k, nreq;
    void *slots_mem = NULL, *out_mem = NULL, *in_mem = NULL, *slots, *out, *in;
    MPI_Request *reqs = NULL;

    k = params != NULL && params->radix >= 2 ? params->radix : 4;
    rc = coll_rank_size(comm, &rank, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Type_size(recvtype, &tsize);
    if (rc != MPI_SUCCESS)
        return rc;
    if (size == 1 || recvcount == 0 || tsize == 0)
        return coll_copy_typed(coll_citem(sendbuf, (MPI_Aint)rank * sendcount, sendtype), sendcount,
                               sendtype, coll_item(recvbuf, (MPI_Aint)rank * recvcount, recvtype),
                               recvcount, recvtype);
    if (k > size)
        k = size; /* digits above p-1 select no slot */

    /* a round moves each of the p-1 slots at most once */
    slots = coll_tmp_alloc(size * recvcount, recvtype, &slots_mem);
    out = coll_tmp_alloc((size - 1) * recvcount, recvtype, &out_mem);
    in = coll_tmp_alloc((size - 1) * recvcount, recvtype, &in_mem);
    reqs = malloc(sizeof *reqs * (size_t)(2 * (k - 1)));
    if (slots == NULL || out == NULL || in == NULL || reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }

    /* the blocks are copied P log P times: the receive type's layout is read once */
    struct coll_layout lay;
    rc = coll_layout_of(recvtype, &lay);

    /* 1. rotate */
    if (rc == MPI_SUCCESS)
        rc = coll_alltoall_bruck_rotate(sendbuf, sendcount, sendtype, slots, recvcount, &lay, rank,
                                        size);

    /* 2. the rounds: slots with digit d at position i go d·k^i ranks forward */
    for (long long delta = 1; delta < size && rc == MPI_SUCCESS; delta *= k) {
        int offset = 0, n, wrc;
        nreq = 0;
        for (int d = 1; d < k && rc == MPI_SUCCESS; d++) {
            rc = move_digit(slots, out, 1, size, (int)delta, k, d, recvcount, &lay, offset, &n);
            if (rc != MPI_SUCCESS || n == 0)
                continue;
            rc = MPI_Irecv(coll_item(in, (MPI_Aint)offset * recvcount, recvtype), n * recvcount,
                           recvtype, (int)((rank - d * delta) % size + size) % size,
                           TAG_ALLTOALL_K_BRUCK, comm, &reqs[nreq++]);
            if (rc == MPI_SUCCESS)
                rc = MPI_Isend(coll_item(out, (MPI_Aint)offset * recvcount, recvtype),
                               n * recvcount, recvtype, (int)((rank + d * delta) % size),
                               TAG_ALLTOALL_K_BRUCK, comm, &reqs[nreq++]);
            offset += n;
        }
        /* also after an error, so that no request is left behind */
        wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = wrc;
        offset = 0;
        for (int d = 1; d < k && rc == MPI_SUCCESS; d++) {
            rc = move_digit(slots, in, 0, size, (int)delta, k, d, recvcount, &lay, offset, &n);
            offset += n;
        }
    }

    /* 3. unrotate: slot j holds the block from rank - j */
    if (rc == MPI_SUCCESS)
        rc = coll_alltoall_bruck_unrotate(slots, recvbuf, recvcount, &lay, rank, size);
out_free:
    free(reqs);
    free(in_mem);
    free(out_mem);
    free(slots_mem);
    return rc;
}
