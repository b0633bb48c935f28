/*
 * Alltoall: Bruck's index algorithm (radix 2).
 *
 * Origin:   Bruck, Ho, Kipnis, Upfal & Weathersby 1997; MPICH's MPIR_Alltoall_intra_brucks
 *           (which packs the blocks with an indexed type where collsim copies them into a
 *           scratch buffer: the messages are the same).
 * Requires: nothing (any number of ranks, any datatypes). MPI_IN_PLACE is resolved by the
 *           dispatcher (a copy of recvbuf becomes sendbuf).
 * Cost:     ⌈lg p⌉α + ⌈lg p⌉(p/2)bβ at p = 2^F, b the bytes of one block: fewer messages than
 *           pairwise, each block travelling up to lg p hops.
 * Steps:    1. rotate: slot j of a scratch buffer holds the block for rank (r+j) mod p.
 *           2. in round k = 0 … ⌈lg p⌉-1 rank r sends the slots j whose bit k is set to r + 2^k
 *              and receives the same slots from r - 2^k: a block in slot j travels j ranks
 *              forward in all, to its destination; afterwards slot j holds the block from
 *              rank (r-j) mod p.
 *           3. unrotate: block i of recvbuf is slot (r-i) mod p.
 *           For p = 4: round 0 moves slots 1, 3 one rank on, round 1 moves slots 2, 3 two
 *           ranks on. A call whose blocks have no bytes sends nothing.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLTOALL_BRUCK = 0 };

int
coll_alltoall_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                    int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                    const struct coll_params *params)
{
    int rc, rank, size, tsize;
    void *slots_mem = NULL, *out_mem = NULL, *in_mem = NULL, *slots, *out, *in;

    (void)params;
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

    /* a round moves at most p/2 slots */
    slots = coll_tmp_alloc(size * recvcount, recvtype, &slots_mem);
    out = coll_tmp_alloc(size / 2 * recvcount, recvtype, &out_mem);
    in = coll_tmp_alloc(size / 2 * recvcount, recvtype, &in_mem);
    if (slots == NULL || out == NULL || in == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }

    /* the blocks are copied P log P times: the receive type's layout is read once */
    struct coll_layout lay;
    rc = coll_layout_of(recvtype, &lay);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* 1. rotate */
    rc = coll_alltoall_bruck_rotate(sendbuf, sendcount, sendtype, slots, recvcount, &lay, rank,
                                    size);
    if (rc != MPI_SUCCESS)
        goto out_free;

    /* 2. the rounds: slots with bit k set go 2^k ranks forward */
    for (int bit = 1; bit < size; bit <<= 1) {
        int n = 0;
        for (int j = 1; j < size; j++) {
            if (!(j & bit))
                continue;
            rc = coll_copy_laid(coll_at(slots, (MPI_Aint)j * recvcount, &lay),
                                coll_at(out, (MPI_Aint)n * recvcount, &lay), recvcount, &lay);
            if (rc != MPI_SUCCESS)
                goto out_free;
            n++;
        }
        rc = MPI_Sendrecv(out, n * recvcount, recvtype, (rank + bit) % size, TAG_ALLTOALL_BRUCK, in,
                          n * recvcount, recvtype, (rank - bit + size) % size, TAG_ALLTOALL_BRUCK,
                          comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
        n = 0;
        for (int j = 1; j < size; j++) {
            if (!(j & bit))
                continue;
            rc = coll_copy_laid(coll_at(in, (MPI_Aint)n * recvcount, &lay),
                                coll_at(slots, (MPI_Aint)j * recvcount, &lay), recvcount, &lay);
            if (rc != MPI_SUCCESS)
                goto out_free;
            n++;
        }
    }

    /* 3. unrotate: slot j holds the block from rank - j */
    rc = coll_alltoall_bruck_unrotate(slots, recvbuf, recvcount, &lay, rank, size);
out_free:
    free(in_mem);
    free(out_mem);
    free(slots_mem);
    return rc;
}
