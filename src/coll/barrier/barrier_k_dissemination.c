/*
 * Barrier: k-dissemination (the dissemination barrier with radix k: k-1 partners per round).
 *
 * Origin:   MPICH's MPIR_Barrier_intra_k_dissemination (MPIR_CVAR_BARRIER_INTRA_ALGORITHM
 *           = k_dissemination, radix MPIR_CVAR_BARRIER_DISSEM_KVAL).
 * Requires: nothing (any number of ranks).
 * Params:   radix k (>= 2; the row's default, and the value without params, is 4; MPICH's
 *           default is 2, the plain dissemination barrier). k is cut to p.
 * Cost:     ⌈log_k p⌉ rounds, each (k-1) empty messages out and in at once: ⌈log_k p⌉α (plus
 *           k-1 message injections per round).
 * Steps:    in round i (shift = k^i) rank r sends to r + j·shift and receives from
 *           r - j·shift (mod p), j = 1 … k-1. Its receives of round i are posted before it
 *           waits for those of round i-1; its sends of round i leave once those have
 *           arrived. For p = 9, k = 3, rank 0:
 *
 *     round 0 (shift 1):  0 -> 1, 0 -> 2      0 <- 8, 0 <- 7
 *     round 1 (shift 3):  0 -> 3, 0 -> 6      0 <- 6, 0 <- 3
 *
 * With k = 2 (after the cut) it is the registry's dissemination barrier, one MPI_Sendrecv per
 * round, as MPICH falls back to it.
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"

enum { TAG_K_DISSEMINATION = 8 };

int
coll_barrier_k_dissemination(MPI_Comm comm, const struct coll_params *params)
{
    int rank, size, rc, k = params != NULL && params->radix >= 2 ? params->radix : 4;
    MPI_Request *recv_reqs, *send_reqs;
    int nphases = 0;

    rc = MPI_Comm_rank(comm, &rank);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS || size < 2)
        return rc;
    if (k > size)
        k = size;
    if (k == 2) {
        for (int shift = 1; shift < size && rc == MPI_SUCCESS; shift *= 2)
            rc = MPI_Sendrecv(NULL, 0, MPI_BYTE, (rank + shift) % size, TAG_K_DISSEMINATION,
                              NULL, 0, MPI_BYTE, (rank - shift + size) % size,
                              TAG_K_DISSEMINATION, comm, MPI_STATUS_IGNORE);
        return rc;
    }
    for (long long p_of_k = 1; p_of_k < size; p_of_k *= k)
        nphases++;

    /* two rounds' receives: a round's are posted while the previous round's are pending */
    recv_reqs = malloc(sizeof *recv_reqs * 2 * (size_t)(k - 1));
    send_reqs = malloc(sizeof *send_reqs * (size_t)(k - 1));
    if (recv_reqs == NULL || send_reqs == NULL) {
        rc = MPI_ERR_NO_MEM;
        goto out_free;
    }
    long long shift = 1;
    for (int i = 0; i < nphases; i++, shift *= k) {
        MPI_Request *now = recv_reqs + (k - 1) * (i & 1);
        MPI_Request *before = recv_reqs + (k - 1) * ((i - 1) & 1);
        for (int j = 1; j < k; j++) {
            int to = (int)((rank + j * shift) % size);
            int from = (int)(((rank - j * shift) % size + size) % size);
            rc = MPI_Irecv(NULL, 0, MPI_BYTE, from, TAG_K_DISSEMINATION, comm, &now[j - 1]);
            if (rc != MPI_SUCCESS)
                goto out_free;
            if (i > 0 && j == 1) {
                rc = MPI_Waitall(k - 1, before, MPI_STATUSES_IGNORE);
                if (rc != MPI_SUCCESS)
                    goto out_free;
            }
            rc = MPI_Isend(NULL, 0, MPI_BYTE, to, TAG_K_DISSEMINATION, comm, &send_reqs[j - 1]);
            if (rc != MPI_SUCCESS)
                goto out_free;
        }
        rc = MPI_Waitall(k - 1, send_reqs, MPI_STATUSES_IGNORE);
        if (rc != MPI_SUCCESS)
            goto out_free;
    }
    rc = MPI_Waitall(k - 1, recv_reqs + (k - 1) * ((nphases - 1) & 1), MPI_STATUSES_IGNORE);
out_free:
    free(recv_reqs);
    free(send_reqs);
    return rc;
}
