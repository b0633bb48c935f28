/*
 * Allreduce: binomial reduce to rank 0, then binomial broadcast from rank 0 (Open MPI's
 * "nonoverlapping": the two halves run one after the other, never overlapped).
 *
 * Origin:   Open MPI coll/base ompi_coll_base_allreduce_intra_nonoverlapping (a reduce to rank
 *           0 followed by a bcast from rank 0, both through the communicator's own reduce and
 *           bcast; here the binomial ones).
 * Requires: nothing. Order-preserving: coll_reduce_binomial rooted at rank 0 folds each node's
 *           subtree, a contiguous ascending rank range, as own ∘ child_1 ∘ child_2 ∘ …; every
 *           rank then receives rank 0's bits, so all results are bitwise identical.
 *           Handles MPI_IN_PLACE (rank 0's input is copied out of recvbuf first, since the
 *           binomial reduce uses recvbuf at its root as scratch).
 * Cost:     ⌈lg P⌉(α + nβ + nγ) up, then ⌈lg P⌉(α + nβ) down.
 * Steps (P = 5):
 *
 *     reduce:  1 -> 0, 3 -> 2;  2 -> 0;  4 -> 0      (0 folds ((x0 ∘ x1) ∘ (x2 ∘ x3)) ∘ x4)
 *     bcast:   0 -> 4;  0 -> 2;  0 -> 1, 2 -> 3
 */
#include <stdlib.h>

#include "mpi.h"
#include "coll/coll.h"
#include "coll/coll_algos.h"
#include "coll/coll_util.h"

int
coll_allreduce_nonoverlapping(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              const struct coll_params *params)
{
    int rank, size, rc = MPI_Comm_size(comm, &size);
    void *input_mem = NULL;
    const void *input = sendbuf;

    if (rc != MPI_SUCCESS)
        return rc;
    rc = MPI_Comm_rank(comm, &rank);
    if (rc != MPI_SUCCESS || count == 0)
        return rc;
    if (size == 1)
        return sendbuf == MPI_IN_PLACE ? MPI_SUCCESS : coll_copy(sendbuf, recvbuf, count, datatype);

    if (sendbuf == MPI_IN_PLACE && rank == 0) {
        void *copy = coll_tmp_alloc(count, datatype, &input_mem);
        if (copy == NULL)
            return MPI_ERR_NO_MEM;
        rc = coll_copy(recvbuf, copy, count, datatype);
        if (rc != MPI_SUCCESS)
            goto out_free_input;
        input = copy;
    } else if (sendbuf == MPI_IN_PLACE) {
        input = recvbuf; /* the reduce touches recvbuf at its root only */
    }

    rc = coll_reduce_binomial(input, recvbuf, count, datatype, op, 0, comm, params);
    if (rc != MPI_SUCCESS)
        goto out_free_input;
    rc = coll_bcast_binomial(recvbuf, count, datatype, 0, comm, params);

out_free_input:
    free(input_mem);
    return rc;
}
