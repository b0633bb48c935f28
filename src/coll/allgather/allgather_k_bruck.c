/*
 * Allgather: k-port Bruck (radix k).
 *
 * Origin:   MPICH's MPIR_Allgather_intra_k_brucks (Bruck et al. 1997 generalised to k-1
 *           partners per round; Open MPI's ompi_coll_base_allgather_intra_k_bruck follows the same
 *           scheme). With k = 2 it sends what allgather_bruck sends.
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4).
 * Requires: nothing (any number of ranks, any datatypes). Handles MPI_IN_PLACE:
 *           sendbuf == MPI_IN_PLACE means the rank's own block is already in place in recvbuf.
 * Cost:     ⌈log_k p⌉ rounds of k-1 messages: ⌈log_k p⌉(k-1)α + (p-1)nβ on a one-port model
 *           (n the bytes of one block); the k-1 messages of a round are posted together.
 * Steps:    a scratch buffer holds the blocks rotated so that the own block comes first: slot
 *           j holds block (r+j) mod p. In round i (d = k^i, while d < p) rank r sends its
 *           first c_j slots to r - j·d and receives c_j slots from r + j·d into slots j·d …,
 *           for j = 1 … k-1 while j·d < p, c_j = min(d, p - j·d), all posted and then waited
 *           for. Then slot j is copied to block (r+j) mod p of recvbuf. For p = 5, k = 3,
 *           rank 0's slots: [0] -> [0 1 2] (from 1 and 2) -> [0 1 2 3 4] (slots 3, 4 from 3).
 *
 * coll_allgather_k_bruck_blocks serves allgatherv too (the slots packed back to back; a
 * message of no bytes is not sent, both ends knowing its size).
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_blocks.h"
#include "coll/coll_util.h"

enum { TAG_ALLGATHER_K_BRUCK = 0 };

int
coll_allgather_k_bruck_blocks(const struct coll_blocks *own, const struct coll_blocks *recv,
                              int radix, int tag, MPI_Comm comm)
{
    int rc, rank, size, done;
    struct coll_slots s;
    MPI_Datatype type = recv->type;
    MPI_Request *reqs = NULL;

    if (radix < 2)
        return MPI_ERR_ARG;
    rc = coll_slots_open(own, recv, 1, comm, &rank, &size, &s, &done);
    if (rc == MPI_SUCCESS && !done) {
        /* a round has at most min(k, p) - 1 partners, two requests each */
        reqs = malloc(sizeof *reqs * 2 * (size_t)((radix < size ? radix : size) - 1));
        if (reqs == NULL)
            rc = MPI_ERR_NO_MEM;
    }
    for (long long d = 1; d < size && rc == MPI_SUCCESS && !done; d *= radix) {
        int nreq = 0;
        for (int j = 1; j < radix && j * d < size && rc == MPI_SUCCESS; j++) {
            int first = (int)(j * d);
            int n = (int)(d <= size - first ? d : size - first);
            int from = (int)((rank + first) % size);
            int to = (int)((rank - first + size) % size);
            int rcount = s.start[first + n] - s.start[first];
            if (rcount > 0) {
                rc = MPI_Irecv(coll_item(s.tmp, s.start[first], type), rcount, type, from, tag,
                               comm, &reqs[nreq]);
                nreq += rc == MPI_SUCCESS;
            }
            if (rc == MPI_SUCCESS && s.start[n] > 0) {
                rc = MPI_Isend(s.tmp, s.start[n], type, to, tag, comm, &reqs[nreq]);
                nreq += rc == MPI_SUCCESS;
            }
        }
        /* even after an error: no request may leak */
        if (nreq > 0) {
            int wrc = MPI_Waitall(nreq, reqs, MPI_STATUSES_IGNORE);
            if (rc == MPI_SUCCESS)
                rc = wrc;
        }
    }
    free(reqs);
    return coll_slots_close(rc, own, recv, rank, size, &s);
}

int
coll_allgather_k_bruck(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype, MPI_Comm comm,
                       const struct coll_params *params)
{
    struct coll_blocks own = coll_blocks_uniform(sendbuf, sendcount, sendtype);
    struct coll_blocks recv = coll_blocks_uniform(recvbuf, recvcount, recvtype);

    int radix = params != NULL && params->radix >= 2 ? params->radix : 4;

    return coll_allgather_k_bruck_blocks(&own, &recv, radix, TAG_ALLGATHER_K_BRUCK, comm);
}
